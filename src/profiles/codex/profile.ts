/**
 * Profile `codex`: an emulation of OpenAI Codex's tool search (`openai/codex`, Rust): deferral
 * (`codex-rs/core/src/mcp_tool_exposure.rs` @143cb13f), the `tool_search` tool
 * (`codex-rs/core/src/tools/handlers/tool_search.rs` @01b752dc, `codex-rs/tools/src/tool_discovery.rs`
 * @c209bfab), its BM25 engine and search text (`search.ts`), and the world-state namespace fragment
 * (`namespaces.ts`). The skills catalog is not part of it (`src/skills/listings.ts`).
 *
 * - **Deferral**: with tool search on, MCP tools (here: MCP and plugin tools — a Codex plugin
 *   ships its tools as MCP servers) are deferred when there are ≥ 100 of them
 *   (`DIRECT_MCP_TOOL_EXPOSURE_THRESHOLD`, `mcp_tool_exposure.rs` @143cb13f); or, with feature
 *   `ToolSearchTokenBudgetDeferral`, when their serialized direct schemas are ≥
 *   `approx_bytes_for_tokens(2000)` = 8,000 bytes; or always (a later audit's claim, unverified).
 *   The rule is evaluated once on the catalog (the session's configuration), not per caller: Codex
 *   decides exposure from the configured servers, before any policy. Core tools are always direct.
 *   When nothing is deferred everything is eager, there is no `tool_search` and no advertisement.
 * - **Search**: {@link CodexToolSearch}: BM25 over `build_mcp_search_text` with the names also
 *   split on underscores (as the seed article and `default_tool_search_text` have it:
 *   `get_rollout_history` matches "rollout history"), UAX#29 words.
 * - **Query**: the model writes the `tool_search` query, so the profile declares
 *   `queryStyle: 'keywords'` (the evaluation turns the request into the keyword query a model
 *   would write). Model calls: the search, then the exact call (the output carries the schemas).
 * - **Exposure**: before a search, the core tools plus `tool_search` (its description in
 *   the `ToolSearchSourceListing::Omit` variant, since the world-state fragment advertises the
 *   sources) plus the `<tools>` fragment listing the deferred namespaces; a search returns a
 *   `tool_search_output` whose tools, merged by namespace, become callable.
 *
 * The facts and their upstream sources: `facts.ts`, docs/harness-facts.md#codex.
 */
import type { Catalog, Tool } from '../../catalog/types.ts';
import type { Hit, Retriever } from '../../retrievers/types.ts';
import { utf8Bytes } from '../../util/unicode.ts';
import { isDeferrable } from '../deferral.ts';
import { describeWith } from '../facts.ts';
import { allowedIds } from '../text.ts';
import { CODEX_CALLS, CODEX_FACTS } from './facts.ts';
import type { BeforeSearch, Caller, Profile, ProfileOptions, SearchAddition, ToolDefinition, CallProtocol, QueryStyle } from '../types.ts';
import { MAX_RENDERED_FRAGMENT_BYTES, renderNamespaceFragment, type NamespaceRow } from './namespaces.ts';
import { CodexToolSearch, codexNamespaceOf, namespaceDescriptionOf, TOOL_SEARCH_DEFAULT_LIMIT, TOOL_SEARCH_TOOL_NAME } from './search.ts';

/** `DIRECT_MCP_TOOL_EXPOSURE_THRESHOLD` (`codex-rs/core/src/mcp_tool_exposure.rs` @143cb13f). */
export const DIRECT_MCP_TOOL_EXPOSURE_THRESHOLD = 100;
/** `DIRECT_MCP_TOOL_EXPOSURE_TOKEN_THRESHOLD` (same file), used with feature `ToolSearchTokenBudgetDeferral`. */
export const DIRECT_MCP_TOOL_EXPOSURE_TOKEN_THRESHOLD = 2_000;
/** `approx_bytes_for_tokens`: 4 bytes per token (`codex-utils-string`). */
export const APPROX_BYTES_PER_TOKEN = 4;

/** When Codex defers the MCP tools (`mcp_tool_exposure.rs`). */
export type DeferralRule =
  /** defer when there are ≥ `threshold` deferrable tools (upstream default, threshold 100) */
  | { kind: 'count'; threshold: number }
  /** defer when their serialized direct schemas take ≥ `threshold` × 4 bytes (feature `ToolSearchTokenBudgetDeferral`, threshold 2,000) */
  | { kind: 'tokens'; threshold: number }
  /** defer whenever there is any (newer builds per a third-party audit; unverified) */
  | { kind: 'always' };

export const DEFAULT_DEFERRAL_RULE: Readonly<DeferralRule> = Object.freeze({ kind: 'count', threshold: DIRECT_MCP_TOOL_EXPOSURE_THRESHOLD });

export interface CodexOptions {
  /** Default `{kind: 'count', threshold: 100}`. */
  deferral?: DeferralRule;
  /** Hits per search (the model's `limit` when it gives none). Default {@link TOOL_SEARCH_DEFAULT_LIMIT} (8). */
  limit?: number;
}

/** Throws a `RangeError` on a malformed rule. */
export function checkDeferralRule(rule: DeferralRule): void {
  if (rule.kind === 'always') return;
  if (rule.kind !== 'count' && rule.kind !== 'tokens')
    throw new RangeError(`deferral kind must be 'count', 'tokens' or 'always' (got ${JSON.stringify((rule as { kind: unknown }).kind)})`);
  if (!Number.isSafeInteger(rule.threshold) || rule.threshold < 0)
    throw new RangeError(`deferral threshold must be a whole number ≥ 0 (got ${rule.threshold})`);
}

/**
 * A tool as a Responses-API function (`ResponsesApiTool`, serde field order): `defer_loading: true`
 * only when deferred; no `output_schema` (our tools have none, and `into_deferred()` drops it).
 * The input schema goes through as written (Codex parses and re-serialises it; approximate).
 */
export function responsesFunction(tool: Tool, deferred: boolean): Record<string, unknown> {
  return {
    type: 'function',
    name: tool.name,
    description: tool.description,
    strict: false,
    ...(deferred ? { defer_loading: true } : {}),
    parameters: tool.inputSchema,
  };
}

/**
 * `estimate_direct_mcp_tool_schema_bytes`: the UTF-8 bytes of each tool serialised as a direct
 * `ResponsesApiNamespaceTool::Function`, summed.
 */
export function directSchemaBytes(tools: readonly Tool[]): number {
  let bytes = 0;
  for (const t of tools) bytes += utf8Bytes(JSON.stringify(responsesFunction(t, false)));
  return bytes;
}

/** Whether `rule` defers these deferrable tools. Nothing is deferred when there are none. */
export function shouldDefer(rule: DeferralRule, deferrable: readonly Tool[]): boolean {
  if (deferrable.length === 0) return false;
  switch (rule.kind) {
    case 'always':
      return true;
    case 'count':
      return deferrable.length >= rule.threshold;
    case 'tokens':
      return directSchemaBytes(deferrable) >= rule.threshold * APPROX_BYTES_PER_TOKEN;
  }
}

/**
 * The `tool_search` tool as the model sees it (`create_tool_search_tool`, the
 * `ToolSearchSourceListing::Omit` variant: the sources are advertised by the world-state fragment
 * instead). Upstream it is a `ToolSpec::ToolSearch { execution: "client" }`.
 */
export function toolSearchDefinition(limit: number = TOOL_SEARCH_DEFAULT_LIMIT): ToolDefinition {
  return {
    name: TOOL_SEARCH_TOOL_NAME,
    description:
      '# Tool discovery\n\nSearches over deferred tool metadata with BM25 and exposes matching tools for the next model call.\n\n' +
      `Some of the tools may not have been provided to you upfront, and you should use this tool (\`${TOOL_SEARCH_TOOL_NAME}\`) to search for the required tools. ` +
      `For MCP tool discovery, always use \`${TOOL_SEARCH_TOOL_NAME}\` instead of \`list_mcp_resources\` or \`list_mcp_resource_templates\`.`,
    inputSchema: {
      type: 'object',
      // Codex's JsonSchema keeps properties in a BTreeMap: `limit` before `query`.
      properties: {
        limit: { type: 'number', description: `Maximum number of tools to return. Defaults to ${limit}.` },
        query: { type: 'string', description: 'Search query for deferred tools.' },
      },
      required: ['query'],
      additionalProperties: false,
    },
  };
}

/**
 * The `tool_search_output` the model reads for `hits` (best first): `coalesce_loadable_tool_specs`
 * merges them by namespace (in order of each namespace's first hit), each tool a deferred
 * Responses function inside a `{type: 'namespace', name, description, tools}` spec whose
 * description is the namespace description, trimmed. `call_id` is left out (it varies per call).
 */
export function toolSearchOutput(hits: readonly Tool[], namespaceDescription: (tool: Tool) => string): string {
  const namespaces: { type: 'namespace'; name: string; description: string; tools: Record<string, unknown>[] }[] = [];
  const byName = new Map<string, (typeof namespaces)[number]>();
  for (const tool of hits) {
    const name = codexNamespaceOf(tool);
    let ns = byName.get(name);
    if (ns === undefined) {
      ns = { type: 'namespace', name, description: namespaceDescription(tool).trim(), tools: [] };
      byName.set(name, ns);
      namespaces.push(ns);
    }
    ns.tools.push(responsesFunction(tool, true));
  }
  return JSON.stringify({ type: 'tool_search_output', status: 'completed', execution: 'client', tools: namespaces });
}

/** The world-state rows for the deferred tools `allowed` lets through: one per namespace, described by its namespace description. */
export function namespaceRows(
  tools: readonly Tool[],
  deferred: Uint8Array,
  allowed: Uint8Array | undefined,
  namespaceDescription: (tool: Tool) => string,
): NamespaceRow[] {
  const rows: NamespaceRow[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < tools.length; i++) {
    if (deferred[i] !== 1 || (allowed !== undefined && allowed[i] !== 1)) continue;
    const t = tools[i]!;
    const name = codexNamespaceOf(t);
    if (seen.has(name)) continue;
    seen.add(name);
    rows.push({ name, description: namespaceDescription(t) });
  }
  return rows;
}

class CodexProfile implements Profile {
  readonly name: string;
  readonly searchLimit: number;
  /** tool_search returns schemas: search, then the exact call. */
  readonly calls: CallProtocol = { ...CODEX_CALLS };
  /** The model writes the `tool_search` query: keywords, not the user's request. */
  readonly queryStyle: QueryStyle = 'keywords';
  readonly provider = 'openai';
  readonly estimator = 'bytes/4';
  private readonly rule: DeferralRule;
  private catalog: Catalog | null = null;
  private deferredMask = new Uint8Array(0);
  private deferredCount = 0;
  private deferrableCount = 0;
  private search: CodexToolSearch | null = null;
  private byId = new Map<string, Tool>();
  private nsDescription = new Map<string, string>();
  /** Whether a caller mask lets any deferred tool through (i.e. the caller has `tool_search`), per mask object. */
  private seesDeferred = new WeakMap<Uint8Array, boolean>();

  constructor(name: string, options: CodexOptions) {
    const rule = options.deferral ?? DEFAULT_DEFERRAL_RULE;
    checkDeferralRule(rule);
    const limit = options.limit ?? TOOL_SEARCH_DEFAULT_LIMIT;
    if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError(`tool_search limit must be a whole number ≥ 1 (got ${limit})`);
    this.name = name;
    this.rule = { ...rule };
    this.searchLimit = limit;
  }

  async index(catalog: Catalog): Promise<void> {
    const deferrable = catalog.tools.filter((t) => isDeferrable(t));
    const defer = shouldDefer(this.rule, deferrable);
    const mask = new Uint8Array(catalog.tools.length);
    if (defer) catalog.tools.forEach((t, i) => (mask[i] = isDeferrable(t) ? 1 : 0));
    this.catalog = catalog;
    this.deferredMask = mask;
    this.deferrableCount = deferrable.length;
    this.deferredCount = defer ? deferrable.length : 0;
    this.byId = new Map(catalog.tools.map((t) => [t.id, t]));
    this.nsDescription = new Map();
    this.seesDeferred = new WeakMap();
    if (defer) {
      const search = new CodexToolSearch(this.name, this.searchLimit);
      await search.index(catalog);
      this.search = search;
    } else {
      this.search = null;
    }
  }

  searcher(): Retriever | null {
    this.built();
    return this.search;
  }

  beforeSearch(caller: Caller): BeforeSearch {
    const catalog = this.built();
    const tools = catalog.tools;
    if (caller.allowed !== undefined && caller.allowed.length !== tools.length) {
      throw new RangeError(`profile "${this.name}": allowed mask has ${caller.allowed.length} entries, the catalog ${tools.length} tools`);
    }
    if (this.deferredCount === 0) return { eager: allowedIds(tools, caller.allowed), metaTools: [], advertisement: '' };
    const mask = this.deferredMask;
    const eager: string[] = [];
    let visibleDeferred = 0;
    for (let i = 0; i < tools.length; i++) {
      if (caller.allowed !== undefined && caller.allowed[i] !== 1) continue;
      if (mask[i] === 1) visibleDeferred++;
      else eager.push(tools[i]!.id);
    }
    if (visibleDeferred === 0) return { eager, metaTools: [], advertisement: '' };
    const rows = namespaceRows(tools, mask, caller.allowed, (t) => this.namespaceDescription(t));
    return { eager, metaTools: [toolSearchDefinition(this.searchLimit)], advertisement: renderNamespaceFragment(rows, MAX_RENDERED_FRAGMENT_BYTES) };
  }

  /**
   * The `tool_search_output` for the hits. A caller without `tool_search` (nothing deferred, or no
   * deferred tool in its mask) searched nothing: an empty search adds nothing for it.
   */
  afterSearch(hits: readonly Hit[], caller: Caller): SearchAddition {
    this.built();
    if (hits.length === 0 && !this.hasToolSearch(caller.allowed)) return { form: 'schemas', loaded: [], text: '' };
    const tools = hits.map((h) => {
      const t = this.byId.get(h.id);
      if (t === undefined) throw new Error(`profile "${this.name}": unknown tool "${h.id}" in search hits`);
      return t;
    });
    return { form: 'schemas', loaded: tools.map((t) => t.id), text: toolSearchOutput(tools, (t) => this.namespaceDescription(t)) };
  }

  describe(): Record<string, unknown> {
    return describeWith(CODEX_FACTS.description, {
      name: this.name,
      deferral: { rule: { ...this.rule }, ...(this.catalog ? { deferrableTools: this.deferrableCount, deferredTools: this.deferredCount } : {}) },
      searchLimit: this.searchLimit,
      calls: { ...this.calls },
      toolSearch: { name: TOOL_SEARCH_TOOL_NAME, engine: this.search?.describe() ?? new CodexToolSearch(this.name, this.searchLimit).describe() },
    });
  }

  /** Whether `tool_search` is in front of a caller with this mask (some deferred tool is visible). */
  private hasToolSearch(allowed: Uint8Array | undefined): boolean {
    if (this.deferredCount === 0) return false;
    if (allowed === undefined) return true;
    let sees = this.seesDeferred.get(allowed);
    if (sees === undefined) {
      sees = false;
      const mask = this.deferredMask;
      for (let i = 0; i < mask.length && !sees; i++) if (mask[i] === 1 && allowed[i] === 1) sees = true;
      this.seesDeferred.set(allowed, sees);
    }
    return sees;
  }

  private built(): Catalog {
    if (this.catalog === null) throw new Error(`profile "${this.name}": used before index()`);
    return this.catalog;
  }

  private namespaceDescription(tool: Tool): string {
    const key = `${tool.source}\0${tool.server ?? ''}\0${tool.plugin ?? ''}\0${tool.namespace}`;
    let d = this.nsDescription.get(key);
    if (d === undefined) this.nsDescription.set(key, (d = namespaceDescriptionOf(tool, this.built())));
    return d;
  }
}

/** The `codex` profile (see the module comment). Throws a `RangeError` on a malformed option. */
export function createCodexProfile(name: string, options: ProfileOptions & CodexOptions = {}): Profile {
  return new CodexProfile(name, options);
}
