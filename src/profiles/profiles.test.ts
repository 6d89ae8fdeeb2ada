import { describe, expect, it } from 'vitest';
import { InputError } from '../util/errors.ts';
import { catalogWith, createIssueTool, finishTool, postMessageTool } from '../../test/profile-catalog.ts';
import { makeTool } from '../catalog/model.ts';
import type { Catalog } from '../catalog/types.ts';
import { DeepSeekPreselectProfile, renderSdk, schemaType, sdkName } from './deepseek/index.ts';
import { DeferredProfile, namespaceList, RoleGatingProfile, StaticProfile, unavailableAnswer } from './seed/index.ts';
import { createProfile, parseProfileList, registerProfile, unregisterProfile } from './registry.ts';
import { toolDefinition } from './text.ts';

const tools = [
  finishTool,
  createIssueTool({ type: 'object', properties: { title: { type: 'string' }, labels: { type: 'array', items: { type: 'string' } } }, required: ['title'] }),
  makeTool({
    source: 'mcp',
    server: 'github',
    name: 'list_issues',
    summary: 'List issues.',
    description: 'List the issues of a repository.',
    scopes: ['github:read'],
  }),
  postMessageTool,
];
const catalog: Catalog = catalogWith(tools, { github: ['GitHub issues and pull requests.\nSecond line.', ''], slack: ['Slack messaging.', ''] });
const mask = (...ids: string[]) => Uint8Array.from(tools.map((t) => (ids.includes(t.id) ? 1 : 0)));

describe('static', () => {
  it('sends every tool the caller may use, and has no search', async () => {
    const p = new StaticProfile('static');
    await p.index(catalog);
    expect(p.searcher()).toBeNull();
    expect(p.beforeSearch({}).eager).toEqual(tools.map((t) => t.id));
    expect(p.beforeSearch({ allowed: mask('finish', 'mcp__slack__post_message') }).eager).toEqual(['finish', 'mcp__slack__post_message']);
  });
});

describe('deferred', () => {
  it('advertises a one-line catalog of what the caller may use, pinned tools in full', async () => {
    const p = new DeferredProfile('deferred');
    await p.index(catalog);
    const b = p.beforeSearch({ allowed: mask('finish', 'mcp__github__list_issues') });
    expect(b.eager).toEqual(['finish']);
    expect(b.advertisement).toBe('Tool catalog (load a schema with load_tool_schema before calling):\n- mcp__github__list_issues: List issues.\n');
    expect(b.metaTools.map((t) => t.name)).toEqual(['search_tools', 'load_tool_schema']);
  });

  it('answers "not found" and "not permitted" with the same words', async () => {
    const p = new DeferredProfile('deferred');
    await p.index(catalog);
    const caller = { allowed: mask('finish', 'mcp__github__list_issues') };
    const missing = p.loadToolSchema('mcp__github__nope', caller);
    const forbidden = p.loadToolSchema('mcp__github__create_issue', caller);
    expect(missing).toEqual({ found: false, answer: unavailableAnswer('mcp__github__nope') });
    expect(forbidden).toEqual({ found: false, answer: unavailableAnswer('mcp__github__create_issue') });
    expect(JSON.stringify(forbidden).replace('create_issue', 'X')).toBe(JSON.stringify(p.loadToolSchema('mcp__github__X', caller)));
    const ok = p.loadToolSchema('mcp__github__list_issues', caller);
    expect(ok.found && ok.definition.name).toBe('mcp__github__list_issues');
  });

  it('search results are names with summaries', async () => {
    const p = new DeferredProfile('deferred');
    await p.index(catalog);
    const hits = await p.searcher().search('open an issue in a repository', { k: 5 });
    expect(hits[0]!.id).toBe('mcp__github__create_issue');
    const added = p.afterSearch(hits.slice(0, 1));
    // the model then loads the picked tool's schema: one definition
    expect(added).toEqual({
      form: 'metadata',
      loaded: ['mcp__github__create_issue'],
      text: '- mcp__github__create_issue: Open an issue.',
      definitions: [toolDefinition(tools[1]!)],
    });
    expect(p.afterSearch([]).text).toBe('No matching tools.');
  });
});

describe('deepseek code mode', () => {
  it('renders JSON schemas as TypeScript types', () => {
    expect(schemaType({ type: 'object', properties: { title: { type: 'string' }, n: { type: 'integer' } }, required: ['title'] })).toBe(
      '{ title: string; n?: number }',
    );
    expect(schemaType({ type: 'string', enum: ['open', 'closed'] })).toBe('"open" | "closed"');
    expect(schemaType({ type: 'array', items: { type: 'boolean' } })).toBe('Array<boolean>');
    expect(schemaType({ type: 'object', properties: { 'a-b': { type: 'null' } } })).toBe('{ "a-b"?: null }');
    expect(schemaType({ type: 'object' })).toBe('Record<string, unknown>');
    expect(schemaType(undefined)).toBe('unknown');
    expect(sdkName('plugin__my-plugin__do.it')).toBe('plugin__my_plugin__do_it');
    expect(sdkName('9lives')).toBe('_9lives');
  });

  it('deepseek-code-preselect: one run_code tool and the preselected set as an SDK (one doc and one signature line per tool)', async () => {
    const p = new DeepSeekPreselectProfile('deepseek-code-preselect');
    await p.index(catalog);
    const b = p.beforeSearch({});
    expect(b.eager).toEqual([]);
    expect(b.metaTools.map((t) => t.name)).toEqual(['run_code']);
    const sdk = p.afterSearch([{ id: 'mcp__github__create_issue', score: 2 }]);
    expect(sdk.form).toBe('sdk');
    expect(sdk.text).toBe(
      'declare const tools: {\n  /** Open an issue. */\n  mcp__github__create_issue(args: { title: string; labels?: Array<string> }): Promise<unknown>;\n};\n',
    );
    // O(N) in the set's size: each tool adds exactly two lines.
    expect(renderSdk(tools).split('\n').length).toBe(2 * tools.length + 3);
  });
});

describe('role gating', () => {
  const roles = { schemaVersion: 1, always: ['core'], roles: { dev: { description: '', namespaces: ['github'] } } };
  it("sends the role's namespaces eagerly, and everything to a caller with no role", async () => {
    const p = new RoleGatingProfile('role-gating', roles);
    await p.index(catalog);
    expect(p.beforeSearch({ role: 'dev' }).eager).toEqual(['finish', 'mcp__github__create_issue', 'mcp__github__list_issues']);
    expect(p.beforeSearch({ role: 'dev', allowed: mask('mcp__github__list_issues') }).eager).toEqual(['mcp__github__list_issues']);
    expect(p.beforeSearch({}).eager).toHaveLength(tools.length);
    expect(p.beforeSearch({ role: 'unknown' }).eager).toHaveLength(tools.length);
  });
});

describe('role gating with tool patterns', () => {
  it('sends exactly the tools the role sees: its patterns and ids, always and pinned tools', async () => {
    const roles = { schemaVersion: 1, always: [], roles: { triage: { description: '', namespaces: [], tools: ['mcp__github__list_*'] } } };
    const p = new RoleGatingProfile('role-gating', roles);
    await p.index(catalog);
    expect(p.beforeSearch({ role: 'triage' }).eager).toEqual(['finish', 'mcp__github__list_issues']);
  });
});

describe('namespace list', () => {
  it('names each namespace with the first line of its description, sorted', () => {
    expect(namespaceList(catalog, tools)).toBe('Tool namespaces:\n- github: GitHub issues and pull requests.\n- slack: Slack messaging.\n');
    expect(namespaceList(catalog, [tools[0]!])).toBe('');
  });
});

describe('the profile registry', () => {
  it('rejects unknown names with a hint, and a retriever name with where it belongs', () => {
    expect(() => createProfile('statc')).toThrow(/did you mean static\?/);
    expect(() => createProfile('bm25')).toThrow(/is a retriever: give it with retrievers\)/);
    expect(() => parseProfileList('static,static')).toThrow(/listed twice/);
    expect(() => parseProfileList(' , ')).toThrow(InputError);
    expect(parseProfileList('static, deferred')).toEqual(['static', 'deferred']);
  });

  it('adds a profile in one call, refusing taken names', () => {
    const factory = { description: 'test', create: (name: string) => new StaticProfile(name) };
    expect(() => registerProfile('static', factory)).toThrow(/already registered/);
    expect(() => registerProfile('bm25', factory)).toThrow(/retriever's name/);
    registerProfile('my-static', factory);
    try {
      expect(createProfile('my-static').name).toBe('my-static');
    } finally {
      unregisterProfile('my-static');
    }
  });
});

describe('role gating: review fixes', () => {
  it('a role named like an Object.prototype member is an unknown role, not a crash', async () => {
    const p = new RoleGatingProfile('role-gating', { schemaVersion: 1, always: [], roles: { dev: { description: '', namespaces: ['github'] } } });
    await p.index(catalog);
    for (const role of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) expect(p.beforeSearch({ role }).eager).toHaveLength(tools.length);
  });
});
