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

/** `xs` in a random order drawn from `r` (Fisher–Yates). */
export function shuffled<T>(xs: readonly T[], r: () => number): T[] {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** A shuffled permutation of 0…n−1 as a rank per position (so a tie-break by rank is not position order). */
export function shuffledRank(n: number, r: () => number): Uint32Array {
  const order = shuffled(
    Array.from({ length: n }, (_, i) => i),
    r,
  );
  const rank = new Uint32Array(n);
  order.forEach((i, p) => (rank[i] = p));
  return rank;
}

/** `length` values uniform in [−0.5, 0.5), drawn from `r` in order. */
export function uniform(length: number, r: () => number): Float32Array {
  return new Float32Array(length).map(() => r() - 0.5);
}

/** `count` vectors of `dims` values from `uniform`. */
export function uniformVectors(count: number, dims: number, r: () => number): Float32Array[] {
  return Array.from({ length: count }, () => uniform(dims, r));
}

/** A mask of `n` positions, each allowed (1) with probability ½. */
export function halfMask(n: number, r: () => number): Uint8Array {
  return new Uint8Array(n).map(() => (r() < 0.5 ? 1 : 0));
}
