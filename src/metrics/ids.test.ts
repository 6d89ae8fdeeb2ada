import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compareMetricIds,
  consoleLabel,
  formatMetricId,
  higherIsBetter,
  isMetricKind,
  metricInfo,
  metricLabel,
  metricTitle,
  METRIC_KINDS,
  METRICS,
  needsK,
  parseMetricId,
  type MetricId,
} from './ids.ts';

describe('parseMetricId / formatMetricId', () => {
  it('parses the results.json contract keys', () => {
    expect(parseMetricId('top1')).toEqual({ kind: 'top1' });
    expect(parseMetricId('recall@5')).toEqual({ kind: 'recall', k: 5 });
    expect(parseMetricId('allGold@3')).toEqual({ kind: 'allGold', k: 3 });
    expect(parseMetricId('anyGold@3')).toEqual({ kind: 'anyGold', k: 3 });
    expect(parseMetricId('mrr@10')).toEqual({ kind: 'mrr', k: 10 });
    expect(parseMetricId('ndcg@10')).toEqual({ kind: 'ndcg', k: 10 });
    expect(parseMetricId('missedEntirely@8')).toEqual({ kind: 'missedEntirely', k: 8 });
    expect(parseMetricId('noToolFalsePositiveRate')).toEqual({ kind: 'noToolFalsePositiveRate' });
    expect(parseMetricId('scopeLeakCount')).toEqual({ kind: 'scopeLeakCount' });
    expect(parseMetricId('namespaceRecall@5')).toEqual({ kind: 'namespaceRecall', k: 5 });
    expect(parseMetricId('cases')).toEqual({ kind: 'cases' });
    expect(parseMetricId('p95Ms')).toEqual({ kind: 'p95Ms' });
  });

  it('formats ids', () => {
    expect(formatMetricId({ kind: 'mrr', k: 10 })).toBe('mrr@10');
    expect(formatMetricId({ kind: 'recall', k: 1 })).toBe('recall@1');
    expect(formatMetricId({ kind: 'top1' })).toBe('top1');
    expect(formatMetricId({ kind: 'gradedCases' })).toBe('gradedCases');
  });

  it('rejects unknown kinds with a "did you mean"', () => {
    expect(() => parseMetricId('recal@5')).toThrow(/unknown metric "recal".*did you mean recall\?/);
    expect(() => parseMetricId('Recall@5')).toThrow(/did you mean recall/);
    expect(() => parseMetricId('ndgc@10')).toThrow(/unknown metric "ndgc"/);
    expect(() => parseMetricId('bogusmetricname')).toThrow(/unknown metric "bogusmetricname"/);
    expect(() => parseMetricId('')).toThrow(/empty/);
    expect(() => parseMetricId('toString')).toThrow(/unknown metric/);
  });

  it('rejects a missing or extra @k and k < 1', () => {
    expect(() => parseMetricId('recall')).toThrow(/needs a cut-off/);
    expect(() => parseMetricId('recall@')).toThrow(/positive integer/);
    expect(() => parseMetricId('top1@1')).toThrow(/takes no cut-off/);
    expect(() => parseMetricId('scopeLeakCount@5')).toThrow(/takes no cut-off/);
    expect(() => parseMetricId('recall@0')).toThrow(/k must be ≥ 1/);
    expect(() => parseMetricId('recall@-1')).toThrow(/positive integer/);
    expect(() => parseMetricId('recall@1.5')).toThrow(/positive integer/);
    expect(() => parseMetricId('recall@5@6')).toThrow(/positive integer/);
    expect(() => parseMetricId('recall@ 5')).toThrow(/positive integer/);
    expect(() => parseMetricId('recall@05')).toThrow(/"recall@5" without leading zeros/);
    expect(() => parseMetricId('recall@99999999999999999999')).toThrow(/too large/);
  });

  it('formatMetricId refuses ids the parser would not produce', () => {
    expect(() => formatMetricId({ kind: 'recall' } as unknown as MetricId)).toThrow(/needs an integer cut-off/);
    expect(() => formatMetricId({ kind: 'recall', k: 0 })).toThrow(/needs an integer cut-off/);
    expect(() => formatMetricId({ kind: 'recall', k: 2.5 })).toThrow(/needs an integer cut-off/);
    expect(() => formatMetricId({ kind: 'top1', k: 3 } as unknown as MetricId)).toThrow(/takes no cut-off/);
    expect(() => formatMetricId({ kind: 'recal', k: 3 } as unknown as MetricId)).toThrow(/did you mean recall/);
  });

  it('round-trips every valid id (property)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...METRIC_KINDS), fc.integer({ min: 1, max: 1_000_000 }), (kind, k) => {
        const s = needsK(kind) ? `${kind}@${k}` : kind;
        expect(formatMetricId(parseMetricId(s))).toBe(s);
      }),
    );
  });

  it('format(parse(s)) === s whenever parse accepts s (property)', () => {
    const near = fc.tuple(fc.constantFrom(...METRIC_KINDS, 'recal', ''), fc.constantFrom('', '@'), fc.string({ maxLength: 4 })).map(([a, b, c]) => a + b + c);
    fc.assert(
      fc.property(fc.oneof(near, fc.string()), (s) => {
        let id: MetricId;
        try {
          id = parseMetricId(s);
        } catch {
          return;
        }
        expect(formatMetricId(id)).toBe(s);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('METRICS table', () => {
  it('describes every kind; counts, and the part of visible an expansion brought, are neither better nor worse', () => {
    for (const kind of METRIC_KINDS) {
      expect(METRICS[kind].description.length).toBeGreaterThan(10);
      expect(isMetricKind(kind)).toBe(true);
      if (METRICS[kind].group === 'count' || kind === 'visibleByExpansion') expect(METRICS[kind].higherIsBetter).toBeNull();
      else expect(typeof METRICS[kind].higherIsBetter).toBe('boolean');
    }
    expect(METRIC_KINDS.filter((k) => needsK(k))).toEqual(['recall', 'allGold', 'anyGold', 'mrr', 'ndcg', 'missedEntirely', 'namespaceRecall']);
    expect(METRICS.missedEntirely.higherIsBetter).toBe(false);
    expect(METRICS.noToolFalsePositiveRate.higherIsBetter).toBe(false);
    expect(METRICS.scopeLeakCount.higherIsBetter).toBe(false);
  });

  it('orders ids by METRICS order, then k', () => {
    const ids = ['recall@10', 'cases', 'top1', 'recall@5', 'mrr@10', 'allGold@1'].map(parseMetricId);
    expect(ids.sort(compareMetricIds).map(formatMetricId)).toEqual(['top1', 'recall@5', 'recall@10', 'allGold@1', 'mrr@10', 'cases']);
  });

  it('gives every kind a title; a kind with a cut-off says "the top k" in it', () => {
    for (const kind of METRIC_KINDS) {
      expect(METRICS[kind].title.length, kind).toBeGreaterThan(5);
      expect(METRICS[kind].title.includes('the top k'), kind).toBe(needsK(kind) && METRICS[kind].group === 'quality');
    }
  });
});

describe('labels, titles and directions of metric ids', () => {
  it('labels the long ids and leaves the others as they are', () => {
    expect(metricLabel('noToolFalsePositiveRate')).toBe('no-tool FP rate');
    expect(metricLabel('searchNoToolFalsePositiveRate')).toBe('search no-tool FP rate');
    expect(metricLabel('scopeLeakCount')).toBe('scope leaks');
    expect(metricLabel('p50Ms')).toBe('p50 ms');
    for (const id of ['recall@5', 'top1', 'bogus@3']) expect(metricLabel(id), id).toBe(id);
    expect(consoleLabel('noToolFalsePositiveRate')).toBe('noToolFP');
    expect(consoleLabel('scopeLeakCount')).toBe('leaks');
    expect(consoleLabel('searchNoToolFalsePositiveRate')).toBe('searchNoToolFalsePositiveRate');
  });

  it('titles an id with its own cut-off', () => {
    expect(metricTitle('recall@5')).toBe('share of the gold tools in the top 5');
    expect(metricTitle('missedEntirely@10')).toBe('graded cases with no gold tool in the top 10 (lower is better)');
    expect(metricTitle('top1')).toBe('share of graded cases whose first-ranked tool is gold');
    for (const id of ['recall', 'bogus']) expect(metricTitle(id), id).toBe(id);
  });

  it('reads the direction from the table: null for counts, undefined for an id that does not parse', () => {
    expect(higherIsBetter('recall@5')).toBe(true);
    expect(higherIsBetter('missedEntirely@5')).toBe(false);
    expect(higherIsBetter('p50Ms')).toBe(false);
    expect(higherIsBetter('gradedCases')).toBeNull();
    expect(higherIsBetter('recall@0')).toBeUndefined();
    expect(metricInfo('ndcg@10')).toBe(METRICS.ndcg);
    expect(metricInfo('top1@1')).toBeUndefined();
  });
});
