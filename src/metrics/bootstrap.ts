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
 */
import { Rng } from '../util/rng.ts';
import type { MetricTable } from './types.ts';

/** Resamples per interval. */
export const BOOTSTRAP_RESAMPLES = 1000;
/** The seed every interval's PRNG starts from (with the table's name as its stream label). */
export const BOOTSTRAP_SEED = 'backpack-ci95';
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
  // The draws: how many times each case is drawn in each resample (case-major, so the sums below
  // run over resamples in a tight loop), from the seeded stream in resample order.
  const rng = new Rng(BOOTSTRAP_SEED, label);
  const drawn = new Uint16Array(n * resamples);
  for (let b = 0; b < resamples; b++) for (let i = 0; i < n; i++) drawn[Math.floor((rng.nextU32() / 4294967296) * n) * resamples + b]!++;
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
    for (const i of g.at) {
      const row = i * resamples;
      for (let b = 0; b < resamples; b++) counts[b]! += drawn[row + b]!;
    }
    for (const key of g.keys) {
      // Σ drawn × value over the cases, in case order; a value of 0 adds nothing and is skipped.
      const sums = new Float64Array(resamples);
      for (const i of g.at) {
        const v = cases[i]![key]!;
        if (v === 0) continue;
        const row = i * resamples;
        for (let b = 0; b < resamples; b++) sums[b]! += drawn[row + b]! * v;
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
