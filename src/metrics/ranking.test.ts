import { describe, expect, it } from 'vitest';
import { allGoldAtK, anyGoldAtK, goldHitRanks, missedEntirely, namespaceRecallAtK, ndcgAtK, recallAtK, reciprocalRank, top1 } from './ranking.ts';

// 1/log2(3) = 0.6309297535714575, 1/log2(4) = 0.5, 1/log2(5) = 0.43067655807339306

describe('gold {b, d}, ranked [a, b, c, d]', () => {
  const ranked = ['a', 'b', 'c', 'd'];
  const gold = ['b', 'd'];

  it('top1', () => {
    expect(top1(ranked, gold)).toBe(0); // a is not gold
    expect(top1(['d', 'a'], gold)).toBe(1);
  });

  it('recall@k, all vs any', () => {
    expect(recallAtK(ranked, gold, 1)).toBe(0); // {a} ∩ {b,d} = ∅
    expect(recallAtK(ranked, gold, 2)).toBe(0.5); // {b} → 1/2
    expect(recallAtK(ranked, gold, 3, 'all')).toBe(0.5); // {b} → 1/2
    expect(recallAtK(ranked, gold, 4)).toBe(1); // {b,d} → 2/2
    expect(recallAtK(ranked, gold, 1, 'any')).toBe(0);
    expect(recallAtK(ranked, gold, 2, 'any')).toBe(1); // b found, d not needed
  });

  it('allGold / anyGold / missedEntirely', () => {
    expect(allGoldAtK(ranked, gold, 2)).toBe(0); // d at rank 4
    expect(allGoldAtK(ranked, gold, 4)).toBe(1);
    expect(anyGoldAtK(ranked, gold, 1)).toBe(0);
    expect(anyGoldAtK(ranked, gold, 2)).toBe(1);
    expect(missedEntirely(ranked, gold, 1)).toBe(1);
    expect(missedEntirely(ranked, gold, 2)).toBe(0);
  });

  it('reciprocal rank', () => {
    expect(reciprocalRank(ranked, gold, 10)).toBe(0.5); // first gold b at rank 2 → 1/2
    expect(reciprocalRank(ranked, gold, 1)).toBe(0); // not within cut-off 1
  });

  it('nDCG, all', () => {
    // nDCG@3: DCG = 1/log2(3) = 0.6309…, IDCG = 1 + 1/log2(3) = 1.6309…, nDCG = 0.3868…
    expect(ndcgAtK(ranked, gold, 3)).toBe(0.38685280723454163);
    // nDCG@4: DCG = 1/log2(3) + 1/log2(5) = 1.0616…, IDCG = 1.6309…, nDCG = 0.6509…
    expect(ndcgAtK(ranked, gold, 4, 'all')).toBe(0.6509209298071326);
    // nDCG@1: DCG = 0 (a), IDCG = 1 (min(2,1) = 1 relevant) → 0
    expect(ndcgAtK(ranked, gold, 1)).toBe(0);
  });

  it('nDCG, any: only the first gold hit gains, ideal = 1', () => {
    // b at rank 2 → 1/log2(3) = 0.6309…; d at rank 4 gains nothing
    expect(ndcgAtK(ranked, gold, 4, 'any')).toBe(0.6309297535714575);
    expect(ndcgAtK(['d', 'b'], gold, 10, 'any')).toBe(1); // 1/log2(2) / 1
  });
});

describe('edge cases', () => {
  it('duplicate ids in ranked count once, at their first position', () => {
    const ranked = ['a', 'a', 'b'];
    const gold = ['a', 'b'];
    expect(goldHitRanks(ranked, gold, 3)).toEqual([1, 3]);
    expect(top1(ranked, gold)).toBe(1);
    expect(recallAtK(ranked, gold, 2)).toBe(0.5); // second a takes slot 2 but gains nothing: 1/2
    expect(recallAtK(ranked, gold, 3)).toBe(1); // 2/2
    // nDCG@3: DCG = 1 + 1/log2(4) = 1.5, IDCG = 1 + 1/log2(3) = 1.6309…, nDCG = 0.9197…
    expect(ndcgAtK(ranked, gold, 3)).toBe(0.9197207891481876);
    // a gold tool repeated: DCG would be 1 + 1/log2(3) > IDCG = 1 if counted twice
    expect(ndcgAtK(['b', 'b', 'c'], ['b'], 3)).toBe(1);
    expect(recallAtK(['b', 'b'], ['b'], 2)).toBe(1);
    expect(reciprocalRank(['c', 'c', 'b'], ['b'], 10)).toBeCloseTo(1 / 3, 15); // b at rank 3
  });

  it('repeated gold ids count once', () => {
    expect(recallAtK(['b'], ['b', 'b'], 1)).toBe(1); // |{b}| = 1
    expect(ndcgAtK(['b'], ['b', 'b'], 5)).toBe(1); // IDCG from min(|{b}|, 5) = 1
    expect(allGoldAtK(['b'], ['b', 'b'], 1)).toBe(1);
  });

  it('ties are broken upstream: only the order given matters, and non-gold swaps change nothing', () => {
    const gold = ['c'];
    for (const ranked of [
      ['a', 'b', 'c'],
      ['b', 'a', 'c'],
    ]) {
      expect(reciprocalRank(ranked, gold, 10)).toBeCloseTo(1 / 3, 15);
      expect(ndcgAtK(ranked, gold, 10)).toBe(0.5); // 1/log2(4) / 1
    }
  });

  it('empty ranked list scores 0 (missedEntirely 1)', () => {
    const gold = ['a', 'b'];
    expect(top1([], gold)).toBe(0);
    expect(recallAtK([], gold, 5)).toBe(0);
    expect(recallAtK([], gold, 5, 'any')).toBe(0);
    expect(reciprocalRank([], gold, 10)).toBe(0);
    expect(ndcgAtK([], gold, 10)).toBe(0);
    expect(ndcgAtK([], gold, 10, 'any')).toBe(0);
    expect(missedEntirely([], gold, 5)).toBe(1);
    expect(namespaceRecallAtK([], gold, 5, () => 'crm')).toBe(0);
  });

  it('a list shorter than k is used whole; the ideal still counts min(|gold|, k) tools', () => {
    // gold {a, b}, ranked [a], nDCG@10: DCG = 1, IDCG = 1 + 1/log2(3) = 1.6309…, nDCG = 0.6131…
    expect(ndcgAtK(['a'], ['a', 'b'], 10)).toBe(0.6131471927654584);
    // gold {a, b, c}, k = 2, ranked [a, b]: IDCG has min(3, 2) = 2 tools → nDCG = 1, recall = 2/3
    expect(ndcgAtK(['a', 'b'], ['a', 'b', 'c'], 2)).toBe(1);
    expect(recallAtK(['a', 'b'], ['a', 'b', 'c'], 2)).toBeCloseTo(2 / 3, 15);
  });

  it('gold not in the catalog never matches unless returned verbatim', () => {
    expect(recallAtK(['a', 'b'], ['ghost'], 2)).toBe(0);
    expect(namespaceRecallAtK(['a', 'b'], ['ghost'], 2, (id) => (id === 'ghost' ? undefined : 'crm'))).toBe(0);
    expect(namespaceRecallAtK(['ghost'], ['ghost'], 1, () => undefined)).toBe(1);
  });

  it('throws on empty gold and bad cut-offs', () => {
    expect(() => recallAtK(['a'], [], 1)).toThrow(/at least one gold tool/);
    expect(() => top1(['a'], [])).toThrow(/at least one gold tool/);
    expect(() => recallAtK(['a'], ['a'], 0)).toThrow(/k must be an integer ≥ 1/);
    expect(() => reciprocalRank(['a'], ['a'], 1.5)).toThrow(/cutoff must be an integer ≥ 1/);
    expect(() => namespaceRecallAtK(['a'], ['a'], 0, () => 'x')).toThrow(/k must be/);
  });
});

describe('namespaceRecallAtK', () => {
  const ns: Record<string, string> = { a: 'crm', b: 'crm', c: 'billing', d: 'docs' };
  const namespaceOf = (id: string): string | undefined => ns[id];
  // gold {a, c} → namespaces {crm, billing}; ranked [b, d, c] → crm, docs, billing
  const ranked = ['b', 'd', 'c'];
  const gold = ['a', 'c'];

  it('counts distinct gold namespaces surfaced, not tools', () => {
    expect(namespaceRecallAtK(ranked, gold, 1, namespaceOf)).toBe(0.5); // {crm} ∩ {crm,billing} → 1/2
    expect(namespaceRecallAtK(ranked, gold, 2, namespaceOf)).toBe(0.5); // {crm,docs} → 1/2
    expect(namespaceRecallAtK(ranked, gold, 3, namespaceOf)).toBe(1); // {crm,docs,billing} → 2/2
    expect(recallAtK(ranked, gold, 3)).toBe(0.5); // while tool recall is only 1/2 (a missing)
    expect(namespaceRecallAtK(['b', 'b'], ['a', 'b'], 2, namespaceOf)).toBe(1); // one namespace {crm}
  });

  it("mode 'any': 1 if any gold namespace surfaced", () => {
    expect(namespaceRecallAtK(ranked, gold, 1, namespaceOf, 'any')).toBe(1);
    expect(namespaceRecallAtK(['d'], gold, 1, namespaceOf, 'any')).toBe(0);
  });
});

describe('visible (profiles)', () => {
  it('counts gold tools returned by the search or sent eagerly', async () => {
    const { visible } = await import('./ranking.ts');
    // gold {a, b, c}: a returned, c eager, b nowhere → 2/3.
    expect(visible(['a', 'x'], ['c'], ['a', 'b', 'c'])).toBeCloseTo(2 / 3, 12);
    // goldMode any: one visible is enough.
    expect(visible([], ['c'], ['a', 'b', 'c'], 'any')).toBe(1);
    expect(visible(['x'], [], ['a', 'b'], 'any')).toBe(0);
    // a gold tool both returned and eager counts once; repeated gold ids count once.
    expect(visible(['a'], ['a'], ['a', 'a', 'b'])).toBe(0.5);
    // nothing searched and nothing eager.
    expect(visible([], [], ['a'])).toBe(0);
  });
});
