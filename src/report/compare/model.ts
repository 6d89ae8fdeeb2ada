/**
 * A comparison of several runs over the same cases (`backpack report BASE HEAD …`): per strategy
 * found in the base and a later run, every headline figure's value in each, its change and the
 * paired bootstrap 95% interval of the change (the same cases resampled for both runs, so the
 * interval is that of the per-case differences), and the cases whose outcome changed (won, lost)
 * with both rankings. Everything comes from the results folders (results.json, details, cases.jsonl,
 * tools.jsonl): no dataset is read.
 *
 * The first run is the base; every later run is compared with it. Runs over different case sets
 * are refused (an `InputError`): a per-case comparison needs the same cases.
 */
import { type CaseRecord as Case, factsOfRecords, type ToolRecord, unrenamed } from '../../eval/case-records.ts';
import { casesHash, perCaseScores, type Results } from '../../eval/results.ts';
import type { EvalRun } from '../../eval/run.ts';
import { bootstrapIntervals, type Interval } from '../../metrics/bootstrap.ts';
import { higherIsBetter } from '../../metrics/ids.ts';
import { type Change, changeSeed, changeVerdict, decideChange, figureScores } from '../../metrics/change.ts';
import type { MetricTable } from '../../metrics/types.ts';
import { InputError } from '../../util/errors.ts';
import { headlineMetrics } from '../markdown.ts';
import { headline } from '../view.ts';

/** One run of a comparison: its label (the folder's name), its results and the case records its folder keeps. */
export interface ComparedRun {
  label: string;
  /** The folder (named in errors). */
  dir: string;
  run: EvalRun;
  cases: readonly Case[];
  tools: readonly ToolRecord[];
}

/** A figure of one strategy in the base and in a later run. */
export interface FigureChange {
  figure: string;
  base: number | undefined;
  head: number | undefined;
  /** head − base, when both apply. */
  delta?: number;
  /** Paired bootstrap 95% interval of the change, over the cases the figure applies to in both runs (descriptive: the verdict is the change rule's). */
  ci95?: Interval;
  /** The change rule shared with the gate (`metrics/change.ts`) says the figure changed: more than noise. */
  significant?: boolean;
  /** How the rule decided: `test` (the paired test's p < alpha) or `cases` (too few changed cases for any test; they are named in `cases`). */
  basis?: 'test' | 'cases';
  /** The paired test's p-value (the gate's, for the same pair of runs). */
  p?: number;
  /** On basis `cases`: the case ids whose figure rose and fell. */
  cases?: { up: string[]; down: string[] };
  /** The change is an improvement (by the figure's direction), a regression, a change of a figure with no direction, or none. */
  verdict: 'better' | 'worse' | 'changed' | 'same' | 'n/a';
}

/** A case whose headline outcome changed between the base and a later run. */
export interface ChangedCase {
  caseId: string;
  request: string;
  /** Gold tools ([]: a no-tool case). */
  expected: readonly string[];
  /** The headline figure of the case (recall@k; for a no-tool case the false-positive indicator) in each run. */
  base: number;
  head: number;
  /** Won: better in the later run; lost: worse. */
  change: 'won' | 'lost';
  /** Both rankings, top `k`, [tool id, score]. */
  baseRanked: Array<[string, number]>;
  headRanked: Array<[string, number]>;
}

/** A strategy compared between the base and one later run. */
export interface StrategyComparison {
  name: string;
  figures: FigureChange[];
  won: ChangedCase[];
  lost: ChangedCase[];
}

/** The base against one later run. */
export interface RunComparison {
  base: string;
  head: string;
  /** Strategies in both runs, base order. */
  strategies: StrategyComparison[];
  /** Strategies in only one of the two. */
  onlyBase: string[];
  onlyHead: string[];
}

export interface Comparison {
  runs: Array<{ label: string; results: Results }>;
  /** The figure cases are judged won or lost on (the base's headline: recall@5 when k = 5 is run). */
  headline: string;
  /** How many ranked tools each side of a changed case shows. */
  k: number;
  /** The base against each later run, in order. */
  pairs: RunComparison[];
  /** Gold tools' summaries (tool id → summary) from every run's tool records. */
  summaries: ReadonlyMap<string, string>;
}

/** Ranked tools shown per side of a changed case. */
export const CHANGED_CASE_DEPTH = 5;

/** Refuse runs whose cases differ from the base's: the same ids, requests and labels, in any order. */
function checkSameCases(runs: readonly ComparedRun[]): void {
  const base = runs[0]!;
  // cases as their file gave them: a run with --renames scored new ids for the same cases
  const key = (r: ComparedRun) => casesHash(unrenamed(r.cases, r.run.results.dataset.goldRenamed).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)));
  const baseKey = key(base);
  for (const r of runs.slice(1)) {
    if (key(r) === baseKey) continue;
    const ids = new Set(base.cases.map((c) => c.id));
    const other = new Set(r.cases.map((c) => c.id));
    const onlyHere = [...other].filter((id) => !ids.has(id));
    const onlyBase = [...ids].filter((id) => !other.has(id));
    const what =
      onlyHere.length || onlyBase.length
        ? `${onlyHere.length} case(s) not in ${base.label} (first "${onlyHere[0] ?? '—'}"), ${onlyBase.length} of ${base.label}'s missing (first "${onlyBase[0] ?? '—'}")`
        : 'the same case ids with other requests or labels';
    throw new InputError(`was scored on other cases than ${base.label} (${what}): a comparison needs runs over the same cases`, { file: r.dir });
  }
}

/** Per-case figures of one strategy of a run, by case id (from its details and the folder's case records). */
function perCase(r: ComparedRun, strategy: string): Map<string, MetricTable> {
  return perCaseScores(r.run.details[strategy] ?? [], r.cases, factsOfRecords(r.tools), r.run.results.config);
}

function strategyNames(r: Results): string[] {
  return [...Object.keys(r.retrievers), ...Object.keys(r.profiles ?? {})];
}

function overallOf(r: Results, name: string): MetricTable | undefined {
  return (r.retrievers[name] ?? r.profiles?.[name])?.metrics.overall;
}

/** The figures compared: the reports' headline figures both runs have for the strategy (no counts, no leak sum). */
function comparedFigures(base: Results, head: Results, name: string): string[] {
  const b = overallOf(base, name) ?? {};
  const h = overallOf(head, name) ?? {};
  return headlineMetrics(base).filter((f) => f !== 'scopeLeakCount' && (f in b || f in h));
}

function verdictOf(figure: string, delta: number | undefined, change: Change | undefined): FigureChange['verdict'] {
  if (delta === undefined) return 'n/a';
  const v = changeVerdict(change, higherIsBetter(figure));
  return v === undefined || v === 'noise' ? 'same' : v;
}

/**
 * The headline value of one case: the headline recall for a graded case (`visible` for a profile
 * without a search), the no-tool false-positive indicator (as 1 − it, so higher is better) otherwise.
 */
function caseOutcome(scores: MetricTable | undefined, metric: string): number | undefined {
  if (!scores) return undefined;
  if (scores[metric] !== undefined) return scores[metric];
  if (scores.visible !== undefined) return scores.visible;
  const fp = scores.noToolFalsePositiveRate;
  return fp === undefined ? undefined : 1 - fp;
}

function compareStrategy(base: ComparedRun, head: ComparedRun, name: string, metric: string, k: number): StrategyComparison {
  const b = perCase(base, name);
  const h = perCase(head, name);
  const figures = comparedFigures(base.run.results, head.run.results, name);
  // Paired per-case differences, over the cases each figure applies to in both runs, in base case order.
  const deltas: MetricTable[] = [];
  for (const c of base.cases) {
    const x = b.get(c.id);
    const y = h.get(c.id);
    if (!x || !y) continue;
    const d: MetricTable = {};
    for (const f of figures) if (x[f] !== undefined && y[f] !== undefined) d[f] = y[f]! - x[f]!;
    deltas.push(d);
  }
  const intervals = bootstrapIntervals(deltas, figures, `compare:${name}`);
  const baseOverall = overallOf(base.run.results, name) ?? {};
  const headOverall = overallOf(head.run.results, name) ?? {};
  const changes: FigureChange[] = figures.map((figure) => {
    const bv = baseOverall[figure];
    const hv = headOverall[figure];
    const delta = bv !== undefined && hv !== undefined ? hv - bv : undefined;
    const ci95 = delta !== undefined ? intervals[figure] : undefined;
    // the gate's rule, seed and defaults: the two print one verdict for one pair of runs
    const change = delta !== undefined ? decideChange(figureScores(b, figure), figureScores(h, figure), { seed: changeSeed(name, figure) }) : undefined;
    return {
      figure,
      base: bv,
      head: hv,
      ...(delta !== undefined ? { delta } : {}),
      ...(ci95 ? { ci95 } : {}),
      ...(change
        ? {
            significant: change.changed,
            basis: change.basis,
            p: change.p,
            ...(change.basis === 'cases' ? { cases: { up: change.up, down: change.down } } : {}),
          }
        : {}),
      verdict: verdictOf(figure, delta, change),
    };
  });
  const baseDetails = new Map((base.run.details[name] ?? []).map((d) => [d.caseId, d]));
  const headDetails = new Map((head.run.details[name] ?? []).map((d) => [d.caseId, d]));
  const won: ChangedCase[] = [];
  const lost: ChangedCase[] = [];
  for (const c of base.cases) {
    if (c.expectedTools === undefined) continue;
    const x = caseOutcome(b.get(c.id), metric);
    const y = caseOutcome(h.get(c.id), metric);
    if (x === undefined || y === undefined || x === y) continue;
    const changed: ChangedCase = {
      caseId: c.id,
      request: c.request,
      expected: c.expectedTools,
      base: x,
      head: y,
      change: y > x ? 'won' : 'lost',
      baseRanked: (baseDetails.get(c.id)?.ranked ?? []).slice(0, k),
      headRanked: (headDetails.get(c.id)?.ranked ?? []).slice(0, k),
    };
    (changed.change === 'won' ? won : lost).push(changed);
  }
  return { name, figures: changes, won, lost };
}

/** Compare `runs` (the first is the base) over the same cases; an `InputError` names a run over other cases. */
export function compareRuns(runs: readonly ComparedRun[]): Comparison {
  if (runs.length < 2) throw new Error('a comparison needs at least two runs');
  checkSameCases(runs);
  const base = runs[0]!;
  const metric = headline(base.run.results);
  const summaries = new Map<string, string>();
  for (const r of runs) for (const t of r.tools) if (t.summary !== undefined && !summaries.has(t.id)) summaries.set(t.id, t.summary);
  const pairs = runs.slice(1).map((head): RunComparison => {
    const baseNames = strategyNames(base.run.results);
    const headNames = strategyNames(head.run.results);
    const both = baseNames.filter((n) => headNames.includes(n));
    return {
      base: base.label,
      head: head.label,
      strategies: both.map((name) => compareStrategy(base, head, name, metric, CHANGED_CASE_DEPTH)),
      onlyBase: baseNames.filter((n) => !headNames.includes(n)),
      onlyHead: headNames.filter((n) => !baseNames.includes(n)),
    };
  });
  return { runs: runs.map((r) => ({ label: r.label, results: r.run.results })), headline: metric, k: CHANGED_CASE_DEPTH, pairs, summaries };
}
