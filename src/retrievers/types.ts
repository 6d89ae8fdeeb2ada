/**
 * The retriever contract: `index(catalog)` once, then `search(request, context)` per request,
 * returning ranked tool ids with scores. Small on purpose; optional capabilities are separate
 * interfaces (see `Describable`) and never widen `Retriever`.
 */
import type { RoleMap } from '../catalog/roles.ts';
import type { Catalog } from '../catalog/types.ts';
import type { EndpointSettings } from './embed/endpoint.ts';

/** What a retriever knows about one request besides its text. */
export interface SearchContext {
  /**
   * Tools the caller may see, by position in the indexed catalog's `tools` (1 = allowed);
   * `undefined` = all. A retriever must never score or return a tool outside it: the policy layer
   * builds it from the caller's scopes *before* ranking.
   */
  allowed?: Uint8Array;
  /** The caller's scopes (`undefined` = unrestricted), role or task phase. */
  callerScopes?: readonly string[];
  role?: string;
  /** Return at most this many ranked tools. */
  k: number;
  /**
   * A floor a caller wants applied; a retriever may use it to stop early. The policy layer never
   * sets it: it applies the floor itself and keeps the hits below it (`Exposure.belowFloor`) for
   * the operating curve.
   */
  floor?: number;
  /** The session this request belongs to (for sticky retrieval). */
  session?: { id: string; turn: number };
}

/** One ranked tool. */
export interface Hit {
  id: string;
  score: number;
}

export interface Retriever {
  /** The registry name it was created under. */
  readonly name: string;
  /** Build whatever index the retriever needs. Called once before any `search`. */
  index(catalog: Catalog): Promise<void>;
  /** Ranked hits, best first, ordered by `rankStable` (score descending, then tool id). */
  search(request: string, context: SearchContext): Promise<Hit[]>;
}

/** Optional capability: the retriever's effective configuration, recorded in results. */
export interface Describable {
  describe(): Record<string, unknown>;
}

export function isDescribable(r: Retriever): r is Retriever & Describable {
  return typeof (r as Partial<Describable>).describe === 'function';
}

/** Optional capability: report progress while indexing (encoding thousands of tools takes a while). */
export interface IndexProgress {
  setProgress(onProgress: ((done: number, total: number) => void) | undefined): void;
}

export function reportsIndexProgress(r: Retriever): r is Retriever & IndexProgress {
  return typeof (r as Partial<IndexProgress>).setProgress === 'function';
}

/** Optional capability: counters about the last index build (texts encoded, cache hits…). They vary run to run. */
export interface IndexStats {
  stats(): object;
}

export function hasIndexStats(r: Retriever): r is Retriever & IndexStats {
  return typeof (r as Partial<IndexStats>).stats === 'function';
}

/** Options a user can give every retriever from the command line; each retriever uses what applies to it. */
export interface RetrieverOptions {
  /** Embedding model: a Hugging Face id, a local model folder or an endpoint (`openai:…`, `ollama:…`) (default: the offline model). */
  model?: string;
  /** With an endpoint model: how it is called (batching, concurrency, timeout, retries, the run's token budget). */
  endpoint?: EndpointSettings;
  /** Role / phase → namespaces map, for gating (the dataset's roles.json, or --roles FILE). */
  roles?: RoleMap;
}

/**
 * What a registry entry (retriever or profile) declares about itself, so that the evaluation, the
 * diff and the command line ask the registry instead of knowing strategies by name. All optional.
 */
export interface StrategyCapabilities {
  /** It embeds with the embedding model: `--model` applies to it. */
  usesModel?: boolean;
  /**
   * Its figures may move by float rounding between machines, so expected figures are compared
   * within a tolerance. Default: `usesModel`.
   */
  approximate?: boolean;
  /** Relative cost on a large catalog (default 1; measured on monster-7), so the evaluation starts the heaviest strategies first. */
  costHint?: number;
  /**
   * The score of a tool depends only on the request and that tool's own text (not on the rest of
   * the catalog), so a changed catalog's ranking can be derived from the old one (`src/diff/rankings.ts`).
   */
  toolLocal?: boolean;
  /**
   * A profile whose design has a score threshold (the seed's semantic retrieval and the strategies
   * built on it): a floor for every strategy (`--floor X`, `--floor auto`) applies to it. A profile
   * without it runs as its harness runs, with no floor, unless `--floor name=…` names it (a what-if,
   * labelled "floor not in the harness"). Retrievers always take a floor; they do not declare it.
   */
  floorInDesign?: boolean;
}

/** An entry of the retriever registry. */
export interface RetrieverFactory extends StrategyCapabilities {
  /** One line for `--help`, the docs table and error messages: what the strategy does and its score scale, no benchmark figures. */
  description: string;
  create(name: string, options?: RetrieverOptions): Retriever;
}

/**
 * Optional capability: a composite (a fusion of retrievers, a profile's searcher) built from other
 * retrievers, its children. Index progress is handed down to them and index counters read from them.
 */
export interface Composite {
  readonly children: readonly Retriever[];
}

/** Whether `x` (a retriever or a profile) declares children, each a retriever. */
export function isComposite(x: object): x is Composite {
  const children = (x as Partial<Composite>).children;
  return Array.isArray(children) && children.every((c: unknown) => typeof c === 'object' && c !== null && typeof (c as Retriever).search === 'function');
}

/**
 * Optional capability: the score `search` would give every allowed tool, by catalog position, in
 * one array, for fusion over the whole catalog without ranking each child's list. `returned[p]` is
 * 1 exactly for the tools `search` with k = every tool would return (BM25: those scoring > 0;
 * embeddings: every allowed tool).
 */
export interface DenseScoring {
  denseScores(request: string, context: Omit<SearchContext, 'k'>): Promise<{ scores: Float64Array; returned: Uint8Array }>;
}

export function hasDenseScores(r: Retriever): r is Retriever & DenseScoring {
  return typeof (r as Partial<DenseScoring>).denseScores === 'function';
}

/**
 * Optional capability: prepare a batch of upcoming requests in one pass (e.g. the dense scores of
 * many requests per read of an index, or their encodings in one model call), for the `search` /
 * `denseScores` calls that follow. Searching afterwards must give exactly what it gives without
 * it, for the requests prefetched and any other; what is prepared may be dropped at any time
 * (memory is bounded), and a request not prepared is searched as usual.
 */
export interface Prefetching {
  prefetch(requests: readonly string[]): Promise<void>;
}

export function isPrefetching(r: Retriever): r is Retriever & Prefetching {
  return typeof (r as Partial<Prefetching>).prefetch === 'function';
}

/** A labelled case as calibration sees it: the request, its gold tools (`[]` = no tool needed) and its caller. */
export interface CalibrationCase {
  id: string;
  request: string;
  expectedTools: readonly string[];
  callerScopes?: readonly string[];
  role?: string;
}

/**
 * Optional capability: fit whatever maps the retriever's raw component scores onto its output
 * scale, on calibration cases only (a train split, never the scored cases). Called after `index`
 * and before any `search`; without it (no calibration source) the retriever uses its documented
 * defaults. Fitting must be deterministic: the same catalog and cases give the same parameters.
 */
export interface Calibrating {
  calibrate(cases: readonly CalibrationCase[]): Promise<void>;
}

export function isCalibrating(r: Retriever): r is Retriever & Calibrating {
  return typeof (r as Partial<Calibrating>).calibrate === 'function';
}

/**
 * Optional capability: run the searches of upcoming cases ahead (a remote service: several requests
 * in flight), for the `search` calls that follow with the same request and context. Searching
 * afterwards must give exactly what it gives without it; a search whose request or context differs
 * (a sticky session's re-ranking) is run as usual.
 */
export interface SearchPrefetching {
  prefetchSearches(items: ReadonlyArray<{ request: string; context: SearchContext }>): Promise<void>;
}

export function isSearchPrefetching(r: Retriever): r is Retriever & SearchPrefetching {
  return typeof (r as Partial<SearchPrefetching>).prefetchSearches === 'function';
}

/** Optional capability: warnings about the last run's searches (a service that broke its protocol), for the run's warnings. */
export interface ReportsWarnings {
  warnings(): string[];
}

export function reportsWarnings(r: object): r is ReportsWarnings {
  return typeof (r as Partial<ReportsWarnings>).warnings === 'function';
}
