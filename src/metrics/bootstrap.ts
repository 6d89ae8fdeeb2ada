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
      const sorted = Float64Array.from(means).sort();
      out[key] = [round(quantile(sorted, 0.025)), round(quantile(sorted, 0.975))];
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
function addScaled(sums: Float64Array, drawn: Uint16Array, row: number, v: number): void {
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
 * once while kept, and copied out of the kept bytes each time (the caller may not write to it).
 */
function drawsOf(label: string, n: number, resamples: number): Uint16Array {
  const key = `${label}\u0000${n}\u0000${resamples}`;
  const kept = draws.get(key);
  if (kept) return kept instanceof Uint16Array ? kept : new Uint16Array(kept);
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
  return drawn;
}
