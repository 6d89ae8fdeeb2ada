import { describe, expect, it } from 'vitest';
import { evaluate, normalizeKs, tableKeys } from './aggregate.ts';
import type { CaseLabel, CaseResult, CatalogFacts } from './types.ts';

// 1/log2(3) = 0.6309297535714575; nDCG of "second of two gold at rank 2 only" = 0.6309…/1.6309… = 0.38685280723454163

const NS: Record<string, string> = {
  crm__find: 'crm',
  crm__update: 'crm',
  crm__merge: 'crm',
  billing__refund: 'billing',
  billing__invoice: 'billing',
  docs__search: 'docs',
  docs__write: 'docs',
  docs__archive: 'docs',
  finish: 'core',
};
const facts: CatalogFacts = {
  toolIds: Object.keys(NS),
  pinned: new Set(['finish']),
  namespaceOf: (id) => NS[id],
};

const labels: CaseLabel[] = [
  { id: 'g1', expectedTools: ['crm__find'], slices: ['crm'] },
  { id: 'g2', expectedTools: ['billing__refund', 'docs__write'], slices: ['multi'] },
  { id: 'g3', expectedTools: ['docs__search', 'docs__write'], goldMode: 'any', slices: ['ambiguous'] },
  { id: 'n1', expectedTools: [], slices: ['no-tool'] },
  { id: 'n2', expectedTools: [], slices: ['no-tool', 'no-tool'] },
  { id: 's1', slices: ['skill'] },
  { id: 'g4', expectedTools: ['ghost__tool'], slices: ['crm'] },
  { id: 'g5', expectedTools: ['crm__merge'], slices: [] },
];
const results: CaseResult[] = [
  { caseId: 'g1', ranked: ['crm__find', 'docs__search', 'billing__refund'], scopeLeaks: 0 },
  { caseId: 'g2', ranked: ['billing__invoice', 'billing__refund', 'crm__find'], scopeLeaks: 0 },
  { caseId: 'g3', ranked: ['crm__update', 'docs__write'], scopeLeaks: 0 },
  { caseId: 'n1', ranked: ['finish'], scopeLeaks: 0 }, // only a pinned tool: not a false positive
  { caseId: 'n2', ranked: ['crm__update', 'finish'], scopeLeaks: 1 },
  { caseId: 's1', ranked: ['docs__search'], scopeLeaks: 2 },
  { caseId: 'g4', ranked: [], scopeLeaks: 0 },
  { caseId: 'g5', ranked: ['crm__update'], scopeLeaks: 0 },
];

describe('evaluate', () => {
  const ev = evaluate(labels, results, facts, [3, 1, 3]);

  it('scores each case with the metrics that apply to it (per case, in label order)', () => {
    expect(ev.perCase.map((c) => c.caseId)).toEqual(['g1', 'g2', 'g3', 'n1', 'n2', 's1', 'g4', 'g5']);
    const byId = Object.fromEntries(ev.perCase.map((c) => [c.caseId, c.scores]));
    expect(byId.g1).toEqual({
      top1: 1,
      'recall@1': 1,
      'recall@3': 1,
      'mrr@10': 1,
      'ndcg@10': 1,
      'missedEntirely@1': 0,
      'missedEntirely@3': 0,
      scopeLeakCount: 0,
      'namespaceRecall@1': 1,
      'namespaceRecall@3': 1,
    });
    // g2: gold {refund, docs__write}, all; refund at rank 2, docs__write absent
    expect(byId.g2).toEqual({
      top1: 0,
      'recall@1': 0,
      'recall@3': 0.5, // 1/2
      'allGold@1': 0,
      'allGold@3': 0,
      'anyGold@1': 0,
      'anyGold@3': 1,
      'mrr@10': 0.5, // 1/2
      'ndcg@10': 0.38685280723454163, // (1/log2(3)) / (1 + 1/log2(3))
      'missedEntirely@1': 1,
      'missedEntirely@3': 0,
      scopeLeakCount: 0,
      'namespaceRecall@1': 0.5, // {billing} of {billing, docs}
      'namespaceRecall@3': 0.5, // {billing, crm} ∩ {billing, docs} = {billing}
    });
    // g3: any of {docs__search, docs__write}; docs__write at rank 2; not multi-gold (mode any)
    expect(byId.g3).toEqual({
      top1: 0,
      'recall@1': 0,
      'recall@3': 1,
      'mrr@10': 0.5,
      'ndcg@10': 0.6309297535714575, // 1/log2(3), ideal 1
      'missedEntirely@1': 1,
      'missedEntirely@3': 0,
      scopeLeakCount: 0,
      'namespaceRecall@1': 0,
      'namespaceRecall@3': 1,
    });
    expect(byId.n1).toEqual({ noToolFalsePositiveRate: 0, scopeLeakCount: 0 });
    expect(byId.n2).toEqual({ noToolFalsePositiveRate: 1, scopeLeakCount: 1 });
    expect(byId.s1).toEqual({ scopeLeakCount: 2 }); // skill-only: no tool metric
    // g4 and g5 miss the gold tool: every ranking figure 0, missed 1; they differ in the namespace
    const missed = { top1: 0, 'recall@1': 0, 'recall@3': 0, 'mrr@10': 0, 'ndcg@10': 0, 'missedEntirely@1': 1, 'missedEntirely@3': 1, scopeLeakCount: 0 };
    // g4: gold not in the catalog, empty list
    expect(byId.g4).toEqual({ ...missed, 'namespaceRecall@1': 0, 'namespaceRecall@3': 0 });
    // g5: wrong tool, right namespace
    expect(byId.g5).toEqual({ ...missed, 'namespaceRecall@1': 1, 'namespaceRecall@3': 1 });
  });

  it('averages over the right cases (overall)', () => {
    // graded g1 g2 g3 g4 g5 (5), no-tool n1 n2 (2), multi-gold g2 (1), skill-only s1
    expect(ev.overall).toEqual({
      top1: 0.2, // (1+0+0+0+0)/5
      'recall@1': 0.2, // (1+0+0+0+0)/5
      'recall@3': 0.5, // (1+0.5+1+0+0)/5
      'allGold@1': 0, // g2 only
      'allGold@3': 0,
      'anyGold@1': 0,
      'anyGold@3': 1,
      'mrr@10': 0.4, // (1+0.5+0.5+0+0)/5
      'ndcg@10': 0.40355651216119987, // (1 + 0.38685… + 0.63092… + 0 + 0)/5 = 2.01778…/5
      'missedEntirely@1': 0.8, // (0+1+1+1+1)/5
      'missedEntirely@3': 0.4, // (0+0+0+1+1)/5
      noToolFalsePositiveRate: 0.5, // (0+1)/2: n1 showed only the pinned finish
      scopeLeakCount: 3, // 1 (n2) + 2 (s1): summed over all cases, skill-only included
      'namespaceRecall@1': 0.5, // (1+0.5+0+0+1)/5
      'namespaceRecall@3': 0.7, // (1+0.5+1+0+1)/5
      cases: 8,
      gradedCases: 5,
      noToolCases: 2,
      multiGoldCases: 1,
    });
  });

  it('keys follow METRICS order then ascending k; ks sorted and deduplicated; mrr and ndcg at 10', () => {
    expect(Object.keys(ev.overall)).toEqual([
      'top1',
      'recall@1',
      'recall@3',
      'allGold@1',
      'allGold@3',
      'anyGold@1',
      'anyGold@3',
      'mrr@10',
      'ndcg@10',
      'missedEntirely@1',
      'missedEntirely@3',
      'noToolFalsePositiveRate',
      'scopeLeakCount',
      'namespaceRecall@1',
      'namespaceRecall@3',
      'cases',
      'gradedCases',
      'noToolCases',
      'multiGoldCases',
    ]);
    expect(normalizeKs([10, 5, 1, 5])).toEqual([1, 5, 10]);
    expect(tableKeys([20])).toContain('mrr@10');
    expect(tableKeys([20])).not.toContain('mrr@20');
  });

  it('breaks down by slice (sorted), omitting metrics with no applicable case', () => {
    expect(Object.keys(ev.slices)).toEqual(['ambiguous', 'crm', 'multi', 'no-tool', 'skill']);
    // crm: g1 and g4
    expect(ev.slices.crm).toEqual({
      top1: 0.5,
      'recall@1': 0.5,
      'recall@3': 0.5,
      'mrr@10': 0.5,
      'ndcg@10': 0.5, // (1+0)/2
      'missedEntirely@1': 0.5,
      'missedEntirely@3': 0.5,
      scopeLeakCount: 0,
      'namespaceRecall@1': 0.5,
      'namespaceRecall@3': 0.5,
      cases: 2,
      gradedCases: 2,
      noToolCases: 0,
      multiGoldCases: 0,
    });
    // no-tool: n1, n2 (n2 lists the tag twice: counted once)
    expect(ev.slices['no-tool']).toEqual({
      noToolFalsePositiveRate: 0.5,
      scopeLeakCount: 1,
      cases: 2,
      gradedCases: 0,
      noToolCases: 2,
      multiGoldCases: 0,
    });
    // skill-only: counts only (and the leak sum)
    expect(ev.slices.skill).toEqual({ scopeLeakCount: 2, cases: 1, gradedCases: 0, noToolCases: 0, multiGoldCases: 0 });
    expect(ev.slices.multi!['allGold@3']).toBe(0);
    expect(ev.slices.multi!.multiGoldCases).toBe(1);
  });

  it('breaks down by gold namespace over graded cases (sorted; unknown gold in none)', () => {
    expect(Object.keys(ev.namespaces)).toEqual(['billing', 'crm', 'docs']);
    // crm: g1 and g5 (g4's ghost tool has no namespace)
    expect(ev.namespaces.crm).toEqual({
      top1: 0.5,
      'recall@1': 0.5,
      'recall@3': 0.5,
      'mrr@10': 0.5,
      'ndcg@10': 0.5,
      'missedEntirely@1': 0.5,
      'missedEntirely@3': 0.5,
      scopeLeakCount: 0,
      'namespaceRecall@1': 1,
      'namespaceRecall@3': 1,
      cases: 2,
      gradedCases: 2,
      noToolCases: 0,
      multiGoldCases: 0,
    });
    // docs: g2 (via docs__write) and g3
    expect(ev.namespaces.docs).toEqual({
      top1: 0,
      'recall@1': 0,
      'recall@3': 0.75, // (0.5+1)/2
      'allGold@1': 0,
      'allGold@3': 0,
      'anyGold@1': 0,
      'anyGold@3': 1, // g2 only
      'mrr@10': 0.5, // (0.5+0.5)/2
      'ndcg@10': 0.5088912804029996, // (0.38685… + 0.63092…)/2 = 1.01778…/2
      'missedEntirely@1': 1,
      'missedEntirely@3': 0,
      scopeLeakCount: 0,
      'namespaceRecall@1': 0.25, // (0.5+0)/2
      'namespaceRecall@3': 0.75, // (0.5+1)/2
      cases: 2,
      gradedCases: 2,
      noToolCases: 0,
      multiGoldCases: 1,
    });
    expect(ev.namespaces.billing!.cases).toBe(1);
  });

  it('lists never-surfaced tools at the deepest k, with the gold ones', () => {
    // surfaced in some top 3: crm__find, crm__update, billing__*, docs__search, docs__write, finish (pinned anyway)
    // never: crm__merge (gold for g5), docs__archive; ghost__tool is not a catalog tool
    expect(ev.neverSurfaced).toEqual({ k: 3, count: 2, gold: ['crm__merge'] });
  });

  it('does not depend on the order of the results', () => {
    const again = evaluate(labels, [...results].reverse(), facts, [1, 3]);
    expect(JSON.stringify(again)).toBe(JSON.stringify(ev));
  });

  it('keeps an empty no-tool metric out rather than writing null', () => {
    const only = evaluate([labels[0]!], [results[0]!], facts, [1]);
    expect(only.overall).not.toHaveProperty('noToolFalsePositiveRate');
    expect(only.overall).not.toHaveProperty('allGold@1');
    expect(Object.values(only.overall).every((v) => typeof v === 'number' && Number.isFinite(v))).toBe(true);
    expect(only.slices).toEqual({ crm: only.overall });
  });

  it('profiles: a no-tool case with an eager non-pinned tool is a false positive whatever the search returned; the search-only figure apart', () => {
    const profileResults: CaseResult[] = results.map((r) => ({ ...r, eager: [], eagerUnpinned: r.caseId === 'n1' }));
    const p = evaluate(labels, profileResults, facts, [1]);
    const byId = Object.fromEntries(p.perCase.map((c) => [c.caseId, c.scores]));
    // n1: only the pinned finish was searched (search FP 0) but a non-pinned tool is eager → 1
    expect(byId.n1).toMatchObject({ noToolFalsePositiveRate: 1, searchNoToolFalsePositiveRate: 0 });
    // n2: nothing eager, the search returned crm__update → 1 and 1
    expect(byId.n2).toMatchObject({ noToolFalsePositiveRate: 1, searchNoToolFalsePositiveRate: 1 });
    expect(p.overall.noToolFalsePositiveRate).toBe(1); // (1 + 1) / 2
    expect(p.overall.searchNoToolFalsePositiveRate).toBe(0.5); // (0 + 1) / 2
    // a retriever (no eagerUnpinned) has no search-only figure
    expect(ev.overall).not.toHaveProperty('searchNoToolFalsePositiveRate');
  });

  it('profiles: a case whose prompt does not fit the context window shows nothing (visible 0) and ranks nothing (recall 0)', () => {
    const fit = evaluate(
      labels,
      results.map((r) => ({ ...r, eager: r.caseId === 'g1' ? ['crm__find'] : [] })),
      facts,
      [1],
    );
    const overflow = evaluate(
      labels,
      results.map((r) => ({ ...r, eager: r.caseId === 'g1' ? ['crm__find'] : [], fits: r.caseId !== 'g1' })),
      facts,
      [1],
    );
    const v = (e: typeof ev, id: string) => e.perCase.find((c) => c.caseId === id)!.scores.visible;
    expect(v(fit, 'g1')).toBe(1);
    expect(v(overflow, 'g1')).toBe(0);
    expect(v(overflow, 'g3')).toBe(v(fit, 'g3')); // g3 fits: unchanged (1, docs__write is searched)
    // nor is it a hit for the ranking metrics: g1 ranked its gold first, but the prompt cannot be sent
    const g1 = (e: typeof ev) => e.perCase.find((c) => c.caseId === 'g1')!.scores;
    expect(g1(fit)).toMatchObject({ top1: 1, 'recall@1': 1, 'mrr@10': 1, 'missedEntirely@1': 0 });
    expect(g1(overflow)).toMatchObject({ top1: 0, 'recall@1': 0, 'mrr@10': 0, 'ndcg@10': 0, 'missedEntirely@1': 1, 'namespaceRecall@1': 0 });
    // overall recall@1 over the graded cases g1 g2 g3 g4 g5 (1, 0, 0, 0, 0 when g1 fits): 0.2 → 0
    expect(fit.overall['recall@1']).toBeCloseTo(0.2, 12);
    expect(overflow.overall['recall@1']).toBe(0);
  });

  it('profiles: visibleByExpansion is the part of visible only a namespace expansion brought, case by case; ranked recall never counts it', () => {
    const expanded: Record<string, string[]> = { g1: ['crm__find'], g2: ['docs__write'], g3: ['docs__search'], g5: ['crm__merge'] };
    const withExpansion = results.map((r) => ({ ...r, eager: [], ...(expanded[r.caseId] ? { expanded: expanded[r.caseId]! } : {}) }));
    const p = evaluate(labels, withExpansion, facts, [1, 3]);
    const s = (id: string) => p.perCase.find((c) => c.caseId === id)!.scores;
    // g1: ranked first already (its expansion adds nothing); g2 (all): billing__refund ranked, docs__write expanded: 1 = 0.5 + 0.5;
    // g3 (any): docs__write ranked is enough; g4: nothing; g5: only the expansion shows crm__merge
    expect(['g1', 'g2', 'g3', 'g4', 'g5'].map((id) => [s(id).visible, s(id).visibleByExpansion])).toEqual([
      [1, 0],
      [1, 0.5],
      [1, 0],
      [0, 0],
      [1, 1],
    ]);
    expect(p.overall.visible).toBeCloseTo(0.8, 12); // (1 + 1 + 1 + 0 + 1) / 5
    expect(p.overall.visibleByExpansion).toBeCloseTo(0.3, 12); // (0 + 0.5 + 0 + 0 + 1) / 5
    // recall is the ranking's alone: g5 ranked nothing
    expect(s('g5')['recall@3']).toBe(0);
    // an expansion in a prompt that does not fit shows nothing either
    const overflow = evaluate(
      labels,
      withExpansion.map((r) => (r.caseId === 'g5' ? { ...r, fits: false } : r)),
      facts,
      [1],
    );
    expect(overflow.perCase.find((c) => c.caseId === 'g5')!.scores).toMatchObject({ visible: 0, visibleByExpansion: 0 });
    // no-tool cases and retrievers have no such figure
    expect(s('n1')).not.toHaveProperty('visibleByExpansion');
    expect(ev.overall).not.toHaveProperty('visibleByExpansion');
  });

  it('rejects unmatched, duplicate or invalid input', () => {
    expect(() => evaluate(labels, results.slice(1), facts, [1])).toThrow(/labelled cases with no result: g1/);
    expect(() => evaluate(labels.slice(1), results, facts, [1])).toThrow(/results for cases that have no label: g1/);
    expect(() => evaluate(labels, [...results, results[0]!], facts, [1])).toThrow(/duplicate result for case g1/);
    expect(() => evaluate([...labels, labels[0]!], results, facts, [1])).toThrow(/duplicate case id in labels: g1/);
    expect(() => evaluate(labels, results, facts, [])).toThrow(/at least one cut-off/);
    expect(() => evaluate(labels, results, facts, [0])).toThrow(/integer ≥ 1/);
    const leaky = results.map((r) => (r.caseId === 'n1' ? { ...r, scopeLeaks: -1 } : r));
    expect(() => evaluate(labels, leaky, facts, [1])).toThrow(/case n1: scopeLeaks/);
  });
});
