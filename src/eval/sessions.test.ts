import { describe, expect, it } from 'vitest';
import { sessionModeFigures, type SessionTurn } from './sessions.ts';

const cache = { writeRatio: 1.25, readRatio: 0.1 };
const t = (turn: number, ranked: string[], search: number, kept = false): SessionTurn => ({ sessionId: 's', turn, expected: ['a'], goldMode: 'all', ranked, kept, before: 10, search });

describe('session figures', () => {
  it('a set that changes: churn 1, the prefix written twice', () => {
    const turns = [t(1, ['b'], 7), t(0, ['a'], 5)]; // out of order on purpose: sorted by turn
    const prefix = sessionModeFigures(turns, 'prefix', cache);
    expect(prefix.recall5ByTurn).toEqual([1, 0]);
    expect(prefix.recall5).toBe(0.5);
    expect(prefix.churn).toBe(1);
    expect(prefix.keptRate).toBe(0);
    expect(prefix.tokensUncached).toBe(15 + 17);
    expect(prefix.tokensCached).toBeCloseTo(15 * 1.25 + 17 * 1.25, 12);
    // history: turn 0 = 10 + 5; turn 1 = 10 + 5 (read back) + 7 (new)
    const history = sessionModeFigures(turns, 'history', cache);
    expect(history.tokensUncached).toBe(15 + 22);
    expect(history.tokensCached).toBeCloseTo(15 * 1.25 + (10 * 0.1 + 7 * 1.25 + 5 * 0.1), 12);
  });

  it('a kept set (sticky): no churn, a cache read, and no new search in the history', () => {
    const turns = [t(0, ['a'], 5), t(1, ['a'], 5, true)];
    const prefix = sessionModeFigures(turns, 'prefix', cache);
    expect([prefix.churn, prefix.keptRate]).toEqual([0, 1]);
    expect(prefix.tokensCached).toBeCloseTo(15 * 1.25 + 15 * 0.1, 12);
    const history = sessionModeFigures(turns, 'history', cache);
    expect(history.tokensUncached).toBe(15 + 15);
    expect(history.tokensCached).toBeCloseTo(15 * 1.25 + (10 * 0.1 + 5 * 0.1), 12);
  });

  it('means are per session; a no-tool turn counts for churn and tokens but not recall', () => {
    const two = [t(0, ['a'], 5), { ...t(0, [], 0), sessionId: 'u', expected: [] }];
    const f = sessionModeFigures(two, 'prefix', cache);
    expect(f.recall5).toBe(1);
    expect(f.tokensUncached).toBe((15 + 10) / 2);
  });
});
