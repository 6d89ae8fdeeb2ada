import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkBM25Params, DEFAULT_BM25_PARAMS, idf, termWeight } from './score.ts';

describe('idf = ln(1 + (N − df + 0.5) / (df + 0.5))', () => {
  it('matches hand-computed values', () => {
    expect(idf(4, 2)).toBe(Math.LN2); // ln(1 + 2.5/2.5) = ln 2 = 0.6931471805599453
    expect(idf(4, 1)).toBeCloseTo(1.2039728043259361, 15); // ln(1 + 3.5/1.5) = ln(10/3)
    expect(idf(1, 1)).toBeCloseTo(0.28768207245178085, 15); // ln(1 + 0.5/1.5) = ln(4/3)
    expect(idf(10, 0)).toBeCloseTo(3.091042453358316, 15); // ln(1 + 10.5/0.5) = ln 22
    expect(idf(0, 0)).toBe(Math.LN2); // ln(1 + 0.5/0.5)
  });

  it('is positive even for a term every document has, and falls as df grows', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000 }), fc.double({ min: 0, max: 1, noNaN: true }), (N, f) => {
        const df = Math.floor(f * N);
        expect(idf(N, df)).toBeGreaterThan(0);
        if (df < N) expect(idf(N, df)).toBeGreaterThan(idf(N, df + 1));
      }),
    );
  });
});

describe('termWeight = tf·(k1+1) / (tf + k1·(1 − b + b·dl/avgdl))', () => {
  it('matches hand-computed values', () => {
    // dl = 4, avgdl = 4.5: k1·(0.25 + 0.75·4/4.5) = 1.2 · 11/12 = 1.1
    expect(termWeight(1, 4, 4.5, 1.2, 0.75)).toBeCloseTo(2.2 / 2.1, 15); // 1.0476190476190477
    expect(termWeight(2, 4, 4.5, 1.2, 0.75)).toBeCloseTo(4.4 / 3.1, 15); // 1.4193548387096775
    // dl = 6, avgdl = 4.5: 1.2 · (0.25 + 1) = 1.5
    expect(termWeight(2, 6, 4.5, 1.2, 0.75)).toBeCloseTo(4.4 / 3.5, 15); // 1.2571428571428571
    // dl = avgdl: tf·2.2 / (tf + 1.2)
    expect(termWeight(1, 7, 7, 1.2, 0.75)).toBeCloseTo(1, 15);
    // b = 0: length ignored
    expect(termWeight(2, 100, 1, 1.2, 0)).toBeCloseTo(4.4 / 3.2, 15); // 1.375
    // k1 = 0: any tf > 0 weighs 1
    expect(termWeight(5, 3, 2, 0, 0.75)).toBe(1);
    expect(termWeight(0, 4, 4.5, 1.2, 0.75)).toBe(0);
    // weighted (fractional) tf and dl: tf 1.5, dl 9, avgdl 6: 1.2·(0.25 + 1.125) = 1.65; 1.5·2.2/3.15
    expect(termWeight(1.5, 9, 6, 1.2, 0.75)).toBeCloseTo(3.3 / 3.15, 15);
  });

  it('grows with tf towards k1 + 1 and shrinks with dl', () => {
    fc.assert(
      fc.property(
        // Ranges where float rounding cannot hide the strict inequalities.
        fc.double({ min: 0.1, max: 100, noNaN: true }),
        fc.double({ min: 0.5, max: 200, noNaN: true }),
        fc.double({ min: 0.5, max: 100, noNaN: true }),
        fc.double({ min: 0.1, max: 3, noNaN: true }),
        fc.double({ min: 0.05, max: 0.9, noNaN: true }),
        (tf, dl, avgdl, k1, b) => {
          const w = termWeight(tf, dl, avgdl, k1, b);
          expect(w).toBeGreaterThan(0);
          expect(w).toBeLessThan(k1 + 1);
          expect(termWeight(tf + 1, dl, avgdl, k1, b)).toBeGreaterThan(w);
          expect(termWeight(tf, dl + 1, avgdl, k1, b)).toBeLessThan(w);
        },
      ),
    );
  });
});

describe('BM25Params', () => {
  it('defaults to k1 1.2, b 0.75', () => {
    expect(DEFAULT_BM25_PARAMS).toEqual({ k1: 1.2, b: 0.75 });
  });

  it('rejects out-of-range parameters', () => {
    expect(() => checkBM25Params({ k1: 1.2, b: 0.75 })).not.toThrow();
    expect(() => checkBM25Params({ k1: 0, b: 0 })).not.toThrow();
    expect(() => checkBM25Params({ k1: 0, b: 1 })).not.toThrow();
    expect(() => checkBM25Params({ k1: -0.1, b: 0.75 })).toThrow(RangeError);
    expect(() => checkBM25Params({ k1: Number.NaN, b: 0.75 })).toThrow(/k1/);
    expect(() => checkBM25Params({ k1: Infinity, b: 0.75 })).toThrow(/k1/);
    expect(() => checkBM25Params({ k1: 1.2, b: 1.01 })).toThrow(/b must be in \[0, 1\]/);
    expect(() => checkBM25Params({ k1: 1.2, b: -1 })).toThrow(RangeError);
  });
});
