import { describe, expect, it } from 'vitest';
import { bootstrapTest, pairedTest, randomizationTest } from './significance.ts';

const repeat = (x: number, n: number): number[] => Array.from({ length: n }, () => x);

describe('paired randomization (sign-flip) test', () => {
  it('gives p = 1 for identical runs', () => {
    expect(randomizationTest(repeat(0, 500))).toBe(1);
    expect(randomizationTest([])).toBe(1);
  });

  it('is exact on small hand examples (every sign pattern enumerated)', () => {
    // [1,1,1]: of 8 patterns, +++ and --- reach |Σ| = 3.
    expect(randomizationTest([1, 1, 1])).toBe(0.25);
    expect(randomizationTest([1, 1, 1, 1])).toBe(0.125);
    // Σ = 0 is reached by every pattern.
    expect(randomizationTest([1, -1])).toBe(1);
    // [0.5, 0.2, -0.1]: the sums are ±0.6, ±0.8, ±0.2, ±0.4 → 4 of 8 reach 0.6.
    expect(randomizationTest([0.5, 0.2, -0.1])).toBe(0.5);
    // zeros do not count: same as [1, 1, 1]
    expect(randomizationTest([0, 1, 0, 1, 1, 0])).toBe(0.25);
  });

  it('matches the binomial tail: 15 gains and 5 losses of one case each', () => {
    const d = [...repeat(1, 15), ...repeat(-1, 5)];
    // P(|2·B(20, ½) − 20| ≥ 10) = 2 · Σ_{k=15..20} C(20,k) / 2^20 = 43,400 / 1,048,576
    const exact = 43_400 / 1_048_576;
    expect(randomizationTest(d, 2 ** 20)).toBeCloseTo(exact, 12);
    const sampled = randomizationTest(d); // 2^20 > 10,000: Monte Carlo
    expect(Math.abs(sampled - exact)).toBeLessThan(0.008); // 4 standard errors
    expect(randomizationTest(d)).toBe(sampled); // fixed seed: deterministic
    expect(randomizationTest(d.map((x) => -x))).toBe(sampled); // symmetric in the two runs
  });

  it('gives p < 0.001 for a large consistent drop', () => {
    expect(randomizationTest(repeat(-1, 200))).toBeLessThan(0.001);
    expect(randomizationTest([...repeat(-1, 30), ...repeat(0, 170)])).toBeLessThan(0.001);
    expect(randomizationTest(repeat(-1, 200))).toBeCloseTo(1 / 10_001, 12);
  });
});

describe('paired bootstrap test', () => {
  it('gives p = 1 for identical runs and p < 0.001 for a large consistent drop', () => {
    expect(bootstrapTest(repeat(0, 100))).toBe(1);
    expect(bootstrapTest(repeat(-1, 100))).toBeLessThan(0.001);
  });

  it('agrees roughly with the randomization test on 15 gains and 5 losses', () => {
    const p = bootstrapTest([...repeat(1, 15), ...repeat(-1, 5)]);
    expect(p).toBeGreaterThan(0.001);
    expect(p).toBeLessThan(0.05);
  });
});

describe('pairedTest', () => {
  it('pairs cases by id and leaves out cases of only one run', () => {
    const base = new Map([
      ['a', 1],
      ['b', 1],
      ['c', 0],
      ['only-base', 1],
    ]);
    const cur = new Map([
      ['only-current', 0],
      ['c', 1],
      ['b', 1],
      ['a', 0],
    ]);
    const r = pairedTest(base, cur)!;
    expect(r.pairs).toBe(3);
    expect(r.meanDelta).toBe(0); // a −1, b 0, c +1
    expect(r.p).toBe(1);
    expect(pairedTest(new Map([['x', 1]]), new Map([['y', 1]]))).toBeUndefined();
  });

  it('uses the method asked for', () => {
    const base = new Map(Array.from({ length: 50 }, (_, i) => [`q${i}`, 1] as [string, number]));
    const cur = new Map(Array.from({ length: 50 }, (_, i) => [`q${i}`, 0] as [string, number]));
    expect(pairedTest(base, cur, { method: 'bootstrap', samples: 1000 })!.p).toBeCloseTo(1 / 1001, 12);
    expect(pairedTest(base, cur, { method: 'randomization', samples: 1000 })!.p).toBeCloseTo(1 / 1001, 12);
  });
});
