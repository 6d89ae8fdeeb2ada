/**
 * Hierarchical namespace routing: rank namespaces first, open the best `m`, rank tools only inside.
 *
 * Index: one document per namespace that has at least one tool (in order of first appearance in
 * the catalog), as a synthetic tool indexed by a BM25 of its own:
 *   name        the namespace name
 *   summary     the description of every server and plugin named like the namespace
 *   description the `instructions` of every such server (Codex's namespace description)
 *   examples    one line per tool of the namespace: its name, title and summary
 * (see {@link namespaceDocuments}); plus an ordinary tool-level BM25 over the whole catalog.
 *
 * Search:
 *   1. rank the namespaces by the namespace BM25 (with a mask: only namespaces having at least one
 *      allowed tool are scored);
 *   2. open the top `m` namespaces that score > 0 (a request that matches no namespace opens none
 *      and returns nothing: there is no fallback to the flat ranking);
 *   3. rank tools with the tool BM25 under the caller's mask ∩ the opened namespaces' tools, so no
 *      tool outside the opened namespaces is ever scored.
 * A tool's score is its tool-level BM25 score alone (statistics of the whole catalog): the namespace
 * score only decides what is opened, so a tool of the second opened namespace can outrank one of
 * the first. The route of the last search is available through {@link NamespaceRouting}, so an
 * evaluation can tell a wrong-namespace failure (the gold tool's namespace was not opened) from a
 * wrong-tool one.
 */
import { checkedMask } from './rank.ts';
import type { Catalog, Tool } from '../catalog/types.ts';
import { Bm25Retriever, type Bm25Options } from './bm25/index.ts';
import { BM25_DEFAULT_OPTIONS, type Bm25OptionsInput } from './bm25/presets.ts';
import type { Describable, Hit, Retriever, SearchContext } from './types.ts';

/** Optional capability: the namespaces a hierarchical retriever chose on its last search. */
export interface NamespaceRouting {
  /** The namespaces the last search opened, best first (empty before any search). */
  lastRoute(): string[];
  /** Every namespace the last search scored (> 0), best first, with its namespace score. */
  lastNamespaceRanking(): Hit[];
}

export function isNamespaceRouting(r: Retriever): r is Retriever & NamespaceRouting {
  const c = r as Partial<NamespaceRouting>;
  return typeof c.lastRoute === 'function' && typeof c.lastNamespaceRanking === 'function';
}

export interface NamespaceOptions {
  /** Namespaces opened per request, integer ≥ 1. Default 3. */
  m: number;
  /** BM25 over the namespace documents (fields as mapped in the module comment). */
  namespaces: Bm25Options;
  /** BM25 over the tools. */
  tools: Bm25Options;
}

/**
 * Defaults: m = 3; tools ranked by Backpack's `bm25` preset; namespaces by the same tokenizer and
 * k1/b with fields name ×3, server/plugin description ×1, instructions ×1, tool lines ×1.
 */
export const NAMESPACE_DEFAULT_OPTIONS: Readonly<NamespaceOptions> = Object.freeze({
  m: 3,
  namespaces: {
    params: { ...BM25_DEFAULT_OPTIONS.params },
    tokenizer: { ...BM25_DEFAULT_OPTIONS.tokenizer },
    fields: { name: 3, namespace: 0, summary: 1, description: 1, examples: 1, params: 0 },
  },
  tools: structuredClone(BM25_DEFAULT_OPTIONS) as Bm25Options,
});

/** Parts of {@link NamespaceOptions} to override. */
export interface NamespaceOptionsInput {
  m?: number;
  namespaces?: Bm25OptionsInput;
  tools?: Bm25OptionsInput;
}

function mergeBm25(base: Bm25Options, o: Bm25OptionsInput | undefined): Bm25Options {
  return {
    params: { ...base.params, ...o?.params },
    tokenizer: { ...base.tokenizer, ...o?.tokenizer },
    fields: { ...base.fields, ...o?.fields },
  };
}

/** One namespace: its name and the catalog positions of its tools (ascending). */
export interface NamespaceGroup {
  name: string;
  positions: number[];
}

/** The catalog's namespaces in order of first appearance, each with its tools' positions. */
export function namespaceGroups(catalog: Catalog): NamespaceGroup[] {
  const groups = new Map<string, number[]>();
  catalog.tools.forEach((t, i) => {
    const g = groups.get(t.namespace);
    if (g) g.push(i);
    else groups.set(t.namespace, [i]);
  });
  return [...groups].map(([name, positions]) => ({ name, positions }));
}

/** The namespace documents, one synthetic tool per group (id = name = the namespace name). */
export function namespaceDocuments(catalog: Catalog, groups: readonly NamespaceGroup[] = namespaceGroups(catalog)): Tool[] {
  const nonEmpty = (s: string | undefined): s is string => s !== undefined && s.trim() !== '';
  return groups.map(({ name, positions }) => {
    const servers = catalog.servers.filter((s) => s.name === name);
    const plugins = catalog.plugins.filter((p) => p.name === name);
    const descriptions = [...servers.map((s) => s.description), ...plugins.map((p) => p.description)].filter(nonEmpty);
    const instructions = servers.map((s) => s.instructions).filter(nonEmpty);
    const lines = positions.map((p) => {
      const t = catalog.tools[p]!;
      return [t.name, t.title, t.summary].filter(nonEmpty).join(' — ');
    });
    return {
      id: name,
      name,
      source: 'core',
      namespace: name,
      summary: descriptions.join('\n'),
      description: instructions.join('\n'),
      inputSchema: { type: 'object', properties: {} },
      examples: lines,
      scopes: [],
      pinned: false,
      hash: '',
    };
  });
}

/**
 * The namespace half of hierarchical routing, shared by {@link NamespaceRetriever} and the seed
 * profiles' namespace opener: the namespace BM25 over {@link namespaceDocuments}, the namespace
 * groups, and the route of the last search ({@link NamespaceRouting}).
 */
export class NamespaceRoutes implements NamespaceRouting {
  /** The namespace BM25, named `<name>:namespaces`. */
  readonly bm25: Bm25Retriever;
  private groups: NamespaceGroup[] = [];
  private groupOf = new Map<string, number>();
  private route: string[] = [];
  private ranking: Hit[] = [];

  constructor(name: string, options: Bm25Options) {
    this.bm25 = new Bm25Retriever(`${name}:namespaces`, options);
  }

  /** Indexes the namespace documents of `catalog` and forgets the last route. */
  async index(catalog: Catalog): Promise<void> {
    const groups = namespaceGroups(catalog);
    await this.bm25.index({ tools: namespaceDocuments(catalog, groups), skills: [], servers: [], plugins: [] });
    this.groups = groups;
    this.groupOf = new Map(groups.map((g, j) => [g.name, j]));
    this.forget();
  }

  /** Clears the last route and ranking (a search that ranks no namespace). */
  forget(): void {
    this.route = [];
    this.ranking = [];
  }

  /** A mask over the namespaces: 1 for each with a tool at a position `has` accepts. */
  namespacesWith(has: (p: number) => boolean): Uint8Array {
    return Uint8Array.from(this.groups, (g) => (g.positions.some(has) ? 1 : 0));
  }

  /**
   * Ranks the namespaces under `allowed` (a mask over the namespaces; undefined: all) by the
   * namespace BM25, records the ranking and the best `m` as the route, and returns those names.
   */
  async open(request: string, m: number, allowed: Uint8Array | undefined): Promise<readonly string[]> {
    const ranking = await this.bm25.search(request, { k: Math.max(1, this.groups.length), allowed });
    const opened = ranking.slice(0, m).map((h) => h.id);
    this.ranking = ranking;
    this.route = opened;
    return opened;
  }

  /** Catalog positions of a namespace's tools (ascending); [] for an unknown name. */
  positionsOf(namespace: string): readonly number[] {
    const j = this.groupOf.get(namespace);
    return j === undefined ? [] : this.groups[j]!.positions;
  }

  lastRoute(): string[] {
    return [...this.route];
  }

  lastNamespaceRanking(): Hit[] {
    return this.ranking.map((h) => ({ ...h }));
  }
}

export class NamespaceRetriever implements Retriever, Describable, NamespaceRouting {
  readonly name: string;
  private readonly options: NamespaceOptions;
  private readonly routes: NamespaceRoutes;
  private readonly toolBm25: Bm25Retriever;
  private built = false;
  private n = 0;

  constructor(name: string, options: NamespaceOptionsInput = {}) {
    const m = options.m ?? NAMESPACE_DEFAULT_OPTIONS.m;
    if (!(Number.isInteger(m) && m >= 1)) throw new RangeError(`namespace m must be an integer ≥ 1 (got ${m})`);
    this.options = {
      m,
      namespaces: mergeBm25(NAMESPACE_DEFAULT_OPTIONS.namespaces, options.namespaces),
      tools: mergeBm25(NAMESPACE_DEFAULT_OPTIONS.tools, options.tools),
    };
    this.name = name;
    // The Bm25Retriever constructors validate (and copy) the options.
    this.routes = new NamespaceRoutes(name, this.options.namespaces);
    this.toolBm25 = new Bm25Retriever(`${name}:tools`, this.options.tools);
  }

  describe(): Record<string, unknown> {
    return {
      retriever: 'namespace',
      name: this.name,
      m: this.options.m,
      route: 'open the top m namespaces scoring > 0 (only those with an allowed tool), rank tools only inside them',
      score: 'the tool-level BM25 score (whole-catalog statistics); the namespace score only chooses what is opened',
      namespaceDocument: {
        name: 'namespace name',
        summary: 'descriptions of the servers and plugins of that name',
        description: 'instructions of the servers of that name',
        examples: 'one line per tool: name, title, summary',
      },
      namespaces: this.routes.bm25.describe(),
      tools: this.toolBm25.describe(),
    };
  }

  async index(catalog: Catalog): Promise<void> {
    this.built = false;
    await this.routes.index(catalog);
    await this.toolBm25.index(catalog);
    this.n = catalog.tools.length;
    this.allowedBy = new WeakMap();
    this.built = true;
  }

  /** The namespaces with a tool `allowed` lets through, found once per mask object (the policy makes one per scope set and never changes it). */
  private namespacesAllowed(allowed: Uint8Array): Uint8Array {
    let found = this.allowedBy.get(allowed);
    if (!found) {
      found = this.routes.namespacesWith((p) => allowed[p] === 1);
      this.allowedBy.set(allowed, found);
    }
    return found;
  }

  private allowedBy = new WeakMap<Uint8Array, Uint8Array>();

  lastRoute(): string[] {
    return this.routes.lastRoute();
  }

  lastNamespaceRanking(): Hit[] {
    return this.routes.lastNamespaceRanking();
  }

  async search(request: string, context: SearchContext): Promise<Hit[]> {
    if (!this.built) throw new Error(`retriever "${this.name}": search() called before index()`);
    const allowed = checkedMask(this.name, context.allowed, this.n);
    const k = Math.floor(context.k);
    if (!(k > 0)) {
      this.routes.forget();
      return [];
    }

    // 1. Namespaces with at least one allowed tool.
    const nsAllowed = allowed === undefined ? undefined : this.namespacesAllowed(allowed);
    const opened = await this.routes.open(request, this.options.m, nsAllowed);
    if (!opened.length) return [];

    // 2. The tool mask: the caller's mask ∩ the opened namespaces' tools.
    const mask = new Uint8Array(this.n);
    for (const ns of opened) {
      for (const p of this.routes.positionsOf(ns)) if (allowed === undefined || allowed[p] === 1) mask[p] = 1;
    }
    return this.toolBm25.search(request, { ...context, allowed: mask, k });
  }
}

/** A namespace-routing retriever named `name`, with `options` laid over the defaults. */
export function createNamespace(name: string, options: NamespaceOptionsInput = {}): NamespaceRetriever {
  return new NamespaceRetriever(name, options);
}
