/**
 * What one run contributes to the history: its facts (label, start time, dataset, hashes, versions,
 * whether its catalog was blessed) and its figures, read from a results folder.
 *
 * Which figures:
 * - with a regression file (`--expect`), exactly the figures it pins, strategy by strategy, read
 *   as `backpack gate` reads them (`figureValue`); one the results lack is left out with a warning;
 * - without one, every numeric figure of `metrics.overall` of every retriever and profile, and
 *   each profile's `tokens.perCase`.
 *
 * A figure's 95% interval comes from `metrics.ci95` (overall, or the slice's table for a slice
 * figure) when the results have it; token figures and counts have none.
 */
import { execFileSync } from 'node:child_process';
import { InputError, setting } from '../util/errors.ts';
import type { Results } from '../eval/results.ts';
import { logFileOf } from '../gate/bless.ts';
import { readRegressionFile } from '../gate/file.ts';
import { figureValue, metricKey, type Figure } from '../gate/figures.ts';
import { blessOf, readBlessLog } from './bless-log.ts';

/** One figure of one strategy in one run. */
export interface FigureRow {
  strategy: string;
  figure: string;
  value: number;
  ciLow: number | null;
  ciHigh: number | null;
}

/** One run as the history records it (a row of `runs`, and its rows of `figures`). */
export interface RunRecord {
  label: string;
  /** `timings.startedAt` of the results. */
  recordedAt: string;
  dataset: string;
  catalogSha256: string;
  casesSha256: string | null;
  configHash: string;
  backpackVersion: string;
  /** HEAD of the git checkout the command ran in, or null outside one. */
  gitCommit: string | null;
  blessed: boolean;
  blessReason: string | null;
  blessDate: string | null;
  figures: FigureRow[];
}

/** HEAD of the git checkout of the working folder, or null (not a checkout, or no git). */
export function headCommit(cwd: string = process.cwd()): string | null {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() || null;
  } catch {
    return null;
  }
}

/** `[low, high]` when `pair` is two finite numbers. */
function interval(pair: unknown): [number, number] | null {
  return Array.isArray(pair) && pair.length === 2 && pair.every((x) => typeof x === 'number' && Number.isFinite(x)) ? [pair[0], pair[1]] : null;
}

/** The strategy's results (a retriever's or a profile's). */
function strategyOf(r: Results, name: string) {
  const own = Object.prototype.hasOwnProperty;
  return own.call(r.retrievers, name) ? r.retrievers[name] : r.profiles && own.call(r.profiles, name) ? r.profiles[name] : undefined;
}

/** The 95% interval of a figure of a strategy, or null when the results have none for it. */
export function figureInterval(r: Results, strategy: string, f: Figure): [number, number] | null {
  if (f.kind !== 'metric') return null;
  const ci = strategyOf(r, strategy)?.metrics.ci95;
  if (!ci) return null;
  const table = f.slice === undefined ? ci.overall : ci.slices?.[f.slice];
  return interval(table?.[metricKey(f)]);
}

function row(strategy: string, figure: string, value: number, ci: [number, number] | null): FigureRow {
  return { strategy, figure, value, ciLow: ci ? ci[0] : null, ciHigh: ci ? ci[1] : null };
}

/** Every overall figure of every strategy, and each profile's `tokens.perCase` (no regression file given). */
export function allFigures(r: Results): FigureRow[] {
  const out: FigureRow[] = [];
  const each = (name: string, s: { metrics: { overall: object; ci95?: { overall: Record<string, unknown> } }; tokens?: { perCase?: unknown } }) => {
    for (const [id, v] of Object.entries(s.metrics.overall)) {
      if (typeof v === 'number' && Number.isFinite(v)) out.push(row(name, id, v, interval(s.metrics.ci95?.overall[id])));
    }
    const perCase = s.tokens?.perCase;
    if (typeof perCase === 'number' && Number.isFinite(perCase)) out.push(row(name, 'tokens.perCase', perCase, null));
  };
  for (const [name, s] of Object.entries(r.retrievers)) each(name, s);
  for (const [name, s] of Object.entries(r.profiles ?? {})) each(name, s);
  return out;
}

/** The figures a regression file pins, read from the results; warns about each one the results lack. */
export function pinnedFigures(r: Results, expect: string, warn: (message: string) => void): FigureRow[] {
  const spec = readRegressionFile(expect);
  const out: FigureRow[] = [];
  for (const [strategy, figures] of spec.figures) {
    if (!strategyOf(r, strategy)) {
      warn(`${strategy} is not in the results: none of its ${figures.length} pinned figures is recorded`);
      continue;
    }
    for (const f of figures) {
      const v = figureValue(r, strategy, f);
      if (v === undefined) warn(`${strategy} ${f.key} is not in the results: not recorded`);
      else out.push(row(strategy, f.key, v, figureInterval(r, strategy, f)));
    }
  }
  if (!out.length) throw new InputError('none of the figures this regression file pins is in the results: nothing to record', { file: expect });
  return out;
}

/** Options of {@link runRecord}. */
export interface RecordOptions {
  label: string;
  /** The regression file whose pinned figures (and bless log) to use. */
  expect?: string;
  /** The commit to record (default: HEAD of the working folder's checkout; null for none). */
  gitCommit?: string | null;
}

/** Checks a run label: not empty, one line, at most 200 characters. */
export function checkLabel(label: string): string {
  const t = label.trim();
  if (t === '') throw new InputError(`${setting('label')} is empty: name the run (a registry version, a commit, a date)`);
  if (/[\r\n\u0085\u2028\u2029]/.test(t)) throw new InputError(`${setting('label')} must be one line`);
  if (t.length > 200) throw new InputError(`${setting('label')} is ${t.length} characters long; at most 200`);
  return t;
}

/** The record of a run from its results; see the module comment for which figures. */
export function runRecord(r: Results, opts: RecordOptions, warn: (message: string) => void = () => {}): RunRecord {
  const label = checkLabel(opts.label);
  const figures = opts.expect !== undefined ? pinnedFigures(r, opts.expect, warn) : allFigures(r);
  const blessed = opts.expect !== undefined ? blessOf(readBlessLog(logFileOf(opts.expect)), r.dataset.catalogSha256) : undefined;
  return {
    label,
    recordedAt: r.timings.startedAt,
    dataset: r.dataset.name,
    catalogSha256: r.dataset.catalogSha256,
    casesSha256: r.dataset.casesSha256 ?? null,
    configHash: r.configHash,
    backpackVersion: r.backpack.version,
    gitCommit: opts.gitCommit !== undefined ? opts.gitCommit : headCommit(),
    blessed: blessed !== undefined,
    blessReason: blessed?.reason ?? null,
    blessDate: blessed?.date ?? null,
    figures,
  };
}
