/**
 * Inputs and outputs of the metric functions. Metrics are pure functions of ranked tool ids and
 * labels: they import no retriever.
 */

/** What a case is labelled with, as the metrics need it. */
export interface CaseLabel {
  id: string;
  /** `[]` = no tool needed; `undefined` = not labelled for tools (left out of tool metrics). */
  expectedTools?: readonly string[];
  /** `all`: every expected tool is needed (default); `any`: one of them will do. */
  goldMode?: 'all' | 'any';
  slices: readonly string[];
}

/** What a strategy exposed for one case, after the policy layer (scope filter, floor, depth). */
export interface CaseResult {
  caseId: string;
  /** Ranked tool ids that survived the floor, best first, at most the deepest k. Pinned tools appended by the policy are NOT in here. */
  ranked: readonly string[];
  /** How many tools the retriever returned that the caller's scopes do not allow (must be 0). */
  scopeLeaks: number;
  /**
   * Profiles only: the case's gold tools in front of the model besides the ranking — sent eagerly,
   * callable from a code-mode SDK, or brought by a search beyond its ranking (a namespace
   * expansion). Present ⇒ the `visible` metric is computed.
   */
  eager?: readonly string[];
  /**
   * Profiles only: of the gold tools in front of the model besides the ranking, those only a
   * namespace expansion brought (not eager, not ranked). Part of `visible`, and reported apart as
   * `visibleByExpansion`; `eager` need not repeat them.
   */
  expanded?: readonly string[];
  /**
   * Profiles only: a tool that is neither pinned nor one of the harness's own core tools is in
   * front of the model before any search for this case's caller (listed eagerly with its schema, or
   * callable from a code-mode SDK). A no-tool case is then a false positive whatever the search
   * returns. Core tools the harness always lists count as pinned here (the results report them
   * apart, `exposure.coreEager`). Present ⇒ `searchNoToolFalsePositiveRate` is computed too.
   */
  eagerUnpinned?: boolean;
  /**
   * Profiles only: the search put a non-pinned tool in front of the model beyond its ranking (a
   * namespace expansion): a no-tool case is then a false positive of the search, as when the
   * ranking itself holds one.
   */
  loadedUnpinned?: boolean;
  /** Profiles only: the case's prompt fits the context window (false: the request cannot be sent, so nothing is visible and nothing ranked counts: every ranking metric scores the case 0). */
  fits?: boolean;
}

/** Catalog facts the metrics need. */
export interface CatalogFacts {
  /** Every tool id of the catalog, in catalog order. */
  toolIds: readonly string[];
  /** Pinned tools: always exposed, never a false positive. */
  pinned: ReadonlySet<string>;
  /** Namespace of a tool id. */
  namespaceOf(id: string): string | undefined;
}

/** Metric id (`recall@5`, `top1`, …) → value. Keys are formatted by `formatMetricId`. */
export type MetricTable = Record<string, number>;

export interface Evaluation {
  /** Over all cases. Also carries the counts `cases`, `gradedCases`, `noToolCases`, `multiGoldCases`. */
  overall: MetricTable;
  /** Per slice tag (a case counts in each of its slices). */
  slices: Record<string, MetricTable>;
  /** Per namespace of the gold tools (graded cases only; a case counts in each of its gold namespaces). */
  namespaces: Record<string, MetricTable>;
  /** Tools no case brought into the top k (k = the deepest cut-off). */
  neverSurfaced: {
    k: number;
    /** Catalog tools (pinned excluded) that never surfaced. */
    count: number;
    /** Tools that are gold for at least one graded case yet never surfaced, sorted: the actionable ones. */
    gold: string[];
  };
  /** Per-case scores (same order as the cases), for paired significance tests later. */
  perCase: Array<{ caseId: string; scores: MetricTable }>;
  /**
   * When asked for: the bootstrap 95% interval [low, high] of every mean figure of `overall`, of
   * each slice and of each namespace (the counts and `scopeLeakCount` have none).
   */
  ci95?: {
    overall: Record<string, [number, number]>;
    slices: Record<string, Record<string, [number, number]>>;
    namespaces: Record<string, Record<string, [number, number]>>;
  };
}
