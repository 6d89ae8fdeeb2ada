import { describe, expect, it } from 'vitest';
import { createIssueTool, finishTool, postMessageTool } from '../../test/profile-catalog.ts';
import { makeTool } from '../catalog/model.ts';
import type { Catalog } from '../catalog/types.ts';
import { DeepSeekCodeProfile, DeepSeekPreselectProfile, renderSdk, sdkMember } from './deepseek/index.ts';
import { createProfile } from './registry.ts';

const tools = [
  finishTool,
  makeTool({
    source: 'core',
    name: 'read_file',
    summary: 'Read a file.',
    description: 'Read a file from the workspace.',
    inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  }),
  createIssueTool({ type: 'object', properties: { title: { type: 'string' } }, required: ['title'] }),
  postMessageTool,
];
const catalog: Catalog = { tools, skills: [], servers: [], plugins: [] };
const mask = (...ids: string[]) => Uint8Array.from(tools.map((t) => (ids.includes(t.id) ? 1 : 0)));
/** The SDK member names an advertisement declares (`  name(args: …`). */
const members = (sdk: string) => [...sdk.matchAll(/^ {2}([A-Za-z0-9_$]+)\(args/gm)].map((m) => m[1]);

describe('deepseek-code (code mode, no discovery)', () => {
  it('has no search, one run_code tool and nothing eager', async () => {
    const p = new DeepSeekCodeProfile('deepseek-code');
    await p.index(catalog);
    expect(p.searcher()).toBeNull();
    expect(p.searchLimit).toBe(0);
    const b = p.beforeSearch({});
    expect(b.eager).toEqual([]);
    expect(b.metaTools.map((t) => t.name)).toEqual(['run_code']);
    expect(p.afterSearch().loaded).toEqual([]);
    expect(p.calls).toEqual({ search: 0, perFoundTool: 0, call: 'script' });
    expect(p.queryStyle).toBe('raw');
    expect(p.provider).toBe('openai');
    expect(p.placement).toBe('prefix');
  });

  it("lists exactly the caller's allowed tools in the SDK, core and pinned included, in catalog order", async () => {
    const p = new DeepSeekCodeProfile('deepseek-code');
    await p.index(catalog);
    const all = p.beforeSearch({});
    expect(all.callable).toEqual(tools.map((t) => t.id));
    expect(all.advertisement).toBe(renderSdk(tools));
    expect(members(all.advertisement)).toEqual(['finish', 'read_file', 'mcp__github__create_issue', 'mcp__slack__post_message']);

    const some = p.beforeSearch({ allowed: mask('finish', 'read_file', 'mcp__slack__post_message') });
    expect(some.callable).toEqual(['finish', 'read_file', 'mcp__slack__post_message']);
    expect(members(some.advertisement)).toEqual(['finish', 'read_file', 'mcp__slack__post_message']);
    expect(some.advertisement).not.toContain('create_issue');
    expect(some.advertisement).not.toContain('Open an issue.');
    expect(some.advertisement).toContain(sdkMember(tools[1]!));

    const none = p.beforeSearch({ allowed: mask() });
    expect(none).toEqual({ eager: [], metaTools: none.metaTools, callable: [], advertisement: '' });
  });

  it('grows with the catalog: two lines per visible tool', async () => {
    const p = new DeepSeekCodeProfile('deepseek-code');
    await p.index(catalog);
    const lines = (a: string) => a.split('\n').length;
    expect(lines(p.beforeSearch({}).advertisement)).toBe(2 * tools.length + 3);
    expect(lines(p.beforeSearch({ allowed: mask('read_file') }).advertisement)).toBe(2 + 3);
  });

  it('renders a caller from the members cached at index(), not from tools changed afterwards', async () => {
    const own = tools.map((t) => ({ ...t }));
    const p = new DeepSeekCodeProfile('deepseek-code');
    await p.index({ ...catalog, tools: own });
    own[1]!.summary = 'changed';
    expect(p.beforeSearch({}).advertisement).toContain('/** Read a file. */');
  });
});

describe('deepseek-code-preselect', () => {
  it('keeps the harness-side bm25 preselection, rendered as the SDK after the search', async () => {
    const p = createProfile('deepseek-code-preselect');
    expect(p).toBeInstanceOf(DeepSeekPreselectProfile);
    await p.index(catalog);
    expect(p.searcher()?.name).toBe('bm25');
    expect(p.searchLimit).toBe(10);
    expect(p.calls).toEqual({ search: 0, perFoundTool: 0, call: 'script' });
    expect(p.beforeSearch({}).callable).toBeUndefined();
    const added = p.afterSearch([{ id: 'mcp__github__create_issue', score: 1 }], {}, 'open an issue');
    expect(added.loaded).toEqual(['mcp__github__create_issue']);
    expect(added.text).toBe(renderSdk([tools[2]!]));
    expect(JSON.stringify(p.describe())).toMatch(/Backpack's, not DeepSeek's/);
  });
});
