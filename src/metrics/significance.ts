/**
 * Paired significance tests over per-case scores: is the mean difference between two runs on the
 * same cases larger than chance would give? Both are two-sided and deterministic (a fixed seed,
 * {@link Rng}), so the gate prints the same p-value on every machine.
 *
 * - `randomization` (sign-flip, the default): under the null hypothesis each case's difference
 *   `d_i = current_i − baseline_i` is as likely to have either sign. The statistic is `|Σ d_i|`
 *   (equivalent to the mean: the number of cases is fixed). Cases with `d_i = 0` cannot change
 *   the statistic, so only the m changed cases are flipped. When `2^m ≤ samples` every sign
 *   pattern is enumerated and the p-value is exact (`#{patterns with |Σ| ≥ observed} / 2^m`);
 *   otherwise `samples` random patterns give `(1 + #{|Σ*| ≥ observed}) / (samples + 1)`, which
 *   is never 0. Identical runs give p = 1.
 * - `bootstrap` (paired, shifted): resample the n differences with replacement and count the
 *   resamples whose mean lies at least as far from the observed mean as the observed mean lies
 *   from 0: `(1 + #{|mean* − mean| ≥ |mean|}) / (samples + 1)`; p = 1 when nothing changed.
 *   It costs O(n · samples) where randomization costs O(m · samples).
 */
import { Rng } from '../util/rng.ts';

export type SignificanceMethod = 'randomization' | 'bootstrap';

export interface SignificanceOptions {
  method?: SignificanceMethod;
  /** Random samples (default 10,000). */
  samples?: number;
  /** Seed label of the random stream (default `backpack-gate`); the gate forks it per strategy and figure. */
  seed?: string;
}

export const DEFAULT_SAMPLES = 10_000;
export const DEFAULT_ALPHA = 0.05;
const DEFAULT_SEED = 'backpack-gate';

/** Slack when comparing a resampled statistic with the observed one (sums of floats in another order). */
function slack(x: number): number {
  return 1e-9 * Math.max(1, Math.abs(x));
}

/** Two-sided p-value of the paired sign-flip randomization test on the differences `d`. */
export function randomizationTest(d: readonly number[], samples = DEFAULT_SAMPLES, seed = DEFAULT_SEED): number {
  const changed = d.filter((x) => x !== 0);
  const m = changed.length;
  if (m === 0) return 1;
  let observed = 0;
  for (const x of changed) observed += x;
  const threshold = Math.abs(observed) - slack(observed);
  if (m < 31 && 2 ** m <= samples) {
    // Exact: every sign pattern (bit i set = flip case i).
    const patterns = 2 ** m;
    let hits = 0;
    for (let p = 0; p < patterns; p++) {
      let s = 0;
      for (let i = 0; i < m; i++) s += p & (1 << i) ? -changed[i]! : changed[i]!;
      if (Math.abs(s) >= threshold) hits++;
    }
    return hits / patterns;
  }
  const rng = new Rng(seed, 'randomization');
  let hits = 0;
  for (let t = 0; t < samples; t++) {
    let s = 0;
    let bits = 0;
    for (let i = 0; i < m; i++) {
      if ((i & 31) === 0) bits = rng.nextU32();
      s += bits & 1 ? -changed[i]! : changed[i]!;
      bits >>>= 1;
    }
    if (Math.abs(s) >= threshold) hits++;
  }
  return (1 + hits) / (samples + 1);
}

/** Two-sided p-value of the paired (shifted) bootstrap test on the differences `d`. */
export function bootstrapTest(d: readonly number[], samples = DEFAULT_SAMPLES, seed = DEFAULT_SEED): number {
  const n = d.length;
  if (n === 0 || d.every((x) => x === 0)) return 1;
  let sum = 0;
  for (const x of d) sum += x;
  const mean = sum / n;
  const threshold = Math.abs(mean) - slack(mean);
  const rng = new Rng(seed, 'bootstrap');
  let hits = 0;
  for (let t = 0; t < samples; t++) {
    let s = 0;
    for (let i = 0; i < n; i++) s += d[Math.floor(rng.next() * n)]!;
    if (Math.abs(s / n - mean) >= threshold) hits++;
  }
  return (1 + hits) / (samples + 1);
}

export interface PairedResult {
  /** Cases scored in both runs. */
  pairs: number;
  /** Mean of current − baseline over the pairs. */
  meanDelta: number;
  p: number;
}

/** The per-case differences current − baseline over the cases in both (current's order), with their case ids. */
export function pairedDifferences(baseline: ReadonlyMap<string, number>, current: ReadonlyMap<string, number>): { ids: string[]; d: number[] } {
  const ids: string[] = [];
  const d: number[] = [];
  for (const [id, c] of current) {
    const b = baseline.get(id);
    if (b === undefined) continue;
    ids.push(id);
    d.push(c - b);
  }
  return { ids, d };
}

/** The two-sided p-value of the chosen paired test on the differences `d`. */
export function pairedTestOn(d: readonly number[], opts: SignificanceOptions = {}): number {
  const samples = opts.samples ?? DEFAULT_SAMPLES;
  const seed = opts.seed ?? DEFAULT_SEED;
  return (opts.method ?? 'randomization') === 'bootstrap' ? bootstrapTest(d, samples, seed) : randomizationTest(d, samples, seed);
}

/**
 * Pair two runs' per-case scores by case id (cases in only one run are left out) and test the
 * difference. Returns `undefined` when no case is in both.
 */
export function pairedTest(
  baseline: ReadonlyMap<string, number>,
  current: ReadonlyMap<string, number>,
  opts: SignificanceOptions = {},
): PairedResult | undefined {
  const { d } = pairedDifferences(baseline, current);
  if (!d.length) return undefined;
  const p = pairedTestOn(d, opts);
  let sum = 0;
  for (const x of d) sum += x;
  return { pairs: d.length, meanDelta: sum / d.length, p };
}
