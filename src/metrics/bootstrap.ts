/**
 * Bootstrap 95% intervals of the figures of a metric table: the percentile bootstrap over cases.
 * Each of {@link BOOTSTRAP_RESAMPLES} resamples draws the table's cases with replacement (as many as
 * it has) and takes every figure's mean over the drawn cases it applies to (graded figures over the
 * drawn graded cases, the no-tool rate over the drawn no-tool cases, as `evaluate` does); the
 * interval is the 2.5th and 97.5th percentile of those means (linear interpolation between order
 * statistics). The draws come from a PRNG seeded by the table's name, so the same cases give the
 * same intervals on every machine, and two strategies scored on the same cases are resampled alike.
 *
 * With one case the interval is that case's value twice; a figure no resample can compute (no
 * applicable case) has none.
 *
 * What makes it cheap without changing a bit of it: the draws depend only on the label, the number
 * of cases and the number of resamples, so they are drawn once per thread and reused by every
 * strategy scored on the same cases ({@link DRAWS_CACHE_BYTES}); and a figure whose every value is 0
 * or 1 sums whole numbers, exact in any order, so its sum is taken over the smaller of its 1s and
 * its 0s (the group's drawn count less the 0s).
 */
import { Rng } from '../util/rng.ts';
import type { MetricTable } from './types.ts';

/** Resamples per interval. */
export const BOOTSTRAP_RESAMPLES = 1000;
/** The seed every interval's PRNG starts from (with the table's name as its stream label). */
export const BOOTSTRAP_SEED = 'backpack-ci95';
/**
 * Bytes of draws kept per thread for reuse (the oldest dropped first): every table of the monster
 * main job (overall, 10 slices, 135 namespaces: 22,254 case rows of 1,000 one-byte counts, 21 MB)
 * fits, so the strategies after the first draw nothing.
 */
export const DRAWS_CACHE_BYTES = 32 * 1024 * 1024;
/** Decimals an interval's bounds are rounded to (a thousand resamples do not resolve finer). */
export const CI_DECIMALS = 4;

/** A 95% interval: [low, high]. */
export type Interval = [number, number];

/** Figure key → its 95% interval. */
export type IntervalTable = Record<string, Interval>;

function round(x: number): number {
  const f = 10 ** CI_DECIMALS;
  return Math.round(x * f) / f;
}

/** The q-quantile of sorted values, by linear interpolation between order statistics (numpy's default). */
export function quantile(sorted: ArrayLike<number>, q: number): number {
  const n = sorted.length;
  if (n === 0) return Number.NaN;
  const pos = (n - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.min(lo + 1, n - 1);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

/**
 * `[quantile(sorted, q1), quantile(sorted, q2)]` of `values` (any order; rearranged in place),
 * without sorting them: each order statistic the interpolation reads is selected, and an order
 * statistic is the same number whichever way it is found. `q1 ≤ q2`. Values with a NaN are sorted.
 */
export function quantiles(values: Float64Array, q1: number, q2: number): [number, number] {
  const n = values.length;
  for (let i = 0; i < n; i++) if (Number.isNaN(values[i])) return quantilePair(values.sort(), q1, q2);
  const at = (q: number): [number, number, number] => {
    const pos = (n - 1) * q;
    const lo = Math.floor(pos);
    return [lo, Math.min(lo + 1, n - 1), pos - lo];
  };
  const [lo1, hi1, f1] = at(q1);
  const [lo2, hi2, f2] = at(q2);
  // each selection leaves the smaller values before it and the larger after: the next one searches only what is left
  selectNth(values, lo1, 0, n - 1);
  if (hi1 > lo1) selectNth(values, hi1, lo1 + 1, n - 1);
  if (lo2 > hi1) selectNth(values, lo2, hi1 + 1, n - 1);
  if (hi2 > lo2 && hi2 > hi1) selectNth(values, hi2, Math.max(lo2, hi1) + 1, n - 1);
  const v = (i: number) => values[i]!;
  return [v(lo1) + (v(hi1) - v(lo1)) * f1, v(lo2) + (v(hi2) - v(lo2)) * f2];
}

function quantilePair(sorted: Float64Array, q1: number, q2: number): [number, number] {
  return [quantile(sorted, q1), quantile(sorted, q2)];
}

/**
 * Rearrange `a[lo … hi]` (no NaN) so that `a[k]` holds the value a sort would put there, the values
 * before it no larger and those after it no smaller (Hoare's selection, median-of-three pivot).
 */
function selectNth(a: Float64Array, k: number, lo: number, hi: number): void {
  while (hi > lo) {
    const x = a[lo]!;
    const y = a[(lo + hi) >> 1]!;
    const z = a[hi]!;
    // the median of the three
    const pivot = Math.max(Math.min(x, y), Math.min(Math.max(x, y), z));
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i]! < pivot) i++;
      while (a[j]! > pivot) j--;
      if (i <= j) {
        const t = a[i]!;
        a[i] = a[j]!;
        a[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return;
  }
}

/**
 * 95% intervals of the means of `keys` over `cases` (each case's own figures: a key it lacks does
 * not apply to it), by the percentile bootstrap over cases with the stream `label`.
 */
export function bootstrapIntervals(
  cases: ReadonlyArray<Readonly<MetricTable>>,
  keys: readonly string[],
  label: string,
  resamples: number = BOOTSTRAP_RESAMPLES,
): IntervalTable {
  const n = cases.length;
  const out: IntervalTable = {};
  if (n === 0) return out;
  const drawn = drawsOf(label, n, resamples);
  // Keys that apply to the same cases share their drawn-case counts (the denominators).
  const groups = new Map<string, { keys: string[]; at: number[] }>();
  for (const key of keys) {
    const at: number[] = [];
    cases.forEach((c, i) => {
      if (c[key] !== undefined) at.push(i);
    });
    if (!at.length) continue;
    const sig = at.join(',');
    const g = groups.get(sig);
    if (g) g.keys.push(key);
    else groups.set(sig, { keys: [key], at });
  }
  for (const g of groups.values()) {
    const counts = new Float64Array(resamples);
    for (const i of g.at) addScaled(counts, drawn, i * resamples, 1);
    for (const key of g.keys) {
      const sums = new Float64Array(resamples);
      let ones = 0;
      let binary = true;
      for (const i of g.at) {
        const v = cases[i]![key]!;
        if (v === 1) ones++;
        else if (v !== 0) binary = false;
      }
      if (binary && ones * 2 > g.at.length) {
        // Σ drawn over the 1s = the drawn count less Σ drawn over the 0s: whole numbers, exact either way.
        sums.set(counts);
        for (const i of g.at) {
          if (cases[i]![key] !== 0) continue;
          addScaled(sums, drawn, i * resamples, -1);
        }
      } else {
        // Σ drawn × value over the cases, in case order; a value of 0 adds nothing and is skipped.
        for (const i of g.at) {
          const v = cases[i]![key]!;
          if (v === 0) continue;
          addScaled(sums, drawn, i * resamples, v);
        }
      }
      // a resample that drew none of the group's cases has no mean (left out)
      const means: number[] = [];
      for (let b = 0; b < resamples; b++) if (counts[b]! > 0) means.push(sums[b]! / counts[b]!);
      if (!means.length) continue;
      const [low, high] = quantiles(Float64Array.from(means), 0.025, 0.975);
      out[key] = [round(low), round(high)];
    }
  }
  // keys in the order asked for
  const ordered: IntervalTable = {};
  for (const key of keys) if (out[key]) ordered[key] = out[key];
  return ordered;
}

/**
 * sums[b] += drawn[row + b] × v for every b (one case's draws added to the resamples' sums), four
 * resamples a step: each sum still gets the same additions in the same order, so the same bits,
 * and V8 runs the unrolled loop about twice as fast.
 */
function addScaled(sums: Float64Array, drawn: Uint8Array | Uint16Array, row: number, v: number): void {
  const r = sums.length;
  const end = r - (r % 4);
  let b = 0;
  if (v === 1) {
    for (; b < end; b += 4) {
      sums[b]! += drawn[row + b]!;
      sums[b + 1]! += drawn[row + b + 1]!;
      sums[b + 2]! += drawn[row + b + 2]!;
      sums[b + 3]! += drawn[row + b + 3]!;
    }
    for (; b < r; b++) sums[b]! += drawn[row + b]!;
    return;
  }
  for (; b < end; b += 4) {
    sums[b]! += drawn[row + b]! * v;
    sums[b + 1]! += drawn[row + b + 1]! * v;
    sums[b + 2]! += drawn[row + b + 2]! * v;
    sums[b + 3]! += drawn[row + b + 3]! * v;
  }
  for (; b < r; b++) sums[b]! += drawn[row + b]! * v;
}

/**
 * Draws kept for reuse, oldest first, and their bytes: one byte a count where every count of the
 * table is below 256 (in practice always: a case drawn 256 times in one resample is out of reach),
 * else two.
 */
const draws = new Map<string, Uint8Array | Uint16Array>();
let drawsBytes = 0;

/**
 * How many times each of `n` cases is drawn in each of `resamples` resamples (case-major, so the
 * sums run over resamples in a tight loop), from the seeded stream `label` in resample order; drawn
 * once while kept. The array returned may be the kept one: read it, never write to it.
 */
function drawsOf(label: string, n: number, resamples: number): Uint8Array | Uint16Array {
  const key = `${label}\u0000${n}\u0000${resamples}`;
  const kept = draws.get(key);
  if (kept) return kept;
  const rng = new Rng(BOOTSTRAP_SEED, label);
  const drawn = new Uint16Array(n * resamples);
  for (let b = 0; b < resamples; b++) for (let i = 0; i < n; i++) drawn[Math.floor((rng.nextU32() / 4294967296) * n) * resamples + b]!++;
  let max = 0;
  for (let j = 0; j < drawn.length; j++) if (drawn[j]! > max) max = drawn[j]!;
  const keep = max < 256 ? new Uint8Array(drawn) : drawn;
  if (keep.byteLength <= DRAWS_CACHE_BYTES) {
    for (const [k, d] of draws) {
      if (drawsBytes + keep.byteLength <= DRAWS_CACHE_BYTES) break;
      draws.delete(k);
      drawsBytes -= d.byteLength;
    }
    draws.set(key, keep);
    drawsBytes += keep.byteLength;
  }
  return keep;
}
