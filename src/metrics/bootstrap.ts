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
  // Keys that apply to the same cases (every graded-case figure, say) share one group: the drawn
  // weight of each case is read once per group, and its figures are summed from one row-major array.
  const groups = new Map<string, { keys: string[]; at: number[]; rows: number[] }>();
  for (const key of keys) {
    const at: number[] = [];
    cases.forEach((c, i) => {
      if (c[key] !== undefined) at.push(i);
    });
    if (!at.length) continue;
    const sig = at.join(',');
    const g = groups.get(sig);
    if (g) g.keys.push(key);
    else groups.set(sig, { keys: [key], at, rows: [] });
  }
  const plan = [...groups.values()].map((g) => {
    const width = g.keys.length;
    const values = new Float64Array(g.at.length * width);
    g.at.forEach((i, j) => {
      for (let k = 0; k < width; k++) values[j * width + k] = cases[i]![g.keys[k]!]!;
    });
    return { keys: g.keys, at: Int32Array.from(g.at), values, width, means: g.keys.map(() => new Float64Array(resamples)), sums: new Float64Array(width) };
  });
  const rng = new Rng(BOOTSTRAP_SEED, label);
  const drawn = new Int32Array(n);
  for (let b = 0; b < resamples; b++) {
    drawn.fill(0);
    for (let i = 0; i < n; i++) drawn[Math.floor((rng.nextU32() / 4294967296) * n)]!++;
    for (const g of plan) {
      const { at, values, width, sums } = g;
      sums.fill(0);
      let count = 0;
      for (let j = 0; j < at.length; j++) {
        const w = drawn[at[j]!]!;
        if (w === 0) continue;
        count += w;
        const row = j * width;
        for (let k = 0; k < width; k++) sums[k]! += w * values[row + k]!;
      }
      // a resample that drew none of the group's cases has no mean for its figures (NaN, left out below)
      for (let k = 0; k < width; k++) g.means[k]![b] = count > 0 ? sums[k]! / count : Number.NaN;
    }
  }
  for (const g of plan) {
    g.keys.forEach((key, k) => {
      const means = g.means[k]!.filter((m) => !Number.isNaN(m)).sort();
      if (means.length) out[key] = [round(quantile(means, 0.025)), round(quantile(means, 0.975))];
    });
  }
  return out;
}
