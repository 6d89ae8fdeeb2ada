import { describe, expect, it } from 'vitest';
import { makeSkill } from '../catalog/model.ts';
import type { Case } from '../catalog/types.ts';
import { countTokens } from '../tokens/count.ts';
import { NO_SKILL_MATCH_TEXT, searchCostTokens, SkillIndex, skillRecallAtK, skillSearchResultText } from './index.ts';

const skills = [
  makeSkill({ name: 'incident-response', description: 'Run a production incident end to end.', whenToUse: 'Use when production is failing.' }),
  makeSkill({ name: 'github-pr', description: 'Open, review and merge a pull request.' }),
  makeSkill({ name: 'postgres-performance', description: 'Tune slow Postgres queries and indexes.' }),
  makeSkill({ name: 'secret-rotation', description: 'Rotate secrets.', disableModelInvocation: true }),
];
const c = (id: string, request: string, expectedSkill: string): Case => ({ id, request, expectedSkill, slices: ['skill'] });

describe('SkillIndex', () => {
  it('matches names split on "-", when_to_use and descriptions; leaves out disabled skills', async () => {
    const index = await SkillIndex.build(skills);
    expect([...index.skills.keys()]).toEqual(['incident-response', 'github-pr', 'postgres-performance']);
    expect((await index.search('incident', 5)).map((h) => h.name)).toEqual(['incident-response']);
    expect((await index.search('failing', 5)).map((h) => h.name)).toEqual(['incident-response']);
    expect((await index.search('merge', 5)).map((h) => h.name)).toEqual(['github-pr']);
    expect(await index.search('rotate secrets', 5)).toEqual([]);
    // "postgres" is in postgres-performance's name (×3) and description: tf 4 against review's tf 1
    expect((await index.search('postgres review', 5)).map((h) => h.name)).toEqual(['postgres-performance', 'github-pr']);
    expect((await index.search('postgres review', 1)).map((h) => h.name)).toEqual(['postgres-performance']);
  });

  it('recall@k over the skill cases (a gold skill not indexed is a miss)', async () => {
    const index = await SkillIndex.build(skills);
    const cases: Case[] = [
      c('1', 'production incident', 'incident-response'),
      c('2', 'merge my pull request', 'github-pr'),
      c('3', 'slow queries', 'postgres-performance'),
      c('4', 'postgres review', 'github-pr'), // second
      c('5', 'rotate the secrets', 'secret-rotation'), // disabled: never found
      { id: '6', request: 'not a skill case', slices: [], expectedTools: [] },
    ];
    expect(await skillRecallAtK(index, cases, [1, 3])).toEqual({ cases: 5, recall: { 'recall@1': 3 / 5, 'recall@3': 4 / 5 } });
    expect(await skillRecallAtK(index, [], [1])).toEqual({ cases: 0, recall: { 'recall@1': null } });
  });

  it('search cost: tokens of "- name: description" lines of the hits', async () => {
    const index = await SkillIndex.build(skills);
    const hits = await index.search('postgres review', 2);
    const text = '- postgres-performance: Tune slow Postgres queries and indexes.\n- github-pr: Open, review and merge a pull request.';
    expect(skillSearchResultText(index, hits)).toBe(text);
    expect(await searchCostTokens(index, 'postgres review', 2)).toBe(countTokens(text));
    expect(await searchCostTokens(index, 'zzz', 2)).toBe(countTokens(NO_SKILL_MATCH_TEXT));
    expect(await searchCostTokens(index, 'postgres review', 2, 'bytes/4')).toBe(Math.ceil(text.length / 4));
  });
});

describe('SkillIndex with hybrid retrieval', () => {
  it('ranks by bm25 and the offline embedding model together (default of the comparison)', async () => {
    const index = await SkillIndex.build(skills, 'hybrid');
    expect(index.describe()).toMatchObject({ method: 'zscore', weights: [0.4, 0.6] });
    // the embedding child scores every indexed skill, so the fusion ranks all three (never the disabled one)
    const hits = await index.search('review and merge my pull request', 5);
    expect(hits[0]!.name).toBe('github-pr');
    expect(hits.map((h) => h.name).sort()).toEqual(['github-pr', 'incident-response', 'postgres-performance']);
  });
});
