import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inputError, tempDir } from '../../test/helpers.ts';
import { makeTool } from '../catalog/model.ts';
import type { Case, Catalog } from '../catalog/types.ts';
import { catalogFacts, type QueryDetail } from './results.ts';
import { agentMetrics, loadTraces } from './traces.ts';

const tmp = tempDir('traces');
const catalog: Catalog = {
  tools: ['a', 'b', 'c']
    .map((n) => makeTool({ name: n, source: 'core', summary: '', description: n }))
    .concat(makeTool({ name: 'finish', source: 'core', summary: '', description: 'f', pinned: true })),
  skills: [],
  servers: [],
  plugins: [],
};
const cases: Case[] = [
  { id: 'q1', request: 'r', expectedTools: ['a'], slices: [] }, // agent calls a: right
  { id: 'q2', request: 'r', expectedTools: ['b'], slices: [] }, // b exposed, agent calls c: chose wrong
  { id: 'q3', request: 'r', expectedTools: ['c'], slices: [] }, // c not exposed, agent calls a: retrieval missed
  { id: 'q4', request: 'r', expectedTools: ['a'], slices: [] }, // a exposed, agent calls nothing: chose wrong
  { id: 'n1', request: 'hi', expectedTools: [], slices: [] }, // agent calls finish: pinned, fine
  { id: 'n2', request: 'hi', expectedTools: [], slices: [] }, // agent calls b: false positive
  { id: 's1', request: 'skill?', expectedSkill: 'x', slices: [] }, // not traced for tools
];
const d = (caseId: string, ranked: string[]): QueryDetail => ({ caseId, ranked: ranked.map((id, i) => [id, 10 - i]), pinned: ['finish'], leaks: [], ms: 0 });
const details = [d('q1', ['a', 'b']), d('q2', ['c', 'b']), d('q3', ['a', 'b', 'c']), d('q4', ['a']), d('n1', []), d('n2', ['b']), d('s1', [])];

describe('agent traces', () => {
  it('splits wrong calls into retrieval misses and wrong choices (hand-computed)', () => {
    const file = join(tmp, 't.csv');
    writeFileSync(file, 'case_id,called_tool\nq1,a\nq2,c\nq3,a\nq4,\nn1,finish\nn2,b\n');
    const traces = loadTraces(file, cases, catalog);
    // exposure at k = 2: q3's gold c is ranked third, so it was not exposed
    const m = agentMetrics(cases, details, catalogFacts(catalog), traces, 2);
    expect(m).toEqual({
      k: 2,
      tracedGradedCases: 4,
      tracedNoToolCases: 2,
      wrongToolRate: 3 / 4, // q2, q3, q4
      retrievalMissedRate: 1 / 4, // q3
      chosenWrongRate: 2 / 4, // q2, q4
      noToolFalsePositiveRate: 1 / 2, // n2 (finish is pinned)
    });
    // at k = 3 the same trace on q3 becomes a wrong choice
    expect(agentMetrics(cases, details, catalogFacts(catalog), traces, 3).retrievalMissedRate).toBe(0);
  });

  it('rejects unknown cases and tools and repeated cases, naming the row', () => {
    const bad = (text: string) => {
      const file = join(tmp, `bad-${text.length}.csv`);
      writeFileSync(file, text);
      return inputError(() => loadTraces(file, cases, catalog));
    };
    expect(bad('case_id,called_tool\nq1,a\nq9,b\n')).toMatchObject({ where: 'row 3', message: expect.stringMatching(/unknown case id "q9"/) });
    expect(bad('case_id,called_tool\nq1,zz\n').message).toMatch(/unknown tool id "zz"/);
    expect(bad('case_id,called_tool\nq1,a\nq1,b\n').message).toMatch(/two traces/);
    expect(bad('id,tool\nq1,a\n').message).toMatch(/case_id,called_tool/);
  });
});
