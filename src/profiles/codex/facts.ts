/**
 * What the `codex` profile and its `tool_search` engine describe (`describe()`, recorded in
 * `results.json`), as data, with the upstream source of each fact (openai/codex, Rust, at the
 * commits named). docs/harness-facts.md#codex says the same in words.
 */
import { RUN, type Facts } from '../facts.ts';
import type { CallProtocol } from '../types.ts';
import { MAX_NAMESPACE_DESCRIPTION_CHARS, MAX_RENDERED_FRAGMENT_BYTES, OMITTED_LINE_RESERVE_BYTES } from './namespaces.ts';

/** `tool_search` returns schemas: the search, then the exact call. */
export const CODEX_CALLS: Readonly<CallProtocol> = Object.freeze({ search: 1, perFoundTool: 0, call: 'each' });

/** The label of the document text in `describe()`. */
export const CODEX_SEARCH_TEXT_LABEL =
  "codex build_mcp_search_text (codex-rs/core/src/tools/handlers/mcp.rs @1dfb3660), names also with '_' as spaces (default_tool_search_text, codex-rs/tools/src/tool_search.rs @24e666a8)";

/** The profile's description; `describe()` sets the name, the rule, the limit, the engine and, once indexed, the counts. */
export const CODEX_FACTS = {
  description: {
    profile: 'codex',
    name: RUN,
    harness: 'OpenAI Codex (openai/codex, Rust)',
    deferral: {
      rule: RUN,
      deferrable: 'MCP and plugin tools (Codex plugins ship MCP servers); core tools always direct',
      evaluatedOn: 'the catalog (session configuration), not per caller',
      source: 'codex-rs/core/src/mcp_tool_exposure.rs @143cb13f (count 100; tokens 2000 with feature ToolSearchTokenBudgetDeferral, 4 bytes/token)',
      always: 'unverified (third-party audit of newer builds)',
    },
    searchLimit: RUN,
    query: 'keywords (the model writes the tool_search query)',
    calls: { ...CODEX_CALLS, protocol: 'tool_search (its output carries the schemas) → the exact call' },
    toolSearch: {
      name: RUN,
      sources: 'codex-rs/core/src/tools/handlers/tool_search.rs @01b752dc; codex-rs/tools/src/tool_discovery.rs @c209bfab (TOOL_SEARCH_DEFAULT_LIMIT 8)',
      description: 'ToolSearchSourceListing::Omit variant (tool_search_spec.rs @8f195c93): sources advertised by the world-state fragment',
      output: 'tool_search_output, hits coalesced by namespace (first-hit order), defer_loading true, no output_schema, call_id omitted',
      searchText: CODEX_SEARCH_TEXT_LABEL,
      flatToolName: 'tool id (mcp__server__tool); joiner unverified',
      namespaceName: 'mcp__<server> (plugin tools without a server: plugin__<plugin>); unverified',
      namespaceDescription: 'server instructions (else server description); plugin tools without a server: plugin description',
      connectorName: 'none in our catalogs (omitted)',
      engine: RUN,
    },
    namespaceAdvert: {
      mechanism: 'world-state <tools> fragment, first snapshot (codex-rs/core/src/context/world_state/tools.rs + tools_budget.rs @8f195c93; path inferred)',
      gate: 'feature DeferredToolWorldState, default off (UnderDevelopment) @8f195c93: whether production enables it is unverified',
      totalBytes: MAX_RENDERED_FRAGMENT_BYTES,
      perNsChars: MAX_NAMESPACE_DESCRIPTION_CHARS,
      omittedLineReserveBytes: OMITTED_LINE_RESERVE_BYTES,
      firstLineOnly: true,
      allocation: 'round-robin-char',
      reserveNamesFirst: true,
      scope: "only namespaces of deferred tools the caller's mask allows",
    },
    tieBreak: 'rankStable (score desc, then tool id asc); upstream random (HashSet RandomState)',
    notModelled: [
      'skills catalog (src/skills/listings.ts)',
      'connector/app tools and explicitly enabled connectors',
      'Added/Removed namespace diffs of later turns',
      'limit_bucket per server (forks)',
    ],
  },
  sources: [
    {
      what: 'MCP (and plugin) tools deferred, core tools direct; deferred at ≥ 100 tools (DIRECT_MCP_TOOL_EXPOSURE_THRESHOLD), or at ≥ 2,000 tokens of direct schemas with feature ToolSearchTokenBudgetDeferral',
      where: 'openai/codex codex-rs/core/src/mcp_tool_exposure.rs @143cb13f',
    },
    { what: 'approx_bytes_for_tokens: 4 bytes per token (the bytes/4 estimator)', where: 'openai/codex codex-utils-string' },
    { what: 'tool_search name, default limit 8', where: 'openai/codex codex-rs/tools/src/tool_discovery.rs @c209bfab' },
    {
      what: 'tool_search handler: query trimmed, hits as tool_search_output coalesced by namespace, defer_loading true',
      where: 'openai/codex codex-rs/core/src/tools/handlers/tool_search.rs @01b752dc',
    },
    { what: 'tool_search description (ToolSearchSourceListing::Omit variant)', where: 'openai/codex tool_search_spec.rs @8f195c93' },
    { what: 'search text of an MCP tool (build_mcp_search_text)', where: 'openai/codex codex-rs/core/src/tools/handlers/mcp.rs @1dfb3660' },
    { what: 'names also with underscores as spaces (default_tool_search_text)', where: 'openai/codex codex-rs/tools/src/tool_search.rs @24e666a8' },
    {
      what: 'BM25 k1 1.2, b 0.75, DefaultTokenizer (deunicode, UAX#29 words, NLTK English stop words, Snowball English)',
      where: 'Michael-JB/bm25 tag v2.3.2 (the bm25 crate Codex builds with SearchEngineBuilder::with_documents)',
    },
    {
      what: 'world-state <tools> fragment: 4 KiB, 250 characters per description, 64 bytes per omitted line, names reserved first, round-robin',
      where: 'openai/codex codex-rs/core/src/context/world_state/tools.rs and tools_budget.rs @8f195c93',
    },
  ],
} as const satisfies Facts;

/** The `tool_search` engine's description; `describe()` sets the name, the limit and the BM25 settings. */
export const CODEX_SEARCH_FACTS = {
  description: {
    retriever: 'codex-tool-search',
    name: RUN,
    limit: RUN,
    corpus: 'deferred (MCP and plugin) tools only: N, df and avgdl over them',
    engine: 'bm25 crate v2.3.2 (Michael-JB/bm25 tag v2.3.2), SearchEngineBuilder::with_documents(Language::English, documents)',
    bm25: RUN,
    tieBreak: 'upstream: random (HashSet with per-process RandomState); here: rankStable (score desc, then tool id asc)',
    scores: 'float64 (upstream f32)',
    tokenizerFolding: 'deunicode approximated by NFKD + mark stripping + curly apostrophes to ASCII',
  },
  sources: [
    { what: 'the engine and its tokenizer', where: 'Michael-JB/bm25 tag v2.3.2' },
    { what: 'corpus: the deferred tools only', where: 'openai/codex codex-rs/core/src/tools/handlers/tool_search.rs @01b752dc' },
  ],
} as const satisfies Facts;
