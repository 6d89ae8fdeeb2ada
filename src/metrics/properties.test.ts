/** Property tests over the kernels and `evaluate`, on small random lists drawn from a small alphabet (so duplicates occur). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { evaluate } from './aggregate.ts';
import { METRICS, parseMetricId } from './ids.ts';
import { allGoldAtK, anyGoldAtK, missedEntirely, namespaceRecallAtK, ndcgAtK, recallAtK, reciprocalRank, top1, type GoldMode } from './ranking.ts';
import type { CaseLabel, CaseResult, CatalogFacts } from './types.ts';

const TOOLS = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
const tool = fc.constantFrom(...TOOLS);
const ranked = fc.array(tool, { maxLength: 12 });
const gold = fc.array(tool, { minLength: 1, maxLength: 4 });
const mode = fc.constantFrom<GoldMode>('all', 'any');
const k = fc.integer({ min: 1, max: 14 });
const namespaceOf = (id: string): string | undefined => (id < 'd' ? 'x' : id < 'g' ? 'y' : undefined);

describe('metric properties', () => {
  it('recall@k is non-decreasing in k', () => {
    fc.assert(
      fc.property(ranked, gold, mode, k, (r, g, m, k1) => {
        expect(recallAtK(r, g, k1 + 1, m)).toBeGreaterThanOrEqual(recallAtK(r, g, k1, m));
        expect(namespaceRecallAtK(r, g, k1 + 1, namespaceOf, m)).toBeGreaterThanOrEqual(namespaceRecallAtK(r, g, k1, namespaceOf, m));
      }),
    );
  });

  it('every rate is in [0, 1]', () => {
    fc.assert(
      fc.property(ranked, gold, mode, k, (r, g, m, kk) => {
        for (const v of [
          top1(r, g),
          recallAtK(r, g, kk, m),
          allGoldAtK(r, g, kk),
          anyGoldAtK(r, g, kk),
          reciprocalRank(r, g, kk),
          ndcgAtK(r, g, kk, m),
          missedEntirely(r, g, kk),
          namespaceRecallAtK(r, g, kk, namespaceOf, m),
        ]) {
          expect(v).toBeGreaterThanOrEqual(0);
          expect(v).toBeLessThanOrEqual(1 + 1e-12);
        }
      }),
    );
  });

  it('nDCG = 1 when the gold tools are ranked first', () => {
    fc.assert(
      fc.property(fc.shuffledSubarray(TOOLS, { minLength: 1 }), ranked, mode, k, (g, rest, m, kk) => {
        const r = [...g, ...rest];
        expect(ndcgAtK(r, g, kk, m)).toBeCloseTo(1, 12);
      }),
    );
  });

  it('evaluate: every rate in every table is in [0, 1], and counts add up', () => {
    const facts: CatalogFacts = { toolIds: TOOLS, pinned: new Set(['h']), namespaceOf };
    const caseArb = fc.record({
      expectedTools: fc.option(fc.array(tool, { maxLength: 3 }), { nil: undefined }),
      goldMode: fc.option(mode, { nil: undefined }),
      slices: fc.array(fc.constantFrom('s1', 's2', 's3'), { maxLength: 2 }),
      ranked,
      scopeLeaks: fc.nat(3),
    });
    fc.assert(
      fc.property(fc.array(caseArb, { minLength: 1, maxLength: 10 }), fc.array(k, { minLength: 1, maxLength: 3 }), (cs, ks) => {
        const labels: CaseLabel[] = cs.map((c, i) => ({
          id: `c${i}`,
          slices: c.slices,
          ...(c.expectedTools !== undefined ? { expectedTools: c.expectedTools } : {}),
          ...(c.goldMode !== undefined ? { goldMode: c.goldMode } : {}),
        }));
        const results: CaseResult[] = cs.map((c, i) => ({ caseId: `c${i}`, ranked: c.ranked, scopeLeaks: c.scopeLeaks }));
        const ev = evaluate(labels, results, facts, ks);
        const tables = [ev.overall, ...Object.values(ev.slices), ...Object.values(ev.namespaces), ...ev.perCase.map((p) => p.scores)];
        for (const t of tables) {
          for (const [key, v] of Object.entries(t)) {
            expect(Number.isFinite(v)).toBe(true);
            const kind = parseMetricId(key).kind;
            if (METRICS[kind].group === 'quality' && kind !== 'scopeLeakCount') {
              expect(v).toBeGreaterThanOrEqual(0);
              expect(v).toBeLessThanOrEqual(1 + 1e-12);
            }
          }
        }
        expect(ev.overall.cases).toBe(cs.length);
        expect(ev.overall.scopeLeakCount).toBe(cs.reduce((s, c) => s + c.scopeLeaks, 0));
        expect(ev.overall.gradedCases! + ev.overall.noToolCases!).toBeLessThanOrEqual(cs.length);
      }),
    );
  });
});
