/**
 * `namespace-routing`, the seed's hierarchical namespace routing (When Your Agent Has 200 Tools:
 * "exposes a few domain-level meta-tools — crm, billing, documents — which expand into their
 * namespace on demand"; "one extra round trip per namespace opened").
 *
 * Before any search the model reads the namespace list (name: first line of description) and has
 * one meta tool, `open_namespace`; pinned tools are in full. The model opens ONE namespace from the
 * user's request (query style `raw`: the model reads the request itself, it writes no search
 * query); that choice is emulated by the namespace BM25 of the `namespace` retriever (its best
 * namespace, among those the caller has a tool in). Opening costs one model call
 * (`namespacesOpened: 1`), and EVERY tool of the namespace the caller may use is expanded into the
 * request in full (`loaded` and `definitions`: hundreds on a large catalog — that is the routing's
 * price). The ranking the search is scored on (`recall@k`, top-1) is the opened namespace's tools
 * that match the request, by their tool-level BM25 score (the `namespace` retriever's tool BM25),
 * cut at {@link NAMESPACE_ROUTING_RANKED}; a gold tool anywhere in the expansion, matched or not,
 * counts as visible. A request that matches no tool of the best namespace above the floor (an
 * off-topic request) opens none and sees only the pinned tools: the floor governs the expansion,
 * so a calibrated floor holds the no-tool false-positive rate as it does for any search.
 */
import type { Catalog, Tool } from '../../catalog/types.ts';
import { Bm25Retriever } from '../../retrievers/bm25/index.ts';
import { NAMESPACE_DEFAULT_OPTIONS } from '../../retrievers/namespace.ts';
import type { Hit, Retriever } from '../../retrievers/types.ts';
import { allowedIds, toolDefinition } from '../text.ts';
import type { BeforeSearch, Caller, CallProtocol, Profile, QueryStyle, SearchAddition, ToolDefinition } from '../types.ts';
import { NamespaceOpener, namespaceList, OPEN_NAMESPACE } from './namespaces.ts';
import { describeWith } from '../facts.ts';
import { NAMESPACE_ROUTING_FACTS } from './facts.ts';

/** Length of the ranking a search is scored on (the deepest default cut-off); the expansion itself is the whole namespace. */
export const NAMESPACE_ROUTING_RANKED = 10;

export class NamespaceRoutingProfile implements Profile {
  readonly name: string;
  readonly searchLimit = NAMESPACE_ROUTING_RANKED;
  /** The model opens the namespace (one call); its tools arrive in full; each needed tool is called. */
  readonly calls: CallProtocol = { search: 0, perFoundTool: 0, perNamespace: 1, call: 'each' };
  /** The model picks the namespace from the user's request as it is. */
  readonly queryStyle: QueryStyle = 'raw';
  /** The expanded definitions join the request's tools array. */
  readonly placement = 'prefix';
  private readonly opener: NamespaceOpener;
  private catalog: Catalog | undefined;
  private tools: readonly Tool[] = [];
  private byId = new Map<string, { tool: Tool; position: number }>();
  /** Each catalog tool's definition, made the first time a namespace expands into it (by position). */
  private definitions: ToolDefinition[] = [];

  constructor(name: string) {
    this.name = name;
    this.opener = new NamespaceOpener('namespace', new Bm25Retriever('namespace:tools', NAMESPACE_DEFAULT_OPTIONS.tools), { m: 1 });
  }

  get children(): Retriever[] {
    return [this.opener];
  }

  async index(catalog: Catalog): Promise<void> {
    await this.opener.index(catalog);
    this.catalog = catalog;
    this.tools = catalog.tools;
    this.byId = new Map(catalog.tools.map((t, i) => [t.id, { tool: t, position: i }]));
    this.definitions = [];
  }

  searcher(): NamespaceOpener {
    return this.opener;
  }

  beforeSearch(caller: Caller): BeforeSearch {
    if (!this.catalog) throw new Error(`profile "${this.name}": beforeSearch() called before index()`);
    const tools = this.catalog.tools;
    return {
      eager: allowedIds(tools, caller.allowed, (t) => t.pinned),
      metaTools: [OPEN_NAMESPACE],
      advertisement: namespaceList(
        this.catalog,
        tools.filter((_, i) => !caller.allowed || caller.allowed[i] === 1),
      ),
    };
  }

  /**
   * The opened namespace expanded: the ranked hits first, then the namespace's other tools the
   * caller may use (catalog order), pinned tools aside (they are eager).
   */
  afterSearch(hits: readonly Hit[], caller: Caller, query: string): SearchAddition {
    // The emulated model opens a namespace when the request is about one of its tools: when no tool
    // of it matches above the floor (an off-topic request), it opens none and answers without tools,
    // so the floor governs the expansion as it governs any search result.
    if (!hits.length) return { form: 'schemas', loaded: [], text: '', namespacesOpened: 0 };
    const route = this.opener.routeFor(query) ?? [...new Set(hits.map((h) => this.byId.get(h.id)?.tool.namespace).filter((n): n is string => n !== undefined))];
    const allowed = caller.allowed;
    const tools = this.tools;
    // a tool the caller may use, not pinned (eager already), of an opened namespace
    const usable = (p: number) => !tools[p]!.pinned && (!allowed || allowed[p] === 1);
    const taken = new Set<number>();
    const positions: number[] = [];
    for (const h of hits) {
      const e = this.byId.get(h.id);
      if (e === undefined || taken.has(e.position) || !route.includes(e.tool.namespace) || !usable(e.position)) continue;
      taken.add(e.position);
      positions.push(e.position);
    }
    // the rest of each opened namespace (its positions: the tools whose namespace it is), in catalog order
    for (const ns of route) for (const p of this.opener.positionsOf(ns)) if (!taken.has(p) && usable(p)) positions.push(p);
    return {
      form: 'schemas',
      loaded: positions.map((p) => tools[p]!.id),
      text: route.length ? `Opened ${route.join(', ')}: ${positions.length} tools.` : '',
      definitions: positions.map((p) => (this.definitions[p] ??= toolDefinition(tools[p]!))),
      namespacesOpened: route.length,
    };
  }

  describe(): Record<string, unknown> {
    return describeWith(NAMESPACE_ROUTING_FACTS.description, {
      ranking: `the opened namespace's tools matching the request, by tool-level BM25, scored to ${NAMESPACE_ROUTING_RANKED}; every expanded tool counts as visible`,
      calls: this.calls,
      search: this.opener.describe(),
    });
  }
}

export function createNamespaceRouting(name: string): NamespaceRoutingProfile {
  return new NamespaceRoutingProfile(name);
}
