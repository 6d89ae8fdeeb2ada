import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeTool } from '../catalog/model.ts';
import type { Tool } from '../catalog/types.ts';
import { describePair, jaccard, nearDuplicates, similarPairs } from './near-duplicates.ts';

const tool = (server: string, name: string, description: string): Tool => makeTool({ name, source: 'mcp', server, summary: '', description });

describe('nearDuplicates', () => {
  const history = tool('billing', 'get_billing_history', 'Returns the billing history of an account: invoices, payments, refunds and credits over a date range.');
  const lines = tool('billing', 'get_billing_lines', 'Returns the billing history of an account: invoices, payments, refunds and credit lines over a date range.');
  const weather = tool('weather', 'get_forecast', 'Returns the weather forecast for a city over the next seven days.');

  it('reports two nearly identical tools with a "not for" suggestion, and not a distinct pair', () => {
    const r = nearDuplicates([history, lines, weather], { focus: new Set([lines.id]) });
    expect(r.pairs).toBe(1);
    expect(r.pairsInvolvingChanges).toBe(1);
    expect(r.tools).toBe(2);
    const [p] = r.listed;
    expect(p).toMatchObject({ a: history.id, b: lines.id, involvesChange: true, onlyA: [], onlyB: ['lines'] });
    expect(p!.jaccard).toBeGreaterThanOrEqual(0.8);
    expect(p!.suggestions[0]).toBe(`Add to ${history.id}'s description: "Not for lines (use get_billing_lines)."`);
    expect(p!.suggestions.join('\n')).toMatch(/says nothing .* does not/);
    expect(r.listed.some((x) => x.a === weather.id || x.b === weather.id)).toBe(false);
  });

  it('names the other server when two servers carry the same operation', () => {
    const a = tool('hubspot', 'create_account', 'Creates an account.');
    const b = tool('salesforce', 'create_account', 'Creates an account.');
    const p = describePair(a, b, 1, false);
    expect(p.suggestions).toEqual([`Add to ${a.id}'s description: "Not for salesforce (use ${b.id})."`, `Add to ${b.id}'s description: "Not for hubspot (use ${a.id})."`]);
  });

  it('respects the threshold', () => {
    expect(nearDuplicates([history, lines], { similarity: 0.99 }).pairs).toBe(0);
    expect(nearDuplicates([history, weather], { similarity: 0.05 }).pairs).toBe(1);
  });

  it('finds exactly the pairs a brute-force comparison finds', () => {
    const set = fc.uniqueArray(fc.integer({ min: 0, max: 24 }), { minLength: 0, maxLength: 12 }).map((xs) => Uint32Array.from(xs).sort());
    fc.assert(
      fc.property(fc.array(set, { minLength: 2, maxLength: 40 }), fc.constantFrom(0.5, 0.6, 0.7, 0.8, 0.9, 1), (sets, t) => {
        const got = similarPairs(sets, t).map(([i, j]) => `${i},${j}`).sort();
        const want: string[] = [];
        for (let i = 0; i < sets.length; i++) for (let j = i + 1; j < sets.length; j++) if (sets[i]!.length && sets[j]!.length && jaccard(sets[i]!, sets[j]!) >= t - 1e-12) want.push(`${i},${j}`);
        expect(got).toEqual(want.sort());
      }),
      { numRuns: 300, seed: 7 },
    );
  });
});
