/**
 * What is asked of a strategy and, through the `Composite` capability, of the retrievers it is built
 * from: index counters and index progress. One place for both the runner and `diff`.
 */
import { hasIndexStats, isComposite, reportsIndexProgress, type Retriever } from './types.ts';

/** Numeric index counters of a retriever (or profile), or of the first of its children that has them. */
export function indexCounters(x: object): { index?: Record<string, number> } {
  const r = x as Retriever;
  if (hasIndexStats(r)) {
    const numbers = Object.entries(r.stats()).filter((e): e is [string, number] => typeof e[1] === 'number');
    if (numbers.length) return { index: Object.fromEntries(numbers) };
  }
  if (isComposite(r))
    for (const c of r.children) {
      const found = indexCounters(c);
      if (found.index) return found;
    }
  return {};
}

/** Hand an index-progress callback to a retriever (or profile) and to the retrievers it is composed of. */
export function wireIndexProgress(x: object, cb: (done: number, total: number) => void): void {
  const r = x as Retriever;
  if (reportsIndexProgress(r)) r.setProgress(cb);
  if (isComposite(r)) for (const c of r.children) wireIndexProgress(c, cb);
}
