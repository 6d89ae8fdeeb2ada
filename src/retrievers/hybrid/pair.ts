/**
 * What the fusions of two retrievers share: indexing both children and the catalog's positions,
 * prefetching, and the checks that open a search.
 */
import type { Catalog } from '../../catalog/types.ts';
import { checkedMask, idRanks } from '../rank.ts';
import { isDescribable, isPrefetching, type Hit, type Prefetching, type Retriever, type SearchContext } from '../types.ts';

/** Allowed-tool counts of the masks seen (a policy reuses one mask object per scope set). */
const allowedCounts = new WeakMap<Uint8Array, number>();

/** How many tools `allowed` lets through (all `n` without a mask). */
export function allowedCount(allowed: Uint8Array | undefined, n: number): number {
  if (allowed === undefined) return n;
  let count = allowedCounts.get(allowed);
  if (count === undefined) {
    count = 0;
    for (let i = 0; i < allowed.length; i++) if (allowed[i] === 1) count++;
    allowedCounts.set(allowed, count);
  }
  return count;
}

/** A retriever that fuses two child retrievers over one catalog. */
export abstract class FusedPair implements Retriever, Prefetching {
  readonly name: string;
  readonly children: readonly [Retriever, Retriever];
  /** The indexed catalog, undefined until `index` completes. */
  protected catalog: Catalog | undefined;
  /** Each tool's position by id. */
  protected position = new Map<string, number>();
  protected ids: string[] = [];
  /** Position of each tool's id in code-unit order (the tie-break of `rankStable`). */
  protected idRank = new Uint32Array(0);
  protected n = 0;

  constructor(name: string, a: Retriever, b: Retriever) {
    this.name = name;
    this.children = [a, b];
  }

  abstract search(request: string, context: SearchContext): Promise<Hit[]>;

  /** Make the catalog-sized working arrays for `n` tools (called by `index`). */
  protected abstract allocate(n: number): void;

  async index(catalog: Catalog): Promise<void> {
    this.catalog = undefined;
    await this.children[0].index(catalog);
    await this.children[1].index(catalog);
    this.position = new Map();
    catalog.tools.forEach((t, i) => this.position.set(t.id, i));
    this.ids = catalog.tools.map((t) => t.id);
    this.idRank = idRanks(this.ids);
    this.n = catalog.tools.length;
    this.allocate(this.n);
    this.catalog = catalog;
  }

  /** Hand the upcoming requests to each child that prefetches (see {@link Prefetching}), in child order. */
  async prefetch(requests: readonly string[]): Promise<void> {
    this.indexed('prefetch');
    for (const child of this.children) if (isPrefetching(child)) await child.prefetch(requests);
  }

  /** The indexed catalog; throws if `method` is called before `index`. */
  protected indexed(method: string): Catalog {
    if (this.catalog === undefined) throw new Error(`retriever "${this.name}": ${method}() called before index()`);
    return this.catalog;
  }

  /** A search's checked mask, k and allowed-tool count; undefined when it returns nothing (k < 1, or no tool allowed). */
  protected open(context: SearchContext): { allowed: Uint8Array | undefined; k: number; total: number } | undefined {
    this.indexed('search');
    const allowed = checkedMask(this.name, context.allowed, this.n);
    const k = Math.floor(context.k);
    if (!(k > 0)) return undefined;
    const total = allowedCount(allowed, this.n);
    if (total === 0) return undefined;
    return { allowed, k, total };
  }

  /** The end of a fusion's `describe()`: what the children are given, and their `describe()` (or their names). */
  protected describeFusion(): { mask: string; children: Record<string, unknown>[] } {
    return {
      mask: 'the same allowed mask goes to both children; floor is not passed down',
      children: this.children.map((r) => (isDescribable(r) ? r.describe() : { name: r.name })),
    };
  }
}
