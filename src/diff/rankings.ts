/**
 * Both catalogs' rankings of every tool-labelled case, searched with the evaluation's own search
 * loop (`eval/search.ts`: the policy layer, scopes before ranking, prefetch blocks, progress), as
 * cheaply as exactness allows:
 *
 * 1. The rankings cache (`cache.ts`): a (retriever, catalog) pair ranked before is read, not
 *    searched. In CI the base catalog is the same for every pull request, so its side is free
 *    after the first diff.
 * 2. Two identical catalogs (same content hash and role map) rank alike: the new side is the old.
 * 3. A *tool-local* retriever (capability `toolLocal`: the score of a tool depends only on the
 *    request and that tool's own text, as `embed`'s cosine does) ranks the new catalog from the
 *    old ranking: the unchanged tools keep their scores, so the new top-d is the old list without
 *    the removed and changed tools, merged with the scores of the added and changed tools, which a
 *    small index of those tools alone gives (re-embedding only them). Where the old list was full
 *    (d tools) and lost one, the unchanged tool that moves up is unknown: those cases are searched
 *    on the full new index. The result equals a full search, order and scores.
 * 4. Otherwise (BM25's idf and length norms depend on the whole catalog) every case is searched on
 *    the new index.
 * Index counters (`stats()`: `embedded`, `cacheHits` for `embed`) are kept per index built.
 */
import { originOf } from '../retrievers/origins.ts';
import { wireIndexProgress } from '../retrievers/composite.ts';
import type { RoleMap } from '../catalog/roles.ts';
import { canonicalJson, sha256 } from '../util/hash.ts';
import type { Case, Catalog } from '../catalog/types.ts';
import { Policy } from '../retrievers/policy.ts';
import { rankStable } from '../retrievers/rank.ts';
import { createRetriever, retrieverCapabilities } from '../retrievers/registry.ts';
import { hasIndexStats, isComposite, isDescribable, type Retriever, type RetrieverOptions } from '../retrievers/types.ts';
import { rankCases } from '../eval/search.ts';
import { caseKey, RankingCache, type Ranking } from './cache.ts';
import type { CatalogChanges } from './changes.ts';

export interface Side {
  catalog: Catalog;
  /** `catalogHash(catalog)`. */
  catalogSha256: string;
  roles?: RoleMap;
}

export interface RankOptions {
  retriever: string;
  /** Ranked tools kept per case (≥ the k reported). */
  depth: number;
  retrieverOptions?: RetrieverOptions;
  /** Rankings cache folder; null: no cache. */
  cacheDir: string | null;
  /** Build a retriever (tests); default: the registry. */
  create?: (name: string, options: RetrieverOptions) => Retriever;
  /** Override whether the retriever is tool-local (default: its registry entry's `toolLocal`). */
  toolLocal?: boolean;
  progress?: (stage: string, done: number, total: number) => void;
}

/** How one side's rankings were obtained. Timings and index counters vary run to run. */
export interface SideStats {
  /** Tool-labelled cases. */
  cases: number;
  fromCache: number;
  /** Cases searched on the side's full index. */
  searched: number;
  /** Cases ranked from the old ranking and the changed tools' scores (tool-local retrievers). */
  derived: number;
  /** The catalogs are identical: the new side is the old one. */
  sameAsOld?: true;
  /** Tools in the index of added and changed tools (tool-local retrievers). */
  deltaTools?: number;
  indexMs: number;
  searchMs: number;
  /** Counters of the full index, when one was built and the retriever has any. */
  index?: Record<string, number>;
  /** Counters of the index of added and changed tools. */
  deltaIndex?: Record<string, number>;
}

export interface SideRun {
  /** Per case, in case order: ranked [tool id, score]; null for a case not labelled for tools. */
  rankings: Array<Ranking | null>;
  stats: SideStats;
}

export interface BothRuns {
  old: SideRun;
  new: SideRun;
  toolLocal: boolean;
  /** The retriever's `describe()`. */
  config: Record<string, unknown>;
}

function rolesHash(roles: RoleMap | undefined): string | null {
  return roles ? sha256(canonicalJson(roles)) : null;
}

/** How much deeper than reported a tool-local retriever ranks (see `rankBoth`). */
export const DERIVE_SLACK = 10;

/** A retriever indexed on first use, with the time it took and its counters, and the policy layer over its catalog. */
class LazyIndex {
  private retriever: Retriever | undefined;
  private built_: Policy | undefined;
  indexMs = 0;

  constructor(
    private readonly make: () => Retriever,
    private readonly catalog: Catalog,
    private readonly onProgress?: (done: number, total: number) => void,
  ) {}

  async get(): Promise<Retriever> {
    if (this.retriever === undefined) {
      const r = this.make();
      if (this.onProgress) wireIndexProgress(r, this.onProgress);
      const t0 = performance.now();
      await r.index(this.catalog);
      this.indexMs = performance.now() - t0;
      this.retriever = r;
    }
    return this.retriever;
  }

  /** The policy layer over this side's catalog (built once; a side answered from the cache never needs one). */
  get policy(): Policy {
    this.built_ ??= new Policy(this.catalog);
    return this.built_;
  }

  /** Rank `cases` on this index with the evaluation's search loop (`rankCases`): [tool id, score] per case. */
  async rankAll(cases: readonly Case[], depth: number, progress?: (done: number, total: number) => void): Promise<Ranking[]> {
    const details = await rankCases(await this.get(), this.policy, cases, depth, progress);
    return details.map((d) => d.ranked);
  }

  counters(): Record<string, number> | undefined {
    return this.retriever ? countersOf(this.retriever) : undefined;
  }
}

/**
 * Numeric `stats()` of a retriever. A composite (hybrid) reports the counters of the child that
 * embeds (`embedded`, `cacheHits`) when it has one, else its own or its first child's.
 */
function countersOf(r: Retriever): Record<string, number> | undefined {
  const own = numericStats(r);
  if (own && 'embedded' in own) return own;
  const found = (isComposite(r) ? r.children : []).map((c) => countersOf(c)).filter((c): c is Record<string, number> => c !== undefined);
  return found.find((c) => 'embedded' in c) ?? own ?? found[0];
}

function numericStats(r: Retriever): Record<string, number> | undefined {
  if (!hasIndexStats(r)) return undefined;
  const numbers = Object.entries(r.stats()).filter((e): e is [string, number] => typeof e[1] === 'number');
  return numbers.length ? Object.fromEntries(numbers) : undefined;
}

/** Rank every tool-labelled case of `cases` on both catalogs. */
export async function rankBoth(old: Side, next: Side, cases: readonly Case[], changes: CatalogChanges, opts: RankOptions): Promise<BothRuns> {
  const create = opts.create ?? ((name: string, o: RetrieverOptions) => createRetriever(name, o));
  const make = (side: Side) => () => create(opts.retriever, { ...opts.retrieverOptions, ...(side.roles ? { roles: side.roles } : {}) });
  const probe = make(old)();
  // a plugin's strategy keys by its module's hash too; a retrieval service can change behind its URL, so it is never cached
  const origin = originOf(opts.retriever);
  const config = { ...(isDescribable(probe) ? probe.describe() : {}), ...(origin ? { origin } : {}) };
  const uncached = origin !== undefined && 'service' in origin;
  const toolLocal = opts.toolLocal ?? retrieverCapabilities(opts.retriever).toolLocal === true;
  const depth = opts.depth;
  // A tool-local retriever ranks DERIVE_SLACK places deeper than reported (and caches that), so the
  // new ranking of a case whose old top tools were changed or removed can still be derived.
  const searchDepth = toolLocal ? depth + DERIVE_SLACK : depth;
  const keys = cases.map((c) => caseKey(c.request, c.callerScopes, c.role));
  const labelled = cases.map((_, i) => i).filter((i) => cases[i]!.expectedTools !== undefined);
  const cacheOf = (side: Side) =>
    opts.cacheDir === null || uncached
      ? null
      : new RankingCache(opts.cacheDir, {
          retriever: opts.retriever,
          config,
          catalogSha256: side.catalogSha256,
          roles: rolesHash(side.roles),
          depth: searchDepth,
        });
  const reported = (rankings: ReadonlyArray<Ranking | null>) => rankings.map((r) => r && (r.length > depth ? r.slice(0, depth) : r));
  const progress = (stage: string) => (done: number, total: number) => opts.progress?.(stage, done, total);

  /** Search `idxs` on `index` (the evaluation's search loop), filling `rankings` and the cache. */
  async function searchAll(
    stage: string,
    index: LazyIndex,
    idxs: readonly number[],
    rankings: Array<Ranking | null>,
    cache: RankingCache | null,
    stats: SideStats,
  ): Promise<void> {
    if (!idxs.length) return;
    await index.get();
    const t0 = performance.now();
    const found = await index.rankAll(
      idxs.map((i) => cases[i]!),
      searchDepth,
      progress(stage),
    );
    idxs.forEach((i, j) => {
      rankings[i] = found[j]!;
      cache?.set(keys[i]!, found[j]!);
    });
    stats.searched += idxs.length;
    stats.searchMs += performance.now() - t0;
  }

  /** Fill `rankings` with the labelled cases `cache` holds (counted in `stats`); returns the cases it lacks. */
  function takeCached(cache: RankingCache | null, rankings: Array<Ranking | null>, stats: SideStats): number[] {
    const missing: number[] = [];
    for (const i of labelled) {
      const hit = cache?.get(keys[i]!);
      if (hit) {
        rankings[i] = hit;
        stats.fromCache++;
      } else missing.push(i);
    }
    return missing;
  }

  // The old side: the cache, then a search of what it lacks.
  const oldStats: SideStats = { cases: labelled.length, fromCache: 0, searched: 0, derived: 0, indexMs: 0, searchMs: 0 };
  const oldRankings: Array<Ranking | null> = cases.map(() => null);
  const oldCache = cacheOf(old);
  const oldMissing = takeCached(oldCache, oldRankings, oldStats);
  const oldIndex = new LazyIndex(make(old), old.catalog, progress('old catalog: index'));
  await searchAll('old catalog: search', oldIndex, oldMissing, oldRankings, oldCache, oldStats);
  oldStats.indexMs = oldIndex.indexMs;
  const oldCounters = oldIndex.counters();
  if (oldCounters) oldStats.index = oldCounters;
  oldCache?.save();

  // The new side.
  const newStats: SideStats = { cases: labelled.length, fromCache: 0, searched: 0, derived: 0, indexMs: 0, searchMs: 0 };
  if (old.catalogSha256 === next.catalogSha256 && rolesHash(old.roles) === rolesHash(next.roles)) {
    return {
      old: { rankings: reported(oldRankings), stats: oldStats },
      new: { rankings: reported(oldRankings), stats: { ...newStats, sameAsOld: true } },
      toolLocal,
      config,
    };
  }
  const newRankings: Array<Ranking | null> = cases.map(() => null);
  const newCache = cacheOf(next);
  let missing = takeCached(newCache, newRankings, newStats);
  const newIndex = new LazyIndex(make(next), next.catalog, progress('new catalog: index'));
  let deltaIndex: LazyIndex | undefined;
  if (toolLocal && missing.length) {
    const gone = new Set([...changes.removed, ...changes.changed].map((t) => t.id));
    const delta = new Set([...changes.added, ...changes.changed].map((t) => t.id));
    const deltaCatalog: Catalog = {
      tools: next.catalog.tools.filter((t) => delta.has(t.id)),
      skills: [],
      servers: next.catalog.servers,
      plugins: next.catalog.plugins,
    };
    newStats.deltaTools = deltaCatalog.tools.length;
    if (deltaCatalog.tools.length) deltaIndex = new LazyIndex(make(next), deltaCatalog, progress('changed tools: index'));
    // A ranked list shorter than searchDepth is complete (fewer tools than that scored); a full one
    // is cut, and what it lacks may outrank what replaces the gone tools: it can be derived only
    // while at least `depth` of its tools remain. Those that cannot are searched on the full index.
    const needsFallback = (i: number) => {
      const before = oldRankings[i]!;
      return before.length >= searchDepth && before.filter(([id]) => !gone.has(id)).length < depth;
    };
    const fallback = missing.filter(needsFallback);
    const derivable = missing.filter((i) => !needsFallback(i));
    const t0 = performance.now();
    // The added and changed tools' scores for every derivable case, by the evaluation's search loop.
    const deltaHits = deltaIndex
      ? await deltaIndex.rankAll(
          derivable.map((i) => cases[i]!),
          deltaCatalog.tools.length,
          progress('new catalog: changed tools'),
        )
      : derivable.map((): Ranking => []);
    derivable.forEach((i, j) => {
      const before = oldRankings[i]!;
      const kept = before.filter(([id]) => !gone.has(id));
      const merged = rankStable([...kept, ...deltaHits[j]!].map(([id, score]) => ({ id, score })));
      // Exact down to the last kept tool when the old list was cut (an unseen unchanged tool may
      // rank between it and a changed tool below it); all of it when the old list was complete.
      const cut = before.length >= searchDepth;
      const last = kept[kept.length - 1]?.[0];
      const exact = cut ? merged.findIndex((h) => h.id === last) + 1 : merged.length;
      const ranking: Ranking = merged.slice(0, Math.min(exact, searchDepth)).map((h) => [h.id, h.score]);
      newRankings[i] = ranking;
      // A shorter list in the cache would read as complete: cache only full-depth or complete ones.
      if (ranking.length === searchDepth || !cut) newCache?.set(keys[i]!, ranking);
      newStats.derived++;
    });
    newStats.searchMs += performance.now() - t0 - (deltaIndex?.indexMs ?? 0);
    missing = fallback;
  }
  await searchAll('new catalog: search', newIndex, missing, newRankings, newCache, newStats);
  newStats.indexMs = newIndex.indexMs + (deltaIndex?.indexMs ?? 0);
  const counters = newIndex.counters();
  if (counters) newStats.index = counters;
  const deltaCounters = deltaIndex?.counters();
  if (deltaCounters) newStats.deltaIndex = deltaCounters;
  newCache?.save();
  return { old: { rankings: reported(oldRankings), stats: oldStats }, new: { rankings: reported(newRankings), stats: newStats }, toolLocal, config };
}
