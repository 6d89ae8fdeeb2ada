/** A profile's figures from its per-case records: exposure means, tokens before and per search, session costs, context fit; and the catalog's token table. */
import type { Catalog } from '../catalog/types.ts';
import { DEFAULT_CONTEXT_WINDOW } from '../profiles/types.ts';
import type { MetricTable } from '../metrics/types.ts';
import { tokenTable, type TokenTable } from '../tokens/table.ts';

/** Bump when a field of results.json changes meaning or moves. Readers accept this version and older ones. */
import { promptFits, SESSION_TURNS, type CachePrices, type ExposureSummary, type ProfileTokens, type QueryDetail, type RetrieverResults } from './results.ts';

/** Means of the per-case exposure figures over the cases that have them (profiles' tool-labelled cases), in case order. */
export function exposureMeans(details: readonly QueryDetail[]): ExposureSummary['perCase'] {
  let n = 0;
  let eager = 0;
  let loaded = 0;
  let chars = 0;
  for (const d of details) {
    if (!d.exposure) continue;
    n++;
    eager += d.exposure.eagerTools;
    loaded += d.exposure.loadedTools;
    chars += d.exposure.resultChars;
  }
  return n ? { eagerTools: eager / n, loadedTools: loaded / n, searchResultChars: chars / n } : { eagerTools: 0, loadedTools: 0, searchResultChars: 0 };
}

/** Kinds that measure a ranking: left out of a profile with no search (nothing was ranked; `visible` says what reached the model). */
const RANKING_KINDS = new Set([
  'top1',
  'recall',
  'allGold',
  'anyGold',
  'mrr',
  'ndcg',
  'missedEntirely',
  'namespaceRecall',
  'searchNoToolFalsePositiveRate',
  'visibleByExpansion',
]);

export function withoutRanking(r: RetrieverResults): RetrieverResults {
  const strip = <V>(t: Record<string, V>): Record<string, V> => Object.fromEntries(Object.entries(t).filter(([key]) => !RANKING_KINDS.has(key.split('@')[0]!)));
  const m = r.metrics;
  return {
    ...r,
    abstention: null,
    recallAtFalsePositiveRate: null,
    metrics: {
      overall: strip(m.overall),
      slices: Object.fromEntries(Object.entries(m.slices).map(([k, t]) => [k, strip(t)])),
      namespaces: Object.fromEntries(Object.entries(m.namespaces).map(([k, t]) => [k, strip(t)])),
      ...(m.ci95
        ? {
            ci95: {
              overall: strip(m.ci95.overall),
              slices: Object.fromEntries(Object.entries(m.ci95.slices).map(([k, t]) => [k, strip(t)])),
              namespaces: Object.fromEntries(Object.entries(m.ci95.namespaces).map(([k, t]) => [k, strip(t)])),
            },
          }
        : {}),
    },
  };
}

/**
 * The session figures of a profile from B (tokens before search), S (tokens per search), where
 * search additions live, the prefix change rate p and the cache prices (w write, r read), over T
 * turns with one search a turn:
 * - `history` (a search result stays in the conversation): uncached = T·B + S·T(T+1)/2;
 *   cached = B·(w + (T−1)·r) + S·(T·w + r·T(T−1)/2) (each result written once, read after);
 * - `prefix` (the loaded definitions are part of the prefix, rebuilt each turn): uncached = T·(B+S);
 *   cached = (B+S)·(w + (T−1)·(p·w + (1−p)·r)) (a changed set rewrites the prefix).
 * The invalidation cost is the prefix written instead of read: (B (+S for prefix))·(w − r).
 */
export function sessionTokens(
  B: number,
  S: number,
  placement: 'history' | 'prefix',
  p: number,
  cache: CachePrices,
  T = SESSION_TURNS,
): { uncached: number; cached: number; invalidation: number } {
  const { writeRatio: w, readRatio: r } = cache;
  if (placement === 'prefix') {
    const P = B + S;
    return { uncached: T * P, cached: P * (w + (T - 1) * (p * w + (1 - p) * r)), invalidation: P * (w - r) };
  }
  return { uncached: T * B + (S * T * (T + 1)) / 2, cached: B * (w + (T - 1) * r) + S * (T * w + (r * T * (T - 1)) / 2), invalidation: B * (w - r) };
}

/** The token figures of a profile from its per-case details (so a merged sharded run gives the same). */
export function profileTokens(
  details: readonly QueryDetail[],
  metrics: MetricTable,
  before: { total: number; eager: number; metaTools: number; advertisement: number; estimate?: number; wire?: number },
  meta: { counter: string; provider: string; placement: 'history' | 'prefix'; search: boolean; estimator?: string },
  cache: CachePrices,
  /** Prefix placement: the run's own session churn (share of session turns whose set changed), null without session transitions. */
  churn: number | null,
  contextWindow: number = DEFAULT_CONTEXT_WINDOW,
): ProfileTokens {
  let n = 0;
  let overflow = 0;
  let beforeSum = 0;
  let searchSum = 0;
  let estSearch = 0;
  let wireSum = 0;
  let wired = false;
  for (const d of details) {
    if (!d.exposure) continue;
    n++;
    if (d.exposure.wireTokens !== undefined) {
      wired = true;
      wireSum += d.exposure.wireTokens;
    }
    beforeSum += d.exposure.beforeTokens;
    searchSum += d.exposure.searchTokens;
    estSearch += d.exposure.estimate?.search ?? 0;
    if (!promptFits(d.exposure, contextWindow)) overflow++;
  }
  const beforePerCase = n ? beforeSum / n : 0;
  const perSearch = meta.search && n ? searchSum / n : 0;
  const perCase = beforePerCase + perSearch;
  // a profile with no search never changes its prefix (its set is fixed per caller)
  const change = meta.placement === 'prefix' ? (meta.search ? churn : 0) : null;
  const session = sessionTokens(before.total, perSearch, meta.placement, change ?? 1, cache);
  const per1k = (x: number | undefined): number => (x === undefined || perCase === 0 ? 0 : x / (perCase / 1000));
  return {
    counter: meta.counter,
    provider: meta.provider,
    placement: meta.placement,
    beforeSearch: before.total,
    beforeSearchParts: { eager: before.eager, metaTools: before.metaTools, advertisement: before.advertisement },
    beforeSearchPerCase: beforePerCase,
    perSearch,
    perCase,
    visiblePer1kTokens: per1k(metrics.visible),
    recall5Per1kTokens: meta.search && metrics['recall@5'] !== undefined ? per1k(metrics['recall@5']) : null,
    prefixChangeRate: change,
    session12Uncached: session.uncached,
    session12Cached: session.cached,
    cacheInvalidation: session.invalidation,
    cache: { ...cache },
    ...(meta.estimator !== undefined && before.estimate !== undefined
      ? { estimate: { counter: meta.estimator, beforeSearch: before.estimate, perSearch: meta.search && n ? estSearch / n : 0 } }
      : {}),
    contextWindow,
    fitsContext: n ? (n - overflow) / n : 1,
    overflowCases: overflow,
    ...(wired || (before.wire ?? 0) > 0 ? { wire: { beforeSearch: before.wire ?? 0, perCase: n ? wireSum / n : 0 } } : {}),
  };
}

/** The token table of a catalog: its tools as the definitions a provider receives, in catalog order. */
export function catalogTokenTable(catalog: Catalog): TokenTable {
  return tokenTable(catalog.tools.map((t) => ({ name: t.id, description: t.description, inputSchema: t.inputSchema })));
}
