/**
 * One rule for "did this figure change between two runs over the same cases", shared by the gate
 * (`backpack gate --baseline`) and the comparison report (`backpack report BASE HEAD`), so the two
 * never give one pair of runs two verdicts.
 *
 * Over the cases both runs scored, the m cases whose score differs decide:
 * - **m = 0**: nothing changed.
 * - **Too few changed cases for a test** (`m < minChangedForTest(alpha)`): the paired sign-flip
 *   test cannot fall below `alpha` with so few changed cases (its smallest p-value is 2 / 2^m), so
 *   no p-value is quoted as evidence; the changed cases are named instead, and the figure changed
 *   when they do not cancel out (their mean difference is not 0). Basis `cases`.
 * - **Otherwise**: the figure changed when the paired test (`significance.ts`: randomization by
 *   default) gives p < alpha. Basis `test`.
 *
 * A change is `better` or `worse` by the figure's direction (`higherIsBetter`); a figure with no
 * direction that changed is `changed`. Unchanged is `same` (no case moved) or `noise` (cases moved,
 * the test did not confirm it, or they cancel out).
 */
import { DEFAULT_ALPHA, DEFAULT_SAMPLES, pairedDifferences, pairedTestOn, type SignificanceMethod } from './significance.ts';

export interface ChangeOptions {
  method?: SignificanceMethod;
  samples?: number;
  alpha?: number;
  /** Seed label of the test's random stream (the gate and the report use the same one per strategy and figure: {@link changeSeed}). */
  seed?: string;
}

/** What the rule decided for one figure. */
export interface Change {
  /** Cases scored in both runs. */
  pairs: number;
  /** Mean of head − base over the pairs. */
  meanDelta: number;
  /** Case ids whose score rose, and fell (base order). */
  up: string[];
  down: string[];
  /** `test`: enough cases changed for the paired test to decide; `cases`: too few for any test, the named cases decide. */
  basis: 'test' | 'cases';
  /** The paired test's two-sided p-value (on basis `cases` it cannot fall below alpha and is not evidence). */
  p: number;
  alpha: number;
  /** The figure changed by the rule above. */
  changed: boolean;
}

export type ChangeVerdict = 'better' | 'worse' | 'changed' | 'noise' | 'same';

/** The fewest changed cases for which the paired sign-flip test can reach p < alpha: the smallest m with 2 / 2^m < alpha (6 at 0.05). */
export function minChangedForTest(alpha: number = DEFAULT_ALPHA): number {
  let m = 1;
  while (2 / 2 ** m >= alpha && m < 64) m++;
  return m;
}

/** One figure's per-case scores (case id → score) out of each case's table, cases it does not apply to left out: what {@link decideChange} compares. */
export function figureScores(perCase: ReadonlyMap<string, Readonly<Record<string, number>>>, figure: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const [id, scores] of perCase) {
    const v = scores[figure];
    if (v !== undefined) out.set(id, v);
  }
  return out;
}

/** The seed label both the gate and the report give the test of one strategy's figure, so they compute the same p-value. */
export function changeSeed(strategy: string, figure: string): string {
  return `backpack-gate/${strategy}/${figure}`;
}

/**
 * Decide whether a figure changed from `base` to `head` (per-case scores by case id; cases in only
 * one run are left out). `undefined` when no case is in both.
 */
export function decideChange(base: ReadonlyMap<string, number>, head: ReadonlyMap<string, number>, opts: ChangeOptions = {}): Change | undefined {
  const alpha = opts.alpha ?? DEFAULT_ALPHA;
  const { ids, d } = pairedDifferences(base, head);
  if (!d.length) return undefined;
  const up: string[] = [];
  const down: string[] = [];
  let sum = 0;
  d.forEach((x, i) => {
    sum += x;
    if (x > 0) up.push(ids[i]!);
    else if (x < 0) down.push(ids[i]!);
  });
  const meanDelta = sum / d.length;
  const p = pairedTestOn(d, { method: opts.method, samples: opts.samples ?? DEFAULT_SAMPLES, seed: opts.seed });
  const moved = up.length + down.length;
  const basis = moved < minChangedForTest(alpha) ? 'cases' : 'test';
  const changed = basis === 'cases' ? moved > 0 && Math.abs(meanDelta) > 1e-12 : p < alpha;
  return { pairs: d.length, meanDelta, up, down, basis, p, alpha, changed };
}

/** The verdict of a change for a figure whose better direction is `higherIsBetter` (null/undefined: none). */
export function changeVerdict(c: Change | undefined, higherIsBetter: boolean | null | undefined): ChangeVerdict | undefined {
  if (!c) return undefined;
  if (!c.changed) return c.up.length + c.down.length ? 'noise' : 'same';
  if (higherIsBetter === null || higherIsBetter === undefined) return 'changed';
  return c.meanDelta > 0 === higherIsBetter ? 'better' : 'worse';
}

/** The cases that changed, in words: `2 lost (q7, q9), 1 won (q3)` by the figure's direction (rose/fell without one). At most `max` ids each. */
export function changedCasesText(
  c: { readonly up: readonly string[]; readonly down: readonly string[] },
  higherIsBetter: boolean | null | undefined,
  max = 5,
): string {
  const list = (ids: readonly string[]) => `${ids.slice(0, max).join(', ')}${ids.length > max ? `, … ${ids.length - max} more` : ''}`;
  const [good, bad, goodWord, badWord] =
    higherIsBetter === false ? [c.down, c.up, 'won', 'lost'] : higherIsBetter === true ? [c.up, c.down, 'won', 'lost'] : [c.up, c.down, 'rose', 'fell'];
  const parts: string[] = [];
  if (bad.length) parts.push(`${bad.length} ${badWord} (${list(bad)})`);
  if (good.length) parts.push(`${good.length} ${goodWord} (${list(good)})`);
  return parts.length ? parts.join(', ') : 'no case changed';
}

/** A p-value: 3 decimals, or 2 significant digits below 0.001 (`0.00025`). The gate and the comparison report print it alike. */
export function pValue(p: number): string {
  return p >= 0.001 ? p.toFixed(3) : String(Number(p.toPrecision(2)));
}
