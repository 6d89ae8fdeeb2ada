import { describe, expect, it } from 'vitest';
import { makeTool } from '../catalog/model.ts';
import type { Case, Catalog } from '../catalog/types.ts';
import { generate, resolveParams } from '../generate/index.ts';
import { countTokens } from '../tokens/count.ts';
import { serializeTool, serializeTools } from '../tokens/serialize.ts';
import type { QueryDetail } from './results.ts';
import { sessionTokens } from './profile-figures.ts';
import { ownChurn, strategySessions } from './sessions.ts';
import { TokenMeter } from './tokens.ts';

const cache = { writeRatio: 1.25, readRatio: 0.1 };

describe('session token figures', () => {
  it('history placement: each search result written once and read on later turns', () => {
    // B = 100, S = 10, T = 12: uncached 12·100 + 10·78; cached 100·(1.25 + 11·0.1) + 10·(12·1.25 + 0.1·66)
    const s = sessionTokens(100, 10, 'history', 1, cache);
    expect(s.uncached).toBe(1980);
    expect(s.cached).toBeCloseTo(235 + 216, 9);
    expect(s.invalidation).toBeCloseTo(115, 9);
  });
  it('prefix placement: a changed set rewrites the prefix', () => {
    // P = 110; cached = 110·(1.25 + 11·(0.5·1.25 + 0.5·0.1))
    const s = sessionTokens(100, 10, 'prefix', 0.5, cache);
    expect(s.uncached).toBe(1320);
    expect(s.cached).toBeCloseTo(954.25, 9);
    expect(s.invalidation).toBeCloseTo(126.5, 9);
    // a set that never changes costs one write and eleven reads
    expect(sessionTokens(100, 10, 'prefix', 0, cache).cached).toBeCloseTo(110 * (1.25 + 1.1), 9);
    // no search, no change: static
    expect(sessionTokens(100, 0, 'history', 1, cache)).toEqual(sessionTokens(100, 0, 'prefix', 0, cache));
  });
  it('the prefix change rate counts turns whose loaded set differs from the previous turn', () => {
    const c = (id: string, sessionId: string | undefined, turn: number): Case => ({
      id,
      request: id,
      expectedTools: ['x'],
      slices: [],
      ...(sessionId ? { sessionId, turn } : {}),
    });
    const d = (id: string, ranked: string[]): QueryDetail => ({
      caseId: id,
      ranked: ranked.map((t) => [t, 1]),
      pinned: [],
      leaks: [],
      ms: 0,
      turn: { beforeTokens: 0, searchTokens: 0 },
    });
    // session s: turns 0,1,2 with sets {a,b}, {b,a} (same), {c}; session u: {a}, {b}; a lone case outside sessions
    const cases = [c('1', 's', 0), c('2', 's', 2), c('3', 's', 1), c('4', 'u', 0), c('5', 'u', 1), c('6', undefined, 0)];
    const details = [d('1', ['a', 'b']), d('2', ['c']), d('3', ['b', 'a']), d('4', ['a']), d('5', ['b']), d('6', ['z'])];
    const rate = (cs: Case[], ds: QueryDetail[]) => ownChurn(strategySessions(cs, ds, { sticky: false, placement: 'prefix', cache }), false);
    expect(rate(cases, details)).toBeCloseTo(2 / 3, 12);
    expect(rate(cases.slice(5), details.slice(5))).toBeNull();
  });
});

describe('the token meter', () => {
  const tools = [
    makeTool({ source: 'mcp', server: 'github', name: 'create_issue', summary: 'Open an issue.', description: 'Open an issue in a repository.' }),
    makeTool({ source: 'mcp', server: 'github', name: 'list_issues', summary: 'List issues.', description: 'List the issues of a repository.' }),
  ];
  const catalog: Catalog = { tools, skills: [], servers: [], plugins: [] };
  const def = (i: number) => ({ name: tools[i]!.id, description: tools[i]!.description, inputSchema: tools[i]!.inputSchema });

  it('counts eager definitions, meta tools and the advertisement on the provider serialization', () => {
    const m = new TokenMeter(catalog, 'openai', 'o200k');
    const meta = { name: 'tool_search', description: 'Search tools.', inputSchema: { type: 'object', properties: {} } };
    const b = m.before({ eager: [tools[0]!.id, tools[1]!.id], metaTools: [meta], advertisement: 'Deferred tool namespaces:\n- github' });
    expect(b.eager).toBe(countTokens(serializeTool(def(0), 'openai')) + countTokens(serializeTool(def(1), 'openai')));
    expect(b.metaTools).toBe(countTokens(serializeTools([meta], 'openai')));
    expect(b.advertisement).toBe(countTokens('Deferred tool namespaces:\n- github'));
    expect(b.total).toBe(b.eager + b.metaTools + b.advertisement);
    // a catalog tool as it stands is counted from the per-tool cache (as an eager block); a changed one is serialized with the others
    expect(m.search({ form: 'metadata', loaded: [], text: 'abc def', definitions: [def(0)] })).toBe(
      countTokens('abc def') + countTokens(serializeTool(def(0), 'openai')),
    );
    const cut = { ...def(1), description: 'List the issues.' };
    expect(m.search({ form: 'metadata', loaded: [], text: 'abc def', definitions: [def(0), cut, meta] })).toBe(
      countTokens('abc def') + countTokens(serializeTool(def(0), 'openai')) + countTokens(serializeTools([cut, meta], 'openai')),
    );
    expect(() => m.toolTokens('nope')).toThrow(/no tool/);
  });

  it('a block counted as the sum of its definitions is within 1% of counting the whole array', () => {
    const gen = generate(resolveParams('tiny', 3)).dataset.catalog;
    for (const provider of ['openai', 'anthropic'] as const) {
      const m = new TokenMeter(gen, provider, 'o200k');
      const sample = gen.tools.slice(0, 200);
      const sum = sample.reduce((a, t) => a + m.toolTokens(t.id), 0);
      const exact = countTokens(
        serializeTools(
          sample.map((t) => ({ name: t.id, description: t.description, inputSchema: t.inputSchema })),
          provider,
        ),
      );
      expect(Math.abs(sum - exact) / exact).toBeLessThan(0.01);
    }
  });
});

describe('long texts', () => {
  it('are counted as the sum of their lines (each with its newline)', async () => {
    const { LINE_SUMMED_CHARS } = await import('./tokens.ts');
    const m = new TokenMeter({ tools: [], skills: [], servers: [], plugins: [] }, 'anthropic', 'o200k');
    const lines = Array.from({ length: 2000 }, (_, i) => `- mcp__server_${i % 7}__tool_${i}: Does thing ${i}.`);
    const text = lines.join('\n');
    expect(text.length).toBeGreaterThan(LINE_SUMMED_CHARS);
    const perLine = lines.reduce((a, l, i) => a + countTokens(i < lines.length - 1 ? `${l}\n` : l), 0);
    expect(m.text(text)).toBe(perLine);
    // and that sum stays within 0.1% of counting the text whole
    expect(Math.abs(perLine - countTokens(text)) / countTokens(text)).toBeLessThan(0.001);
    expect(m.text('short text')).toBe(countTokens('short text'));
  });
});
