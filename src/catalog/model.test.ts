import { describe, expect, it } from 'vitest';
import { sha256 } from '../util/hash.ts';
import { catalogHash } from './manifest.ts';
import { firstSentence, makeSkill, makeTool, toolHash, toolId } from './model.ts';

describe('tool ids', () => {
  it('follows Claude Code naming for MCP tools and keeps core names plain', () => {
    expect(toolId('mcp', 'get_rollout_history', 'kubernetes')).toBe('mcp__kubernetes__get_rollout_history');
    expect(toolId('plugin', 'summarize', 'eng-ops')).toBe('plugin__eng-ops__summarize');
    expect(toolId('core', 'read_file')).toBe('read_file');
    expect(() => toolId('mcp', 'x')).toThrow(/server/);
  });

  it('keeps same-named tools of different servers apart', () => {
    const a = makeTool({ name: 'search', source: 'mcp', server: 'github', summary: 's', description: 'd' });
    const b = makeTool({ name: 'search', source: 'mcp', server: 'slack', summary: 's', description: 'd' });
    expect(a.id).not.toBe(b.id);
    expect(a.namespace).toBe('github');
    expect(a.hash).not.toBe(b.hash);
  });
});

describe('content hashes', () => {
  it('sha256 matches a known vector', () => {
    expect(sha256('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('a tool hash changes with its definition and not with key order', () => {
    const base = {
      name: 't',
      source: 'core' as const,
      summary: 's',
      description: 'd',
      inputSchema: { type: 'object', properties: { a: { type: 'string' }, b: { type: 'integer' } } },
    };
    const t1 = makeTool(base);
    const t2 = makeTool({ ...base, inputSchema: { properties: { b: { type: 'integer' }, a: { type: 'string' } }, type: 'object' } });
    const t3 = makeTool({ ...base, description: 'changed' });
    expect(t1.hash).toBe(t2.hash);
    expect(t1.hash).not.toBe(t3.hash);
    expect(toolHash(t1)).toBe(t1.hash);
  });

  it('a catalog hash ignores tool order but not content', () => {
    const t1 = makeTool({ name: 'a', source: 'core', summary: '', description: 'x' });
    const t2 = makeTool({ name: 'b', source: 'core', summary: '', description: 'y' });
    const s = makeSkill({ name: 'k', description: 'z' });
    const h = catalogHash({ tools: [t1, t2], skills: [s], servers: [], plugins: [] });
    expect(catalogHash({ tools: [t2, t1], skills: [s], servers: [], plugins: [] })).toBe(h);
    expect(catalogHash({ tools: [t1], skills: [s], servers: [], plugins: [] })).not.toBe(h);
  });
});

describe('firstSentence', () => {
  it('takes the first sentence and shortens long ones at a word', () => {
    expect(firstSentence('Lists pods. Paginated.')).toBe('Lists pods.');
    expect(firstSentence('No full stop here')).toBe('No full stop here');
    expect(firstSentence('word '.repeat(60), 20)).toBe('word word word word…');
  });
});

describe('tool objects', () => {
  it('all have every key in one order (one object shape), and absent fields are neither written nor hashed', () => {
    const mcp = makeTool({ source: 'mcp', server: 's', name: 'a', summary: 'A.', description: 'A.' });
    const titled = makeTool({ source: 'plugin', plugin: 'p', name: 'b', title: 'B', summary: 'B.', description: 'B.', annotations: { readOnlyHint: true } });
    const core = makeTool({ source: 'core', name: 'bash', summary: 'Run.', description: 'Run.', pinned: true, idOnly: true });
    expect(Object.keys(titled)).toEqual(Object.keys(mcp));
    expect(Object.keys(core)).toEqual(Object.keys(mcp));
    expect(JSON.parse(JSON.stringify(mcp))).toEqual({
      id: 'mcp__s__a',
      name: 'a',
      source: 'mcp',
      server: 's',
      namespace: 's',
      summary: 'A.',
      description: 'A.',
      inputSchema: { type: 'object', properties: {} },
      examples: [],
      scopes: [],
      pinned: false,
      hash: mcp.hash,
    });
    expect(Object.keys(JSON.parse(JSON.stringify(titled))).join(' ')).toBe(
      'id name source plugin namespace title summary description inputSchema examples scopes pinned annotations hash',
    );
    const { hash, ...rest } = mcp;
    expect(hash).toBe(toolHash(JSON.parse(JSON.stringify(rest))));
  });
});
