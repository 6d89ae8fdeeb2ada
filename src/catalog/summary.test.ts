import { describe, expect, it } from 'vitest';
import { makeTool } from './model.ts';
import { distribution, estimateTokens, formatSummary, providerToolJson, summarize } from './summary.ts';

describe('distribution', () => {
  it('gives nearest-rank percentiles and buckets (hand-computed)', () => {
    const d = distribution([50, 120, 300, 800, 1500, 90, 260, 110, 700, 40]);
    // sorted: 40 50 90 110 120 260 300 700 800 1500
    expect(d).toEqual({
      min: 40,
      p10: 40,
      p50: 120,
      p90: 800,
      p99: 1500,
      max: 1500,
      mean: 397,
      total: 3970,
      buckets: { '<100': 3, '100-249': 2, '250-499': 2, '500-999': 2, '>=1000': 1 },
    });
  });

  it('is all zeros for no values', () => {
    expect(distribution([]).p50).toBe(0);
  });
});

describe('summarize', () => {
  const tools = [
    makeTool({ name: 'a', source: 'mcp', server: 'crm', summary: '', description: 'x'.repeat(40) }),
    makeTool({ name: 'b', source: 'mcp', server: 'crm', summary: '', description: 'y' }),
    makeTool({ name: 'c', source: 'mcp', server: 'aws', summary: '', description: 'z' }),
    makeTool({ name: 'finish', source: 'core', summary: '', description: 'done', pinned: true }),
  ];
  const s = summarize('t', { tools, skills: [], servers: [], plugins: [] }, [
    { id: '1', request: 'hi', expectedTools: [], slices: ['no-tool'] },
    { id: '2', request: 'a', expectedTools: ['mcp__crm__a'], slices: ['lexical', 'near-duplicate'] },
  ]);

  it('counts tools by source and namespaces, largest first with ties by name', () => {
    expect(s.tools).toBe(4);
    expect(s.bySource).toEqual({ mcp: 3, core: 1 });
    expect(s.largestNamespaces).toEqual([
      { namespace: 'crm', tools: 2 },
      { namespace: 'aws', tools: 1 },
      { namespace: 'core', tools: 1 },
    ]);
    expect(s.servers).toBe(2);
    expect(s.pinnedTools).toEqual(['finish']);
    expect(s.noToolCases).toBe(1);
    expect(s.slices['no-tool']).toEqual({ count: 1, share: 0.5, meanWordOverlap: null });
  });

  it('estimates schema tokens as chars/4 of the provider JSON', () => {
    const json = providerToolJson(tools[0]!);
    expect(json).toBe(`{"name":"mcp__crm__a","description":"${'x'.repeat(40)}","input_schema":{"type":"object","properties":{}}}`);
    expect(estimateTokens(json)).toBe(Math.ceil(json.length / 4));
    expect(s.schemaTokens.max).toBe(estimateTokens(json));
  });

  it('formats a text report with the counts', () => {
    const text = formatSummary(s);
    expect(text).toMatch(/tools\s+4 \(mcp 3, core 1; pinned: finish\)/);
    expect(text).toMatch(/crm\s+2/);
  });
});
