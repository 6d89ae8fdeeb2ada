/**
 * `evaluate`: per-case scores from the kernels, then tables over all cases, per slice and per gold
 * namespace. Pure and deterministic: outputs follow label order, slice and namespace names are
 * sorted, table keys follow `METRICS` order then ascending k, and means are plain sums in case
 * order divided by the number of applicable cases (no rounding).
 *
 * Which cases a metric averages over:
 * - graded cases (`expectedTools` non-empty): `top1`, `recall@k`, `mrr@10`, `ndcg@10`,
 *   `missedEntirely@k`, `namespaceRecall@k` (under the case's `goldMode`, default `all`), and
 *   `visible` for profiles (results that carry `eager`) and `visibleByExpansion`, its part that only
 *   a namespace expansion brought (`expanded`);
 * - multi-gold cases (≥ 2 distinct expected tools, goldMode `all`): `allGold@k`, `anyGold@k`;
 * - no-tool cases (`expectedTools: []`): `noToolFalsePositiveRate` (for profiles, results that
 *   carry `eagerUnpinned`: 1 whenever a tool that is neither pinned nor a core tool of the harness
 *   is eager, else the search's figure) and,
 *   for profiles, `searchNoToolFalsePositiveRate` (the search alone);
 * - `visible` is 0 for a case whose prompt does not fit the context window (`fits: false`);
 * - every case: `scopeLeakCount`, a sum;
 * - skill-only cases (`expectedTools` undefined) add to `cases` (and `scopeLeakCount`) only.
 * A metric with no applicable case is left out of the table (tables hold numbers only); the counts
 * `cases`, `gradedCases`, `noToolCases`, `multiGoldCases` and `scopeLeakCount` are always there.
 */
import { formatMetricId, METRIC_KINDS, METRICS, needsK, type MetricId } from './ids.ts';
import { bootstrapIntervals } from './bootstrap.ts';
import { neverSurfaced } from './coverage.ts';
import { noToolFalsePositive } from './no-tool.ts';
import { allGoldAtK, anyGoldAtK, missedEntirely, namespaceRecallAtK, ndcgAtK, recallAtK, reciprocalRank, top1, visible, type GoldMode } from './ranking.ts';
import { checkScopeLeaks, scopeLeakCount } from './scope.ts';
import type { CaseLabel, CaseResult, CatalogFacts, Evaluation, MetricTable } from './types.ts';

/** Cut-off of `mrr@10`, whatever the `ks`. */
export const MRR_CUTOFF = 10;
/** Cut-off of `ndcg@10`, whatever the `ks`. */
export const NDCG_CUTOFF = 10;

type CaseKind = 'graded' | 'noTool' | 'skillOnly';

interface ScoredCase {
  label: CaseLabel;
  kind: CaseKind;
  multiGold: boolean;
  /** Distinct namespaces of the gold tools that the catalog knows, sorted. */
  goldNamespaces: string[];
  scores: MetricTable;
}

/** `ks` sorted ascending and deduplicated; throws on an empty list or a k that is not an integer ≥ 1. */
export function normalizeKs(ks: readonly number[]): number[] {
  if (ks.length === 0) throw new Error('evaluate needs at least one cut-off k');
  for (const k of ks) if (!Number.isInteger(k) || k < 1) throw new Error(`cut-off k must be an integer ≥ 1, got ${k}`);
  return [...new Set(ks)].sort((a, b) => a - b);
}

/**
 * The quality-metric keys of a table, in METRICS order then ascending k: each `@k` kind at every
 * cut-off, except `mrr` and `ndcg`, which are only at 10.
 */
export function tableKeys(ks: readonly number[]): string[] {
  const ids: MetricId[] = [];
  for (const kind of METRIC_KINDS) {
    if (METRICS[kind].group !== 'quality') continue;
    if (!needsK(kind)) ids.push({ kind });
    else for (const k of kind === 'mrr' ? [MRR_CUTOFF] : kind === 'ndcg' ? [NDCG_CUTOFF] : ks) ids.push({ kind, k });
  }
  return ids.map(formatMetricId);
}

const SCOPE_LEAK_COUNT = formatMetricId({ kind: 'scopeLeakCount' });

function matchResults(labels: readonly CaseLabel[], results: readonly CaseResult[]): Map<string, CaseResult> {
  const labelIds = new Set<string>();
  for (const l of labels) {
    if (labelIds.has(l.id)) throw new Error(`duplicate case id in labels: ${l.id}`);
    labelIds.add(l.id);
  }
  const byId = new Map<string, CaseResult>();
  for (const r of results) {
    if (byId.has(r.caseId)) throw new Error(`duplicate result for case ${r.caseId}`);
    byId.set(r.caseId, r);
  }
  const list = (ids: string[]): string => (ids.length > 5 ? `${ids.slice(0, 5).join(', ')}, … (${ids.length} in all)` : ids.join(', '));
  const unlabelled = results.map((r) => r.caseId).filter((id) => !labelIds.has(id));
  if (unlabelled.length) throw new Error(`results for cases that have no label: ${list(unlabelled)}`);
  const missing = labels.map((l) => l.id).filter((id) => !byId.has(id));
  if (missing.length) throw new Error(`labelled cases with no result: ${list(missing)}`);
  return byId;
}

function scoreCase(label: CaseLabel, result: CaseResult, facts: CatalogFacts, ks: readonly number[]): ScoredCase {
  const scores: MetricTable = {};
  const leaks = checkScopeLeaks(result.scopeLeaks, label.id);
  const expected = label.expectedTools;
  let ranked = result.ranked;
  if (expected === undefined) {
    scores[SCOPE_LEAK_COUNT] = leaks;
    return { label, kind: 'skillOnly', multiGold: false, goldNamespaces: [], scores };
  }
  if (expected.length === 0) {
    const searched = result.loadedUnpinned ? 1 : noToolFalsePositive(ranked, facts.pinned);
    scores[formatMetricId({ kind: 'noToolFalsePositiveRate' })] = result.eagerUnpinned ? 1 : searched;
    if (result.eagerUnpinned !== undefined) scores[formatMetricId({ kind: 'searchNoToolFalsePositiveRate' })] = searched;
    scores[SCOPE_LEAK_COUNT] = leaks;
    return { label, kind: 'noTool', multiGold: false, goldNamespaces: [], scores };
  }
  const mode: GoldMode = label.goldMode ?? 'all';
  const multiGold = mode === 'all' && new Set(expected).size >= 2;
  // A prompt over the context window cannot be sent: what its search ranked never reaches the
  // model, so it is no hit for recall, as it is none for visible.
  if (result.fits === false) ranked = [];
  scores[formatMetricId({ kind: 'top1' })] = top1(ranked, expected);
  for (const k of ks) scores[formatMetricId({ kind: 'recall', k })] = recallAtK(ranked, expected, k, mode);
  if (multiGold) {
    for (const k of ks) scores[formatMetricId({ kind: 'allGold', k })] = allGoldAtK(ranked, expected, k);
    for (const k of ks) scores[formatMetricId({ kind: 'anyGold', k })] = anyGoldAtK(ranked, expected, k);
  }
  scores[formatMetricId({ kind: 'mrr', k: MRR_CUTOFF })] = reciprocalRank(ranked, expected, MRR_CUTOFF);
  scores[formatMetricId({ kind: 'ndcg', k: NDCG_CUTOFF })] = ndcgAtK(ranked, expected, NDCG_CUTOFF, mode);
  for (const k of ks) scores[formatMetricId({ kind: 'missedEntirely', k })] = missedEntirely(ranked, expected, k);
  scores[SCOPE_LEAK_COUNT] = leaks;
  for (const k of ks) {
    scores[formatMetricId({ kind: 'namespaceRecall', k })] = namespaceRecallAtK(ranked, expected, k, (id) => facts.namespaceOf(id), mode);
  }
  if (result.eager !== undefined) {
    // visible counts what an expansion brought; visibleByExpansion is that part alone
    const shown = result.expanded?.length ? [...result.eager, ...result.expanded] : result.eager;
    const all = result.fits === false ? 0 : visible(ranked, shown, expected, mode);
    scores[formatMetricId({ kind: 'visible' })] = all;
    scores[formatMetricId({ kind: 'visibleByExpansion' })] = result.fits === false ? 0 : all - visible(ranked, result.eager, expected, mode);
  }
  const namespaces = new Set<string>();
  for (const id of expected) {
    const ns = facts.namespaceOf(id);
    if (ns !== undefined) namespaces.add(ns);
  }
  return { label, kind: 'graded', multiGold, goldNamespaces: [...namespaces].sort(), scores };
}

/** The table of a group of cases (in case order). */
function table(cases: readonly ScoredCase[], keys: readonly string[]): MetricTable {
  const out: MetricTable = {};
  for (const key of keys) {
    if (key === SCOPE_LEAK_COUNT) {
      out[key] = scopeLeakCount(cases.map((c) => c.scores[key] ?? 0));
      continue;
    }
    let sum = 0;
    let n = 0;
    for (const c of cases) {
      const v = c.scores[key];
      if (v === undefined) continue;
      sum += v;
      n++;
    }
    if (n > 0) out[key] = sum / n;
  }
  out[formatMetricId({ kind: 'cases' })] = cases.length;
  out[formatMetricId({ kind: 'gradedCases' })] = cases.filter((c) => c.kind === 'graded').length;
  out[formatMetricId({ kind: 'noToolCases' })] = cases.filter((c) => c.kind === 'noTool').length;
  out[formatMetricId({ kind: 'multiGoldCases' })] = cases.filter((c) => c.multiGold).length;
  return out;
}

/** 95% bootstrap intervals of every mean figure (not the counts, not the leak sum) of each table: overall, per slice, per namespace. */
function intervalsOf(
  cases: readonly ScoredCase[],
  slices: ReadonlyArray<[string, ScoredCase[]]>,
  namespaces: ReadonlyArray<[string, ScoredCase[]]>,
  allKeys: readonly string[],
): NonNullable<Evaluation['ci95']> {
  const keys = allKeys.filter((k) => k !== SCOPE_LEAK_COUNT);
  const of = (group: readonly ScoredCase[], label: string) =>
    bootstrapIntervals(
      group.map((c) => c.scores),
      keys,
      label,
    );
  return {
    overall: of(cases, 'overall'),
    slices: Object.fromEntries(slices.map(([name, g]) => [name, of(g, `slice:${name}`)])),
    namespaces: Object.fromEntries(namespaces.map(([name, g]) => [name, of(g, `namespace:${name}`)])),
  };
}

/** Order the keys of a per-case table like the group tables (keys it lacks are skipped). */
function ordered(scores: MetricTable, keys: readonly string[]): MetricTable {
  const out: MetricTable = {};
  for (const key of keys) {
    const v = scores[key];
    if (v !== undefined) out[key] = v;
  }
  return out;
}

/** Group cases by a list of names per case; names sorted, cases in case order. */
function groupBy(cases: readonly ScoredCase[], namesOf: (c: ScoredCase) => readonly string[]): Array<[string, ScoredCase[]]> {
  const groups = new Map<string, ScoredCase[]>();
  for (const c of cases) {
    for (const name of new Set(namesOf(c))) {
      let g = groups.get(name);
      if (!g) groups.set(name, (g = []));
      g.push(c);
    }
  }
  const names = [...groups.keys()].sort();
  return names.map((name) => [name, groups.get(name)!]);
}

/**
 * Evaluate one strategy's results against the labels.
 * @param labels the cases, in the order `perCase` follows.
 * @param results one per label, matched by `caseId` (an unmatched label or result is an Error).
 * @param facts catalog tools, pinned tools and namespaces.
 * @param ks cut-offs for the `@k` metrics (sorted and deduplicated here); `mrr` and `ndcg` are
 *   always at 10, and `neverSurfaced` uses the largest k.
 * @param opts `intervals`: also the bootstrap 95% interval of every mean figure of every table (`ci95`, see bootstrap.ts).
 */
export function evaluate(
  labels: readonly CaseLabel[],
  results: readonly CaseResult[],
  facts: CatalogFacts,
  ks: readonly number[],
  opts: { intervals?: boolean } = {},
): Evaluation {
  const cutoffs = normalizeKs(ks);
  const byId = matchResults(labels, results);
  const cases = labels.map((l) => scoreCase(l, byId.get(l.id)!, facts, cutoffs));
  const allKeys = tableKeys(cutoffs);

  const graded = cases.filter((c) => c.kind === 'graded');
  const goldTools = graded.flatMap((c) => c.label.expectedTools ?? []);
  const slices = groupBy(cases, (c) => c.label.slices);
  const namespaces = groupBy(graded, (c) => c.goldNamespaces);
  return {
    overall: table(cases, allKeys),
    slices: Object.fromEntries(slices.map(([name, g]) => [name, table(g, allKeys)])),
    namespaces: Object.fromEntries(namespaces.map(([name, g]) => [name, table(g, allKeys)])),
    ...(opts.intervals ? { ci95: intervalsOf(cases, slices, namespaces, allKeys) } : {}),
    neverSurfaced: neverSurfaced(
      cases.map((c) => byId.get(c.label.id)!.ranked),
      cutoffs[cutoffs.length - 1]!,
      facts.toolIds,
      facts.pinned,
      goldTools,
    ),
    perCase: cases.map((c) => ({ caseId: c.label.id, scores: ordered(c.scores, allKeys) })),
  };
}
