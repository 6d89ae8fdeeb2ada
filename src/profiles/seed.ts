/**
 * The seed article's strategies as profiles (When Your Agent Has 200 Tools):
 * - `role-gating`: static within a phase — every tool the caller's role (or task phase) may see
 *   (its namespaces and tool patterns, `roles.json` or `--roles`) is sent eagerly; no search. A
 *   caller with no role, or a dataset with no role map, sees everything its scopes allow (the
 *   static list).
 * - `semantic-retrieval`: embeddings (the `embed` retriever) put the 5 best tools' full
 *   definitions in front of the model, sticky per task (a session keeps its set until a request
 *   matches none of it), with the pinned tools always there.
 * - `namespace-routing`: the namespaces are advertised (name and first line of description); the
 *   `namespace` retriever opens the best 3 and sends the 5 best tools inside them in full.
 */
import { roleScope, type RoleMap, type RoleScope } from '../catalog/roles.ts';
import type { Catalog, Tool } from '../catalog/types.ts';
import { createEmbed } from '../retrievers/embed/index.ts';
import { createNamespace } from '../retrievers/namespace.ts';
import type { Hit, Retriever } from '../retrievers/types.ts';
import { allowedIds, toolDefinition } from './text.ts';
import type { BeforeSearch, Caller, Profile, ProfileOptions, SearchAddition, CallProtocol, QueryStyle } from './types.ts';

export const SEED_SEARCH_LIMIT = 5;

/** Role / context gating, static within a phase. */
export class RoleGatingProfile implements Profile {
  readonly name: string;
  readonly searchLimit = 0;
  /** Everything needed is eager: the model calls each tool it needs, nothing else. */
  readonly calls: CallProtocol = { search: 0, perFoundTool: 0, call: 'each' };
  readonly queryStyle: QueryStyle = 'raw';
  private readonly roles: RoleMap | undefined;
  private catalog: Catalog | undefined;

  constructor(name: string, roles?: RoleMap) {
    this.name = name;
    this.roles = roles;
  }

  async index(catalog: Catalog): Promise<void> {
    this.catalog = catalog;
  }

  searcher(): null {
    return null;
  }

  /** What a role sees (`always` and pinned tools included), or undefined when the caller is not gated. */
  scopeOf(role: string | undefined): RoleScope | undefined {
    return this.roles && role !== undefined ? roleScope(this.roles, role) : undefined;
  }

  beforeSearch(caller: Caller): BeforeSearch {
    if (!this.catalog) throw new Error(`profile "${this.name}": beforeSearch() called before index()`);
    const scope = this.scopeOf(caller.role);
    return { eager: allowedIds(this.catalog.tools, caller.allowed, (t) => !scope || scope.sees(t)), metaTools: [], advertisement: '' };
  }

  afterSearch(): SearchAddition {
    return { form: 'schemas', loaded: [], text: '' };
  }

  describe(): Record<string, unknown> {
    return {
      profile: 'role-gating',
      exposure: "every tool the caller's role sees (its namespaces and tool patterns, and `always`), full definitions; pinned tools always; no search",
      roles: this.roles ? Object.keys(this.roles.roles).length : 0,
      ungated: 'callers with no role (or no role map) see every tool their scopes allow',
    };
  }
}

/** A search profile: pinned tools eager, the retriever's best `limit` tools sent in full after each search. */
export class RetrievalProfile implements Profile {
  readonly name: string;
  readonly searchLimit = SEED_SEARCH_LIMIT;
  /** The harness retrieves before the request: the model only calls the tools it needs. */
  readonly calls: CallProtocol = { search: 0, perFoundTool: 0, call: 'each' };
  readonly queryStyle: QueryStyle = 'raw';
  readonly sticky: boolean;
  /** The retrieved tools' definitions are the request's tools array, rebuilt per request. */
  readonly placement = 'prefix';
  private readonly search: Retriever;
  private readonly advertise: boolean;
  private readonly label: string;
  private catalog: Catalog | undefined;
  private byId = new Map<string, Tool>();

  constructor(name: string, label: string, search: Retriever, opts: { sticky: boolean; advertiseNamespaces: boolean }) {
    this.name = name;
    this.label = label;
    this.search = search;
    this.sticky = opts.sticky;
    this.advertise = opts.advertiseNamespaces;
  }

  /** The child retrievers (so the runner can show index progress and counters). */
  get children(): Retriever[] {
    return [this.search];
  }

  async index(catalog: Catalog): Promise<void> {
    await this.search.index(catalog);
    this.catalog = catalog;
    this.byId = new Map(catalog.tools.map((t) => [t.id, t]));
  }

  searcher(): Retriever {
    return this.search;
  }

  beforeSearch(caller: Caller): BeforeSearch {
    if (!this.catalog) throw new Error(`profile "${this.name}": beforeSearch() called before index()`);
    const tools = this.catalog.tools;
    return {
      eager: allowedIds(tools, caller.allowed, (t) => t.pinned),
      metaTools: [],
      advertisement: this.advertise ? namespaceList(this.catalog, tools.filter((_, i) => !caller.allowed || caller.allowed[i] === 1)) : '',
    };
  }

  afterSearch(hits: readonly Hit[]): SearchAddition {
    // pinned tools are already in front of the model (eager): not loaded twice
    const defs = hits.map((h) => this.byId.get(h.id)).filter((t): t is Tool => t !== undefined && !t.pinned).map(toolDefinition);
    return { form: 'schemas', loaded: hits.map((h) => h.id), text: '', definitions: defs };
  }

  describe(): Record<string, unknown> {
    return {
      profile: this.label,
      exposure: `pinned tools in full; after each request the ${SEED_SEARCH_LIMIT} best tools' full definitions${this.advertise ? '; the namespaces advertised (name: first line of description)' : ''}`,
      search: { retriever: this.search.name, limit: SEED_SEARCH_LIMIT },
      sticky: this.sticky,
    };
  }
}

/** `- namespace: first line of its description` for each namespace of `tools`, sorted by name. */
export function namespaceList(catalog: Catalog, tools: readonly Tool[]): string {
  const names = [...new Set(tools.filter((t) => !t.pinned).map((t) => t.namespace))].sort();
  if (!names.length) return '';
  const described = new Map<string, string>();
  for (const s of catalog.servers) if (!described.has(s.name)) described.set(s.name, s.description);
  for (const p of catalog.plugins) if (!described.has(p.name)) described.set(p.name, p.description);
  const lines = names.map((n) => {
    const d = (described.get(n) ?? '').split('\n')[0]!.trim();
    return d ? `- ${n}: ${d}` : `- ${n}`;
  });
  return `Tool namespaces:\n${lines.join('\n')}\n`;
}

export function createSemanticRetrieval(name: string, options: ProfileOptions = {}): Profile {
  return new RetrievalProfile(name, 'semantic-retrieval', createEmbed('embed', { recipe: 'source+intent', ...(options.model !== undefined ? { model: options.model } : {}) }), { sticky: true, advertiseNamespaces: false });
}

export function createNamespaceRouting(name: string): Profile {
  return new RetrievalProfile(name, 'namespace-routing', createNamespace('namespace'), { sticky: false, advertiseNamespaces: true });
}
