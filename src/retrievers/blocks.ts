/**
 * The cadence of a search over many cases, one definition for every loop that searches in order
 * (`eval`'s runner and `diff`'s rankings): how many requests a prefetching retriever prepares at
 * once, and when progress is reported.
 */

/** Requests a prefetching retriever (`Prefetching`) prepares in one pass. */
export const PREFETCH_BLOCK = 64;

/** Whether position `i` of a list searched in order starts a prefetch block. */
export function startsBlock(i: number): boolean {
  return i % PREFETCH_BLOCK === 0;
}

/** The positions of the block that starts at `i`, as a slice of `items`. */
export function blockAt<T>(items: readonly T[], i: number): T[] {
  return items.slice(i, i + PREFETCH_BLOCK);
}

/** Whether progress is reported after position `i` of `n`: every 64th case and the last. */
export function progressDue(i: number, n: number): boolean {
  return (i & 63) === 63 || i === n - 1;
}
