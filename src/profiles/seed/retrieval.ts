/**
 * The seed's harness-side retrieval profiles (When Your Agent Has 200 Tools) as one exposure model:
 * pinned tools in full before any search; the harness retrieves with the user's request (no model
 * call for the search) and puts the hits in front of the model, either
 * - in full (`schemas`: their definitions are the request's tools array, rebuilt per request), or
 * - deferred (`metadata`: one `- id: summary` entry each; `load_tool_schema` fetches the definition
 *   of the tool the model calls — one model call per tool, one definition per search: the top
 *   hit's, as in `../deferred.ts`).
 * Optionally the namespaces are advertised (name: first line of description), and optionally the
 * model opens a namespace first (`open_namespace`: one model call each, counted per search).
 * The strategies themselves (retriever, limit, floor, stickiness) are set in their own files.
 */
import type { Tool } from '../../catalog/types.ts';
import type { Hit, Retriever } from '../../retrievers/types.ts';
import { LOAD_TOOL_SCHEMA, SchemaLoadingProfile } from './deferred.ts';
import { allowedIds, toolDefinition } from '../text.ts';
import type { BeforeSearch, Caller, CallProtocol, Profile, QueryStyle, SearchAddition, ToolDefinition } from '../types.ts';
import { namespaceList, OPEN_NAMESPACE, type NamespaceOpener } from './namespaces.ts';

export interface RetrievalSettings {
  /** What `describe()` calls the strategy. */
  label: string;
  /** Hits per search. */
  limit: number;
  sticky: boolean;
  /** How hits reach the model: full definitions, or deferred entries plus `load_tool_schema`. */
  form: 'schemas' | 'metadata';
  /** Advertise the namespace list before any search. */
  advertiseNamespaces: boolean;
  /** The searcher is a namespace opener the model drives (`open_namespace`, one call per namespace). */
  opener?: NamespaceOpener;
  /**
   * Beyond the caller's scopes, whether the caller's role sees the tool at this position (a role
   * gate: the searcher gates the same way); absent = yes. It narrows the namespace list and what
   * `load_tool_schema` answers.
   */
  sees?: (position: number, caller: Caller) => boolean;
  /** The floor applied when the run configures none (on the searcher's scale). */
  defaultFloor?: number;
  /** Added to `describe()`. */
  notes: Record<string, unknown>;
}

export class RetrievalProfile extends SchemaLoadingProfile implements Profile {
  readonly searchLimit: number;
  readonly calls: CallProtocol;
  /** The harness searches with the user's request itself. */
  readonly queryStyle: QueryStyle = 'raw';
  readonly sticky: boolean;
  readonly defaultFloor?: number;
  /** The retrieved set (definitions or entries) is part of the request, rebuilt per request: sticky keeps it stable for the cache. */
  readonly placement = 'prefix';
  private readonly settings: RetrievalSettings;

  constructor(name: string, search: Retriever, settings: RetrievalSettings) {
    super(name, search);
    this.settings = settings;
    this.searchLimit = settings.limit;
    this.sticky = settings.sticky;
    if (settings.defaultFloor !== undefined) this.defaultFloor = settings.defaultFloor;
    this.calls = {
      search: 0,
      perFoundTool: settings.form === 'metadata' ? 1 : 0,
      ...(settings.opener ? { perNamespace: 1 as const } : {}),
      call: 'each',
    };
  }

  /** The child retrievers (so the runner can show index progress and counters). */
  get children(): Retriever[] {
    return [this.search];
  }

  private metaTools(): ToolDefinition[] {
    return [...(this.settings.opener ? [OPEN_NAMESPACE] : []), ...(this.settings.form === 'metadata' ? [LOAD_TOOL_SCHEMA] : [])];
  }

  beforeSearch(caller: Caller): BeforeSearch {
    if (!this.catalog) throw new Error(`profile "${this.name}": beforeSearch() called before index()`);
    const tools = this.catalog.tools;
    const sees = this.settings.sees;
    const visible = (i: number) => (!caller.allowed || caller.allowed[i] === 1) && (!sees || sees(i, caller));
    return {
      eager: allowedIds(tools, caller.allowed, (t) => t.pinned),
      metaTools: this.metaTools(),
      advertisement: this.settings.advertiseNamespaces
        ? namespaceList(
            this.catalog,
            tools.filter((_, i) => visible(i)),
          )
        : '',
    };
  }

  afterSearch(hits: readonly Hit[], _caller: Caller, query: string): SearchAddition {
    // pinned tools are already in front of the model (eager): not loaded twice
    const tools = hits.map((h) => this.byId.get(h.id)?.tool).filter((t): t is Tool => t !== undefined && !t.pinned);
    const opened = this.opened(hits, query);
    if (this.settings.form === 'schemas')
      return { form: 'schemas', loaded: hits.map((h) => h.id), text: '', definitions: tools.map(toolDefinition), ...opened };
    // The model loads the schema of the tool it calls (the top entry): one definition per search.
    const picked = tools[0];
    return {
      form: 'metadata',
      loaded: hits.map((h) => h.id),
      // harness-side retrieval that found nothing shows nothing
      text: tools.map((t) => `- ${t.id}: ${t.summary}`).join('\n'),
      ...(picked ? { definitions: [toolDefinition(picked)] } : {}),
      ...opened,
    };
  }

  /** Namespaces the model opened for this search (a profile with an opener): the opener's route for the query, else the hits' namespaces. */
  private opened(hits: readonly Hit[], query: string): { namespacesOpened?: number } {
    const opener = this.settings.opener;
    if (!opener) return {};
    const route = opener.routeFor(query) ?? [...new Set(hits.flatMap((h) => this.byId.get(h.id)?.tool.namespace ?? []))];
    return { namespacesOpened: route.length };
  }

  /** The role gate, when the strategy has one (it narrows what `load_tool_schema` answers). */
  protected override sees(position: number, caller: Caller): boolean {
    return this.settings.sees === undefined || this.settings.sees(position, caller);
  }

  describe(): Record<string, unknown> {
    const s = this.settings;
    const shown =
      s.form === 'schemas'
        ? "full definitions (the request's tools array)"
        : 'deferred entries (- id: one-line summary); load_tool_schema fetches the definition of the tool the model calls (one per search)';
    return {
      profile: s.label,
      exposure: `pinned tools in full${s.advertiseNamespaces ? '; the namespaces advertised (name: first line of description)' : ''}; after each request the ${s.limit} best tools as ${shown}`,
      search: { retriever: this.search.name, limit: s.limit, query: 'the user request (harness-side, no model call)' },
      sticky: s.sticky,
      ...(s.defaultFloor !== undefined ? { defaultFloor: s.defaultFloor } : {}),
      calls: this.calls,
      ...s.notes,
    };
  }
}
