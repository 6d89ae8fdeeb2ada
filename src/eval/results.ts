/**
 * The versioned `results.json` envelope. Everything but `timings` and each retriever's `latency`
 * is a deterministic function of the dataset, the configuration and the per-query details, so two
 * runs (or a sharded run merged) compare byte for byte.
 */
import type { PluginRecord } from '../retrievers/origins.ts';
import { canonicalJson, sha256 } from '../util/hash.ts';
import type { ManifestDrift } from '../catalog/manifest.ts';
import type { Case, Catalog } from '../catalog/types.ts';
import { operatingCurve, recallAtRates, type AbstentionCase, type CurvePoint, type RatePoint } from '../metrics/abstention.ts';
import { evaluate } from '../metrics/aggregate.ts';
import { DEFAULT_CONTEXT_WINDOW, type QueryStyle } from '../profiles/types.ts';

/** The context window a results file's profile figures were computed for when its config does not record one (results written before it did). */
export { DEFAULT_CONTEXT_WINDOW };
import type { CallFigures, CaseCalls } from './calls.ts';
import type { CaseLabel, CaseResult, CatalogFacts, Evaluation } from '../metrics/types.ts';
import type { SessionFigures } from './sessions.ts';
import type { SkillComparison } from '../skills/compare.ts';
import type { SkillRetrieval } from '../skills/index.ts';
import type { TokenTable } from '../tokens/table.ts';
import { gitSha, VERSION } from '../util/version.ts';
import { agentMetrics, type AgentMetrics, type Trace } from './traces.ts';

/** Bump when a field of results.json changes meaning or moves. Readers accept this version and older ones. */
export const RESULTS_SCHEMA_VERSION = 1;

import type { DatasetSource } from '../catalog/source.ts';

export type { DatasetSource } from '../catalog/source.ts';

/**
 * A floor chosen by calibration (`--floor auto[:TARGET]`): the lowest floor whose no-tool
 * false-positive rate on the calibration cases is ≤ `target`. `value: null` = no floor is applied
 * (`reason` says why: the strategy has no search, or the target holds without one).
 */
export interface AutoFloor {
  mode: 'auto';
  target: number;
  value: number | null;
  /** The calibration source: `split:<name>` or a cases file. */
  calibratedOn: string;
  /** The no-tool false-positive rate the floor gives on the calibration cases (null: not applicable). */
  calibrationFalsePositiveRate: number | null;
  calibrationNoToolCases: number;
  /**
   * The Clopper–Pearson 95% interval of `calibrationFalsePositiveRate` over the
   * `calibrationNoToolCases` (absent where the rate is null, and in results written before it was
   * recorded): the range the floor's false-positive rate on new requests may take.
   */
  falsePositiveRateInterval?: [number, number];
  reason?: string;
}

/** A strategy's floor as configured: a fixed score, none (`null`), or calibrated. */
export type FloorSetting = number | null | AutoFloor;

export function isAutoFloor(f: FloorSetting | undefined): f is AutoFloor {
  return typeof f === 'object' && f !== null && f.mode === 'auto';
}

/** The score a floor setting applies (undefined: no floor). */
export function floorValue(f: FloorSetting | undefined): number | undefined {
  if (f === null || f === undefined) return undefined;
  if (typeof f === 'number') return f;
  return f.value ?? undefined;
}

/** The calibration cases of a run, recorded so a reader can tell what the floors and fusions were fitted on. */
export interface CalibrationInfo {
  /** `split:<name>` (a split of the evaluated dataset) or the path of a cases file. */
  source: string;
  cases: number;
  noToolCases: number;
  /** sha256 of the canonical JSON of the calibration cases (ids, requests, labels, callers). */
  sha256: string;
}

/** What a run evaluated and how: strategies, cut-offs, floors, calibration, and the options that change figures (hashed into `configHash`). */
export interface EvalConfig {
  retrievers: string[];
  /** Profiles evaluated after the retrievers (absent when none, so older configs hash the same). */
  profiles?: string[];
  /** Cut-offs, ascending. */
  ks: number[];
  /** How many ranked tools the policy keeps: max(ks, 10), so mrr@10 and ndcg@10 are defined. */
  depth: number;
  /** Floor per strategy: a score, `null` (no floor), or a calibrated floor (filled in by the run). */
  floors: Record<string, FloorSetting>;
  /**
   * Profiles that were given a floor their harness does not have (`--floor codex=…`: a what-if;
   * their registry entry does not declare `floorInDesign`), in profile order; absent when none.
   */
  floorsNotInHarness?: string[];
  /** The calibration cases (`--calibrate-on`), when given. */
  calibration?: CalibrationInfo;
  /** Example augmentation: tool examples from the cases of one split (the scored cases are another). */
  examples?: { from: string; perTool: number; added: number };
  /** Sticky-per-task retrieval: a session keeps its tool set until a request matches none of it. */
  sticky?: boolean;
  /** Prompt-caching prices for the profiles' session figures (present when profiles are evaluated). */
  cache?: CachePrices;
  /** Context window of the emulated model for profile budgets and skill listings, when not the default 200,000. */
  contextWindow?: number;
  /** `--query-style`: one query style for every strategy (absent: each profile's own, raw for retrievers). */
  queryStyle?: QueryStyle;
  /** sha256 of the agent-trace file replayed, if any (its content, not its path, so shards run on different machines agree). */
  traces: string | null;
  /** The skill comparison the run makes (present when the input has skills and skill cases): in the configuration, so in its hash. */
  skills?: SkillComparisonConfig;
  /** The plugins active in the run (`--plugin`, config `plugins`): name, version, sha256 of the module, what each registered. Absent when none, so older configs hash the same. */
  plugins?: PluginRecord[];
}

/** How a run compares skill strategies: the searched index's ranking, the catalog sizes and the cut-offs. */
export interface SkillComparisonConfig {
  retrieval: SkillRetrieval;
  sizes: number[];
  ks: number[];
}

/** One case's line in `details/<retriever>.jsonl`. */
export interface QueryDetail {
  caseId: string;
  /** [tool id, score] after scope check and floor, best first. */
  ranked: Array<[string, number]>;
  /** With a floor: the hits it dropped, [tool id, score] best first (ranked + these = the unfloored ranking, at most the run's depth), for the operating curve. */
  belowFloor?: Array<[string, number]>;
  /** Pinned tools the policy appended. */
  pinned: string[];
  /** Tools outside the caller's scopes: returned by the retriever (withheld), or shown by a profile anyway (eager, callable, wire, advertised, loaded, defined). */
  leaks: string[];
  /** Sticky retrieval kept the session's tool set (present only when true). */
  kept?: boolean;
  /** Profiles only: the case's gold tools in front of the model before any search (sent eagerly, or callable from a code-mode SDK). */
  eager?: string[];
  /** Profiles only: the case's gold tools the search put in front of the model beyond the ranking it was scored on (a namespace expansion). */
  expanded?: string[];
  /** Session cases: the same case under the other stickiness (per-turn if the run was sticky, else sticky), for the session figures, with its turn's tokens. */
  alt?: { ranked: string[]; kept?: boolean; beforeTokens?: number; searchTokens?: number };
  /**
   * Retrievers, session cases: the tokens (o200k, Anthropic serialization) of what the turn puts in
   * front of the model: the caller's pinned tools outside the top 5 (`beforeTokens`) and the top 5
   * (`searchTokens`). Profiles record theirs in `exposure`.
   */
  turn?: { beforeTokens: number; searchTokens: number };
  /**
   * Profiles only: eager tools for this case's caller, tools its search put in front of the model,
   * characters of the search result, and tokens (o200k) before the search and added by it; with
   * the harness's own estimator in `estimate` when it has one.
   */
  exposure?: {
    eagerTools: number;
    /** Non-pinned tools shown before any search (eager or callable), the harness's own core tools included. */
    eagerUnpinned?: number;
    /** Of `eagerUnpinned`, the harness's own core tools: pinned for the no-tool false-positive rate (absent when none, and in older results). */
    coreEager?: number;
    loadedTools: number;
    resultChars: number;
    beforeTokens: number;
    searchTokens: number;
    estimate?: { before: number; search: number };
    /** Tokens of definitions that cross the wire before any search without the model reading them (not in `beforeTokens`). */
    wireTokens?: number;
    /** Non-pinned tools the search loaded beyond its ranking (a namespace expansion); absent when none. */
    loadedUnpinned?: number;
    /** Model calls of the case (see `eval/calls.ts`). */
    calls?: CaseCalls;
  };
  /** Search time (ms). A timing: not part of any metric. */
  ms: number;
}

export interface RetrieverResults {
  /** The retriever's own effective configuration. */
  config: Record<string, unknown>;
  /** Figures overall, per slice and per gold namespace, with their bootstrap 95% intervals (`ci95`; absent in results written before them). */
  metrics: Pick<Evaluation, 'overall' | 'slices' | 'namespaces' | 'ci95'>;
  neverSurfaced: Evaluation['neverSurfaced'];
  /** Agent-level figures from replayed traces, when `--traces` was given. */
  agent?: AgentMetrics;
  /**
   * Timings (vary run to run): index build, per-query p50/p95, peak RSS of the process so far, and
   * the retriever's own index counters when it has any (`embed`: texts embedded vs found in the
   * vector cache).
   */
  latency: { indexMs: number; p50Ms: number; p95Ms: number; peakRssMb: number; index?: Record<string, number> };
  /** Multi-turn sessions under per-turn and sticky retrieval (present when the data has sessions). */
  sessions?: SessionFigures;
  /**
   * The operating curve: recall@1, recall@5 and the no-tool false-positive rate at ≥ 20 floors
   * spanning the scores (null: no search, or no graded or no no-tool case). Absent in results
   * written before it existed.
   */
  abstention?: CurvePoint[] | null;
  /** recall@5 at no-tool false-positive rates 0.05, 0.1, 0.2 (null where no floor reaches the rate). */
  recallAtFalsePositiveRate?: Record<string, RatePoint | null> | null;
}

/** What a profile puts in front of the model, summarised (tokens are counted on the exposure model). */
export interface ExposureSummary {
  /** Results one search returns (0: the profile offers no search on this catalog). */
  searchLimit: number;
  /** The profile offered a search tool on this catalog (false: everything it shows is eager). */
  search: boolean;
  /** How a search result reaches the model (`schemas`, `references`, `metadata`, `sdk`; `none` when no search is offered). */
  form: string;
  sticky: boolean;
  /** Before any search, for a caller with every scope and no role. */
  unrestricted: { eagerTools: number; metaTools: string[]; advertisementChars: number; advertisementBytes: number };
  /**
   * The harness's own (core, non-pinned) tools in front of the model before any search, for a caller
   * with every scope: how many (eager or callable) and the tokens of their definitions. They count
   * as pinned for the no-tool false-positive rate. Absent in results written before it was reported.
   */
  coreEager?: { tools: number; tokens: number };
  /** Means over the tool-labelled cases: eager tools for the case's caller, tools a search put in front of the model, characters of the search result. */
  perCase: { eagerTools: number; loadedTools: number; searchResultChars: number };
  /** What the search received: the request as it is (`raw`) or the keyword query a model writes (`keywords`). Absent in older results (raw). */
  queryStyle?: QueryStyle;
}

/** Prompt-caching prices as multiples of the uncached input price. */
export interface CachePrices {
  /** Writing a prefix into the cache (Anthropic, 5-minute TTL: 1.25). */
  writeRatio: number;
  /** Reading a cached prefix (Anthropic: 0.1). */
  readRatio: number;
}

export const DEFAULT_CACHE_PRICES: Readonly<CachePrices> = Object.freeze({ writeRatio: 1.25, readRatio: 0.1 });

/** Turns of the conversation the session figures describe (the seed article's table). */
export const SESSION_TURNS = 12;

/** Token figures of a profile (see docs/results-format.md). */
export interface ProfileTokens {
  counter: string;
  provider: string;
  placement: string;
  /** Before any search, for a caller with every scope: eager definitions + meta tools + advertisement. */
  beforeSearch: number;
  beforeSearchParts: { eager: number; metaTools: number; advertisement: number };
  /** Mean over the tool-labelled cases of the tokens before search for the case's own caller. */
  beforeSearchPerCase: number;
  /** Mean tokens one search adds (its result text and the definitions it loads); 0 without a search. */
  perSearch: number;
  /** Mean tokens in front of the model per case: before search + the search. */
  perCase: number;
  /** `visible` per 1,000 tokens of `perCase`. */
  visiblePer1kTokens: number;
  /** `recall@5` per 1,000 tokens of `perCase` (profiles with a search). */
  recall5Per1kTokens: number | null;
  /** Prefix placement: share of session turns whose loaded set changed from the turn before (0 with no search; null: no session in the data, 1 is assumed). */
  prefixChangeRate: number | null;
  /** A 12-turn conversation, one search a turn, without caching. */
  session12Uncached: number;
  /** The same with prompt caching, in uncached-token equivalents (writes × writeRatio, reads × readRatio). */
  session12Cached: number;
  /** What a changed prefix costs on the turn it changes: the prefix written again instead of read. */
  cacheInvalidation: number;
  cache: CachePrices;
  /** The harness's own estimator on the same texts (Codex bytes/4, Hermes chars/4). */
  estimate?: { counter: string; beforeSearch: number; perSearch: number };
  /** The context window the prompts are checked against (tokens). */
  contextWindow: number;
  /** Share of the tool-labelled cases whose prompt (before search + the search) fits the context window. */
  fitsContext: number;
  /** Tool-labelled cases whose prompt does not fit. */
  overflowCases: number;
  /**
   * Definitions that cross the wire before any search although the model does not read them
   * (Claude Code's admitted deferred definitions): for a caller with every scope, and the mean over
   * the tool-labelled cases. Absent when the profile sends none. Not part of any other figure.
   */
  wire?: { beforeSearch: number; perCase: number };
}

export interface ProfileResults extends RetrieverResults {
  exposure: ExposureSummary;
  tokens: ProfileTokens;
  /** Model round trips of the profile's protocol (absent in results written before they were counted). */
  calls?: CallFigures;
}

/** The versioned envelope of `results.json`: dataset, configuration, per-strategy figures, token table, skills, timings (docs/results-format.md). */
export interface Results {
  schemaVersion: number;
  backpack: { version: string; gitSha: string | null };
  /**
   * `casesSha256`: sha256 of the canonical JSON of the run's cases (all of them, whatever the
   * shard), so a gate or a comparison can refuse results scored on other cases. Absent in results
   * written before it existed.
   */
  dataset: {
    name: string;
    source: DatasetSource;
    catalogSha256: string;
    casesSha256?: string;
    tools: number;
    cases: number;
    reSigned?: ManifestDrift;
    /**
     * Gold tools the catalog does not have (a registry change removed or renamed them): tool id →
     * the ids of the cases (all of the run's, whatever the shard) that expect it, in case order. Those
     * cases are scored as misses for it. Absent when every gold tool is in the catalog.
     */
    goldRemoved?: Record<string, string[]>;
    /**
     * `eval --renames`: gold tools renamed by the registry change, old id → the new id and the
     * cases whose gold was mapped to it. `casesSha256` is then the hash of the cases as given (old
     * ids), and `cases.jsonl` holds them as scored (new ids). Absent without renames applied.
     */
    goldRenamed?: Record<string, { to: string; cases: string[] }>;
  };
  /**
   * What reading the input left out, replaced or accepted with a caveat (queries without
   * judgements, invalid UTF-8 replaced, a manifest re-signed…), one sentence each, in the order
   * said. Absent when there is none.
   */
  warnings?: string[];
  config: EvalConfig;
  /** sha256 of the canonical JSON of `config`. */
  configHash: string;
  /** The shard this file covers, or null for all cases. */
  shard: { index: number; count: number } | null;
  retrievers: Record<string, RetrieverResults>;
  /** Present when profiles were evaluated. */
  profiles?: Record<string, ProfileResults>;
  /** The seed article's token table measured on this catalog (10 … 400 tools). */
  tokenTable: TokenTable;
  /** Skill listings of each harness against a searched skill index, at 250 and 2,500 skills (present when the dataset has skill cases). */
  skills?: SkillComparison;
  timings: { startedAt: string; durationMs: number };
}

/** sha256 of the canonical JSON of a run's cases (`dataset.casesSha256`). */
export function casesHash(cases: readonly Case[]): string {
  return sha256(canonicalJson(cases));
}

export function configHash(config: EvalConfig): string {
  return sha256(canonicalJson(config));
}

/** Catalog facts for the metrics. */
export function catalogFacts(catalog: Catalog): CatalogFacts {
  const ns = new Map(catalog.tools.map((t) => [t.id, t.namespace]));
  return {
    toolIds: catalog.tools.map((t) => t.id),
    pinned: new Set(catalog.tools.filter((t) => t.pinned).map((t) => t.id)),
    namespaceOf: (id) => ns.get(id),
  };
}

export function caseLabel(c: Case): CaseLabel {
  return {
    id: c.id,
    ...(c.expectedTools !== undefined ? { expectedTools: c.expectedTools } : {}),
    ...(c.goldMode ? { goldMode: c.goldMode } : {}),
    slices: c.slices,
  };
}

/** Nearest-rank percentile of a list of numbers (0 for none). */
export function percentile(values: readonly number[], q: number): number {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

/**
 * Metrics of one retriever from its per-query details. `details` must follow the order of `cases`
 * (the dataset's order): the metrics then do not depend on how the run was sharded.
 */
export function retrieverResults(...args: Parameters<typeof scoredResults>): RetrieverResults {
  return scoredResults(...args).results;
}

/** {@link retrieverResults}, and each case's own scores from the same scoring (by case id), for figures built on them. */
export function scoredResults(
  cases: readonly Case[],
  details: readonly QueryDetail[],
  facts: CatalogFacts,
  config: EvalConfig,
  retrieverConfig: Record<string, unknown>,
  latency: RetrieverResults['latency'],
  traces?: ReadonlyMap<string, Trace>,
): { results: RetrieverResults; perCase: Map<string, Record<string, number>> } {
  const results = details.map((d) => caseResultOf(d, config));
  const ev = evaluate(cases.map(caseLabel), results, facts, config.ks, { intervals: true });
  const curveCases = abstentionCases(cases, details);
  const out: RetrieverResults = {
    config: retrieverConfig,
    metrics: { overall: ev.overall, slices: ev.slices, namespaces: ev.namespaces, ...(ev.ci95 ? { ci95: ev.ci95 } : {}) },
    neverSurfaced: ev.neverSurfaced,
    latency,
    abstention: operatingCurve(curveCases, facts.pinned, { search: details.some((d) => d.exposure) }) ?? null,
    recallAtFalsePositiveRate: recallAtRates(curveCases, facts.pinned) ?? null,
  };
  if (traces) out.agent = agentMetrics(cases, details, facts, traces, config.ks[config.ks.length - 1]!);
  return { results: out, perCase: new Map(ev.perCase.map((c) => [c.caseId, c.scores])) };
}

/**
 * The overall figures of one strategy's `details` (one a case, in the order of `cases`), computed as
 * the run computed `metrics.overall` (`scoredResults` without the intervals): what a results
 * folder's consistency check recomputes.
 */
export function overallOfDetails(
  cases: readonly Case[],
  details: readonly QueryDetail[],
  facts: CatalogFacts,
  config: Pick<EvalConfig, 'ks' | 'contextWindow'>,
): Record<string, number> {
  return evaluate(
    cases.map(caseLabel),
    details.map((d) => caseResultOf(d, config)),
    facts,
    config.ks,
  ).overall;
}

/**
 * Each case's own figures for one strategy's details (`evaluate`'s per-case tables), by case id:
 * what paired tests, comparisons and the case explorer read. A detail whose case is not in `cases`
 * (the dataset no longer has it) is left out. `ks`: the cut-offs (default: the run's).
 */
export function perCaseScores(
  details: readonly QueryDetail[],
  cases: readonly Case[],
  facts: CatalogFacts,
  config: Pick<EvalConfig, 'ks' | 'contextWindow'>,
  ks: readonly number[] = config.ks,
): Map<string, Record<string, number>> {
  const byId = new Map(cases.map((c) => [c.id, c]));
  const labels: CaseLabel[] = [];
  const results: CaseResult[] = [];
  for (const d of details) {
    const c = byId.get(d.caseId);
    if (!c) continue;
    labels.push(caseLabel(c));
    results.push(caseResultOf(d, config));
  }
  return new Map(evaluate(labels, results, facts, ks).perCase.map((p) => [p.caseId, p.scores]));
}

/** What the metrics see of one case's details: the ranked ids, leaks, and for profiles what is eager and whether the prompt fits. */
export function caseResultOf(d: QueryDetail, config: Pick<EvalConfig, 'contextWindow'>): CaseResult {
  return {
    caseId: d.caseId,
    ranked: d.ranked.map(([id]) => id),
    scopeLeaks: d.leaks?.length ?? 0,
    ...(d.eager ? { eager: d.eager } : {}),
    ...(d.eager && d.expanded?.length ? { expanded: d.expanded } : {}),
    ...(d.exposure ? { eagerUnpinned: eagerBeyondCore(d.exposure), fits: promptFits(d.exposure, config.contextWindow ?? DEFAULT_CONTEXT_WINDOW) } : {}),
    ...(d.exposure?.loadedUnpinned ? { loadedUnpinned: true } : {}),
  };
}

/**
 * A tool that is neither pinned nor the harness's own core tool is in front of the model before any
 * search: a no-tool case is then a false positive whatever the search does. Core tools the harness
 * always lists count as pinned (reported apart as `coreEager`), so the no-tool false-positive rate
 * measures what retrieval added.
 */
export function eagerBeyondCore(exposure: NonNullable<QueryDetail['exposure']>): boolean {
  return (exposure.eagerUnpinned ?? 0) - (exposure.coreEager ?? 0) > 0;
}

/** `{ goldRemoved }` when some case expects a tool the catalog lacks (tool ids sorted, case ids in case order), else `{}`. */
export function goldRemovedOf(catalog: Catalog, cases: readonly Case[]): { goldRemoved?: Record<string, string[]> } {
  const ids = new Set(catalog.tools.map((t) => t.id));
  const out = new Map<string, string[]>();
  for (const c of cases)
    for (const id of new Set(c.expectedTools ?? [])) {
      if (ids.has(id)) continue;
      const list = out.get(id);
      if (list) list.push(c.id);
      else out.set(id, [c.id]);
    }
  if (!out.size) return {};
  return { goldRemoved: Object.fromEntries([...out.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) };
}

/** A profile's prompt for one case (tokens before search + the search) fits `window`. */
export function promptFits(exposure: NonNullable<QueryDetail['exposure']>, window: number): boolean {
  return exposure.beforeTokens + exposure.searchTokens <= window;
}

/** The tool-labelled cases with their unfloored rankings (ranked + belowFloor), for the operating curve. */
function abstentionCases(cases: readonly Case[], details: readonly QueryDetail[]): AbstentionCase[] {
  const out: AbstentionCase[] = [];
  cases.forEach((c, i) => {
    if (c.expectedTools === undefined) return;
    const d = details[i]!;
    out.push({
      expected: c.expectedTools,
      ...(c.goldMode ? { goldMode: c.goldMode } : {}),
      hits: d.belowFloor?.length ? [...d.ranked, ...d.belowFloor] : d.ranked,
      ...(d.exposure ? { eagerUnpinned: eagerBeyondCore(d.exposure) } : {}),
    });
  });
  return out;
}

/** The envelope, fields in their documented order. */
export function envelope(parts: Omit<Results, 'schemaVersion' | 'backpack' | 'configHash'>): Results {
  return {
    schemaVersion: RESULTS_SCHEMA_VERSION,
    backpack: { version: VERSION, gitSha: gitSha() },
    dataset: parts.dataset,
    ...(parts.warnings?.length ? { warnings: parts.warnings } : {}),
    config: parts.config,
    configHash: configHash(parts.config),
    shard: parts.shard,
    retrievers: parts.retrievers,
    ...(parts.profiles ? { profiles: parts.profiles } : {}),
    tokenTable: parts.tokenTable,
    ...(parts.skills ? { skills: parts.skills } : {}),
    timings: parts.timings,
  };
}
