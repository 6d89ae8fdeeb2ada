/**
 * The profile contract: a strategy of a real harness (or of the seed article) as a composition of
 * a search engine (a {@link Retriever}, or none) and an **exposure model** — what the model sees
 * before any search (eager schemas, advertisement text, meta tools) and what one search adds
 * (loaded schemas, references, metadata). The evaluation scores the search like a retriever's and
 * counts what is in front of the model on the exposure model (tokens are counted on it later).
 *
 * Scope filtering happens before ranking here too: `beforeSearch` sees only the tools the caller's
 * mask allows, and the search goes through the policy layer with the same mask.
 */
import type { Catalog, JsonSchema } from '../catalog/types.ts';
import type { Hit, Retriever } from '../retrievers/types.ts';
import type { CatalogListing } from './catalog-listing.ts';

/** A tool definition the harness itself puts in front of the model (a meta tool such as `tool_search`). */
export interface ToolDefinition {
  name: string;
  description: string;
  inputSchema: JsonSchema;
}

/** Who is asking: the policy's scope mask (by catalog position, `undefined` = everything) and role. */
export interface Caller {
  allowed?: Uint8Array;
  callerScopes?: readonly string[];
  role?: string;
}

/** What the model sees before any search, for one caller. */
export interface BeforeSearch {
  /** Tools whose full definition is in the request from the start (catalog order). */
  eager: readonly string[];
  /** The harness's own tools that stand in for the deferred ones (`tool_search`, `run_code`, …). */
  metaTools: readonly ToolDefinition[];
  /**
   * Catalog tools whose full definitions cross the wire before any search although the model does
   * not read them (Claude Code's admitted deferred definitions, sent with `defer_loading: true`):
   * reported as wire tokens, apart from what the model reads. Absent = none.
   */
  wire?: readonly string[];
  /**
   * Catalog tools the model can call from the advertisement alone, without their definitions being
   * eager (a code-mode SDK lists their signatures): counted as visible like eager tools, their
   * tokens are the advertisement's. Catalog order. Absent = none.
   */
  callable?: readonly string[];
  /**
   * Text that advertises what can be found (namespace list, deferred names, a compact catalog, a
   * generated SDK): exactly as the model would read it, `''` when there is none.
   */
  advertisement: string;
  /**
   * The advertisement as a catalog listing (the same text, kept as per-tool pieces: see
   * `catalog-listing.ts`), when it lists tools one piece each. Absent = only `advertisement`.
   */
  listing?: CatalogListing;
}

/** How a search result reaches the model. */
export type SearchForm =
  /** full definitions of the hits become callable (Codex: typed `tool_search_output` with schemas) */
  | 'schemas'
  /** `tool_reference` blocks the provider expands into definitions (Claude Code) */
  | 'references'
  /** names, short descriptions and required parameters; schemas need a second call (Hermes, deferred) */
  | 'metadata'
  /** no search: a preselected set is rendered as SDK signatures (DeepSeek code mode) */
  | 'sdk';

/** What one search adds to the context. */
export interface SearchAddition {
  form: SearchForm;
  /**
   * Tools now in front of the model (their schema, reference or metadata), best first. A gold tool
   * here counts as visible even when it is past the ranking the search was scored on (namespace
   * routing expands a whole namespace).
   */
  loaded: readonly string[];
  /** The search tool's result as the model reads it. */
  text: string;
  /**
   * Full definitions the search puts into the request besides `text` (references the provider
   * expands, schemas placed in the tools array, the one schema a describe/load call fetches for
   * the tool the model picks). Absent = none (the text already carries what was loaded).
   */
  definitions?: readonly ToolDefinition[];
  /**
   * Model calls this search took: 1 by default; 2 when the model's first query found nothing and
   * it searched again (a retry), 0 when the model issued no search (an empty keyword query).
   */
  searches?: number;
  /** Namespaces the model opened to get these tools (namespace routing: one model call each). */
  namespacesOpened?: number;
}

/**
 * How the model gets a tool callable and calls it: the protocol the model-call counts are computed
 * from (see docs/profiles.md, "Model calls").
 */
export interface CallProtocol {
  /** Model calls per search: 1 when the model issues the search (a search tool), 0 when the harness retrieves before the request. */
  search: 0 | 1;
  /** Model calls to make one tool found by a search callable: 0 when the result carries it (schemas, references, the expansion), 1 for a describe or load call. */
  perFoundTool: 0 | 1;
  /** Model calls per namespace opened (namespace routing: 1). Default 0. */
  perNamespace?: 0 | 1;
  /** How the needed tools are called: one call each, or one code-mode run for all of them. */
  call: 'each' | 'script';
}

/** How the query a search receives is written: the user's request as it is, or the keyword query a model writes into a search tool. */
export type QueryStyle = 'raw' | 'keywords';

/** How the provider receives tool definitions (what tokens are counted on). */
export type ProviderFormat = 'openai' | 'anthropic';

/**
 * Where a search's additions live in the request: `history` (a tool result in the conversation:
 * later turns read them from the cache) or `prefix` (the tools array or system prompt, rebuilt
 * per request: a changed set invalidates the cached prefix).
 */
export type Placement = 'history' | 'prefix';

export interface Profile {
  /** The registry name it was created under. */
  readonly name: string;
  /** Results one search returns (the harness's default limit). */
  readonly searchLimit: number;
  /** Sticky-per-task retrieval is part of the strategy (the evaluation turns it on for this profile). */
  readonly sticky?: boolean;
  /** Serialization of tool definitions (default `anthropic`). */
  readonly provider?: ProviderFormat;
  /** Where search additions go (default `history`). */
  readonly placement?: Placement;
  /** The model-call protocol (search, describe or load, open namespace, call or code-mode run). */
  readonly calls: CallProtocol;
  /**
   * What the search receives by default: `keywords` when the model writes the query into a search
   * tool, `raw` when the harness searches with the user's request itself. `--query-style` overrides.
   */
  readonly queryStyle: QueryStyle;
  /**
   * The floor the profile applies when the run configures none (a score on its searcher's scale,
   * documented per profile); absent = no floor unless configured.
   */
  readonly defaultFloor?: number;
  /** The harness's own token estimator, reported beside the real count (Codex `bytes/4`, Hermes `chars/4`). */
  readonly estimator?: 'bytes/4' | 'chars/4';
  /** Build the search index and whatever the exposure model needs. Called once before anything else. */
  index(catalog: Catalog): Promise<void>;
  /**
   * The harness's search tool as a retriever, or `null` when the profile offers no search for this
   * catalog (everything eager, or below the harness's deferral threshold). Valid after `index`.
   */
  searcher(): Retriever | null;
  /** What the model sees before any search. Valid after `index`. */
  beforeSearch(caller: Caller): BeforeSearch;
  /**
   * What one search with these hits (scope-checked, at most `searchLimit`, best first) adds, for the
   * query the search was given (the request, in the evaluation).
   */
  afterSearch(hits: readonly Hit[], caller: Caller, query: string): SearchAddition;
  /** The effective configuration, recorded in results (which facts are pinned, which unverified). */
  describe(): Record<string, unknown>;
}

/** Options a user can give every profile from the command line (the retrievers' options, plus the window). */
export interface ProfileOptions {
  /** Embedding model for profiles that embed (default: the offline model). */
  model?: string;
  /** Role map for profiles that gate by role. */
  roles?: import('../catalog/roles.ts').RoleMap;
  /** Context window of the emulated model, in tokens (budgets are shares of it). Default 200,000. */
  contextWindow?: number;
}

export const DEFAULT_CONTEXT_WINDOW = 200_000;

/** An entry of the profile registry. */
export interface ProfileFactory {
  /** One line for `backpack list`, the docs table and error messages. */
  description: string;
  /** The profile embeds with the embedding model (`--model` applies to it). */
  usesModel?: boolean;
  create(name: string, options?: ProfileOptions): Profile;
}
