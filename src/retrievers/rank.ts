/**
 * The one tie-break of the project: score descending, then tool id ascending (code-unit order).
 * With 50,000 short tool names, exact score ties are common (BM25 on a one-word query); without a
 * fixed rule top-1 would depend on insertion order. Every retriever and metric ranks through here.
 */
import type { Hit } from './types.ts';

export function compareHits(a: Hit, b: Hit): number {
  if (a.score !== b.score) return b.score - a.score;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** A new array of `hits` in rank order (stable sort by `compareHits`). */
export function rankStable(hits: readonly Hit[]): Hit[] {
  return [...hits].sort(compareHits);
}

/** The first `k` hits in rank order. */
export function topK(hits: readonly Hit[], k: number): Hit[] {
  return rankStable(hits).slice(0, Math.max(0, k));
}

/**
 * Check a search context against the indexed catalog's size: the `allowed` mask must have one
 * entry per tool (a mask of another catalog would silently let the wrong tools through).
 * Returns the mask.
 */
export function checkedMask(retriever: string, allowed: Uint8Array | undefined, tools: number): Uint8Array | undefined {
  if (allowed !== undefined && allowed.length !== tools) {
    throw new RangeError(`retriever "${retriever}": allowed mask has ${allowed.length} entries, the catalog ${tools} tools`);
  }
  return allowed;
}
