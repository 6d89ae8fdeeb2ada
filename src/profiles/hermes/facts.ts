/**
 * What the `hermes` profiles and their `tool_search` engine describe (`describe()`, recorded in
 * `results.json`), as data, with the upstream source of each fact (NousResearch/hermes-agent,
 * Python, at the commits in {@link HERMES_UPSTREAM}). docs/harness-facts.md#hermes says the same
 * in words.
 */
import { RUN, type Facts } from '../facts.ts';
import type { CallProtocol } from '../types.ts';
import { MAX_DESCRIBE_NAMES_PER_CALL, MAX_QUERIES_PER_CALL, TOOL_CALL_NAME, TOOL_DESCRIBE_NAME, TOOL_SEARCH_NAME } from './bridge.ts';
import { EXACT_NAME_SCORE, HERMES_UPSTREAM } from './config.ts';

/** `tool_search`, then `tool_describe` for the tool picked, then `tool_call`. */
export const HERMES_CALLS: Readonly<CallProtocol> = Object.freeze({ search: 1, perFoundTool: 1, call: 'each' });

const BRIDGE = `${HERMES_UPSTREAM.repository} ${HERMES_UPSTREAM.bridge}`;
const CATALOG = `${HERMES_UPSTREAM.repository} ${HERMES_UPSTREAM.catalog}`;

/** The descriptions of the options a run picks from (query style, the emulated retry). */
export const HERMES_VARIANTS = {
  query: {
    keywords: 'keywords (the model writes the tool_search query; its description asks for keyword queries, not questions)',
    raw: 'raw (the user request is the tool_search query)',
  },
  retry: {
    on: 'emulated model (not Hermes code): an empty result is searched again with the request words the catalog knows, minus stop words; such a search counts as 2 model calls (searches: 2)',
    off: 'none',
  },
  searcherRetry:
    'emulated model behaviour (not Hermes code): an empty result (no BM25 hit and no exact name) is retried once with the request words the catalog knows, minus NLTK English stop words (a keyword query), as a model answering the empty-result hint would',
} as const;

/** The profile's description; `describe()` sets the name, query, retry, configuration and unrestricted listing. */
export const HERMES_FACTS = {
  description: {
    profile: 'hermes',
    name: RUN,
    upstream: { ...HERMES_UPSTREAM },
    query: RUN,
    retry: RUN,
    calls: { ...HERMES_CALLS, protocol: 'tool_search → tool_describe (the picked tool) → tool_call' },
    config: RUN,
    deferral: {
      eager: 'core tools (and plugin tools of the GUI toolsets desktop_ui, project, setup)',
      deferred: 'MCP tools (toolset mcp-<server>) and plugin tools (toolset = plugin name)',
      activation: 'enabled on/auto: as soon as any deferrable tool is visible to the caller; off: never (auto is an alias of on upstream)',
      curatedDeferList: 'not modelled: its core tools (computer_use, session_search, image_generate, …) are not in our catalogs',
      ref: HERMES_UPSTREAM.bridge,
    },
    bridge: {
      tools: [TOOL_SEARCH_NAME, TOOL_DESCRIBE_NAME, TOOL_CALL_NAME],
      maxQueriesPerCall: MAX_QUERIES_PER_CALL,
      maxDescribeNames: MAX_DESCRIBE_NAMES_PER_CALL,
      searchLimit: RUN,
      ref: HERMES_UPSTREAM.bridge,
    },
    retrieval: {
      indexedText:
        '_entry_search_text: id without leading mcp__, [_.:-] → spaces; + source label (toolset minus mcp-) if not a word of it; + description; + top-level parameter names (no schema bodies)',
      tokenizer: '[A-Za-z0-9]+, lowercase, Porter2 (npm porter2 for snowballstemmer english), no stop words',
      bm25: { k1: 1.5, b: 0.75, idf: 'ln(1 + (N - df + 0.5) / (df + 0.5))', queryTerms: 'every occurrence counts' },
      admission: 'gate = query token of highest idf (first on ties; unknown token → nothing); from 4 answerable terms, ceil(0.5 * answerable) of them',
      exactName: `query.strip().lower() == id.lower() → admitted, score ${EXACT_NAME_SCORE} (upstream +inf)`,
      names: 'the tool id (the name the model calls) everywhere; plugin__ stays in the indexed text (upstream plugin names have no prefix)',
      ties: 'project tie-break (score desc, id asc); upstream: catalog order (stable sort)',
      statistics: 'N, df, avgdl over all deferred tools (upstream: over the session tools; a mask here never changes weights)',
      avgdl: 'mean document length (upstream also floors it at 1; differs only when the mean is below one token)',
      ref: HERMES_UPSTREAM.catalog,
    },
    listing: {
      budget: 'max(0, min(listing_max_tokens, int(ctx * threshold_pct / 100))); ctx ≤ 0 → 10,000 leg',
      cost: 'ceil(chars / 4)',
      shortDescription: 'first sentence, ≤ 60 chars cut at a space, trailing ,;: stripped, …',
      ladder: 'full → names → groups collapsed to summaries largest names-rendering first (ties by label) → none',
      tiers: '0 = off; 1 = full/names/mixed; 2 = groups/none',
      exposure: 'listing only in advertisement (upstream: tool_search description + "\\n\\n" + listing); framing sentences in the description',
      unrestricted: RUN,
      ref: HERMES_UPSTREAM.catalog,
    },
    searchResult: {
      form: 'metadata',
      text: 'json.dumps {queries, total_available, results:[{query, matches, available_sources?, hint?}], tools:{name:{source, source_name, description ≤500+…, required ≤32×≤64}}}',
      query: 'the request when the evaluation passes it, else ""',
      ref: HERMES_UPSTREAM.bridge,
    },
    outOfScope: ['remote connector tools from the Nous gateway (merged into the same BM25 pass upstream)', 'hidden declared MCP servers in the listing'],
    unverified: [
      'the "substring fallback" the seed article describes: not found upstream (tool_search_catalog.py @13a4e497); the rarest-token gate and coverage floor are used',
      'docs claim: listing mode matched eager-loading task success at lower cost than a bare bridge (no numbers published)',
      'npm porter2 assumed equal to snowballstemmer english',
    ],
  },
  sources: [
    {
      what: 'deferrable tools (is_deferrable_tool_name: mcp-* and plugin toolsets, except _DIRECT_SURFACE_TOOLSETS); activation (enabled on/auto/off)',
      where: BRIDGE,
    },
    { what: 'the bridge: tool_search, tool_describe, tool_call; ≤ 7 queries and ≤ 10 names per call; default and maximum search limit', where: BRIDGE },
    {
      what: 'the search result JSON (json.dumps, descriptions ≤ 500 characters, ≤ 32 required parameters of ≤ 64 characters), the empty-result hint',
      where: BRIDGE,
    },
    { what: 'search text (_entry_search_text), tokenizer, BM25 k1 1.5 b 0.75, rarest-token gate, 50% coverage floor, exact name', where: CATALOG },
    {
      what: 'listing budget min(listing_max_tokens, ctx × threshold_pct / 100), ceil(chars / 4) cost (CHARS_PER_TOKEN), the full → names → groups → none ladder, short descriptions',
      where: CATALOG,
    },
    { what: 'listing mode described and its claimed effect', where: HERMES_UPSTREAM.docs },
  ],
} as const satisfies Facts;

/** The `tool_search` engine's description; `describe()` sets the name, the retry and the BM25 settings. */
export const HERMES_SEARCH_FACTS = {
  description: {
    retriever: 'hermes-tool-search',
    name: RUN,
    upstream: `${CATALOG} search_catalog`,
    indexes: 'the deferred tools only (MCP tools; plugin tools outside desktop_ui/project/setup)',
    retryKnownWords: RUN,
    bm25: RUN,
    exactName: `query.strip().lower() == tool id .lower() → always returned, score ${EXACT_NAME_SCORE} (upstream +inf)`,
    ties: 'rankStable (score desc, then id asc); upstream keeps catalog order (stable Python sort)',
    statistics: 'N, df, avgdl over every deferred tool; the mask only decides what is scored (upstream: over the session tools)',
  },
  sources: [{ what: 'search_catalog: BM25 over the deferred tools, exact-name hit first, stable sort', where: CATALOG }],
} as const satisfies Facts;
