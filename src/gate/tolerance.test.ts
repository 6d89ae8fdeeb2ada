import { describe, expect, it } from 'vitest';
import { InputError, setting } from '../util/errors.ts';
import { parseFigure } from './figures.ts';
import { allowance, judge } from './gate.ts';
import { denominatorOf, matchesPattern, overrideFor, parseToleranceOverrides, rateTolerance, roundUp3 } from './tolerance.ts';

describe('the rate tolerance bless writes: min(0.005, max(1/n, √(p(1−p)/n)))', () => {
  it.each([
    // p, n, T: worked by hand
    // 40 cases at 0.5: SE = √(0.25/40) = 0.0791, one case 0.025: the cap 0.005 wins
    [0.5, 40, 0.005],
    // small-7's test split, top1 0.3253 on 1122 graded cases: SE = √(0.3253·0.6747/1122) = 0.01399 > cap
    [0.3253, 1122, 0.005],
    // 10,000 cases at 0.2: SE = √(0.16/10000) = 0.004 (40 cases), under the cap
    [0.2, 10_000, 0.004],
    // 40,000 cases at 0.1: SE = √(0.09/40000) = 0.0015
    [0.1, 40_000, 0.0015],
    // a rate pinned at 1 (codex's no-tool false positives on 293 no-tool cases): SE = 0, floor 1/293
    [1, 293, 1 / 293],
    // pinned at 0 on 100,000 cases: one case's worth, 1e-5
    [0, 100_000, 1e-5],
  ])('p = %s over n = %s → %s', (p, n, t) => {
    expect(rateTolerance(p, n)).toBeCloseTo(t, 12);
  });

  it('falls back to the cap without a count', () => {
    expect(rateTolerance(0.5, 0)).toBe(0.005);
  });

  it('rounds up to 3 significant digits, never tighter than the rule', () => {
    expect(roundUp3(1 / 293)).toBe(0.00342); // 0.0034129…
    expect(roundUp3(0.004)).toBe(0.004);
    expect(roundUp3(0.0015)).toBe(0.0015);
    expect(roundUp3(0.00500001)).toBe(0.00501);
    expect(roundUp3(0)).toBe(0);
  });

  it("takes n from the figure's own denominator", () => {
    expect(denominatorOf(parseFigure('top1'))).toBe('gradedCases');
    expect(denominatorOf(parseFigure('visible'))).toBe('gradedCases');
    expect(denominatorOf(parseFigure('noToolFalsePositiveRate'))).toBe('noToolCases');
    expect(denominatorOf(parseFigure('allGold@5'))).toBe('multiGoldCases');
    expect(denominatorOf(parseFigure('cases'))).toBeNull();
    expect(denominatorOf(parseFigure('scopeLeakCount'))).toBeNull();
    expect(denominatorOf(parseFigure('tokens.perSearch'))).toBeNull();
  });
});

describe('what the written tolerances let through', () => {
  it('one stolen case on 40 cases fails; on 10,000 cases, 40 cases of noise pass and 61 fail', () => {
    const small = rateTolerance(20 / 40, 40);
    expect(judge(20 / 40, 19 / 40, small, 'higher').status).toBe('FAIL'); // 0.025 > 1.5 × 0.005
    const large = rateTolerance(0.2, 10_000);
    expect(judge(0.2, 0.2 - 40 / 10_000, large, 'higher').status).toBe('OK');
    expect(judge(0.2, 0.2 - 60 / 10_000, large, 'higher').status).toBe('OKISH'); // exactly 1.5 T
    expect(judge(0.2, 0.2 - 61 / 10_000, large, 'higher').status).toBe('FAIL');
  });

  it('a single case is a FAIL up to 133 cases, OKISH up to 200, OK above', () => {
    const oneCase = (n: number) => judge(0.5, 0.5 - 1 / n, rateTolerance(0.5, n), 'higher').status;
    expect(oneCase(133)).toBe('FAIL');
    expect(oneCase(134)).toBe('OKISH');
    expect(oneCase(200)).toBe('OK');
  });

  it('a token figure with rel 0.05: a description edit of +1–3 % passes, +6 % is OKISH, +8 % fails', () => {
    const t = allowance({ rel: 0.05 }, 6230); // 311.5 tokens
    expect(t).toBeCloseTo(311.5, 9);
    expect(judge(6230, 6230 * 1.01, t, 'lower').status).toBe('OK');
    expect(judge(6230, 6230 * 1.03, t, 'lower').status).toBe('OK');
    expect(judge(6230, 6230 * 1.06, t, 'lower').status).toBe('OKISH');
    expect(judge(6230, 6230 * 1.08, t, 'lower').status).toBe('FAIL');
    expect(judge(6230, 6230 * 0.9, t, 'lower').status).toBe('IMPROVED');
  });
});

describe('--tolerance', () => {
  it('parses absolute, relative, percent and auto entries', () => {
    expect(parseToleranceOverrides('top1=0.01, tokens.*=2%,recall@5=rel:0.02,ndcg@10=abs:1e-3,cases=auto')).toEqual([
      { pattern: 'top1', tolerance: { abs: 0.01 } },
      { pattern: 'tokens.*', tolerance: { rel: 0.02 } },
      { pattern: 'recall@5', tolerance: { rel: 0.02 } },
      { pattern: 'ndcg@10', tolerance: { abs: 0.001 } },
      { pattern: 'cases', tolerance: 'auto' },
    ]);
  });

  it.each(['top1', '=0.1', 'top1=', 'top1=-0.1', 'top1=rel:2%', 'top1=lots'])('refuses %j', (text) => {
    expect(() => parseToleranceOverrides(text)).toThrow(InputError);
  });

  it.each(['top1=1e999', 'top1=rel:1e999', 'top1=1e999%', 'top1=-0.1', 'top1=abs:-1e-3', 'tokens.*=-2%'])('refuses %j as not a finite number ≥ 0', (text) => {
    expect(() => parseToleranceOverrides(text)).toThrow(new InputError(`${setting('tolerance')}: "${text}": not a finite number ≥ 0`));
  });

  it('matches figures by name or * pattern, the last entry winning', () => {
    expect(matchesPattern('tokens.*', 'tokens.perSearch')).toBe(true);
    expect(matchesPattern('tokens.*', 'top1')).toBe(false);
    expect(matchesPattern('recall@*', 'recall@10')).toBe(true);
    expect(matchesPattern('recall@1', 'recall@10')).toBe(false);
    const o = parseToleranceOverrides('*=auto,top1=0.02');
    expect(overrideFor(o, 'top1')?.tolerance).toEqual({ abs: 0.02 });
    expect(overrideFor(o, 'mrr@10')?.tolerance).toBe('auto');
  });
});
