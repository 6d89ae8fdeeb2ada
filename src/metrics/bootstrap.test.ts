import { describe, expect, it } from 'vitest';
import { Rng } from '../util/rng.ts';
import { evaluate } from './aggregate.ts';
import { BOOTSTRAP_SEED, bootstrapIntervals, quantile, quantiles } from './bootstrap.ts';
import type { CatalogFacts } from './types.ts';

describe('quantile', () => {
  it('interpolates between order statistics as numpy does', () => {
    // numpy.quantile([1, 2, 3, 4], 0.25) = 1.75; 0.975 of 0..10 = 9.75
    expect(quantile([1, 2, 3, 4], 0.25)).toBe(1.75);
    expect(quantile([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.975)).toBeCloseTo(9.75, 12);
    expect(quantile([5], 0.025)).toBe(5);
    expect(quantile([], 0.5)).toBeNaN();
  });
});

describe('quantiles', () => {
  it('equal the quantiles of the sorted values, found without sorting (random sizes, duplicates, every position)', () => {
    const rng = new Rng('quantiles-test', 'values');
    for (let trial = 0; trial < 400; trial++) {
      const n = trial < 20 ? trial + 1 : 1 + (rng.nextU32() % 1000);
      const distinct = 1 + (rng.nextU32() % (trial % 3 === 0 ? 4 : 1000));
      const values = Float64Array.from({ length: n }, () => (rng.nextU32() % distinct) / 7 - 3);
      const sorted = Float64Array.from(values).sort();
      for (const [q1, q2] of [
        [0.025, 0.975],
        [0, 1],
        [0.5, 0.5],
        [0.3, 0.31],
      ] as const) {
        expect(quantiles(Float64Array.from(values), q1, q2)).toEqual([quantile(sorted, q1), quantile(sorted, q2)]);
      }
    }
    // a NaN: sorted as Float64Array sorts (NaN last)
    expect(quantiles(Float64Array.of(3, Number.NaN, 1, 2), 0, 0.5)).toEqual([1, 2.5]);
  });
});

describe('bootstrap intervals', () => {
  it('are the percentiles of the resampled means, drawn from the seeded stream (hand-rolled here)', () => {
    // three cases, one figure: values 0, 1, 1; two resamples, computed by hand from the same stream
    const cases = [{ top1: 0 }, { top1: 1 }, { top1: 1 }];
    const rng = new Rng(BOOTSTRAP_SEED, 'hand');
    const means: number[] = [];
    for (let b = 0; b < 2; b++) {
      let sum = 0;
      for (let i = 0; i < 3; i++) sum += cases[Math.floor((rng.nextU32() / 4294967296) * 3)]!.top1;
      means.push(sum / 3);
    }
    means.sort((a, b) => a - b);
    const lo = means[0]! + (means[1]! - means[0]!) * 0.025;
    const hi = means[0]! + (means[1]! - means[0]!) * 0.975;
    expect(bootstrapIntervals(cases, ['top1'], 'hand', 2)).toEqual({ top1: [Math.round(lo * 1e4) / 1e4, Math.round(hi * 1e4) / 1e4] });
  });

  it('is a point for constant values, one case, and contains the mean; none for a figure no case has', () => {
    expect(bootstrapIntervals([{ a: 1 }, { a: 1 }, { a: 1 }], ['a'], 'x')).toEqual({ a: [1, 1] });
    expect(bootstrapIntervals([{ a: 0.25 }], ['a', 'b'], 'x')).toEqual({ a: [0.25, 0.25] });
    const values = Array.from({ length: 200 }, (_, i) => ({ r: i % 4 === 0 ? 1 : 0 }));
    const [lo, hi] = bootstrapIntervals(values, ['r'], 'x').r!;
    expect(lo).toBeLessThan(0.25);
    expect(hi).toBeGreaterThan(0.25);
    // a binomial proportion of 0.25 over 200 cases: the normal interval is ±0.060
    expect(hi - lo).toBeGreaterThan(0.09);
    expect(hi - lo).toBeLessThan(0.15);
  });

  it('averages each figure over the drawn cases it applies to (a no-tool rate over no-tool cases only)', () => {
    // graded cases all hit, no-tool cases all false positives: every resample's means are exactly 1
    const cases: Array<Record<string, number>> = [{ top1: 1 }, { top1: 1 }, { fp: 1 }, { top1: 1 }, { fp: 1 }];
    expect(bootstrapIntervals(cases, ['top1', 'fp'], 'x')).toEqual({ top1: [1, 1], fp: [1, 1] });
  });

  it('is deterministic and depends on the stream label, not on the figure order', () => {
    const cases = Array.from({ length: 50 }, (_, i) => ({ a: (i * 7) % 3 === 0 ? 1 : 0, b: (i % 5) / 4 }));
    const one = bootstrapIntervals(cases, ['a', 'b'], 'overall');
    expect(bootstrapIntervals(cases, ['b', 'a'], 'overall')).toEqual({ b: one.b, a: one.a });
    expect(bootstrapIntervals(cases, ['a', 'b'], 'slice:x')).not.toEqual(one);
  });

  /**
   * The percentile bootstrap done the plain way: each resample's drawn cases, each figure's mean
   * over those it applies to, summed in case order (what bootstrapIntervals computed before its
   * draws were kept and its 0/1 figures summed over their smaller side).
   */
  function plainIntervals(cases: ReadonlyArray<Record<string, number>>, keys: readonly string[], label: string, resamples: number) {
    const n = cases.length;
    const rng = new Rng(BOOTSTRAP_SEED, label);
    const drawn: number[][] = Array.from({ length: n }, () => new Array<number>(resamples).fill(0));
    for (let b = 0; b < resamples; b++) for (let i = 0; i < n; i++) drawn[Math.floor((rng.nextU32() / 4294967296) * n)]![b]!++;
    const out: Record<string, [number, number]> = {};
    for (const key of keys) {
      const means: number[] = [];
      for (let b = 0; b < resamples; b++) {
        let sum = 0;
        let count = 0;
        for (let i = 0; i < n; i++) {
          const v = cases[i]![key];
          if (v === undefined) continue;
          count += drawn[i]![b]!;
          if (v !== 0) sum += drawn[i]![b]! * v;
        }
        if (count > 0) means.push(sum / count);
      }
      if (!means.length) continue;
      means.sort((a, b) => a - b);
      out[key] = [Math.round(quantile(means, 0.025) * 1e4) / 1e4, Math.round(quantile(means, 0.975) * 1e4) / 1e4];
    }
    return out;
  }

  it('gives exactly the plain computation: 0/1 figures mostly 1 or mostly 0, fractions, missing figures; draws reused across calls', () => {
    const rng = new Rng('bootstrap-test', 'tables');
    const u = () => rng.nextU32() / 4294967296;
    for (let t = 0; t < 12; t++) {
      const n = 1 + Math.floor(u() * 120);
      const cases = Array.from({ length: n }, () => {
        const c: Record<string, number> = {};
        const graded = u() < 0.8;
        if (graded) {
          c.mostlyOne = u() < 0.85 ? 1 : 0;
          c.mostlyZero = u() < 0.1 ? 1 : 0;
          c.fraction = u() < 0.3 ? 0 : Math.floor(u() * 10) / 7;
        } else c.noTool = u() < 0.6 ? 1 : 0;
        return c;
      });
      const keys = ['mostlyOne', 'mostlyZero', 'fraction', 'noTool', 'absent'];
      const label = `table-${t % 4}`; // labels repeat: a second table of the same size reuses the draws
      const want = plainIntervals(cases, keys, label, 200);
      expect(bootstrapIntervals(cases, keys, label, 200), `table ${t}`).toEqual(want);
      expect(bootstrapIntervals(cases, keys, label, 200), `table ${t}, again`).toEqual(want);
    }
  });
});

describe('evaluate with intervals', () => {
  const facts: CatalogFacts = { toolIds: ['a', 'b', 'c'], pinned: new Set(), namespaceOf: (id) => (id === 'c' ? 'n2' : 'n1') };
  const labels = [
    { id: '1', expectedTools: ['a'], slices: ['s'] },
    { id: '2', expectedTools: ['b'], slices: ['s'] },
    { id: '3', expectedTools: ['c'], slices: ['t'] },
    { id: '4', expectedTools: [], slices: ['t'] },
  ];
  const results = [
    { caseId: '1', ranked: ['a'], scopeLeaks: 0 },
    { caseId: '2', ranked: ['a', 'b'], scopeLeaks: 0 },
    { caseId: '3', ranked: ['c'], scopeLeaks: 0 },
    { caseId: '4', ranked: ['a'], scopeLeaks: 0 },
  ];

  it('gives an interval for every mean figure of every table, none for counts, and only when asked', () => {
    const ev = evaluate(labels, results, facts, [1, 5], { intervals: true });
    const means = Object.keys(ev.overall).filter((k) => !['cases', 'gradedCases', 'noToolCases', 'multiGoldCases', 'scopeLeakCount'].includes(k));
    expect(Object.keys(ev.ci95!.overall).sort()).toEqual(means.sort());
    expect(ev.ci95!.overall.noToolFalsePositiveRate).toEqual([1, 1]);
    expect(Object.keys(ev.ci95!.slices)).toEqual(['s', 't']);
    expect(Object.keys(ev.ci95!.namespaces)).toEqual(['n1', 'n2']);
    // namespace n2 has one case, a hit: its interval is the point 1
    expect(ev.ci95!.namespaces.n2!.top1).toEqual([1, 1]);
    for (const [key, [lo, hi]] of Object.entries(ev.ci95!.overall)) {
      expect(lo, key).toBeLessThanOrEqual(ev.overall[key]! + 1e-4);
      expect(hi, key).toBeGreaterThanOrEqual(ev.overall[key]! - 1e-4);
    }
    expect(evaluate(labels, results, facts, [1, 5]).ci95).toBeUndefined();
  });
});
