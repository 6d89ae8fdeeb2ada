/**
 * What the `claude-code` profiles and their `ToolSearch` engine describe (`describe()`, recorded
 * in `results.json`), as data, with the upstream source of each fact: Claude Code's official
 * documentation, the Anthropic API's tool search page, and (for the keyword scoring) third-party
 * analyses of its bundled source, which are unofficial. docs/harness-facts.md#claude-code says the
 * same in words.
 */
import { RUN, type Facts } from '../facts.ts';
import type { CallProtocol } from '../types.ts';
import { CLAUDE_CODE_DEFAULTS } from './config.ts';

/** `ToolSearch` returns `tool_reference` blocks the API expands: the search, then the exact call. */
export const CLAUDE_CODE_CALLS: Readonly<CallProtocol> = Object.freeze({ search: 1, perFoundTool: 0, call: 'each' });

const OFFICIAL_TOOL_SEARCH = 'code.claude.com/docs/en/agent-sdk/tool-search';
const API_TOOL_SEARCH = 'platform.claude.com/docs/en/agents-and-tools/tool-use/tool-search-tool';

/** The profile's description; `describe()` sets the name, the options, the counts, the engine and the prefilter. */
export const CLAUDE_CODE_FACTS = {
  description: {
    profile: 'claude-code',
    name: RUN,
    harness: 'Claude Code, client-side ToolSearch',
    query: 'keywords (the model writes the ToolSearch query)',
    calls: { ...CLAUDE_CODE_CALLS, protocol: 'ToolSearch (tool_reference blocks the API expands) → the exact call' },
    sources: [
      `${OFFICIAL_TOOL_SEARCH} (official; verbatim mirror)`,
      'translated mirrors of code.claude.com/docs/*/mcp; settings-schema mirrors',
      `${API_TOOL_SEARCH} (defer_loading, tool_reference, 10,000 tools)`,
      'third-party analyses of the bundled ToolSearchTool.ts (scoring) [unofficial, reverse-engineered]',
    ],
    activation: {
      toolSearch: RUN,
      default: "'on' (ENABLE_TOOL_SEARCH unset; official). History: auto at 10% was the default around v2.1.7, Jan 2026 [dated from third-party posts]",
      auto: 'on iff deferrable tokens ≥ N% of the context window, else everything eager',
      tokenCounter:
        'Backpack-pinned (upstream unknown): sum over deferrable tools of ceil(code points of JSON {name, description cut at 2 KB, input_schema} / 4)',
      contextWindow: RUN,
      deferrableTools: RUN,
      deferrableTokens: RUN,
      thresholdTokens: RUN,
      active: RUN,
      fallbacksNotModelled: 'old Vertex models, non-first-party ANTHROPIC_BASE_URL, Foundry, CLAUDE_CODE_DISABLE_EXPERIMENTAL_BETAS',
    },
    deferral: {
      deferrable: 'MCP and plugin tools not in alwaysLoad (official)',
      eager: 'core tools (always load, not counted) + alwaysLoad',
      alwaysLoad: RUN,
      alwaysLoadNote: 'our catalogs carry no alwaysLoad flag: option lists namespaces or tool ids',
    },
    search: {
      tool: RUN,
      input: '{query, max_results?}',
      maxResults: RUN,
      form: 'tool_reference blocks (the API expands them into definitions)',
      retriever: RUN,
    },
    ceiling: {
      tools: RUN,
      source: 'official: up to 10,000 tools',
      upstream:
        'the admitted deferred definitions are in the request (defer_loading: true) and a tool_reference must name one of them; the deferred names are announced at session start',
      pinned:
        'how Claude Code chooses ≤ ceiling tools when a caller may see more (upstream documents no rule): role, then whole namespaces in catalog order (first fit)',
      prefilter: RUN,
      sameSet: 'advertised names = searchable tools = wire definitions, per caller',
      roles: RUN,
    },
    exposure: {
      eager: 'core + alwaysLoad tools the caller may see (catalog order); everything the caller may see when tool search is off',
      metaTools: RUN,
      advertisement:
        '<available-deferred-tools> block, one id per line, catalog order (older releases; newer ones send system-reminder deltas), then "# MCP Server Instructions" (wording [unverified]) for servers with a tool the model sees, each cut at 2 KB (UTF-8, character boundary)',
      wire: 'the admitted deferred tools: full definitions sent with defer_loading: true, not read by the model (every deferrable tool the caller may see below the ceiling); none when tool search is off',
      afterSearch:
        'loaded = hit ids; text = the tool_reference blocks as JSON ("No matching deferred tools found" on a miss); the loaded definitions travel in the request with descriptions cut at 2 KB (loadedDefinition)',
      cutBytes: CLAUDE_CODE_DEFAULTS.cutBytes,
      persistence: 'referenced tools stay loaded until compaction removes the turn (official; not modelled per turn here)',
    },
  },
  sources: [
    {
      what: 'activation (ENABLE_TOOL_SEARCH: unset = on, auto:N, off); MCP tools deferrable unless alwaysLoad; core tools always load; ToolSearch max_results 5; 2 KB cuts of descriptions and server instructions; 10,000 tools',
      where: OFFICIAL_TOOL_SEARCH,
    },
    {
      what: 'alwaysLoad on a server (v2.1.121+) or a tool (_meta["anthropic/alwaysLoad"]); plugin tools through plugin MCP servers',
      where: 'code.claude.com/docs/en/mcp (translated mirrors) and settings-schema mirrors',
    },
    { what: 'defer_loading: true definitions, tool_reference blocks the API expands, up to 10,000 tools', where: API_TOOL_SEARCH },
    { what: 'auto at 10% as the default around v2.1.7 (January 2026)', where: 'third-party posts (dated)' },
    {
      what: 'keyword scoring (name parts 12/6, description 2, fast paths, +term)',
      where: 'third-party analyses of the bundled ToolSearchTool.ts (searchToolsWithKeywords, parseToolName) [unofficial]',
    },
  ],
} as const satisfies Facts;

/** The keyword engine's description; `describe()` sets the name, the score, the weights, the ceiling and the prefilter. */
export const CLAUDE_CODE_SEARCH_FACTS = {
  description: {
    retriever: 'claude-code-tool-search',
    name: RUN,
    source: 'reverse-engineered searchToolsWithKeywords (Claude Code ToolSearchTool.ts) [unofficial; may drift]',
    searched:
      "the caller's admitted deferred tools only (MCP and plugin tools not in alwaysLoad, under the caller mask and the ceiling prefilter): the tools the advertisement names",
    fastPaths: [
      'exact: the trimmed query equals a tool id (else a tool name; several same-named tools: all of them), case-insensitive; deferred first, then eager tools → only those',
      'select:A,B — each name resolved like exact; order kept (score = found - index)',
      'mcp__ prefix (query longer than 5): deferred tools whose id starts with it',
    ],
    fastPathScore: RUN,
    terms:
      'query lowercased, split on whitespace, empty dropped; +term (length > 1) is required in the name (a name part contains it); scoring terms = required then optional, duplicates kept',
    nameParts:
      'id without mcp__ (plugin__ kept), camelCase split, lowercased, maximal letter/digit runs (__, _, - and other characters separate); upstream splits MCP names on __ and _ only',
    weights: RUN,
    searchHint: 'none in our catalogs: +4 never fires',
    description: 'the description cut at 2 KB (UTF-8), lowercased; match = /\\bterm\\b/ (JS, ASCII \\w)',
    fullNameFallback:
      "upstream +3 when the space-joined name contains the term and the running score is 0: omitted (unreachable upstream for whitespace-free terms; with this finer split a term spanning a camelCase or '-' boundary, e.g. 'createissue', scores 0 by name here)",
    requiredTerms: "name only (the prompt's wording); one reimplementation also accepts a description or hint match [unverified]",
    returns: 'score > 0, rankStable (score desc, id asc), at most k; no max_results cap (one reimplementation caps at 20 [unverified])',
    ceiling: RUN,
    prefilter: RUN,
  },
  sources: [
    {
      what: 'the keyword scoring, fast paths and name split',
      where: 'third-party analyses of the bundled ToolSearchTool.ts (searchToolsWithKeywords, parseToolName) [unofficial]',
    },
  ],
} as const satisfies Facts;
