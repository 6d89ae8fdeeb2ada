import { describe, expect, it } from 'vitest';
import { makeSkill, makeTool } from '../catalog/model.ts';
import type { Catalog, Tool } from '../catalog/types.ts';
import { catalogChanges, detectRenames, RENAME_MIN_SIMILARITY, statusMap } from './changes.ts';

const tool = (name: string, description: string, extra: Partial<Tool> = {}): Tool =>
  makeTool({ name, source: 'mcp', server: 'crm', summary: description.split('.')[0]!, description, ...extra });
const catalog = (tools: Tool[], skills = [makeSkill({ name: 'triage', description: 'Triage an incident.' })]): Catalog => ({
  tools,
  skills,
  servers: [],
  plugins: [],
});

describe('catalogChanges', () => {
  const a = tool('get_account', 'Fetch an account by id or registered email.');
  const b = tool('list_invoices', 'List invoices for an account, newest first.');
  const c = tool('delete_contact', 'Delete a contact.');

  it('finds nothing between a catalog and itself', () => {
    const ch = catalogChanges(catalog([a, b]), catalog([b, a]));
    const none = { added: [], removed: [], changed: [] };
    expect(ch).toEqual({ added: [], removed: [], renamed: [], changed: [], unchanged: 2, skills: none, servers: none, plugins: none });
  });

  it('lists added, removed and changed tools by id, with the changed fields and words', () => {
    const b2 = makeTool({ ...b, description: 'List invoices for an account, newest first. Not for single invoice lines.', scopes: ['billing:read'] });
    const d = tool('create_deal', 'Create a deal.');
    const ch = catalogChanges(
      catalog([a, b, c]),
      catalog([d, b2, a], [makeSkill({ name: 'triage', description: 'Triage anything.' }), makeSkill({ name: 'review', description: 'Review a PR.' })]),
    );
    expect(ch.added).toEqual([{ id: 'mcp__crm__create_deal', namespace: 'crm' }]);
    expect(ch.removed).toEqual([{ id: 'mcp__crm__delete_contact', namespace: 'crm' }]);
    expect(ch.changed).toEqual([
      { id: 'mcp__crm__list_invoices', namespace: 'crm', fields: ['description', 'scopes'], words: { added: ['single', 'lines'], removed: [] } },
    ]);
    expect(ch.unchanged).toBe(1);
    expect(ch.skills).toEqual({ added: ['review'], removed: [], changed: ['triage'] });
    const status = statusMap(ch, catalog([d, b2, a]));
    expect(Object.fromEntries(status)).toEqual({
      mcp__crm__create_deal: 'added',
      mcp__crm__list_invoices: 'changed',
      mcp__crm__get_account: 'unchanged',
      mcp__crm__delete_contact: 'removed',
    });
  });

  it('names a schema-only change without word lists', () => {
    const a2 = makeTool({ ...a, inputSchema: { type: 'object', properties: { email: { type: 'string' } } } });
    expect(catalogChanges(catalog([a]), catalog([a2])).changed).toEqual([{ id: a.id, namespace: 'crm', fields: ['inputSchema'] }]);
  });
});

describe('renames diff detects', () => {
  const tool = (
    server: string,
    name: string,
    description: string,
    inputSchema: Record<string, unknown> = { type: 'object', properties: { repo: { type: 'string' } } },
  ) => makeTool({ source: 'mcp', server, name, summary: description, description, inputSchema });
  const old = tool('github', 'list_commits', 'List the commits of a branch in a repository, newest first.');

  it('a removed and an added tool on the same server, with the same input schema and a close description', () => {
    const renamed = tool('github', 'list_commits_v2', 'List the commits of a branch in a repository, newest first, paginated.');
    const [r] = detectRenames([old], [renamed]);
    expect(r).toMatchObject({ from: old.id, to: renamed.id, namespace: 'github' });
    expect(r!.similarity).toBeGreaterThanOrEqual(RENAME_MIN_SIMILARITY);
  });

  it('nothing on another server, with another input schema or with an unrelated description; the closest of two', () => {
    expect(detectRenames([old], [tool('gitlab', 'list_commits_v2', old.description)])).toEqual([]);
    expect(detectRenames([old], [tool('github', 'list_commits_v2', old.description, { type: 'object', properties: { project: { type: 'string' } } })])).toEqual(
      [],
    );
    expect(detectRenames([old], [tool('github', 'create_issue', 'Open an issue with a title and a body.')])).toEqual([]);
    const close = tool('github', 'commits', old.description);
    const far = tool('github', 'commit_list', 'List commits.');
    expect(detectRenames([old], [far, close]).map((x) => x.to)).toEqual([close.id]);
  });
});
