import { describe, expect, it } from 'vitest';
import type { Results } from '../eval/results.ts';
import { figureValue, isPerCaseMean, metricKey, parseFigure } from './figures.ts';
import { blessTolerance } from './tolerance.ts';

/** A results file with one retriever: an overall table and two slices, hand-written. */
const results = {
  retrievers: {
    bm25: {
      metrics: {
        overall: { 'recall@5': 0.5, gradedCases: 100, noToolCases: 20 },
        slices: { paraphrase: { 'recall@5': 0.25, gradedCases: 4 }, 'near.dup': { 'recall@5': 0.75, gradedCases: 400 } },
        namespaces: {},
      },
    },
  },
} as unknown as Results;

describe('slice figures', () => {
  it('parse slices.<slice>.<metric id>, the slice name being everything before the last dot', () => {
    const f = parseFigure('slices.near.dup.recall@5');
    expect(f).toMatchObject({ kind: 'metric', key: 'slices.near.dup.recall@5', slice: 'near.dup', direction: 'higher', metric: { kind: 'recall', k: 5 } });
    expect(metricKey(f as Extract<typeof f, { kind: 'metric' }>)).toBe('recall@5');
    expect(parseFigure('recall@5')).not.toHaveProperty('slice');
    expect(() => parseFigure('slices.recall@5')).toThrow(/slices\.<slice>\.<metric id>/);
    expect(() => parseFigure('slices.paraphrase.recal@5')).toThrow(/recal/);
    expect(() => parseFigure('slices.paraphrase.p50Ms')).toThrow(/timing/);
  });

  it("read the slice's own table, and only it", () => {
    expect(figureValue(results, 'bm25', parseFigure('slices.paraphrase.recall@5'))).toBe(0.25);
    expect(figureValue(results, 'bm25', parseFigure('slices.near.dup.recall@5'))).toBe(0.75);
    expect(figureValue(results, 'bm25', parseFigure('recall@5'))).toBe(0.5);
    expect(figureValue(results, 'bm25', parseFigure('slices.lexical.recall@5'))).toBeUndefined();
    expect(figureValue(results, 'bm25', parseFigure('slices.paraphrase.noToolFalsePositiveRate'))).toBeUndefined();
  });

  it('get no paired test (it runs over all cases), and a tolerance from the slice’s own case count', () => {
    expect(isPerCaseMean(parseFigure('recall@5'))).toBe(true);
    expect(isPerCaseMean(parseFigure('slices.paraphrase.recall@5'))).toBe(false);
    // recall 0.999: over the slice's 400 graded cases max(1/400, sqrt(.999·.001/400) ≈ 0.00158) = 0.0025;
    // the same value over the overall table's 100 cases would be max(0.01, …) capped at 0.005
    expect(blessTolerance(results, 'bm25', parseFigure('slices.near.dup.recall@5'), 0.999)).toEqual({ abs: 0.0025 });
    expect(blessTolerance(results, 'bm25', parseFigure('recall@5'), 0.999)).toEqual({ abs: 0.005 });
    // a slice the results lack: no count, the cap
    expect(blessTolerance(results, 'bm25', parseFigure('slices.lexical.recall@5'), 0.999)).toEqual({ abs: 0.005 });
  });
});
