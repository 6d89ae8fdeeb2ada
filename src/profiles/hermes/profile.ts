/**
 * `hermes`: Hermes Agent's tool-search bridge (`NousResearch/hermes-agent`), emulated from the code:
 * `tools/tool_search.py` @016260a5 (configuration, activation, bridge tools, listing budget,
 * dispatch) and `tools/tool_search_catalog.py` @13a4e497 (indexed text, tokenizer, BM25, admission,
 * listing); user docs at https://hermes-agent.nousresearch.com/docs/user-guide/features/tool-search.
 *
 * - **Deferral** (`config.ts`, the shared split of `../deferral.ts`). Core tools stay eager; MCP
 *   tools and plugin tools (except the session-gated GUI toolsets `desktop_ui`, `project`, `setup`)
 *   are deferred, and the bridge (`tool_search`, `tool_describe`, `tool_call`) turns on as soon as
 *   one deferrable tool exists (`enabled` `on`; `auto` is an alias; `off` = everything eager, no
 *   search). Upstream also defers a curated list of its own core tools (`computer_use`,
 *   `session_search`, …); none of them exists in our catalogs, so the list is not modelled.
 * - **Retrieval** (`search.ts`). Only the deferred tools are indexed, each as upstream's
 *   `_entry_search_text` (`hermesSearchText`), through Backpack's `Bm25Retriever` with
 *   Hermes's tokenizer (`[A-Za-z0-9]+`, lowercase, Porter2, no stop words), k1 1.5, b 0.75, every
 *   query token occurrence counting, and the `'hermes'` admission (rarest-token gate + coverage
 *   floor). A query equal to a tool's name (trimmed, case-insensitive) always returns that tool
 *   first ({@link EXACT_NAME_SCORE}).
 * - **Exposure** (`bridge.ts`, `listing.ts`). Before any search: the non-deferred tools eager, the
 *   three bridge tools, and the deferred catalog listing (full → names → groups collapsed largest
 *   first → none, within `min(4000, 5% of the context window)` tokens at chars/4) that upstream
 *   embeds in the `tool_search` description. A search returns metadata: the JSON `tool_search`
 *   answers (names, source, 500-char description, required parameters); schemas need `tool_describe`.
 *
 * **Query and variants.** The `tool_search` description asks for keyword queries ("Queries are
 * keyword searches, not questions … no filler words"), so `hermes` declares `queryStyle:
 * 'keywords'`: the evaluation turns the request into the keyword query a model would write before
 * searching. `hermes-raw` searches with the raw request (`queryStyle: 'raw'`), which shows the
 * rarest-token gate on conversational requests. `hermes-retry` is `hermes-raw` plus an emulated
 * model (not Hermes code) that answers an empty result by searching again with the request's words
 * the catalog knows, minus stop words; that search reports `searches: 2` so model calls count it.
 * Model calls: `tool_search`, then `tool_describe` for the tool picked, then `tool_call`
 * (`calls = { search: 1, perFoundTool: 1, call: 'each' }`).
 *
 * **Names.** A tool's name, everywhere (listing, results, exact-name match, `tool_call`), is its
 * catalog id, the name the model calls (`mcp__github__create_issue`, `plugin__clickup__create_task`,
 * `bash`). The indexed text drops a leading `mcp__` as upstream does (it is in every MCP document);
 * upstream has no `plugin__` prefix, so ours stays in the text of plugin tools (an extra common word).
 *
 * **Scope.** Upstream rebuilds the catalog from the session's own tool definitions, so a restricted
 * session lists, counts and searches only its tools. The listing, the count N, `total_available`
 * and `available_sources` follow the caller's mask here too; the BM25 statistics (N, df, avgdl, and
 * so the gate token) are over every deferred tool, by the project's rule that a mask never changes
 * the weights of the tools it lets through.
 *
 * The facts and their upstream sources: `facts.ts`, docs/harness-facts.md#hermes.
 */
import type { Catalog, Tool } from '../../catalog/types.ts';
import { checkedMask } from '../../retrievers/rank.ts';
import type { Hit, Retriever } from '../../retrievers/types.ts';
import { charCount } from '../../util/unicode.ts';
import { deferrablePositions } from '../deferral.ts';
import type { BeforeSearch, Caller, CallProtocol, Profile, ProfileOptions, QueryStyle, SearchAddition } from '../types.ts';
import { searchResultText, TOOL_CALL, TOOL_DESCRIBE, toolSearchDefinition, type SourceCount } from './bridge.ts';
import {
  estimateTokens,
  HERMES_DEFERRAL,
  hermesToolset,
  listingGroupLabel,
  listingTokenBudget,
  resolveHermesConfig,
  type HermesConfig,
  type HermesOptions,
} from './config.ts';
import {
  compareTools,
  groupByLabel,
  ladder,
  listingTier,
  prepareTool,
  shortDescription,
  type Listing,
  type ListingForm,
  type PreparedTool,
} from './listing.ts';
import { HermesSearcher } from './search.ts';
import { describeWith } from '../facts.ts';
import { HERMES_CALLS, HERMES_FACTS, HERMES_VARIANTS } from './facts.ts';

/** What Hermes assembles for one caller (`AssemblyResult`). */
export interface HermesAssembly {
  activated: boolean;
  /** Deferred tools the caller may see (N in "Search N additional tools"). */
  deferredCount: number;
  tier: 0 | 1 | 2;
  listingForm: ListingForm;
  /** Listing budget in tokens. */
  listingBudget: number;
  /** Listing cost, ceil(chars / 4); 0 without a listing. */
  listingTokens: number;
  listing: string | null;
}

interface DeferredInfo {
  position: number;
  tool: Tool;
  label: string;
  prepared: PreparedTool;
}

export class HermesProfile implements Profile {
  readonly name: string;
  readonly searchLimit: number;
  /** tool_search, tool_describe for the tool picked, then tool_call. */
  readonly calls: CallProtocol = { ...HERMES_CALLS };
  /** `keywords` by default (the model writes the `tool_search` query); `raw` for `hermes-raw` and `hermes-retry`. */
  readonly queryStyle: QueryStyle;
  /** The emulated retry of an empty result (`hermes-retry`): such a search is two model calls. */
  readonly retryKnownWords: boolean;
  readonly provider = 'openai';
  readonly estimator = 'chars/4';
  readonly config: HermesConfig;
  private readonly search: HermesSearcher;
  private catalog: Catalog | undefined;
  private deferred = new Uint8Array(0);
  /** Deferred tools grouped by label (groups sorted by label, tools by (name, short description)). */
  private groups: { label: string; labelLen: number; tools: DeferredInfo[] }[] = [];
  /** Each group's catalog positions, in its tools' order (the per-caller walks read these, not the tool records). */
  private groupPositions: Int32Array[] = [];
  private byId = new Map<string, Tool>();
  /** The caller's deferred tools counted by group label, per mask object (`undefined` = unrestricted). */
  private sourceCounts = new WeakMap<Uint8Array, SourceCount[]>();
  private allSources: SourceCount[] | undefined;

  constructor(name: string, options: ProfileOptions & HermesOptions = {}) {
    this.name = name;
    this.config = resolveHermesConfig(options);
    this.searchLimit = this.config.searchDefaultLimit;
    const style = options.queryStyle ?? 'keywords';
    if (style !== 'keywords' && style !== 'raw') throw new RangeError(`hermes queryStyle must be keywords or raw (got ${JSON.stringify(style)})`);
    this.queryStyle = style;
    this.retryKnownWords = options.retryKnownWords === true;
    this.search = new HermesSearcher(name, { retryKnownWords: this.retryKnownWords });
  }

  async index(catalog: Catalog): Promise<void> {
    await this.search.index(catalog);
    const tools = catalog.tools;
    const deferred = new Uint8Array(tools.length);
    const infos: { label: string; tool: DeferredInfo }[] = [];
    for (const position of deferrablePositions(tools, HERMES_DEFERRAL)) {
      deferred[position] = 1;
      const tool = tools[position]!;
      const label = listingGroupLabel(hermesToolset(tool));
      infos.push({ label, tool: { position, tool, label, prepared: prepareTool(tool.id, shortDescription(tool.description)) } });
    }
    this.groups = groupByLabel(infos, (a, b) => compareTools(a.prepared, b.prepared));
    this.groupPositions = this.groups.map((g) => Int32Array.from(g.tools, (t) => t.position));
    this.deferred = deferred;
    this.byId = new Map(tools.map((t) => [t.id, t]));
    this.sourceCounts = new WeakMap();
    this.allSources = undefined;
    this.catalog = catalog;
  }

  /** `available_sources` before filtering: the caller's deferred tools per group label (computed once per mask). */
  private sources(allowed: Uint8Array | undefined): SourceCount[] {
    const cached = allowed === undefined ? this.allSources : this.sourceCounts.get(allowed);
    if (cached) return cached;
    const sources: SourceCount[] = this.groups.map((g, j) => {
      let n = 0;
      if (allowed) for (const p of this.groupPositions[j]!) n += allowed[p] === 1 ? 1 : 0;
      else n = g.tools.length;
      return { name: g.label, tool_count: n };
    });
    if (allowed === undefined) this.allSources = sources;
    else this.sourceCounts.set(allowed, sources);
    return sources;
  }

  private tools(): readonly Tool[] {
    if (!this.catalog) throw new Error(`profile "${this.name}": used before index()`);
    return this.catalog.tools;
  }

  /** The search tool, or `null` when the bridge is off or the catalog has no deferrable tool. */
  searcher(): Retriever | null {
    this.tools();
    return this.config.enabled === 'off' || this.search.deferredCount() === 0 ? null : this.search;
  }

  private visibleDeferred(caller: Caller): DeferredInfo[][] {
    const allowed = caller.allowed;
    const out: DeferredInfo[][] = [];
    this.groups.forEach((g, j) => {
      let vis = g.tools;
      if (allowed) {
        const positions = this.groupPositions[j]!;
        vis = [];
        for (let i = 0; i < positions.length; i++) if (allowed[positions[i]!] === 1) vis.push(g.tools[i]!);
      }
      if (vis.length) out.push(vis);
    });
    return out;
  }

  /** What Hermes assembles for this caller: activation, N, listing form, tier and text. */
  assembly(caller: Caller): HermesAssembly {
    const tools = this.tools();
    checkedMask(this.name, caller.allowed, tools.length);
    const budget = listingTokenBudget(this.config);
    const visible = this.visibleDeferred(caller);
    const deferredCount = visible.reduce((s, g) => s + g.length, 0);
    const activated = this.config.enabled !== 'off' && deferredCount > 0;
    if (!activated) return { activated, deferredCount: 0, tier: 0, listingForm: 'none', listingBudget: budget, listingTokens: 0, listing: null };
    const listing: Listing =
      this.config.listing === 'off'
        ? { text: null, form: 'none' }
        : ladder(
            visible.map((g) => ({ label: g[0]!.label, labelLen: charCount(g[0]!.label), tools: g.map((t) => t.prepared) })),
            budget,
          );
    return {
      activated,
      deferredCount,
      tier: listingTier(true, listing.form),
      listingForm: listing.form,
      listingBudget: budget,
      listingTokens: listing.text === null ? 0 : estimateTokens(listing.text),
      listing: listing.text,
    };
  }

  /**
   * The non-deferred tools the caller may use, eager; the three bridge tools; and the listing as the
   * advertisement. Upstream embeds the listing in the `tool_search` description
   * (`description + "\n\n" + listing`); here it is only in `advertisement`, so it is counted once.
   * Without a deferred tool for this caller (or with `enabled: off`) everything is eager, no bridge.
   */
  beforeSearch(caller: Caller): BeforeSearch {
    const tools = this.tools();
    const a = this.assembly(caller);
    const allowed = caller.allowed;
    const eager: string[] = [];
    for (let i = 0; i < tools.length; i++) {
      if (allowed && allowed[i] !== 1) continue;
      if (!a.activated || this.deferred[i] !== 1) eager.push(tools[i]!.id);
    }
    if (!a.activated) return { eager, metaTools: [], advertisement: '' };
    return { eager, metaTools: [toolSearchDefinition(a.deferredCount, a.listingForm), TOOL_DESCRIBE, TOOL_CALL], advertisement: a.listing ?? '' };
  }

  /**
   * A `tool_search` answer: metadata (names, source, description ≤ 500 characters, required
   * parameters); schemas need `tool_describe`. The query echoed is the request the search was given
   * (in Hermes the model writes its own keyword queries, which an offline evaluation does not know).
   * Without a bridge for the caller (`enabled: off`, or no deferred tool visible) there is no
   * `tool_search` to answer: nothing is added. Source counts are computed once per mask object.
   */
  afterSearch(hits: readonly Hit[], caller: Caller, request: string): SearchAddition {
    checkedMask(this.name, caller.allowed, this.tools().length);
    const sources = this.sources(caller.allowed);
    const found = hits.map((h) => this.byId.get(h.id)).filter((t): t is Tool => t !== undefined);
    // No bridge for this caller (off, or no deferred tool visible): there was no tool_search to answer.
    if (found.length === 0 && (this.config.enabled === 'off' || !sources.some((s) => s.tool_count > 0))) return { form: 'metadata', loaded: [], text: '' };
    // The model then calls tool_describe for the tool it picks (the top hit): one schema per search.
    const picked = found[0];
    return {
      form: 'metadata',
      loaded: found.map((t) => t.id),
      text: searchResultText(request, found, sources),
      ...(picked ? { definitions: [{ name: picked.id, description: picked.description, inputSchema: picked.inputSchema }] } : {}),
      // hermes-retry: the emulated model searched twice when its first query found nothing.
      ...(this.retryKnownWords ? { searches: this.search.wasRetried(request, caller.allowed) ? 2 : 1 } : {}),
    };
  }

  describe(): Record<string, unknown> {
    const c = this.config;
    const unrestricted = this.catalog ? this.assembly({}) : undefined;
    return describeWith(HERMES_FACTS.description, {
      name: this.name,
      query: HERMES_VARIANTS.query[this.queryStyle],
      retry: this.retryKnownWords ? HERMES_VARIANTS.retry.on : HERMES_VARIANTS.retry.off,
      calls: { ...this.calls },
      config: { ...c, listingBudget: listingTokenBudget(c) },
      bridge: { searchLimit: `default ${c.searchDefaultLimit}, clamped to [1, ${c.maxSearchLimit}]` },
      listing: {
        unrestricted: unrestricted
          ? { form: unrestricted.listingForm, tier: unrestricted.tier, tokens: unrestricted.listingTokens, deferred: unrestricted.deferredCount }
          : null,
      },
    });
  }
}

/** The `hermes` profile (see the module comment). */
export function createHermesProfile(name: string, options?: ProfileOptions & HermesOptions): HermesProfile {
  return new HermesProfile(name, options);
}
