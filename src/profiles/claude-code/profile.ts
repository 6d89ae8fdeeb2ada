/**
 * `claude-code`: an emulation of Claude Code's client-side tool search (`ToolSearch`). Sources: the official page
 * `code.claude.com/docs/en/agent-sdk/tool-search` (activation values, deferral, `max_results` 5,
 * 10,000-tool limit, 2 KB cuts), translated mirrors of the `code.claude.com` MCP page,
 * settings-schema mirrors, the Anthropic API's tool search tool page
 * (`platform.claude.com/docs/en/agents-and-tools/tool-use/tool-search-tool`: `defer_loading`,
 * `tool_reference`, 10,000 tools). The keyword scoring (`search.ts`) comes from third-party analyses
 * of Claude Code's bundled source (`searchToolsWithKeywords` / `parseToolName` in
 * `ToolSearchTool.ts`) and is **unofficial**.
 *
 * Activation (`ENABLE_TOOL_SEARCH`, option `toolSearch`):
 *   - `'on'` (default; the documented behaviour when the variable is unset): deferrable tools are deferred.
 *     History: around v2.1.7 (Jan 2026) the default was `auto` at 10% [dated from third-party posts];
 *     `claude-code-auto` (`{auto: 10}`) emulates that release.
 *   - `{auto: N}`: on iff the deferrable definitions' tokens ≥ N% of the context window, else
 *     everything loads up front (`searcher()` is `null`). Upstream's token counter is unknown:
 *     **pinned** to Σ ceil(chars / 4) over the JSON of each deferrable definition
 *     `{name, description, input_schema}` (description cut at 2 KB), chars = Unicode code points.
 *   - `'off'`: everything eager.
 * Deferrable = MCP and plugin tools, minus `alwaysLoad` (the shared split of `../deferral.ts`; our
 * catalogs carry no such flag: option `alwaysLoad` lists namespaces or tool ids). Core tools always
 * load and are not counted.
 *
 * The 10,000-tool ceiling (`prefilter.ts`): a request carries at most `ceiling` deferred
 * definitions, and `ToolSearch` can only return tools whose definitions are in the request. One
 * admitted set per caller (scope mask and role), chosen before any request, is therefore what the
 * advertisement names, what the search reaches and what crosses the wire. Below the ceiling it is
 * every deferrable tool the caller may see; above it a **Backpack-pinned** prefilter (upstream
 * documents none) keeps the role's tools, then whole namespaces in catalog order (first fit).
 *
 * Query: the model writes the `ToolSearch` query (keywords, `+term`, `select:`), so the profile
 * declares `queryStyle: 'keywords'` (the evaluation turns the request into the keyword query a
 * model would write). Model calls: the search, then the exact call (references need no load call).
 *
 * Exposure (`advertisement.ts`): eager = core + alwaysLoad tools; one meta tool `ToolSearch`; the
 * advertisement is the `<available-deferred-tools>` block (one id per line, the admitted tools) plus
 * the MCP server instructions (cut at 2 KB). The admitted tools' full definitions are in the request
 * with `defer_loading: true` (the API's deferred loading; the model does not read them): they are
 * {@link BeforeSearch.wire}, counted as wire tokens apart from what the model reads. A search returns
 * `tool_reference` blocks; the referenced definitions (descriptions cut at 2 KB,
 * {@link loadedDefinition}) are expanded for the model by the API.
 *
 * The facts and their upstream sources: `facts.ts`, docs/harness-facts.md#claude-code.
 */
import type { Catalog, Tool } from '../../catalog/types.ts';
import type { Hit, Retriever } from '../../retrievers/types.ts';
import { isDeferrable } from '../deferral.ts';
import { describeWith } from '../facts.ts';
import type { BeforeSearch, Caller, CallProtocol, Profile, ProfileOptions, QueryStyle, SearchAddition } from '../types.ts';
import {
  DEFERRED_TOOLS_CLOSE,
  DEFERRED_TOOLS_OPEN,
  definitionTokens,
  loadedDefinition,
  serverInstructionsBlock,
  TOOL_SEARCH_NAME,
  TOOL_SEARCH_TOOL,
  toolReferenceText,
  toolSearchActive,
} from './advertisement.ts';
import { claudeCodeDeferral, resolveClaudeCodeOptions, type ClaudeCodeOptions, type ResolvedClaudeCodeOptions } from './config.ts';
import { CLAUDE_CODE_CALLS, CLAUDE_CODE_FACTS } from './facts.ts';
import { ClaudeCodeToolSearch } from './search.ts';
import { withListing } from '../catalog-listing.ts';

export class ClaudeCodeProfile implements Profile {
  readonly name: string;
  readonly searchLimit: number;
  /** ToolSearch returns references the provider expands: search, then the exact call. */
  readonly calls: CallProtocol = { ...CLAUDE_CODE_CALLS };
  /** The model writes the `ToolSearch` query: keywords (or `select:`), not the user's request. */
  readonly queryStyle: QueryStyle = 'keywords';
  private readonly o: ResolvedClaudeCodeOptions;
  private readonly search: ClaudeCodeToolSearch;
  private catalog: Catalog | undefined;
  private deferrable = new Uint8Array(0);
  private deferrableCount = 0;
  /** computed at index time in `auto` mode, else on the first `describe()` (not needed to decide) */
  private deferrableTokens: number | undefined;
  private active = false;

  constructor(name: string, options: ProfileOptions & ClaudeCodeOptions = {}) {
    this.name = name;
    this.o = resolveClaudeCodeOptions(options);
    this.searchLimit = this.o.maxResults;
    this.search = new ClaudeCodeToolSearch(name, options);
  }

  async index(catalog: Catalog): Promise<void> {
    const deferral = claudeCodeDeferral(this.o.alwaysLoad);
    this.toolById = new Map();
    this.deferrable = new Uint8Array(catalog.tools.length);
    let count = 0;
    catalog.tools.forEach((t, p) => {
      if (!isDeferrable(t, deferral)) return;
      this.deferrable[p] = 1;
      count++;
    });
    this.deferrableCount = count;
    this.catalog = catalog;
    this.ids = catalog.tools.map((t) => t.id);
    this.deferrableTokens = undefined;
    this.active = typeof this.o.toolSearch === 'object' ? toolSearchActive(this.o.toolSearch, this.tokens(), this.o.contextWindow) : this.o.toolSearch === 'on';
    if (this.active) await this.search.index(catalog);
  }

  private toolById = new Map<string, Tool>();
  /** The catalog's ids by position: the pieces of the `<available-deferred-tools>` listing. */
  private ids: string[] = [];

  private tools(): readonly Tool[] {
    if (!this.catalog) throw new Error(`profile "${this.name}": used before index()`);
    return this.catalog.tools;
  }

  /** The pinned token estimate of the deferrable definitions ({@link definitionTokens} summed). */
  private tokens(): number {
    if (this.deferrableTokens === undefined) {
      let tokens = 0;
      this.tools().forEach((t, p) => {
        if (this.deferrable[p] === 1) tokens += definitionTokens(t);
      });
      this.deferrableTokens = tokens;
    }
    return this.deferrableTokens;
  }

  searcher(): Retriever | null {
    this.tools();
    return this.active ? this.search : null;
  }

  /** Tool search is on for the indexed catalog. */
  isActive(): boolean {
    return this.active;
  }

  /**
   * Core (and alwaysLoad) tools eager; `ToolSearch`; the caller's admitted deferred tools named in
   * `<available-deferred-tools>` and sent on the wire (`wire`: their full definitions travel with
   * `defer_loading: true`); the instructions of the servers with a tool the model sees. With tool
   * search off everything the caller may see is eager and nothing else crosses the wire.
   */
  beforeSearch(caller: Caller): BeforeSearch {
    const tools = this.tools();
    const { allowed } = caller;
    const ok = (p: number) => allowed === undefined || allowed[p] === 1;
    const eager: string[] = [];
    const admitted: string[] = [];
    const positions = new Int32Array(tools.length);
    const seen = new Set<string>();
    const admittedMask = this.active ? this.search.admitted(allowed, caller.role).mask : undefined;
    tools.forEach((t, p) => {
      if (!ok(p)) return;
      if (!this.active || this.deferrable[p] === 0) eager.push(t.id);
      else if (admittedMask![p] === 1) positions[admitted.push(t.id) - 1] = p;
      else return;
      if (t.server !== undefined) seen.add(t.server);
    });
    const servers = this.catalog!.servers.filter((s) => seen.has(s.name));
    const instructions = serverInstructionsBlock(servers);
    if (!this.active) return { eager, metaTools: [], advertisement: instructions };
    const b = { eager, metaTools: [TOOL_SEARCH_TOOL], wire: admitted };
    if (!admitted.length) return { ...b, advertisement: instructions };
    // deferredToolsBlock(admitted), then the instructions after a blank line, as a listing of the ids
    const tail = `${DEFERRED_TOOLS_CLOSE}${instructions ? `\n\n${instructions}` : ''}`;
    return withListing(b, { head: `${DEFERRED_TOOLS_OPEN}\n`, positions: positions.slice(0, admitted.length), pieces: this.ids, tail });
  }

  /** `tool_reference` blocks for the hits; with tool search off there is no `ToolSearch`, and an empty search adds nothing. */
  afterSearch(hits: readonly Hit[], _caller?: Caller): SearchAddition {
    const ids = hits.map((h) => h.id);
    if (!this.active && ids.length === 0) return { form: 'references', loaded: [], text: '' };
    if (this.toolById.size === 0) this.toolById = new Map(this.tools().map((t) => [t.id, t]));
    const defs = ids
      .map((id) => this.toolById.get(id))
      .filter((t): t is Tool => t !== undefined)
      .map(loadedDefinition);
    return { form: 'references', loaded: ids, text: toolReferenceText(ids), definitions: defs };
  }

  describe(): Record<string, unknown> {
    const o = this.o;
    return describeWith(CLAUDE_CODE_FACTS.description, {
      name: this.name,
      calls: { ...this.calls },
      activation: {
        toolSearch: typeof o.toolSearch === 'string' ? o.toolSearch : { auto: o.toolSearch.auto },
        contextWindow: o.contextWindow,
        deferrableTools: this.deferrableCount,
        deferrableTokens: this.catalog ? this.tokens() : null,
        thresholdTokens: typeof o.toolSearch === 'object' ? (o.toolSearch.auto * o.contextWindow) / 100 : null,
        active: this.active,
      },
      deferral: { alwaysLoad: [...o.alwaysLoad] },
      search: { tool: TOOL_SEARCH_NAME, maxResults: o.maxResults, retriever: this.search.describe() },
      ceiling: { tools: o.ceiling, prefilter: this.search.prefilterDescription(), roles: o.roles ? Object.keys(o.roles.roles).length : 0 },
      exposure: { metaTools: [TOOL_SEARCH_NAME] },
    });
  }
}

/** The `claude-code` profile (register `{toolSearch: {auto: 10}}` as `claude-code-auto`). */
export function createClaudeCodeProfile(name: string, options: ProfileOptions & ClaudeCodeOptions = {}): ClaudeCodeProfile {
  return new ClaudeCodeProfile(name, options);
}
