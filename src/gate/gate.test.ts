import { describe, expect, it } from 'vitest';
import { parseFigure } from './figures.ts';
import { allowance, judge } from './gate.ts';

describe('allowance', () => {
  it('is the larger of abs and rel × |expected|', () => {
    expect(allowance({ abs: 0.005 }, 0.8)).toBe(0.005);
    expect(allowance({ rel: 0.01 }, 2000)).toBe(20);
    expect(allowance({ abs: 30, rel: 0.01 }, 2000)).toBe(30);
    expect(allowance({ abs: 0.001, rel: 0.01 }, -0.5)).toBe(0.005);
    expect(allowance({}, 1)).toBe(0);
  });
});

describe('judge', () => {
  const T = 0.01;
  it.each([
    // expected, actual, direction, verdict
    [0.5, 0.5, 'higher', 'OK'],
    [0.5, 0.51, 'higher', 'OK'], // exactly at the tolerance
    [0.5, 0.49, 'higher', 'OK'],
    [0.5, 0.512, 'higher', 'IMPROVED'], // beyond T in the better direction: never silently OK
    [0.5, 0.9, 'higher', 'IMPROVED'],
    [0.5, 0.488, 'higher', 'OKISH'], // T < drop ≤ 1.5 T
    [0.5, 0.485, 'higher', 'OKISH'], // exactly 1.5 T
    [0.5, 0.484, 'higher', 'FAIL'],
    [0.5, 0.1, 'higher', 'FAIL'],
    // lower is better: the mirror image
    [0.2, 0.188, 'lower', 'IMPROVED'],
    [0.2, 0.212, 'lower', 'OKISH'],
    [0.2, 0.3, 'lower', 'FAIL'],
    // counts: any change beyond T is a change for the worse
    [400, 400, 'none', 'OK'],
    [400, 401, 'none', 'FAIL'],
  ] as const)('%s → %s (%s is better): %s', (expected, actual, direction, verdict) => {
    const tol = direction === 'none' ? 0 : T;
    expect(judge(expected, actual, tol, direction).status).toBe(verdict);
  });

  it('reports the delta as actual − expected', () => {
    expect(judge(0.5, 0.3, 0.01, 'higher').delta).toBeCloseTo(-0.2, 12);
  });

  it('with zero tolerance: equal is OK, any drop FAILs, any gain is IMPROVED', () => {
    expect(judge(2473, 2473, 0, 'lower').status).toBe('OK');
    expect(judge(2473, 2474, 0, 'lower').status).toBe('FAIL');
    expect(judge(2473, 2472, 0, 'lower').status).toBe('IMPROVED');
    // values that went through JSON rounding compare equal
    expect(judge(0.387543252595, 0.3875432525951557, 0, 'higher').status).toBe('OK');
  });
});

describe('figures', () => {
  it('parses metric ids and token figures with their direction', () => {
    expect(parseFigure('top1')).toMatchObject({ kind: 'metric', direction: 'higher' });
    expect(parseFigure('noToolFalsePositiveRate')).toMatchObject({ kind: 'metric', direction: 'lower' });
    expect(parseFigure('cases')).toMatchObject({ kind: 'metric', direction: 'none' });
    expect(parseFigure('tokens.beforeSearch')).toMatchObject({ kind: 'tokens', field: 'beforeSearch', direction: 'lower' });
    expect(parseFigure('tokens.visiblePer1kTokens')).toMatchObject({ direction: 'higher' });
  });

  it('refuses unknown figures with a suggestion, and timings', () => {
    expect(() => parseFigure('top-1')).toThrow(/unknown metric/);
    expect(() => parseFigure('recal@5')).toThrow(/did you mean.*recall/i);
    expect(() => parseFigure('tokens.beforeSerch')).toThrow(/tokens.beforeSerch.*beforeSearch/);
    expect(() => parseFigure('p50Ms')).toThrow(/timing/);
  });
});
