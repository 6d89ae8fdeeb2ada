/**
 * The CI gate: compare the figures of a results folder with the expected figures of a regression
 * file, one verdict per figure.
 *
 * With `delta = actual − expected` and the allowance `T = max(abs, rel × |expected|)` (per figure,
 * else `defaults.tolerance`, else abs 0.005), and "better" meaning higher for metrics whose
 * `higherIsBetter` is true, lower for the others and for token figures:
 *
 * | verdict    | when                                                                         |
 * | ---------- | ---------------------------------------------------------------------------- |
 * | `OK`       | `|delta| ≤ T`                                                                |
 * | `IMPROVED` | `|delta| > T` in the better direction (fails only under `--strict`)          |
 * | `OKISH`    | `T < |delta| ≤ 1.5 T` in the worse direction                                 |
 * | `FAIL`     | `|delta| > 1.5 T` in the worse direction                                     |
 * | `MISSING`  | the strategy or the figure is not in the results (fails)                     |
 *
 * Unlike anserini's gate (`|| actual > expected`), an improvement is never silently OK: it is
 * IMPROVED, and `--strict` fails until the figures are blessed again. Counts (`cases`, …) have no
 * better direction: any change beyond T is treated as worse. `scopeLeakCount` tolerates nothing:
 * any leak is FAIL whatever the file expects or tolerates. A comparison carries a slack of
 * 1e-9 × max(1, |expected|) so values that went through JSON compare equal.
 *
 * With a baseline run, each figure that is a mean of per-case scores (top1, recall@k, mrr@10,
 * ndcg@10, noToolFalsePositiveRate, …) is judged by the change rule the comparison report uses
 * (`metrics/change.ts`): the paired test's p-value when enough cases changed for it to decide,
 * else the changed cases by name. When `significance.require` is true (the default), a FAIL the
 * rule says did not change becomes `OKISH (within noise)`.
 */
import { existsSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { InputError } from '../util/errors.ts';
import { readRunFolder, runInputSource } from '../eval/files.ts';
import { loadEvalInput, type EvalInput } from '../eval/input.ts';
import { catalogFacts, type DatasetSource, perCaseScores } from '../eval/results.ts';
import type { EvalRun } from '../eval/run.ts';
import type { CatalogFacts } from '../metrics/types.ts';
import type { CaseRecord as Case } from '../eval/case-records.ts';
import { type CaseRecords, factsOfRecords } from '../eval/case-records.ts';
import { describeOrigin, figureValue, isPerCaseMean, sameOrigin, strategyNames, strategyOrigin, type Direction } from './figures.ts';
import { readRegressionFile } from './file.ts';
import { DEFAULT_TOLERANCE, type Tolerance } from './schema.ts';
import { DEFAULT_ALPHA, DEFAULT_SAMPLES, type SignificanceMethod } from '../metrics/significance.ts';
import { changeSeed, changeVerdict, decideChange, figureScores, type ChangeVerdict } from '../metrics/change.ts';

export type Status = 'OK' | 'OKISH' | 'IMPROVED' | 'FAIL' | 'MISSING';

export const STATUSES: readonly Status[] = ['OK', 'OKISH', 'IMPROVED', 'FAIL', 'MISSING'];

/** The exit code of a gate that failed (promptfoo's convention; 1 is Backpack failing, 2 bad input). */
export const GATE_FAILED_EXIT = 100;

export interface Verdict {
  strategy: string;
  figure: string;
  status: Status;
  expected: number;
  /** null when MISSING. */
  actual: number | null;
  /** actual − expected; null when MISSING. */
  delta: number | null;
  /** The allowance T in the figure's units (OKISH up to 1.5 T). */
  tolerance: number;
  direction: Direction;
  /** The paired test against the baseline, when one was computed for this figure. */
  significance?: { method: SignificanceMethod; p: number; pairs: number; meanDelta: number };
  /**
   * What the change rule shared with `backpack report BASE HEAD` (`metrics/change.ts`) decided
   * against the baseline: `basis` `test` (the paired test decides: p < alpha) or `cases` (too few
   * changed cases for any test: they are named in `cases` and decide), whether the figure
   * `changed`, the `verdict` the comparison report prints for it, and how many cases rose and fell.
   */
  change?: {
    basis: 'test' | 'cases';
    changed: boolean;
    verdict: ChangeVerdict;
    up: number;
    down: number;
    /** On basis `cases`: the case ids that rose and fell. */
    cases?: { up: string[]; down: string[] };
  };
  /** A FAIL reported as OKISH because the shared rule says the figure did not change: within noise (significance.require, the default). */
  notSignificant?: boolean;
  /** Why a figure is MISSING, or why scopeLeakCount failed. */
  note?: string;
}

export interface GateReport {
  file: string;
  results: string;
  baseline: string | null;
  dataset: { expected: { name: string; catalogSha256: string }; actual: { name: string; catalogSha256: string } };
  strict: boolean;
  significance: { method: SignificanceMethod; samples: number; alpha: number; require: boolean; computed: boolean };
  warnings: string[];
  verdicts: Verdict[];
  counts: Record<Status, number>;
  /** Verdicts that fail the gate: FAIL, MISSING, and IMPROVED under --strict. */
  failures: number;
  exitCode: 0 | typeof GATE_FAILED_EXIT;
}

/** The allowance of a tolerance around `expected`: the larger of `abs` and `rel × |expected|`. */
export function allowance(tol: Tolerance, expected: number): number {
  return Math.max(tol.abs ?? 0, (tol.rel ?? 0) * Math.abs(expected));
}

/** The verdict of one figure (before significance), see the module comment. */
export function judge(expected: number, actual: number, tolerance: number, direction: Direction): { status: Exclude<Status, 'MISSING'>; delta: number } {
  const delta = actual - expected;
  const eps = 1e-9 * Math.max(1, Math.abs(expected));
  const size = Math.abs(delta);
  if (size <= tolerance + eps) return { status: 'OK', delta };
  const better = direction === 'higher' ? delta > 0 : direction === 'lower' ? delta < 0 : false;
  if (better) return { status: 'IMPROVED', delta };
  return { status: size <= 1.5 * tolerance + eps ? 'OKISH' : 'FAIL', delta };
}

export interface GateOptions {
  /** The regression file. */
  expect: string;
  /** The results folder to gate. */
  results: string;
  /** A baseline results folder (overrides the file's `baseline`). */
  baseline?: string;
  strict?: boolean;
  /** How to load a run's cases (tests may inject); default `loadEvalInput`. */
  loadInput?: (source: DatasetSource) => EvalInput;
}

/** Per-case scores of one strategy of a run: case id → metric id → score. */
type PerCase = Map<string, Record<string, number>>;

/** What a run's per-case scores are computed from: its cases and its catalog's facts. */
interface Scoring {
  cases: readonly Case[];
  facts: CatalogFacts;
}

/** The cases and tool facts a results folder keeps (`cases.jsonl`, `tools.jsonl`, as `readRunFolder` read them), if it does. */
function savedScoring(saved: CaseRecords | undefined): Scoring | undefined {
  return saved && { cases: saved.cases, facts: factsOfRecords(saved.tools) };
}

/** The run's dataset loaded again (results folders written before they kept their cases); a warning and undefined when it cannot be. */
function datasetScoring(opts: GateOptions, r: EvalRun['results'], warnings: string[]): Scoring | undefined {
  let input: EvalInput;
  try {
    input = (opts.loadInput ?? loadEvalInput)(runInputSource(opts.results, r));
  } catch (err) {
    warnings.push(
      `significance skipped: the run's dataset (${JSON.stringify(r.dataset.source)}) could not be loaded: ${err instanceof InputError ? err.describe() : (err as Error).message}`,
    );
    return undefined;
  }
  if (input.catalogSha256 !== r.dataset.catalogSha256) {
    warnings.push(
      `significance skipped: the dataset at ${JSON.stringify(r.dataset.source)} has changed since the run (catalog sha256 ${short(input.catalogSha256)}…, the run's ${short(r.dataset.catalogSha256)}…)`,
    );
    return undefined;
  }
  return { cases: input.cases, facts: catalogFacts(input.catalog) };
}

/** A strategy's per-case scores in `run`, scored on its cases and tool facts at the cut-offs `ks`. */
function strategyScores(run: EvalRun, strategy: string, scoring: Scoring, ks: readonly number[]): PerCase {
  return perCaseScores(run.details[strategy] ?? [], scoring.cases, scoring.facts, run.results.config, ks);
}

function short(sha: string): string {
  return sha.slice(0, 12);
}

/** Run the gate. Throws `InputError` on a bad file or folder, or when nothing could be evaluated. */
export function runGate(opts: GateOptions): GateReport {
  const file = readRegressionFile(opts.expect);
  const { run, records } = readRunFolder(opts.results);
  const r = run.results;
  const spec = file.spec;
  const warnings = [...file.warnings];
  const strict = opts.strict === true;

  // Figures scored on other cases do not compare: refuse, rather than report a move the cases made.
  if (spec.dataset.casesSha256 !== undefined && r.dataset.casesSha256 !== undefined && r.dataset.casesSha256 !== spec.dataset.casesSha256) {
    throw new InputError(
      `the results were scored on other cases (cases sha256 ${short(r.dataset.casesSha256)}…) than ${opts.expect} was blessed on (${short(spec.dataset.casesSha256)}…): their figures do not compare; re-bless if the cases changed on purpose`,
      { file: opts.results },
    );
  }
  if (spec.dataset.casesSha256 !== undefined && r.dataset.casesSha256 === undefined)
    warnings.push('the results carry no cases sha256 (written before it existed): the cases they were scored on cannot be checked');
  if (r.dataset.catalogSha256 !== spec.dataset.catalogSha256) {
    warnings.push(
      `the results' catalog sha256 ${short(r.dataset.catalogSha256)}… differs from the file's ${short(spec.dataset.catalogSha256)}… (blessed on another catalog): figures may move for that reason alone`,
    );
  }
  if (r.dataset.reSigned) {
    const { added, removed, changed } = r.dataset.reSigned;
    warnings.push(
      `the results were scored on a re-signed dataset (eval --re-sign: ${added.length} added, ${removed.length} removed, ${changed.length} changed files): check that the change was meant`,
    );
  }
  for (const w of r.warnings ?? []) warnings.push(`the run warned: ${w}`);
  if (r.dataset.name !== spec.dataset.name) warnings.push(`the results are of dataset "${r.dataset.name}", the file's figures of "${spec.dataset.name}"`);
  const inResults = strategyNames(r);
  const inFile = [...file.figures.keys()];
  for (const name of inResults) if (!file.figures.has(name)) warnings.push(`strategy "${name}" is in the results but not in ${opts.expect}: not gated`);
  const present = inFile.filter((n) => inResults.includes(n));
  // a strategy from a plugin or a service: figures may move because it changed, not the registry
  for (const name of present) {
    const blessed = spec.strategies[name]?.origin;
    const now = strategyOrigin(r, name);
    if (!sameOrigin(blessed, now))
      warnings.push(
        `strategy "${name}" changed since its figures were blessed: ${blessed ? describeOrigin(blessed) : 'built in'} then, ${now ? describeOrigin(now) : 'built in'} now; figures may move for that reason alone`,
      );
  }
  if (!present.length) {
    throw new InputError(`nothing to evaluate: none of the file's strategies (${inFile.join(', ')}) is in the results (${inResults.join(', ') || 'none'})`, {
      file: opts.results,
    });
  }

  const sig = {
    method: spec.significance?.method ?? 'randomization',
    samples: spec.significance?.samples ?? DEFAULT_SAMPLES,
    alpha: spec.significance?.alpha ?? DEFAULT_ALPHA,
    require: spec.significance?.require ?? true,
    computed: false,
  };

  // The baseline run and the per-case scores of both runs, when a paired test is possible.
  const baselineDir =
    opts.baseline !== undefined
      ? resolve(opts.baseline)
      : spec.baseline !== undefined
        ? isAbsolute(spec.baseline)
          ? spec.baseline
          : resolve(dirname(opts.expect), spec.baseline)
        : null;
  let paired: { base: EvalRun; current: Scoring; baseline: Scoring; ks: number[] } | undefined;
  let base: EvalRun | undefined;
  let baseRecords: CaseRecords | undefined;
  if (baselineDir !== null) {
    if (opts.baseline === undefined && !existsSync(baselineDir)) {
      // The file's baseline is a convenience: a checkout without that folder gates without p-values.
      warnings.push(`significance skipped: the file's baseline ${baselineDir} does not exist`);
    } else ({ run: base, records: baseRecords } = readRunFolder(baselineDir));
  }
  const baseCases = base?.results.dataset.casesSha256;
  if (base && baseCases !== undefined && r.dataset.casesSha256 !== undefined && baseCases !== r.dataset.casesSha256) {
    warnings.push(
      `significance skipped: the baseline was scored on other cases (cases sha256 ${short(baseCases)}…, the results' ${short(r.dataset.casesSha256)}…): a paired test needs the same cases`,
    );
  } else if (base) {
    // Each run is scored on the cases and tool facts its folder keeps; a folder written before it
    // kept them falls back to its dataset, loaded again (the current run's, for both runs).
    const current = savedScoring(records) ?? datasetScoring(opts, r, warnings);
    if (current) paired = { base, current, baseline: savedScoring(baseRecords) ?? current, ks: r.config.ks };
  } else if (baselineDir === null && spec.significance?.require === true) {
    warnings.push("significance.require is set but no baseline run was given (--baseline or the file's baseline): drops beyond the margin fail untested");
  }

  const verdicts: Verdict[] = [];
  const defaults = spec.defaults?.tolerance ?? DEFAULT_TOLERANCE;
  for (const name of inFile) {
    const expectation = spec.strategies[name]!;
    const has = inResults.includes(name);
    let current: PerCase | undefined;
    let baseline: PerCase | undefined;
    if (has && paired && file.figures.get(name)!.some(isPerCaseMean)) {
      if (!strategyNames(paired.base.results).includes(name)) warnings.push(`strategy "${name}" is not in the baseline run: no p-values for it`);
      else {
        try {
          current = strategyScores(run, name, paired.current, paired.ks);
          baseline = strategyScores(paired.base, name, paired.baseline, paired.ks);
        } catch (err) {
          warnings.push(`significance skipped for ${name}: ${(err as Error).message}`);
        }
      }
    }
    for (const f of file.figures.get(name)!) {
      const expected = expectation.figures[f.key]!;
      const leak = f.kind === 'metric' && f.metric.kind === 'scopeLeakCount';
      const tolerance = leak ? 0 : allowance(expectation.tolerance?.[f.key] ?? defaults, expected);
      const base = { strategy: name, figure: f.key, expected, tolerance, direction: f.direction };
      const actual = has ? figureValue(r, name, f) : undefined;
      if (actual === undefined) {
        verdicts.push({
          ...base,
          status: 'MISSING',
          actual: null,
          delta: null,
          note: has ? `${f.key} is not in the results for ${name}` : `strategy ${name} is not in the results`,
        });
        continue;
      }
      const j = judge(expected, actual, tolerance, f.direction);
      const v: Verdict = { ...base, status: j.status, actual, delta: j.delta };
      if (leak && actual > 0) {
        v.status = 'FAIL';
        v.note = 'scope leaks tolerate nothing';
      }
      if (current && baseline && isPerCaseMean(f)) {
        const c = decideChange(figureScores(baseline, f.key), figureScores(current, f.key), {
          method: sig.method,
          samples: sig.samples,
          alpha: sig.alpha,
          seed: changeSeed(name, f.key),
        });
        if (c) {
          v.significance = { method: sig.method, p: c.p, pairs: c.pairs, meanDelta: c.meanDelta };
          const higher = f.direction === 'higher' ? true : f.direction === 'lower' ? false : null;
          v.change = {
            basis: c.basis,
            changed: c.changed,
            verdict: changeVerdict(c, higher)!,
            up: c.up.length,
            down: c.down.length,
            ...(c.basis === 'cases' ? { cases: { up: c.up, down: c.down } } : {}),
          };
          sig.computed = true;
          if (v.status === 'FAIL' && sig.require && !c.changed) {
            // Within noise of the baseline, but only a baseline at the file's figure vouches for it:
            // one that is itself outside the tolerance is not the blessed state.
            const atBase = paired ? figureValue(paired.base.results, name, f) : undefined;
            if (atBase !== undefined && judge(expected, atBase, tolerance, f.direction).status === 'OK') {
              v.status = 'OKISH';
              v.notSignificant = true;
            } else
              v.note = `within noise of the baseline, but the baseline's ${f.key} (${atBase === undefined ? 'absent' : Number(atBase.toPrecision(6))}) is not the file's either: still a FAIL`;
          }
        }
      }
      verdicts.push(v);
    }
  }
  if (verdicts.every((v) => v.status === 'MISSING')) {
    throw new InputError(`nothing to evaluate: none of the file's figures is in the results (${verdicts.map((v) => `${v.strategy} ${v.figure}`).join(', ')})`, {
      file: opts.results,
    });
  }

  const counts = Object.fromEntries(STATUSES.map((s) => [s, verdicts.filter((v) => v.status === s).length])) as Record<Status, number>;
  const failures = counts.FAIL + counts.MISSING + (strict ? counts.IMPROVED : 0);
  return {
    file: opts.expect,
    results: opts.results,
    baseline: baselineDir,
    dataset: { expected: { ...spec.dataset }, actual: { name: r.dataset.name, catalogSha256: r.dataset.catalogSha256 } },
    strict,
    significance: sig,
    warnings,
    verdicts,
    counts,
    failures,
    exitCode: failures > 0 ? GATE_FAILED_EXIT : 0,
  };
}

/**
 * Thrown by the `gate` command after it printed its verdicts when the gate failed; the CLI maps it
 * to its `exitCode` (100).
 */
export class GateFailed extends Error {
  readonly exitCode = GATE_FAILED_EXIT;

  constructor(message: string) {
    super(message);
    this.name = 'GateFailed';
  }
}
