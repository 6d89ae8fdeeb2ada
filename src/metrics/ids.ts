/**
 * Metric ids as typed values: one table ({@link METRICS}), one parser ({@link parseMetricId}) and one
 * formatter ({@link formatMetricId}). YAML keys, JSON fields, report columns and docs all go through
 * these, so `recall@5` is spelled one way everywhere.
 *
 * Grammar: `<kind>` for kinds without a cut-off, `<kind>@<k>` for kinds with one, where `<k>` is a
 * positive decimal integer without leading zeros. Every string `parseMetricId` accepts is returned
 * unchanged by `formatMetricId(parseMetricId(s))`.
 */
import { didYouMean } from '../util/suggest.ts';

/** Quality metrics computed from ranked ids and labels. */
export type MetricKind =
  | 'top1'
  | 'recall'
  | 'allGold'
  | 'anyGold'
  | 'mrr'
  | 'ndcg'
  | 'missedEntirely'
  | 'noToolFalsePositiveRate'
  | 'searchNoToolFalsePositiveRate'
  | 'scopeLeakCount'
  | 'namespaceRecall'
  | 'visible'
  | 'visibleByExpansion';

/** Case counts, always present in a metric table. */
export type CountKind = 'cases' | 'gradedCases' | 'noToolCases' | 'multiGoldCases';

/** Cost figures measured by the runner (not by the metric kernels). */
export type LatencyKind = 'indexMs' | 'p50Ms' | 'p95Ms' | 'peakRssMb';

/** Every kind a metric id may have. */
export type MetricIdKind = MetricKind | CountKind | LatencyKind;

/** What docs, `--help` and the reports print about a metric kind. */
export interface MetricInfo {
  /** One sentence: the definition. */
  description: string;
  /** Whether the id carries a cut-off (`recall@5`) or not (`top1`). */
  needsK: boolean;
  /** `true`/`false` for quality and cost figures; `null` for counts and for a part of another figure (`visibleByExpansion`), which are neither. */
  higherIsBetter: boolean | null;
  /** Quality metric, case count, or cost figure. */
  group: 'quality' | 'count' | 'cost';
  /**
   * A few words for a report's tooltip; "the top k" is read as the id's own cut-off
   * ("the top 5" for `recall@5`). See {@link metricTitle}.
   */
  title: string;
  /** A report's column label, for kinds whose id is long; the id itself otherwise. See {@link metricLabel}. */
  label?: string;
  /** The console summary's narrower column label, where it differs from the id. See {@link consoleLabel}. */
  consoleLabel?: string;
}

/**
 * The one table of metric kinds, in display order (quality metrics, then counts, then costs).
 * Docs and help iterate it; metric tables list their keys in this order.
 */
export const METRICS = {
  top1: {
    description: 'Share of graded cases whose first ranked tool is a gold tool.',
    needsK: false,
    higherIsBetter: true,
    group: 'quality',
    title: 'share of graded cases whose first-ranked tool is gold',
  },
  recall: {
    description: "Graded cases: |gold ∩ top-k| / |gold| (goldMode 'all'), or 1 if any gold tool is in the top k (goldMode 'any'); averaged.",
    needsK: true,
    higherIsBetter: true,
    group: 'quality',
    title: 'share of the gold tools in the top k',
  },
  allGold: {
    description: "Multi-gold cases (≥ 2 tools, goldMode 'all'): share where every gold tool is in the top k.",
    needsK: true,
    higherIsBetter: true,
    group: 'quality',
    title: 'multi-gold cases with every gold tool in the top k',
  },
  anyGold: {
    description: "Multi-gold cases (≥ 2 tools, goldMode 'all'): share where at least one gold tool is in the top k.",
    needsK: true,
    higherIsBetter: true,
    group: 'quality',
    title: 'multi-gold cases with at least one gold tool in the top k',
  },
  mrr: {
    description: 'Graded cases: mean of 1 / rank of the first gold tool within the top k (0 if none).',
    needsK: true,
    higherIsBetter: true,
    group: 'quality',
    title: 'mean reciprocal rank of the first gold tool in the top k',
  },
  ndcg: {
    description: "Graded cases: nDCG over the top k with binary gains and a log2(rank + 1) discount; under goldMode 'any' only the first gold hit gains.",
    needsK: true,
    higherIsBetter: true,
    group: 'quality',
    title: 'normalised discounted cumulative gain in the top k',
  },
  missedEntirely: {
    description: 'Share of graded cases with no gold tool in the top k: the model never had a chance.',
    needsK: true,
    higherIsBetter: false,
    group: 'quality',
    title: 'graded cases with no gold tool in the top k (lower is better)',
  },
  noToolFalsePositiveRate: {
    description:
      "Share of no-tool cases (expected: []) where any non-pinned tool is in front of the model: for a retriever, any tool that survived the floor; for a profile, any non-pinned tool listed eagerly, advertised with its schema, callable from a code-mode SDK, returned by its search or expanded by it (a namespace opened). The harness's own core tools, listed whatever the request, count as pinned (reported apart as `exposure.coreEager`), so the figure measures what retrieval added.",
    needsK: false,
    higherIsBetter: false,
    group: 'quality',
    title:
      "share of no-tool cases where any non-pinned tool is in front of the model: listed eagerly, advertised with its schema, or returned by a search; the harness's own core tools count as pinned (lower is better)",
    label: 'no-tool FP rate',
    consoleLabel: 'noToolFP',
  },
  searchNoToolFalsePositiveRate: {
    description:
      "Profiles with a search only: share of no-tool cases where the profile's search returned any non-pinned tool above the floor or expanded one (a namespace opened; eager tools not counted).",
    needsK: false,
    higherIsBetter: false,
    group: 'quality',
    title: 'profiles with a search: share of no-tool cases where the search returned a non-pinned tool, eager tools not counted (lower is better)',
    label: 'search no-tool FP rate',
  },
  scopeLeakCount: {
    description:
      "Total number of tools outside the caller's scopes, over all cases (must be 0): returned by a search (and withheld), or, for a profile, put in front of the model anywhere — eager, callable from an SDK, on the wire, named in the advertisement, loaded or defined by a search.",
    needsK: false,
    higherIsBetter: false,
    group: 'quality',
    title: "tools returned outside the caller's scopes (must be 0)",
    label: 'scope leaks',
    consoleLabel: 'leaks',
  },
  namespaceRecall: {
    description: 'Graded cases: |ns(gold) ∩ ns(top-k)| / |ns(gold)|, the share of gold namespaces surfaced; averaged.',
    needsK: true,
    higherIsBetter: true,
    group: 'quality',
    title: 'share of gold namespaces in the top k',
  },
  visible: {
    description:
      "Profiles only: graded cases, the share of gold tools in front of the model after one search — sent eagerly or returned by the profile's search (goldMode 'any': 1 if one is); averaged.",
    needsK: false,
    higherIsBetter: true,
    group: 'quality',
    title: 'share of gold tools in front of the model (eager or returned by one search)',
  },
  visibleByExpansion: {
    description:
      "Profiles with a search only: the part of `visible` that only a namespace expansion brought: graded cases, `visible` minus what the same case scores counting only the eager tools and the search's ranking (so `visible` = that figure + this one, case by case); averaged. Ranked recall never counts an expansion.",
    needsK: false,
    higherIsBetter: null,
    group: 'quality',
    title: 'the part of visible that only a namespace expansion brought (gold tools loaded beside the ranking, not ranked)',
    label: 'visible by expansion',
    consoleLabel: 'byExpansion',
  },
  cases: { description: 'Number of cases.', needsK: false, higherIsBetter: null, group: 'count', title: 'number of cases' },
  gradedCases: {
    description: 'Number of cases labelled with at least one expected tool.',
    needsK: false,
    higherIsBetter: null,
    group: 'count',
    title: 'graded cases: labelled with at least one expected tool',
  },
  noToolCases: {
    description: 'Number of cases labelled as needing no tool (expected: []).',
    needsK: false,
    higherIsBetter: null,
    group: 'count',
    title: 'no-tool cases: labelled as needing no tool',
  },
  multiGoldCases: {
    description: "Number of cases with at least two expected tools and goldMode 'all'.",
    needsK: false,
    higherIsBetter: null,
    group: 'count',
    title: "multi-gold cases: at least two expected tools, goldMode 'all'",
  },
  indexMs: {
    description: 'Time to build the index, in milliseconds.',
    needsK: false,
    higherIsBetter: false,
    group: 'cost',
    title: 'index build time (varies run to run)',
    label: 'index ms',
  },
  p50Ms: {
    description: 'Median query latency, in milliseconds.',
    needsK: false,
    higherIsBetter: false,
    group: 'cost',
    title: 'median search time per query (varies run to run)',
    label: 'p50 ms',
  },
  p95Ms: {
    description: '95th percentile query latency, in milliseconds.',
    needsK: false,
    higherIsBetter: false,
    group: 'cost',
    title: '95th percentile search time per query (varies run to run)',
    label: 'p95 ms',
  },
  peakRssMb: {
    description: 'Peak resident set size of the run, in megabytes.',
    needsK: false,
    higherIsBetter: false,
    group: 'cost',

    title: 'peak resident memory of the run (varies run to run)',
    label: 'peak RSS MB',
  },
} as const satisfies Record<MetricIdKind, MetricInfo>;

/** Kinds whose id carries a cut-off (`recall@5`). */
export type KindWithK = {
  [K in MetricIdKind]: (typeof METRICS)[K]['needsK'] extends true ? K : never;
}[MetricIdKind];

/** Kinds whose id has no cut-off (`top1`). */
export type KindWithoutK = Exclude<MetricIdKind, KindWithK>;

/** A parsed metric id. `k` is present exactly when the kind needs it. */
export type MetricId = { kind: KindWithK; k: number } | { kind: KindWithoutK; k?: undefined };

/** Every metric kind, in {@link METRICS} order. */
export const METRIC_KINDS: readonly MetricIdKind[] = Object.keys(METRICS) as MetricIdKind[];

/** Whether `s` is a metric kind (not a full id: `recall`, not `recall@5`). */
export function isMetricKind(s: string): s is MetricIdKind {
  return Object.prototype.hasOwnProperty.call(METRICS, s);
}

/** Whether ids of this kind carry a cut-off. */
export function needsK(kind: MetricIdKind): kind is KindWithK {
  return METRICS[kind].needsK;
}

const K_PATTERN = /^[1-9][0-9]*$/;

/**
 * Parse `top1`, `recall@5`, … into a {@link MetricId}. Throws an Error on an unknown kind (with a
 * "did you mean"), a missing or extra `@k`, or a cut-off that is not a positive integer written
 * without leading zeros.
 */
export function parseMetricId(s: string): MetricId {
  if (typeof s !== 'string' || s === '') throw new Error('empty metric id');
  const at = s.indexOf('@');
  const name = at < 0 ? s : s.slice(0, at);
  if (!isMetricKind(name)) {
    throw new Error(`unknown metric "${name}" in "${s}"${didYouMean(name, METRIC_KINDS)}`);
  }
  if (!needsK(name)) {
    if (at >= 0) throw new Error(`metric "${s}": ${name} takes no cut-off, write "${name}"`);
    return { kind: name };
  }
  if (at < 0) throw new Error(`metric "${s}": ${name} needs a cut-off, write "${name}@k" (e.g. "${name}@5")`);
  const kText = s.slice(at + 1);
  if (!K_PATTERN.test(kText)) {
    const hint = /^0+$/.test(kText)
      ? 'k must be ≥ 1'
      : /^[0-9]+$/.test(kText)
        ? `write "${name}@${Number(kText)}" without leading zeros`
        : 'k must be a positive integer';
    throw new Error(`metric "${s}": ${hint}`);
  }
  const k = Number(kText);
  if (!Number.isSafeInteger(k)) throw new Error(`metric "${s}": k is too large`);
  return { kind: name, k };
}

/** Format a {@link MetricId} as `top1` or `recall@5`. Throws on an id that `parseMetricId` would not produce. */
export function formatMetricId(id: MetricId): string {
  const kind: string = id.kind;
  if (!isMetricKind(kind)) throw new Error(`unknown metric "${kind}"${didYouMean(kind, METRIC_KINDS)}`);
  if (!needsK(kind)) {
    if (id.k !== undefined) throw new Error(`metric ${kind} takes no cut-off, got k = ${id.k}`);
    return kind;
  }
  const k = id.k;
  if (k === undefined || !Number.isSafeInteger(k) || k < 1) {
    throw new Error(`metric ${kind} needs an integer cut-off k ≥ 1, got ${String(k)}`);
  }
  return `${kind}@${k}`;
}

/** Display order of metric ids: {@link METRICS} order, then ascending k. */
export function compareMetricIds(a: MetricId, b: MetricId): number {
  const d = METRIC_KINDS.indexOf(a.kind) - METRIC_KINDS.indexOf(b.kind);
  return d !== 0 ? d : (a.k ?? 0) - (b.k ?? 0);
}

/** The count a quality rate of this kind is a mean over, in its metric table (null: not a mean over cases: counts, costs, the leak sum). */
export function casesBehindKind(kind: MetricIdKind): 'gradedCases' | 'noToolCases' | 'multiGoldCases' | null {
  if (METRICS[kind].group !== 'quality' || kind === 'scopeLeakCount') return null;
  if (kind === 'noToolFalsePositiveRate' || kind === 'searchNoToolFalsePositiveRate') return 'noToolCases';
  if (kind === 'allGold' || kind === 'anyGold') return 'multiGoldCases';
  return 'gradedCases';
}

/** {@link casesBehindKind} of a metric id (null for an id that does not parse). */
export function casesBehind(id: string): 'gradedCases' | 'noToolCases' | 'multiGoldCases' | null {
  try {
    return casesBehindKind(parseMetricId(id).kind);
  } catch {
    return null;
  }
}

/** The {@link METRICS} entry of a metric id's kind (`recall@5` → `recall`), or undefined when the id does not parse. */
export function metricInfo(id: string): MetricInfo | undefined {
  try {
    return METRICS[parseMetricId(id).kind];
  } catch {
    return undefined;
  }
}

/** Whether a higher value of a metric id is better: true or false, null for counts (neither), undefined for an id that does not parse. */
export function higherIsBetter(id: string): boolean | null | undefined {
  return metricInfo(id)?.higherIsBetter;
}

/** A metric id as a report's column label: `no-tool FP rate` for `noToolFalsePositiveRate`; most ids are their own label. */
export function metricLabel(id: string): string {
  return metricInfo(id)?.label ?? id;
}

/** A metric id as the console summary's column label: `noToolFP`, `leaks`; other ids are their own label. */
export function consoleLabel(id: string): string {
  return metricInfo(id)?.consoleLabel ?? id;
}

/** A report's tooltip of a metric id: "share of the gold tools in the top 5" for `recall@5`; an id that does not parse is its own title. */
export function metricTitle(id: string): string {
  let parsed: MetricId;
  try {
    parsed = parseMetricId(id);
  } catch {
    return id;
  }
  const title = METRICS[parsed.kind].title;
  return parsed.k === undefined ? title : title.replace('the top k', `the top ${parsed.k}`);
}
