/** Seeded random data for tests and benchmarks: mulberry32, and shuffled ranks. */
/** mulberry32: a small seeded PRNG in [0, 1). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A shuffled permutation of 0…n−1 as a rank per position (so a tie-break by rank is not position order). */
export function shuffledRank(n: number, r: () => number): Uint32Array {
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  const rank = new Uint32Array(n);
  order.forEach((i, p) => (rank[i] = p));
  return rank;
}
