/**
 * What the seed's namespace strategies share (When Your Agent Has 200 Tools, "Hierarchical or
 * namespace routing"): the namespace list the model reads, the `open_namespace` meta tool it opens
 * one with, and {@link NamespaceOpener}, the emulated model's choice plus the ranking inside.
 *
 * The opener ranks the namespaces a caller can open (those with at least one allowed, non-pinned
 * tool: exactly the advertised ones) with the `namespace` retriever's namespace BM25 (namespace
 * documents of `../../retrievers/namespace.ts`), opens the best `m` that score > 0 (none when the
 * request matches no namespace), and hands the opened namespaces' allowed, non-pinned tools to an
 * inner retriever, which ranks them (pinned tools are eager and appended by the policy). The
 * ranking is the inner retriever's: a BM25 returns only the tools matching a request term. (Filling
 * the rest of the namespace in with score 0 would make every request "match" a sticky session's
 * carried set, which the policy keeps when anything is returned and no floor is set.)
 */
import type { Catalog, Tool } from '../../catalog/types.ts';
import { NAMESPACE_DEFAULT_OPTIONS, NamespaceRoutes, type NamespaceRouting } from '../../retrievers/namespace.ts';
import { checkedMask } from '../../retrievers/rank.ts';
import { isDescribable, isPrefetching, type Describable, type Hit, type Prefetching, type Retriever, type SearchContext } from '../../retrievers/types.ts';
import { stringArgument } from '../text.ts';
import type { ToolDefinition } from '../types.ts';

/** `- namespace: first line of its description` for each namespace of `tools` (pinned tools aside), sorted by name. */
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

/** The cache key of an unrestricted caller's namespaces. */
const EVERYONE = {};

/** The meta tool the model opens a namespace with (the seed's domain-level meta tools, as one tool). */
export const OPEN_NAMESPACE: ToolDefinition = {
  name: 'open_namespace',
  description: 'Open one tool namespace from the list: its tools become available to you.',
  inputSchema: stringArgument('namespace', 'A namespace name from the list.'),
};

export interface OpenerOptions {
  /** Namespaces opened per request (each one a model call). */
  m: number;
}

export class NamespaceOpener implements Retriever, Describable, NamespaceRouting, Prefetching {
  readonly name: string;
  private readonly inner: Retriever;
  private readonly options: OpenerOptions;
  private readonly routes: NamespaceRoutes;
  private pinned = new Uint8Array(0);
  private request: string | undefined;

  constructor(name: string, inner: Retriever, options: OpenerOptions) {
    if (!(Number.isInteger(options.m) && options.m >= 1)) throw new RangeError(`namespaces opened must be an integer ≥ 1 (got ${options.m})`);
    this.name = name;
    this.inner = inner;
    this.options = options;
    this.routes = new NamespaceRoutes(name, NAMESPACE_DEFAULT_OPTIONS.namespaces);
  }

  /** The inner retriever (index progress and counters). */
  get children(): Retriever[] {
    return [this.inner];
  }

  async index(catalog: Catalog): Promise<void> {
    await this.routes.index(catalog);
    await this.inner.index(catalog);
    this.pinned = Uint8Array.from(catalog.tools, (t) => (t.pinned ? 1 : 0));
    this.openableBy = new WeakMap();
    this.request = undefined;
  }

  lastRoute(): string[] {
    return this.routes.lastRoute();
  }

  lastNamespaceRanking(): Hit[] {
    return this.routes.lastNamespaceRanking();
  }

  /** The namespaces the last search opened, if it was a search for `request` (else undefined). */
  routeFor(request: string): string[] | undefined {
    return this.request === request ? this.lastRoute() : undefined;
  }

  /** Catalog positions of a namespace's tools (ascending); [] for an unknown name. */
  positionsOf(namespace: string): readonly number[] {
    return this.routes.positionsOf(namespace);
  }

  /**
   * The namespaces with a `searchable` tool, found once per mask object (the policy makes one mask
   * per scope set and never changes it; `EVERYONE` stands for no mask).
   */
  private openable(allowed: Uint8Array | undefined, searchable: (p: number) => boolean): Uint8Array {
    const key = allowed ?? EVERYONE;
    let found = this.openableBy.get(key);
    if (!found) {
      found = this.routes.namespacesWith(searchable);
      this.openableBy.set(key, found);
    }
    return found;
  }

  private openableBy = new WeakMap<object, Uint8Array>();

  async prefetch(requests: readonly string[]): Promise<void> {
    if (isPrefetching(this.inner)) await this.inner.prefetch(requests);
  }

  async search(request: string, context: SearchContext): Promise<Hit[]> {
    const n = this.pinned.length;
    const allowed = checkedMask(this.name, context.allowed, n);
    const k = Math.floor(context.k);
    this.request = request;
    this.routes.forget();
    if (!(k > 0)) return [];
    const searchable = (p: number) => this.pinned[p] !== 1 && (allowed === undefined || allowed[p] === 1);
    const opened = await this.routes.open(request, this.options.m, this.openable(allowed, searchable));
    if (!opened.length) return [];
    const mask = new Uint8Array(n);
    for (const ns of opened) for (const p of this.positionsOf(ns)) if (searchable(p)) mask[p] = 1;
    return this.inner.search(request, { ...context, allowed: mask, k });
  }

  describe(): Record<string, unknown> {
    return {
      opens: this.options.m,
      route:
        "namespaces with an allowed non-pinned tool ranked by the namespace BM25 (namespace retriever documents); the best m scoring > 0 opened (the emulated model's choice)",
      inside: 'the inner retriever over the allowed non-pinned tools of the opened namespaces',
      namespaces: this.routes.bm25.describe(),
      inner: isDescribable(this.inner) ? this.inner.describe() : { name: this.inner.name },
    };
  }
}
