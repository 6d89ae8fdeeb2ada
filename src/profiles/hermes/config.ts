/**
 * Hermes Agent's `tools.tool_search` configuration (`ToolSearchConfig.from_raw`,
 * `NousResearch/hermes-agent` `tools/tool_search.py` @016260a5), the listing budget and token
 * estimate (`tools/tool_search_catalog.py` @13a4e497), and how a tool maps onto Hermes's toolsets
 * and sources.
 */
import type { Tool } from '../../catalog/types.ts';
import { charCount } from '../../util/unicode.ts';
import type { DeferralExceptions } from '../deferral.ts';
import { DEFAULT_CONTEXT_WINDOW, type ProfileOptions, type QueryStyle } from '../types.ts';

export const HERMES_UPSTREAM = Object.freeze({
  repository: 'NousResearch/hermes-agent',
  bridge: 'tools/tool_search.py@016260a5',
  catalog: 'tools/tool_search_catalog.py@13a4e497',
  docs: 'https://hermes-agent.nousresearch.com/docs/user-guide/features/tool-search',
});

/**
 * The score of an exact-name hit. Upstream uses `float("inf")`; the retriever contract requires
 * finite scores, so we use the largest finite double, above every BM25 score.
 */
export const EXACT_NAME_SCORE = Number.MAX_VALUE;

/** `CHARS_PER_TOKEN` (tool_search_catalog.py): cost = ceil(chars / 4). */
export const CHARS_PER_TOKEN = 4;
/** `listing_token_budget`: the percentage leg when the context length is unknown (≤ 0 here). */
export const UNKNOWN_CONTEXT_PCT_LEG = 10_000;
/** Session-gated GUI toolsets that never defer (`_DIRECT_SURFACE_TOOLSETS`). */
export const DIRECT_SURFACE_TOOLSETS: ReadonlySet<string> = new Set(['desktop_ui', 'project', 'setup']);

/**
 * Hermes's exceptions to the shared deferral split ({@link DeferralExceptions}): plugin tools of the
 * session-gated GUI toolsets stay direct (`is_deferrable_tool_name`, tool_search.py).
 */
export const HERMES_DEFERRAL: DeferralExceptions = Object.freeze({ directPluginToolsets: DIRECT_SURFACE_TOOLSETS });

export type TriState = 'auto' | 'on' | 'off';

/** Hermes's `tools.tool_search` settings. Numbers are clamped as upstream clamps them. */
export interface HermesOptions {
  /** `on` / `auto` (an alias today): the bridge turns on when any deferrable tool exists; `off`: never. Default `auto`. */
  enabled?: TriState;
  /** `off`: bare bridge (no listing). Default `auto`. */
  listing?: TriState;
  /** Listing budget as a percentage of the context window, 0..100. Default 5. */
  thresholdPct?: number;
  /** Listing budget cap in tokens, clamped to 200..60,000. Default 4,000. */
  listingMaxTokens?: number;
  /** Results per search query when the model gives no `limit`, clamped to 1..maxSearchLimit. Default 5. */
  searchDefaultLimit?: number;
  /** Largest `limit` a search accepts, clamped to 1..50. Default 25. */
  maxSearchLimit?: number;
  /**
   * Emulated model behaviour, not Hermes code: when a search returns nothing (upstream then answers
   * with `available_sources` and a retry hint), search once more with only the request's words
   * that the catalog knows, minus English stop words, as a model rewriting its query into keywords
   * would; the search then counts as two model calls (`SearchAddition.searches`). Default false;
   * `hermes-retry` turns it on.
   */
  retryKnownWords?: boolean;
  /**
   * What `tool_search` receives by default: `keywords` (the model writes a keyword query, as the
   * tool's description asks: "Queries are keyword searches, not questions") or `raw` (the user's
   * request itself). Default `keywords`; `hermes-raw` and `hermes-retry` use `raw`.
   */
  queryStyle?: QueryStyle;
}

export interface HermesConfig {
  enabled: TriState;
  listing: TriState;
  thresholdPct: number;
  listingMaxTokens: number;
  searchDefaultLimit: number;
  maxSearchLimit: number;
  /** Context window of the emulated model, in tokens. */
  contextWindow: number;
}

function clampedInt(value: number | undefined, fallback: number, lo: number, hi: number): number {
  const v = value === undefined || !Number.isFinite(value) ? fallback : Math.trunc(value);
  return Math.max(lo, Math.min(hi, v));
}

function triState(value: TriState | undefined, what: string): TriState {
  if (value === undefined) return 'auto';
  if (value !== 'auto' && value !== 'on' && value !== 'off') throw new RangeError(`hermes ${what} must be auto, on or off (got ${JSON.stringify(value)})`);
  return value;
}

/** The effective configuration: defaults, then `options`, clamped like `ToolSearchConfig.from_raw`. */
export function resolveHermesConfig(options: ProfileOptions & HermesOptions = {}): HermesConfig {
  const maxSearchLimit = clampedInt(options.maxSearchLimit, 25, 1, 50);
  const pct = options.thresholdPct;
  return {
    enabled: triState(options.enabled, 'enabled'),
    listing: triState(options.listing, 'listing'),
    thresholdPct: Math.max(0, Math.min(100, pct !== undefined && Number.isFinite(pct) ? pct : 5)),
    listingMaxTokens: clampedInt(options.listingMaxTokens, 4000, 200, 60_000),
    searchDefaultLimit: clampedInt(options.searchDefaultLimit, 5, 1, maxSearchLimit),
    maxSearchLimit,
    contextWindow: options.contextWindow ?? DEFAULT_CONTEXT_WINDOW,
  };
}

/** `listing_token_budget`: max(0, min(listing_max_tokens, int(ctx · pct / 100))); a context ≤ 0 counts as unknown (10,000 leg). */
export function listingTokenBudget(config: Pick<HermesConfig, 'contextWindow' | 'thresholdPct' | 'listingMaxTokens'>): number {
  const ctx = config.contextWindow;
  const pctLeg = ctx > 0 ? Math.trunc(ctx * (config.thresholdPct / 100)) : UNKNOWN_CONTEXT_PCT_LEG;
  return Math.max(0, Math.min(config.listingMaxTokens, pctLeg));
}

/** Hermes's token estimate: ceil(characters / 4), characters counted as Python does (code points). */
export function estimateTokens(text: string): number {
  return Math.ceil(charCount(text) / CHARS_PER_TOKEN);
}

/** The Hermes toolset of a tool: `mcp-<server>` for MCP tools, the plugin name for plugin tools, `''` for core tools. */
export function hermesToolset(tool: Tool): string {
  if (tool.source === 'mcp') return `mcp-${tool.server ?? tool.namespace}`;
  if (tool.source === 'plugin') return tool.plugin ?? tool.namespace;
  return '';
}

/** `_classify_source` kind: `mcp` for an `mcp-*` toolset, `plugin` for another, `other` for none. */
export function hermesSourceKind(toolset: string): 'mcp' | 'plugin' | 'other' {
  return toolset === '' ? 'other' : toolset.startsWith('mcp-') ? 'mcp' : 'plugin';
}

/** `_listing_group_label`: the toolset minus `mcp-`, `other` when there is none. */
export function listingGroupLabel(toolset: string): string {
  const label = toolset || 'other';
  return label.startsWith('mcp-') ? label.slice(4) : label;
}
