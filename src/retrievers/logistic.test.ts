import { describe, expect, it } from 'vitest';
import { prng } from '../../test/prng.ts';
import { fitLogistic, sigmoid } from './logistic.ts';

/** Bits of a float64 array, for exact comparison. */
const bits = (xs: readonly number[]): string => Buffer.from(Float64Array.from(xs).buffer).toString('hex');

/** Random rows: d features, labels drawn from a known logistic model. */
function sample(n: number, d: number, seed: number): { x: Float64Array; y: Uint8Array } {
  const r = prng(seed);
  const x = new Float64Array(n * d);
  const y = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    let t = -0.5;
    for (let j = 0; j < d; j++) {
      const v = r() * 4 - 2 + j;
      x[i * d + j] = v;
      t += (j % 2 === 0 ? 1.5 : -0.7) * (v - j);
    }
    y[i] = r() < sigmoid(t) ? 1 : 0;
  }
  return { x, y };
}

describe('sigmoid', () => {
  it('is 1 / (1 + e^-z), symmetric, and does not overflow', () => {
    expect(sigmoid(0)).toBe(0.5);
    expect(sigmoid(2)).toBeCloseTo(1 / (1 + Math.exp(-2)), 15);
    expect(sigmoid(-2)).toBeCloseTo(1 - sigmoid(2), 15);
    expect(sigmoid(-800)).toBe(0);
    expect(sigmoid(800)).toBe(1);
    expect(Number.isNaN(sigmoid(-1e308))).toBe(false);
  });
});

describe('fitLogistic', () => {
  it('solves a two-row problem by hand: σ(−γ) = λγ, intercept 0', () => {
    // x = −1 (y 0), 1 (y 1): standardised x = x, the intercept is 0 by symmetry, and the gradient
    // ½[σ(−γ)(−1)·… ] + λγ = 0 reduces to σ(−γ) = λγ. λ = 0.1: bisection gives γ.
    const l2 = 0.1;
    let lo = 0;
    let hi = 20;
    for (let i = 0; i < 200; i++) {
      const mid = (lo + hi) / 2;
      if (sigmoid(-mid) > l2 * mid) lo = mid;
      else hi = mid;
    }
    const fit = fitLogistic(Float64Array.from([-1, 1]), Uint8Array.from([0, 1]), 1, { l2 });
    expect(fit.converged).toBe(true);
    expect(fit.coefficients[0]).toBeCloseTo(0, 12);
    expect(fit.coefficients[1]).toBeCloseTo(lo, 10);
    expect(fit.rows).toBe(2);
    expect(fit.positives).toBe(1);
  });

  it('gives a constant feature coefficient 0 and the intercept the log-odds of the labels (not penalised)', () => {
    // y = 1, 0, 0, 0 → β₀ = log(1/3); the feature is 7 everywhere.
    const fit = fitLogistic(Float64Array.from([7, 7, 7, 7]), Uint8Array.from([1, 0, 0, 0]), 1);
    expect(fit.coefficients[1]).toBe(0);
    expect(fit.coefficients[0]).toBeCloseTo(Math.log(1 / 3), 10);
  });

  it('treats a row weight w as w copies of the row', () => {
    const { x, y } = sample(200, 2, 3);
    const weights = Float64Array.from({ length: 200 }, (_, i) => (i % 7 === 0 ? 3 : 1));
    const weighted = fitLogistic(x, y, 2, {}, weights);
    const xs: number[] = [];
    const ys: number[] = [];
    for (let i = 0; i < 200; i++) {
      for (let c = 0; c < weights[i]!; c++) {
        xs.push(x[2 * i]!, x[2 * i + 1]!);
        ys.push(y[i]!);
      }
    }
    const copied = fitLogistic(Float64Array.from(xs), Uint8Array.from(ys), 2);
    weighted.coefficients.forEach((c, j) => expect(c).toBeCloseTo(copied.coefficients[j]!, 8));
    // and the weights matter: unweighted differs
    expect(fitLogistic(x, y, 2).coefficients[1]).not.toBeCloseTo(weighted.coefficients[1]!, 4);
  });

  it('recovers the coefficients of the model that drew the labels (large n, small λ)', () => {
    const { x, y } = sample(40_000, 2, 11);
    // t = −0.5 + 1.5 (x₀ − 0) − 0.7 (x₁ − 1) = 0.2 + 1.5 x₀ − 0.7 x₁
    const fit = fitLogistic(x, y, 2, { l2: 1e-6 });
    expect(fit.coefficients[0]).toBeCloseTo(0.2, 1);
    expect(fit.coefficients[1]).toBeCloseTo(1.5, 1);
    expect(fit.coefficients[2]).toBeCloseTo(-0.7, 1);
  });

  it('is on the raw scale: a feature multiplied by 10 gets a coefficient divided by 10', () => {
    const { x, y } = sample(500, 2, 5);
    const scaled = x.map((v, i) => (i % 2 === 0 ? v * 10 : v));
    const a = fitLogistic(x, y, 2).coefficients;
    const b = fitLogistic(scaled, y, 2).coefficients;
    expect(b[1]! * 10).toBeCloseTo(a[1]!, 9);
    expect(b[2]).toBeCloseTo(a[2]!, 9);
    expect(b[0]).toBeCloseTo(a[0]!, 9);
  });

  it('converges on separable rows (the penalty bounds the coefficients) and is deterministic bit for bit', () => {
    const x = Float64Array.from([0, 1, 2, 3, 4, 5]);
    const y = Uint8Array.from([0, 0, 0, 1, 1, 1]);
    const a = fitLogistic(x, y, 1);
    const b = fitLogistic(Float64Array.from(x), Uint8Array.from(y), 1);
    expect(a.converged).toBe(true);
    expect(Number.isFinite(a.coefficients[1]!)).toBe(true);
    expect(a.coefficients[1]).toBeGreaterThan(0);
    expect(bits(a.coefficients)).toBe(bits(b.coefficients));
    // the decision boundary sits between 2 and 3, by symmetry at 2.5
    expect(-a.coefficients[0]! / a.coefficients[1]!).toBeCloseTo(2.5, 9);
  });

  it('rejects malformed input', () => {
    expect(() => fitLogistic(new Float64Array(3), new Uint8Array(2), 1)).toThrow(RangeError);
    expect(() => fitLogistic(new Float64Array(0), new Uint8Array(0), 1)).toThrow(/no rows/);
    expect(() => fitLogistic(Float64Array.from([1, 2]), Uint8Array.from([0, 2]), 1)).toThrow(/0 or 1/);
    expect(() => fitLogistic(Float64Array.from([1, NaN]), Uint8Array.from([0, 1]), 1)).toThrow(/finite/);
    expect(() => fitLogistic(Float64Array.from([1, 2]), Uint8Array.from([0, 1]), 1, { l2: 0 })).toThrow(/l2/);
    expect(() => fitLogistic(Float64Array.from([1, 2]), Uint8Array.from([0, 1]), 1, {}, Float64Array.from([1, 0]))).toThrow(/weights/);
  });
});
