import { describe, expect, it } from 'vitest';
import { makeTool } from '../catalog/model.ts';
import type { Case, Catalog } from '../catalog/types.ts';
import type { QueryDetail } from './results.ts';
import { recordTurnTokens, sessionModeFigures, strategySessions, type SessionTurn } from './sessions.ts';
import { retrieverTokens, TokenMeter } from './tokens.ts';

const cache = { writeRatio: 1.25, readRatio: 0.1 };
const t = (turn: number, ranked: string[], search: number, kept = false): SessionTurn => ({
  sessionId: 's',
  turn,
  expected: ['a'],
  goldMode: 'all',
  ranked,
  kept,
  before: 10,
  search,
});

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

describe('retriever session tokens: pinned tools counted once, for the turn that shows them', () => {
  const names = ['p', 'a', 'b', 'c', 'd', 'e', 'f'];
  const tools = names.map((n) => makeTool({ source: 'core', name: n, summary: `${n}.`, description: `Tool ${n} does ${n}.`, pinned: n === 'p' }));
  const catalog: Catalog = { tools, skills: [], servers: [], plugins: [] };
  const meter = new TokenMeter(catalog, 'anthropic', 'o200k');
  const tok = (...ids: string[]) => ids.reduce((s, id) => s + meter.toolTokens(id), 0);
  const c = (id: string, turn: number): Case => ({ id, request: id, expectedTools: ['a'], slices: [], sessionId: 's', turn });
  const d = (id: string, ranked: string[], pinned: string[], alt: string[]): QueryDetail => ({
    caseId: id,
    ranked: ranked.map((t) => [t, 1]),
    pinned,
    leaks: [],
    alt: { ranked: alt },
    ms: 0,
  });

  it("a pinned tool ranked 6th is still in front of the model; one in the other mode's top 5 is not counted twice", () => {
    // turn 0: the run ranked p 6th (so the policy appended nothing); the other mode's top 5 has p.
    // turn 1: the run ranked only a (p appended); the other mode ranked p first.
    const cases = [c('1', 0), c('2', 1)];
    const details = [d('1', ['a', 'b', 'c', 'd', 'e', 'p'], [], ['p', 'a']), d('2', ['a'], ['p'], ['p', 'b'])];
    expect(() => strategySessions(cases, details, { sticky: false, placement: 'prefix', cache })).toThrow(/session case "1" has no turn tokens/);
    recordTurnTokens(cases, details, retrieverTokens(meter));
    // the records say it (a merge of shards reads them): turn 0 = p before, a..e searched
    expect(details[0]!.turn).toEqual({ beforeTokens: tok('p'), searchTokens: tok('a', 'b', 'c', 'd', 'e') });
    expect(details[1]!.alt).toEqual({ ranked: ['p', 'b'], beforeTokens: 0, searchTokens: tok('p', 'b') });
    const f = strategySessions(cases, details, { sticky: false, placement: 'prefix', cache })!;
    // per-turn (the run): turn 0 = p (pinned, outside the top 5) + a..e; turn 1 = p + a
    expect(f.perTurn.tokensUncached).toBe(tok('p', 'a', 'b', 'c', 'd', 'e') + tok('p', 'a'));
    // sticky (alt): turn 0 = p + a; turn 1 = p + b — p once per turn
    expect(f.sticky.tokensUncached).toBe(tok('p', 'a') + tok('p', 'b'));
  });
});
