/**
 * The Clopper–Pearson ("exact") confidence interval of a binomial proportion, k events in n trials:
 * the lower bound is the p at which P(X ≥ k) = α/2 (0 when k = 0), the upper bound the p at which
 * P(X ≤ k) = α/2 (1 when k = n), α = 1 − level. It never undercovers, which is what a floor
 * calibrated on few no-tool cases needs: its false-positive rate on new requests can be far from
 * the rate it was picked at (30 cases at 0.1 → 0.021–0.265).
 *
 * Found by bisection on the binomial tail (60 halvings: below 1e-15), the tail summed term by term
 * with log binomial coefficients built incrementally, so n in the tens of thousands is fine.
 */

/** The interval `[lo, hi]` at `level` (0.95: 95%); k and n whole, 0 ≤ k ≤ n, n ≥ 1. */
export function clopperPearson(k: number, n: number, level = 0.95): [number, number] {
  if (!Number.isInteger(n) || n < 1 || !Number.isInteger(k) || k < 0 || k > n)
    throw new RangeError(`clopperPearson: need whole 0 ≤ k ≤ n, n ≥ 1 (k ${k}, n ${n})`);
  if (!(level > 0 && level < 1)) throw new RangeError(`clopperPearson: level must be in (0, 1) (got ${level})`);
  const half = (1 - level) / 2;
  const logC = logBinomials(n);
  // P(X ≤ j) for X ~ Binomial(n, p), 0 < p < 1.
  const cdf = (j: number, p: number): number => {
    const lp = Math.log(p);
    const lq = Math.log1p(-p);
    let sum = 0;
    for (let i = 0; i <= j; i++) sum += Math.exp(logC[i]! + i * lp + (n - i) * lq);
    return Math.min(1, sum);
  };
  // P(X ≥ k) rises with p; P(X ≤ k) falls with p.
  const lo = k === 0 ? 0 : bisect((p) => 1 - cdf(k - 1, p) >= half);
  const hi = k === n ? 1 : bisect((p) => cdf(k, p) <= half);
  return [lo, hi];
}

/** log C(n, i) for i = 0..n. */
function logBinomials(n: number): Float64Array {
  const out = new Float64Array(n + 1);
  for (let i = 1; i <= n; i++) out[i] = out[i - 1]! + Math.log((n - i + 1) / i);
  return out;
}

/** The p in (0, 1) where `past` turns from false to true (it is monotone in p). */
function bisect(past: (p: number) => boolean): number {
  let lo = 0;
  let hi = 1;
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (past(mid)) hi = mid;
    else lo = mid;
  }
  return (lo + hi) / 2;
}
