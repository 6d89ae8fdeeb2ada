import { describe, expect, it } from 'vitest';
import type { Case } from '../catalog/types.ts';
import { type AuditTool, audit, neverCalledLine, standInNote } from './audit.ts';

// Tokens are given, so every figure below is hand-computed from these.
const tools: AuditTool[] = [
  { id: 'A', namespace: 'x', schemaTokens: 10 },
  { id: 'B', namespace: 'x', schemaTokens: 20 },
  { id: 'C', namespace: 'y', schemaTokens: 30 },
  { id: 'P', namespace: 'core', pinned: true, schemaTokens: 5 },
  { id: 'D', namespace: 'z', schemaTokens: null }, // known by its id only
  { id: 'E', namespace: 'y', schemaTokens: 40 },
];
const c = (id: string, sessionId: string, calls: string[], expectedTools: string[]): Case => ({ id, request: id, expectedTools, slices: [], sessionId, calls });
const cases: Case[] = [c('c1', 's1', ['A', 'A', 'C'], ['A', 'C']), c('c2', 's1', ['B'], ['B']), c('c3', 's2', [], []), c('c4', 's3', ['A', 'D'], ['A', 'D'])];

describe('audit', () => {
  const a = audit(cases, tools);

  it('counts calls (repeats kept), requests, sessions and the share of requests per tool', () => {
    expect(a.basis).toBe('calls');
    expect(a.totals).toEqual({ requests: 4, sessions: 3, tools: 6, calledTools: 4, calls: 6, eagerTokens: 105, unknownTokenTools: 1, standInTools: 0 });
    // A: 3 calls in c1 (twice) and c4; 2 of 4 requests; sessions s1 and s3; 10 tokens ÷ 0.5 = 20 a use
    expect(a.tools[0]).toEqual({ id: 'A', namespace: 'x', calls: 3, requests: 2, sessions: 2, requestShare: 0.5, schemaTokens: 10, tokensPerUse: 20 });
    expect(a.tools.find((u) => u.id === 'C')).toMatchObject({ calls: 1, requestShare: 0.25, tokensPerUse: 120 }); // 30 ÷ 0.25
    expect(a.tools.find((u) => u.id === 'D')).toMatchObject({ calls: 1, schemaTokens: null, tokensPerUse: null });
    expect(a.tools.find((u) => u.id === 'E')).toMatchObject({ calls: 0, requestShare: 0, tokensPerUse: null });
  });

  it('orders tools by calls, then catalog order', () => {
    expect(a.tools.map((u) => u.id)).toEqual(['A', 'B', 'C', 'D', 'P', 'E']);
  });

  it('leaves pinned tools out of the never-called ones, and gives what dropping the rest saves', () => {
    // E only: 40 of the 105 eager tokens (10 + 20 + 30 + 5 + 40; D unknown)
    expect(a.neverCalled).toEqual({ tools: 1, tokens: 40, share: 0.381, ids: ['E'] });
    expect(neverCalledLine(a)).toBe('dropping the 1 never-called tools saves 40 tokens per request (38.1% of the 105-token eager listing)');
  });

  it('sums per namespace, a request counted once per namespace it called', () => {
    expect(a.namespaces.map((n) => n.namespace)).toEqual(['x', 'y', 'z', 'core']);
    expect(a.namespaces[0]).toEqual({
      namespace: 'x',
      tools: 2,
      calledTools: 2,
      calls: 4,
      requests: 3, // c1, c2, c4
      sessions: 2, // s1, s3
      requestShare: 0.75,
      schemaTokens: 30,
      unknownTokenTools: 0,
      neverCalledTools: 0,
      neverCalledTokens: 0,
    });
    expect(a.namespaces[1]).toMatchObject({
      namespace: 'y',
      tools: 2,
      calledTools: 1,
      requests: 1,
      schemaTokens: 70,
      neverCalledTools: 1,
      neverCalledTokens: 40,
    });
    expect(a.namespaces[2]).toMatchObject({ namespace: 'z', schemaTokens: 0, unknownTokenTools: 1 });
    expect(a.namespaces[3]).toMatchObject({ namespace: 'core', calls: 0, neverCalledTools: 0 });
  });

  it('falls back on the gold tools, once per case, when no case records its calls', () => {
    const gold = audit(
      cases.map(({ calls: _, ...rest }) => rest),
      tools,
    );
    expect(gold.basis).toBe('gold');
    expect(gold.totals.calls).toBe(5); // A, C, B, A, D
    expect(gold.tools[0]).toMatchObject({ id: 'A', calls: 2, requests: 2 });
    expect(neverCalledLine(gold)).toBe('dropping the 1 never-expected tools saves 40 tokens per request (38.1% of the 105-token eager listing)');
  });

  it('says n/a for the share when no tool has known tokens, and says so when every tool was called', () => {
    const none = audit([c('c', 's', ['D'], ['D'])], [{ id: 'D', namespace: 'z', schemaTokens: null }]);
    expect(none.neverCalled).toEqual({ tools: 0, tokens: 0, share: null, ids: [] });
    expect(neverCalledLine(none)).toBe('every tool was called at least once: nothing to drop');
  });
});

describe('stand-in definitions', () => {
  it('counts the tools defined by Backpack’s stand-ins and says what that means for the tokens', () => {
    const a = audit(
      cases,
      tools.map((t) => (t.id === 'A' || t.id === 'B' ? { ...t, standIn: true } : t)),
    );
    expect(a.totals.standInTools).toBe(2);
    expect(a.tools.find((u) => u.id === 'A')!.standIn).toBe(true);
    expect(standInNote(a)).toMatch(/^2 harness core tools are defined by Backpack's one-line stand-ins/);
    expect(standInNote(audit(cases, tools))).toBe('');
  });
});
