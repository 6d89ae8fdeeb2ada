import { describe, expect, it } from 'vitest';
import { makeSkill } from '../catalog/model.ts';
import type { Case } from '../catalog/types.ts';
import { countTokens } from '../tokens/count.ts';
import { compareSkillStrategies } from './compare.ts';
import { SKILL_LISTINGS } from './listings.ts';

const skills = [
  makeSkill({ name: 'incident-response', description: 'Run a production incident end to end.', category: 'ops' }),
  makeSkill({ name: 'github-pr', description: 'Open, review and merge a pull request.', category: 'dev' }),
  makeSkill({ name: 'postgres-performance', description: 'Tune slow Postgres queries and indexes.', category: 'dev' }),
];
const cases: Case[] = [
  { id: '1', request: 'production incident', expectedSkill: 'incident-response', slices: ['skill'] },
  { id: '2', request: 'merge my pull request', expectedSkill: 'github-pr', slices: ['skill'] },
  { id: '3', request: 'postgres review', expectedSkill: 'github-pr', slices: ['skill'] },
  { id: '4', request: 'slow queries', expectedSkill: 'postgres-performance', slices: ['skill'] },
  { id: '5', request: 'a tool request', expectedTools: ['x'], slices: [] },
];

describe('compareSkillStrategies', () => {
  it('measures every listing on the first n skills and the cases of their gold skills', async () => {
    const r = await compareSkillStrategies(skills, cases, { contextWindow: 200_000, sizes: [2, 3], ks: [1, 5], retrieval: 'bm25' });
    expect(Object.keys(r)).toEqual(['contextWindow', 'ks', 'counter', 'retrieval', 'sizes']);
    expect(r.sizes.map((s) => [s.n, s.skills, s.skillCases])).toEqual([
      [2, 2, 3],
      [3, 3, 4],
    ]);
    const s3 = r.sizes[1]!;
    expect(Object.keys(s3.listings)).toEqual(['codex', 'claude-code', 'hermes', 'deepseek', 'searched-index']);
    const codex = s3.listings.codex;
    const text = SKILL_LISTINGS.codex(skills, { contextWindow: 200_000 }).text;
    expect(codex.tokens).toBe(countTokens(text));
    expect(codex.tokensEstimate).toBe(Math.ceil(text.length / 4));
    expect([codex.listed, codex.withDescription, codex.dropped]).toEqual([3, 3, 0]);
    expect(codex.discoverability).toEqual({ cases: 4, withDescription: 1, nameOnly: 0, dropped: 0 });
    expect(s3.listings['claude-code'].tokensEstimate).toBeNull();
    expect(s3.listings.hermes.tokensEstimate).toBe(Math.ceil(SKILL_LISTINGS.hermes(skills, { contextWindow: 200_000 }).text.length / 4));
    const searched = s3.listings['searched-index'];
    // nothing is named before a search: discoverability is what one search (k = 5) shows, recall@5
    expect(searched.discoverability).toEqual({ cases: 4, withDescription: 1, nameOnly: 0, dropped: 0 });
    expect(searched.listed).toBe(0);
    // case 3's gold ranks second
    expect(searched.recall).toEqual({ 'recall@1': 3 / 4, 'recall@5': 1 });
    expect(searched.searchK).toBe(5);
    expect(searched.meanSearchTokens).toBeGreaterThan(0);
    // without postgres-performance in the subset, case 3's gold ranks first
    expect(r.sizes[0]!.listings['searched-index'].recall).toEqual({ 'recall@1': 1, 'recall@5': 1 });
  });

  it('is deterministic and JSON-serialisable', async () => {
    const one = await compareSkillStrategies(skills, cases, { contextWindow: 1000, sizes: [3] });
    const two = await compareSkillStrategies(skills, cases, { contextWindow: 1000, sizes: [3] });
    expect(JSON.stringify(one)).toBe(JSON.stringify(two));
    expect(JSON.parse(JSON.stringify(one))).toEqual(one);
    // budget 20 tokens: Codex cannot list every skill
    expect(one.sizes[0]!.listings.codex.dropped).toBeGreaterThan(0);
  });
});

describe('loadedMeasure', () => {
  it('counts body tokens once per skill in a conversation: a repeat adds nothing', async () => {
    const { loadedMeasure } = await import('./compare.ts');
    const { makeSkill } = await import('../catalog/model.ts');
    const { countTokens: count } = await import('../tokens/count.ts');
    const a = makeSkill({ name: 'a', description: 'A.', body: 'alpha beta gamma' });
    const b = makeSkill({ name: 'b', description: 'B.', body: 'x'.repeat(9000) });
    const off = makeSkill({ name: 'off', description: 'Off.', body: 'hidden', disableModelInvocation: true });
    const cs = ['a', 'b', 'a', 'off', 'b'].map((s, i) => ({ id: `c${i}`, request: 'r', expectedSkill: s, slices: ['skill'] }));
    const m = loadedMeasure([a, b, off], cs);
    expect(m.skills).toBe(2);
    expect(m.maxBodyTokens).toBe(count(b.body));
    expect(m.meanBodyTokens).toBe((count(a.body) + count(b.body)) / 2);
    expect(m.codexTruncated).toBe(1); // 9,000 bytes > 8,000
    // 4 invocations of invocable skills, 2 of them repeats: each body loaded once
    expect(m.conversation).toMatchObject({ invocations: 4, repeats: 2, tokens: count(a.body) + count(b.body) });
    expect(m.conversation.codexTokens).toBe(count(a.body) + count('x'.repeat(8000)));
  });
});
