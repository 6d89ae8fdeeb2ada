import { describe, expect, it } from 'vitest';
import { clopperPearson } from './clopper-pearson.ts';

describe('clopperPearson', () => {
  it('gives the exact interval: closed forms at the edges', () => {
    // k = 0: hi = 1 − (α/2)^(1/n); k = n: lo = (α/2)^(1/n).
    const [lo0, hi0] = clopperPearson(0, 10);
    expect(lo0).toBe(0);
    expect(hi0).toBeCloseTo(1 - 0.025 ** (1 / 10), 9); // 0.308497
    const [loN, hiN] = clopperPearson(10, 10);
    expect(loN).toBeCloseTo(0.025 ** (1 / 10), 9); // 0.691503
    expect(hiN).toBe(1);
    expect(clopperPearson(1, 1)[0]).toBeCloseTo(0.025, 9);
    expect(clopperPearson(0, 30)[1]).toBeCloseTo(1 - 0.025 ** (1 / 30), 9); // 0.115703
  });

  it('matches the tabled values inside (3 of 30: 0.0211–0.2653) and a bisection on the binomial sum done by hand', () => {
    const [lo, hi] = clopperPearson(3, 30);
    expect(lo).toBeCloseTo(0.021117, 5);
    expect(hi).toBeCloseTo(0.265288, 5);
    // 5 of 104 and 27 of 270 (computed with exact integer binomial sums and bisection, in Python)
    expect(clopperPearson(5, 104).map((x) => x.toFixed(6))).toEqual(['0.015792', '0.108636']);
    expect(clopperPearson(27, 270).map((x) => x.toFixed(6))).toEqual(['0.066940', '0.142155']);
  });

  it('is symmetric, narrows as n grows, and widens with the level', () => {
    const [a, b] = clopperPearson(7, 40);
    const [c, d] = clopperPearson(33, 40);
    expect(a).toBeCloseTo(1 - d, 9);
    expect(b).toBeCloseTo(1 - c, 9);
    const w = ([l, h]: [number, number]) => h - l;
    expect(w(clopperPearson(30, 300))).toBeLessThan(w(clopperPearson(3, 30)));
    expect(w(clopperPearson(3, 30, 0.99))).toBeGreaterThan(w(clopperPearson(3, 30, 0.95)));
    // large n does not overflow: 1,000 of 10,000
    const [l, h] = clopperPearson(1000, 10000);
    expect(l).toBeGreaterThan(0.09);
    expect(h).toBeLessThan(0.11);
  });

  it('refuses what is not a count', () => {
    expect(() => clopperPearson(3, 2)).toThrow(RangeError);
    expect(() => clopperPearson(-1, 5)).toThrow(RangeError);
    expect(() => clopperPearson(1.5, 5)).toThrow(RangeError);
    expect(() => clopperPearson(0, 0)).toThrow(RangeError);
    expect(() => clopperPearson(1, 5, 1)).toThrow(RangeError);
  });
});
