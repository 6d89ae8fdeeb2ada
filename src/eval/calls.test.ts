import { describe, expect, it } from 'vitest';
import type { Case } from '../catalog/types.ts';
import { callFigures, caseCalls } from './calls.ts';
import type { QueryDetail } from './results.ts';

const CODEX = { search: 1, perFoundTool: 0, call: 'each' } as const;
const HERMES = { search: 1, perFoundTool: 1, call: 'each' } as const;
const ROUTING = { search: 0, perFoundTool: 0, perNamespace: 1, call: 'each' } as const;
const CODE = { search: 0, perFoundTool: 0, call: 'script' } as const;
const EAGER = { search: 0, perFoundTool: 0, call: 'each' } as const;

const base = { goldMode: 'all' as const, before: [] as string[], searched: [] as string[], searches: 1, namespacesOpened: 0 };

describe('caseCalls (hand-computed)', () => {
  it('codex: search then the exact call; on a miss the model still calls its (wrong) pick; an empty search ends without a call', () => {
    expect(caseCalls(CODEX, { ...base, gold: ['a'], searched: ['a', 'b'] })).toEqual({ searches: 1, total: 2 });
    expect(caseCalls(CODEX, { ...base, gold: ['a'], searched: ['b'] })).toEqual({ searches: 1, total: 2 });
    expect(caseCalls(CODEX, { ...base, gold: ['a'], searched: [] })).toEqual({ searches: 1, total: 1 });
  });

  it('hermes: search, describe, call; a retry is a second search; a miss is described and called all the same', () => {
    expect(caseCalls(HERMES, { ...base, gold: ['a'], searched: ['b', 'c'] })).toEqual({ searches: 1, total: 3 });
    expect(caseCalls(HERMES, { ...base, gold: ['a'], searched: ['a'] })).toEqual({ searches: 1, total: 3 });
    expect(caseCalls(HERMES, { ...base, gold: ['a'], searched: ['a'], searches: 2 })).toEqual({ searches: 2, total: 4 });
    // two gold tools found: one describe and one call each
    expect(caseCalls(HERMES, { ...base, gold: ['a', 'b'], searched: ['b', 'a'] })).toEqual({ searches: 1, total: 5 });
  });

  it('an eager gold tool needs no describe; a kept sticky turn needs no search', () => {
    expect(caseCalls(HERMES, { ...base, gold: ['a', 'b'], before: ['a'], searched: ['b'] })).toEqual({ searches: 1, total: 4 });
    expect(caseCalls(HERMES, { ...base, gold: ['a'], searched: ['a'], searches: 0 })).toEqual({ searches: 0, total: 2 });
  });

  it('namespace routing: one call per namespace opened, then the call', () => {
    expect(caseCalls(ROUTING, { ...base, gold: ['a'], searched: ['a'], namespacesOpened: 1 })).toEqual({ searches: 0, total: 2 });
    expect(caseCalls(ROUTING, { ...base, gold: ['a'], searched: ['x'], namespacesOpened: 2 })).toEqual({ searches: 0, total: 3 });
    expect(caseCalls(ROUTING, { ...base, gold: ['a'], searched: [], namespacesOpened: 1 })).toEqual({ searches: 0, total: 1 });
  });

  it('code mode: one run for every gold tool it can reach, none when it reaches nothing', () => {
    expect(caseCalls(CODE, { ...base, gold: ['a', 'b', 'c'], before: ['a', 'b', 'c'], searches: 0 })).toEqual({ searches: 0, total: 1 });
    expect(caseCalls(CODE, { ...base, gold: ['a'], before: [], searches: 0 })).toEqual({ searches: 0, total: 0 });
    // a preselection that misses: the script still runs, on the wrong tools
    expect(caseCalls(CODE, { ...base, gold: ['a', 'b'], searched: ['x', 'y'], searches: 0 })).toEqual({ searches: 0, total: 1 });
  });

  it('goldMode any: one tool is enough, an eager one first', () => {
    expect(caseCalls(HERMES, { ...base, goldMode: 'any', gold: ['a', 'b'], searched: ['a', 'b'] })).toEqual({ searches: 1, total: 3 });
    expect(caseCalls(HERMES, { ...base, goldMode: 'any', gold: ['a', 'b'], before: ['b'], searched: ['a'] })).toEqual({ searches: 1, total: 2 });
  });

  it('a no-tool case costs only the searches made; an eager strategy costs nothing there', () => {
    expect(caseCalls(CODEX, { ...base, gold: [], searched: ['x'] })).toEqual({ searches: 1, total: 1 });
    expect(caseCalls(EAGER, { ...base, gold: [], searches: 0 })).toEqual({ searches: 0, total: 0 });
  });

  it('repeated gold ids count once', () => {
    expect(caseCalls(CODEX, { ...base, gold: ['a', 'a'], searched: ['a'] })).toEqual({ searches: 1, total: 2 });
  });
});

describe('callFigures', () => {
  const c = (id: string, expectedTools: string[] | undefined, sessionId?: string): Case =>
    ({ id, request: id, ...(expectedTools ? { expectedTools } : {}), slices: [], ...(sessionId ? { sessionId, turn: 0 } : {}) }) as Case;
  const d = (caseId: string, total: number, searches: number): QueryDetail => ({
    caseId,
    ranked: [],
    pinned: [],
    leaks: [],
    ms: 0,
    exposure: { eagerTools: 0, loadedTools: 0, resultChars: 0, beforeTokens: 0, searchTokens: 0, calls: { total, searches } },
  });

  it('means over cases needing a tool; no-tool cases apart; 12 × the mean per session turn', () => {
    const cases = [c('g1', ['a'], 's'), c('g2', ['b'], 's'), c('n1', [], 's'), c('skill', undefined), c('g3', ['c'])];
    const details = [d('g1', 2, 1), d('g2', 4, 2), d('n1', 1, 1), { caseId: 'skill', ranked: [], pinned: [], leaks: [], ms: 0 }, d('g3', 3, 1)];
    const f = callFigures(cases, details, CODEX, 12);
    expect(f.perCase).toBeCloseTo((2 + 4 + 3) / 3, 12);
    expect(f.searchesPerCase).toBeCloseTo((1 + 2 + 1) / 3, 12);
    expect(f.noToolPerCase).toBe(1);
    // session turns g1, g2, n1: (2 + 4 + 1) / 3 per turn
    expect(f.perSession).toBeCloseTo((12 * 7) / 3, 12);
    expect(f.sessionBasis).toBe('sessions');
    expect(f.protocol).toEqual(CODEX);
  });

  it('without sessions, the 12-turn figure is 12 × the mean over every tool-labelled case; no no-tool case gives null', () => {
    const f = callFigures([c('g1', ['a']), c('g2', ['b'])], [d('g1', 2, 1), d('g2', 3, 1)], CODEX, 12);
    expect(f.perSession).toBeCloseTo(30, 12);
    expect(f.sessionBasis).toBe('cases');
    expect(f.noToolPerCase).toBeNull();
  });

  it('calls per success: the mean over the cases needing a tool whose gold all reached the model (visible 1); null when none did', () => {
    // g1 found (visible 1, 2 calls), g2 half found (visible 0.5, 4 calls), g3 nothing shown (visible 0, 1 call), n1 a no-tool case
    const cases = [c('g1', ['a']), c('g2', ['b', 'c']), c('g3', ['d']), c('n1', [])];
    const details = [d('g1', 2, 1), d('g2', 4, 1), d('g3', 1, 1), d('n1', 1, 1)];
    const visible = new Map([
      ['g1', 1],
      ['g2', 0.5],
      ['g3', 0],
    ]);
    const f = callFigures(cases, details, CODEX, 12, visible);
    expect(f.perCase).toBeCloseTo((2 + 4 + 1) / 3, 12); // giving up on g3 lowers the per-case figure…
    expect(f.perSuccess).toBe(2); // …not the cost of a success
    expect(callFigures(cases, details, CODEX, 12, new Map([['g3', 0]])).perSuccess).toBeNull();
  });
});
