/**
 * `backpack bless`: write the figures of a results folder into the regression file, and append one
 * dated line to its log, `<file>.log.md` beside it:
 *
 *   YYYY-MM-DD <git commit (12) or -> <catalog sha256 (12)> <reason>
 *
 * The date is UTC; the commit is the HEAD of the git checkout the regression file lives in (the
 * commit the new figures are measured against), `-` outside one.
 *
 * Which strategies: `--strategies a,b` (added to the file if new); otherwise, for an existing file,
 * the strategies it already has that the results carry; for a new file, every strategy of the
 * results. Which figures: those the file already lists for the strategy (a figure the results
 * lack keeps its old value, with a warning); for a strategy new to the file, {@link defaultFigureKeys}.
 *
 * Which tolerances (`tolerance.ts` has the rule per kind of figure), for each figure blessed:
 * a `--tolerance` entry matching it (`auto`: the rule's, replacing the file's); otherwise the
 * tolerance the file already has for it is kept; otherwise none when the file has
 * `defaults.tolerance` (the person who wrote it chose); otherwise the rule's.
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { writeFileAtomic, writeFileNamed } from '../util/atomic-write.ts';
import { InputError, setting } from '../util/errors.ts';
import { didYouMean } from '../util/suggest.ts';
import { readRunDir } from '../eval/files.ts';
import type { Results } from '../eval/results.ts';
import { DEFAULT_TOKEN_FIGURES, figureValue, parseFigure, strategyNames, strategyOrigin } from './figures.ts';
import { blessedText, formatOf, parseRegression, readRegressionFile, type BlessUpdate } from './file.ts';
import type { Tolerance } from './schema.ts';
import { blessTolerance, overrideFor, type ToleranceOverride } from './tolerance.ts';

export interface BlessOptions {
  results: string;
  expect: string;
  reason?: string;
  strategies?: readonly string[];
  /** `--tolerance` entries (last match wins). */
  tolerances?: readonly ToleranceOverride[];
  /** The date of the log line (default now). */
  now?: Date;
  /** The commit for the log line (default: HEAD of the file's checkout, `null` for `-`). */
  gitSha?: string | null;
}

export interface BlessReport {
  file: string;
  created: boolean;
  /** Strategy → figure keys written. */
  written: Record<string, string[]>;
  /** Strategy → figure → tolerance written (new, recomputed or given with --tolerance). */
  tolerances: Record<string, Record<string, Tolerance>>;
  logFile: string;
  logLine: string;
  warnings: string[];
}

/** The log beside a regression file. */
export function logFileOf(expect: string): string {
  return `${expect}.log.md`;
}

/**
 * The figures bless pins for a strategy new to the file: top1, recall@k at the run's cut-offs,
 * mrr@10, ndcg@10, visible (profiles), noToolFalsePositiveRate, scopeLeakCount and the `cases`
 * count as a sanity figure, those the strategy has; for profiles also tokens.beforeSearch,
 * tokens.perSearch, tokens.session12Uncached and tokens.session12Cached.
 */
export function defaultFigureKeys(r: Results, strategy: string): string[] {
  const wanted = new Set([
    'top1',
    ...r.config.ks.map((k) => `recall@${k}`),
    'mrr@10',
    'ndcg@10',
    'visible',
    'noToolFalsePositiveRate',
    'scopeLeakCount',
    'cases',
  ]);
  const overall = r.retrievers[strategy]?.metrics.overall ?? r.profiles?.[strategy]?.metrics.overall ?? {};
  const keys = Object.keys(overall).filter((k) => wanted.has(k));
  if (r.profiles && Object.prototype.hasOwnProperty.call(r.profiles, strategy)) {
    for (const f of DEFAULT_TOKEN_FIGURES) if (figureValue(r, strategy, parseFigure(`tokens.${f}`)) !== undefined) keys.push(`tokens.${f}`);
  }
  return keys;
}

function headCommit(dir: string): string | null {
  try {
    return execFileSync('git', ['-C', dir, 'rev-parse', '--short=12', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() || null;
  } catch {
    return null;
  }
}

/** Bless: see the module comment. Throws `InputError` without a reason, on a bad file or folder, or an unknown strategy. */
export function bless(opts: BlessOptions): BlessReport {
  const reason = opts.reason?.trim();
  if (reason === undefined || reason === '')
    throw new InputError(`${setting('reason')} is required: say why the expected figures change (it goes into the log)`);
  if (/[\r\n]/.test(reason)) throw new InputError(`${setting('reason')} must be one line (it becomes one line of the log)`);
  formatOf(opts.expect);
  if (!existsSync(dirname(resolve(opts.expect)))) throw new InputError('the folder of the regression file does not exist', { file: opts.expect });
  const run = readRunDir(opts.results);
  const r = run.results;
  const existing = existsSync(opts.expect) ? readRegressionFile(opts.expect) : undefined;
  const inResults = strategyNames(r);
  const warnings: string[] = [];

  let names: string[];
  if (opts.strategies?.length) {
    names = [...new Set(opts.strategies)];
    for (const n of names)
      if (!inResults.includes(n))
        throw new InputError(`${setting('strategies')}: "${n}" is not in the results (${inResults.join(', ')})${didYouMean(n, inResults)}`, {
          file: opts.results,
        });
  } else if (existing) {
    const inFile = Object.keys(existing.spec.strategies);
    names = inFile.filter((n) => inResults.includes(n));
    for (const n of inFile) if (!inResults.includes(n)) warnings.push(`strategy "${n}" is not in the results: its figures are kept as they were`);
    if (!names.length)
      throw new InputError(
        `none of the file's strategies (${inFile.join(', ')}) is in the results (${inResults.join(', ')}); name new ones with ${setting('strategies')}`,
        { file: opts.results },
      );
  } else {
    names = inResults;
  }
  if (existing && existing.spec.dataset.catalogSha256 !== r.dataset.catalogSha256) {
    const others = Object.keys(existing.spec.strategies).filter((n) => !names.includes(n));
    if (others.length) warnings.push(`the file's catalog sha256 changes to the results' one, but ${others.join(', ')} keep figures blessed on the old catalog`);
  }

  if (existing?.spec.dataset.casesSha256 !== undefined && r.dataset.casesSha256 !== undefined && existing.spec.dataset.casesSha256 !== r.dataset.casesSha256) {
    const others = Object.keys(existing.spec.strategies).filter((n) => !names.includes(n));
    if (others.length) warnings.push(`the file's cases sha256 changes to the results' one, but ${others.join(', ')} keep figures blessed on the old cases`);
  }
  const update: BlessUpdate = {
    dataset: {
      name: r.dataset.name,
      catalogSha256: r.dataset.catalogSha256,
      ...(r.dataset.casesSha256 !== undefined ? { casesSha256: r.dataset.casesSha256 } : {}),
    },
    strategies: {},
    tolerances: {},
  };
  const written: Record<string, string[]> = {};
  const overrides = opts.tolerances ?? [];
  const used = new Set<ToleranceOverride>();
  const hasDefaults = existing?.spec.defaults?.tolerance !== undefined;
  for (const name of names) {
    const keys = existing?.spec.strategies[name] ? Object.keys(existing.spec.strategies[name].figures) : defaultFigureKeys(r, name);
    const figs: Record<string, number> = {};
    const tols: Record<string, Tolerance> = {};
    const inFile = existing?.spec.strategies[name]?.tolerance ?? {};
    for (const key of keys) {
      const figure = parseFigure(key);
      const v = figureValue(r, name, figure);
      if (v === undefined) {
        warnings.push(`${name} ${key} is not in the results: its expected value is kept`);
        continue;
      }
      figs[key] = v;
      const o = overrideFor(overrides, key);
      if (o) used.add(o);
      let tol: Tolerance | null = null;
      if (o && o.tolerance !== 'auto') {
        if (key === 'scopeLeakCount') {
          if (!o.pattern.includes('*')) warnings.push(`--tolerance ${o.pattern}: scopeLeakCount tolerates nothing; not written`);
        } else tol = o.tolerance;
      } else if (o || (!Object.prototype.hasOwnProperty.call(inFile, key) && !hasDefaults)) {
        tol = blessTolerance(r, name, figure, v);
      }
      if (tol) tols[key] = tol;
    }
    if (figs.scopeLeakCount !== undefined && figs.scopeLeakCount > 0)
      warnings.push(`${name} leaks ${figs.scopeLeakCount} tools out of scope: the gate fails on any leak whatever the file expects`);
    update.strategies[name] = figs;
    const origin = strategyOrigin(r, name);
    if (origin) (update.origins ??= {})[name] = origin;
    if (Object.keys(tols).length) update.tolerances![name] = tols;
    written[name] = Object.keys(figs);
  }
  for (const o of overrides) if (!used.has(o)) warnings.push(`--tolerance ${o.pattern}: matches no figure of ${names.join(', ')}`);

  const text = blessedText(existing, opts.expect, update);
  try {
    parseRegression(text, opts.expect);
  } catch (err) {
    throw new Error(`bless produced a regression file that does not read back: ${err instanceof InputError ? err.describe() : (err as Error).message}`, {
      cause: err,
    });
  }
  writeFileAtomic(opts.expect, text);

  const date = (opts.now ?? new Date()).toISOString().slice(0, 10);
  const sha = opts.gitSha !== undefined ? opts.gitSha : headCommit(dirname(resolve(opts.expect)));
  const logLine = `${date} ${sha ? sha.slice(0, 12) : '-'} ${r.dataset.catalogSha256.slice(0, 12)} ${reason}`;
  const logFile = logFileOf(opts.expect);
  if (!existsSync(logFile)) {
    writeFileNamed(
      logFile,
      `# Expected-figure log of ${basename(opts.expect)}\n\nOne line per \`backpack bless\`: date (UTC), git commit, catalog sha256 (12 digits), reason.\n\n`,
    );
  }
  appendFileSync(logFile, `${logLine}\n`);
  return { file: opts.expect, created: existing === undefined, written, tolerances: update.tolerances ?? {}, logFile, logLine, warnings };
}
