import { describe, expect, it } from 'vitest';
import { checkScopeLeaks, scopeLeakCount } from './scope.ts';

describe('scopeLeakCount', () => {
  it('sums, never averages', () => {
    expect(scopeLeakCount([0, 2, 1])).toBe(3); // 0 + 2 + 1
    expect(scopeLeakCount([0, 0])).toBe(0);
    expect(scopeLeakCount([])).toBe(0);
  });

  it('rejects a negative or fractional per-case count', () => {
    expect(checkScopeLeaks(2, 'c1')).toBe(2);
    expect(() => checkScopeLeaks(-1, 'c1')).toThrow(/case c1: scopeLeaks must be a non-negative integer/);
    expect(() => checkScopeLeaks(0.5, 'c1')).toThrow(/non-negative integer/);
    expect(() => checkScopeLeaks(Number.NaN, 'c1')).toThrow(/non-negative integer/);
  });
});
