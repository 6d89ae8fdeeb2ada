import { describe, expect, it } from 'vitest';
import type { Case, Catalog, Tool } from '../catalog/types.ts';
import { makeTool } from '../catalog/model.ts';
import { loadDataset } from '../catalog/resolve.ts';
import { REALISM_REFERENCE, measureMetaToolSurface } from './realism-reference.ts';
import { hasInventedId, isQuestion, requestWords, sessionSurface, surfaceFigures } from './request-surface.ts';

const tool = (id: string, server: string, description: string): Tool =>
  makeTool({ id, name: id.split('__').pop()!, source: 'mcp', server, summary: description, description });
const catalog: Catalog = {
  tools: [
    tool('mcp__jira__create_issue', 'jira', 'Create an issue'),
    tool('mcp__slack__post_message', 'slack', 'Post a message'),
    tool('mcp__jira__assign_issue', 'jira', 'Assign an issue'),
  ],
  skills: [],
  servers: [],
  plugins: [],
};
const c = (id: string, request: string, expectedTools: string[], extra: Partial<Case> = {}): Case => ({ id, request, expectedTools, slices: ['x'], ...extra });

describe('the one surface rule', () => {
  it('counts words, questions and invented ids as documented', () => {
    expect(requestWords('hey — can you, please, open OPS-12?')).toEqual(['hey', 'can', 'you,', 'please,', 'open', 'OPS-12?']);
    expect(isQuestion('Can you open it')).toBe(true);
    expect(isQuestion('open it, thanks?')).toBe(true);
    expect(isQuestion("What's the status")).toBe(true);
    expect(isQuestion('open the ticket')).toBe(false);
    expect(hasInventedId('close OPS-118 now')).toBe(true);
    expect(hasInventedId('see #4821')).toBe(true);
    expect(hasInventedId('commit 7f3a2c broke it')).toBe(true);
    expect(hasInventedId('record id 88213')).toBe(true);
    expect(hasInventedId('post in #ops about Q3')).toBe(false);
    expect(hasInventedId('the 2024 report, deadbeef')).toBe(false); // hex without a digit
  });

  it('hand-computed figures on four requests', () => {
    const cases = [
      // 6 words, a question, names Jira as a leading label
      c('a', 'Jira: can you create an issue?', ['mcp__jira__create_issue']),
      // 8 words, a command, names nothing, an id, the "over in" tell
      c('b', 'post the summary over in the channel OPS-12', ['mcp__slack__post_message']),
      // 5 words, a command, the product in brackets at the end
      c('c', 'assign it to Dana (jira)', ['mcp__jira__assign_issue']),
      // 8 words, question by its opener, names nothing
      c('d', 'could someone tell the team we shipped it', ['mcp__slack__post_message']),
      // no gold: not measured
      c('e', 'thanks!', []),
    ];
    const f = surfaceFigures(catalog, cases);
    expect(f.requests).toBe(4);
    expect(f.medianWords).toBe(7); // 5, 6, 8, 8
    expect(f.questions).toBe(0.5);
    expect(f.productNamed).toBe(0.5);
    expect(f.inventedIds).toBe(0.25);
    expect(f.overIn).toBe(0.25);
    expect(f.trailingParen).toBe(0.25);
    expect(f.leadingLabel).toBe(0.25);
    // overlap: content words of the request that occur in name+summary+description
    // a: {jira, create, issue} → create, issue = 2/3; b: {post, summary, channel, ops, 12} → post = 1/5;
    // c: {assign, dana, jira} → assign = 1/3; d: {someone, tell, team, shipped} → 0
    expect(f.goldWordOverlap).toBeCloseTo((2 / 3 + 1 / 5 + 1 / 3 + 0) / 4, 4);
  });

  it('counts a product by its known alias, and only a gold tool’s product', () => {
    const aliases = new Map([['jira', ['JIRA Cloud', 'the tracker']]]);
    const f = surfaceFigures(
      catalog,
      [c('a', 'open one in the tracker', ['mcp__jira__create_issue']), c('b', 'tell slack people in the tracker', ['mcp__jira__assign_issue'])],
      aliases,
    );
    expect(f.productNamed).toBe(1);
    expect(surfaceFigures(catalog, [c('a', 'post it in jira', ['mcp__slack__post_message'])]).productNamed).toBe(0);
  });

  it('session figures: reuse of an earlier tool, staying on a server, the previous turn', () => {
    const s = (turn: number, tools: string[]) => c(`s${turn}`, 'x', tools, { sessionId: 's', turn });
    const f = sessionSurface(catalog, [
      s(0, ['mcp__jira__create_issue']),
      s(1, ['mcp__jira__assign_issue']), // stays on jira, new tool
      s(2, []), // no tool: not counted
      s(3, ['mcp__jira__assign_issue']), // reuses, stays; previous graded turn's tool
      s(4, ['mcp__slack__post_message']), // a new server
    ]);
    expect(f).toEqual({ sessions: 1, laterGradedTurns: 3, reuseEarlierTool: 0.3333, staysOnServer: 0.6667, previousTurnTool: 0.3333 });
  });

  it("the reference file's MetaTool figures are a fresh measurement of its test split", () => {
    expect(measureMetaToolSurface(loadDataset('metatool', { split: 'test' }))).toEqual(REALISM_REFERENCE.metatool.figures);
  });
});
