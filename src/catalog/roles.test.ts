import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inputError, tempDir } from '../../test/helpers.ts';
import { canonicalJson } from '../util/hash.ts';
import { makeTool } from './model.ts';
import { checkRoleMap, isToolPattern, patternRegExp, readRoleMap, roleMask, roleScope, roleSees, visibleCounts, type RoleMap } from './roles.ts';
import type { Catalog, Tool } from './types.ts';

const mcp = (server: string, name: string): Tool => makeTool({ name, source: 'mcp', server, summary: name, description: name });
const plugin = (owner: string, name: string): Tool => makeTool({ name, source: 'plugin', plugin: owner, summary: name, description: name });
const core = (name: string, pinned = false): Tool => makeTool({ name, source: 'core', summary: name, description: name, pinned });

const tools: Tool[] = [
  core('read_file'),
  core('finish', true),
  mcp('github', 'create_pull_request'),
  mcp('github', 'list_pull_requests'),
  mcp('github', 'get_issue'),
  mcp('github', 'add_issue_tags'),
  mcp('crm', 'get_deal'),
  mcp('crm', 'get_deal_stage'),
  mcp('crm', 'listDeals'),
  mcp('crm', 'get_contact'),
  mcp('clickup', 'create_task'),
  plugin('clickup', 'create_task'),
  plugin('deal-desk', 'price_check'),
  mcp('odd.name', 'run+fast'),
];
const catalog: Catalog = { tools, skills: [], servers: [], plugins: [] };
const byId = (id: string): Tool => tools.find((t) => t.id === id)!;

const file = 'roles.json';

describe('the role file', () => {
  it('loads an old file (namespaces only) unchanged: same map, same hash', () => {
    const old = {
      schemaVersion: 1,
      always: ['core'],
      roles: { dev: { description: 'developers', namespaces: ['github'] }, sales: { description: 'sales', namespaces: ['crm'] } },
    };
    const loaded = checkRoleMap(structuredClone(old), file, catalog);
    expect(loaded).toEqual(old);
    expect(canonicalJson(loaded)).toBe(canonicalJson(old));
    expect('tools' in loaded.roles.dev!).toBe(false);
    expect('alwaysTools' in loaded).toBe(false);
  });

  it('loads the new fields: tools (ids and patterns) and alwaysTools; a role may have tools only', () => {
    const loaded = checkRoleMap(
      {
        schemaVersion: 1,
        always: ['core'],
        alwaysTools: ['plugin__deal-desk__*'],
        roles: {
          dev: { description: '', namespaces: ['github'], tools: ['mcp__clickup__create_task'] },
          sales: { tools: ['mcp__crm__*_deal*', 'mcp__crm__get_contact'] },
        },
      },
      file,
      catalog,
    );
    expect(loaded.alwaysTools).toEqual(['plugin__deal-desk__*']);
    expect(loaded.roles.sales).toEqual({ description: '', namespaces: [], tools: ['mcp__crm__*_deal*', 'mcp__crm__get_contact'] });
    expect(loaded.roles.dev!.tools).toEqual(['mcp__clickup__create_task']);
  });

  it('refuses bad files, naming the JSON path', () => {
    const bad = (value: unknown) => inputError(() => checkRoleMap(value, file, catalog));
    const cases: Array<[unknown, string, RegExp]> = [
      [[], '$', /must be a JSON object/],
      [{ roles: [] }, '$.roles', /"roles" must be an object/],
      [{ always: 'core', roles: {} }, '$.always', /list of namespace names/],
      [{ roles: { dev: { description: 'no lists' } } }, '$.roles.dev', /needs "namespaces" .* or "tools"/],
      [{ roles: { dev: 'github' } }, '$.roles.dev', /must be an object/],
      [{ roles: { dev: { namespaces: 'github' } } }, '$.roles.dev.namespaces', /list of namespace names/],
      [{ roles: { dev: { namespaces: ['gihub'] } } }, '$.roles.dev.namespaces[0]', /unknown namespace "gihub".*github/],
      [{ roles: { dev: { tools: 'mcp__github__*' } } }, '$.roles.dev.tools', /list of tool ids or patterns/],
      [{ roles: { dev: { tools: ['mcp__github__*', 7] } } }, '$.roles.dev.tools[1]', /non-empty string/],
      [{ roles: { dev: { tools: [''] } } }, '$.roles.dev.tools[0]', /non-empty string/],
      [{ roles: { dev: { tools: [' mcp__github__get_issue'] } } }, '$.roles.dev.tools[0]', /without surrounding spaces/],
      [{ roles: { dev: { tools: ['mcp__github__get_isue'] } } }, '$.roles.dev.tools[0]', /unknown tool "mcp__github__get_isue".*mcp__github__get_issue/],
      [{ roles: { dev: { tools: ['mcp__gitlab__*'] } } }, '$.roles.dev.tools[0]', /pattern "mcp__gitlab__\*" matches no tool/],
      [{ roles: { dev: { tools: ['mcp__github__get_issue', '*_merge_request*'] } } }, '$.roles.dev.tools[1]', /matches no tool/],
      [{ alwaysTools: ['plugin__nope__*'], roles: {} }, '$.alwaysTools[0]', /matches no tool/],
      [{ alwaysTools: {}, roles: {} }, '$.alwaysTools', /list of tool ids or patterns/],
    ];
    for (const [value, where, message] of cases) {
      const err = bad(value);
      expect(err.where, JSON.stringify(value)).toBe(where);
      expect(err.message, JSON.stringify(value)).toMatch(message);
      expect(err.file).toBe(file);
    }
  });

  it('checks shapes only without a catalog', () => {
    const loaded = checkRoleMap({ roles: { dev: { tools: ['mcp__anything__*'], namespaces: ['whatever'] } } }, file);
    expect(loaded.roles.dev!.tools).toEqual(['mcp__anything__*']);
    expect(inputError(() => checkRoleMap({ roles: { dev: { tools: [3] } } }, file)).where).toBe('$.roles.dev.tools[0]');
  });

  it('reads a file, and names it in the error', () => {
    const dir = tempDir('roles');
    const good = join(dir, 'good.json');
    writeFileSync(good, JSON.stringify({ roles: { sales: { tools: ['mcp__crm__*'] } } }));
    expect(readRoleMap(good, catalog).roles.sales!.tools).toEqual(['mcp__crm__*']);
    const badFile = join(dir, 'bad.json');
    writeFileSync(badFile, JSON.stringify({ roles: { sales: { tools: ['mcp__crm__*', 'mcp__crm__get_dael'] } } }));
    const err = inputError(() => readRoleMap(badFile, catalog));
    expect(err.describe()).toBe(
      `${badFile}: $.roles.sales.tools[1]: unknown tool "mcp__crm__get_dael" (did you mean mcp__crm__get_deal, mcp__crm__get_contact?)`,
    );
  });
});

describe('patterns', () => {
  it('a * stands for any run of characters; everything else is literal and the whole id must match', () => {
    expect(isToolPattern('mcp__github__*')).toBe(true);
    expect(isToolPattern('mcp__github__get_issue')).toBe(false);
    const re = patternRegExp('mcp__crm__*_deal*');
    expect(re.test('mcp__crm__get_deal')).toBe(true);
    expect(re.test('mcp__crm__get_deal_stage')).toBe(true);
    expect(re.test('mcp__crm__listDeals')).toBe(false); // case-sensitive
    expect(re.test('mcp__crmx__get_deal')).toBe(false);
    expect(re.test('xmcp__crm__get_deal')).toBe(false); // anchored
    expect(patternRegExp('mcp__odd.name__run+fast').test('mcp__odd.name__run+fast')).toBe(true);
    expect(patternRegExp('mcp__odd.name__run+fast').test('mcp__oddxname__runnfast')).toBe(false); // . and + are literal
    expect(patternRegExp('*').test('anything at all')).toBe(true);
  });
});

describe('roleScope: the one visibility rule', () => {
  const roles: RoleMap = {
    schemaVersion: 1,
    always: ['core'],
    alwaysTools: ['plugin__deal-desk__*'],
    roles: {
      dev: { description: '', namespaces: ['github'] },
      sales: { description: '', namespaces: [], tools: ['mcp__crm__*_deal*', 'mcp__crm__get_contact'] },
      pm: { description: '', namespaces: [], tools: ['mcp__clickup__*'] },
      readers: { description: '', namespaces: [], tools: ['mcp__*__get_*', '*__list*'] },
      odd: { description: '', namespaces: [], tools: ['mcp__odd.name__run+fast'] },
    },
  };
  const seen = (role: string): string[] => tools.filter((t) => roleSees(roles, role, t)).map((t) => t.id);
  const always = ['read_file', 'finish', 'plugin__deal-desk__price_check'];

  it('namespaces: every tool of them, with always and pinned tools', () => {
    // the ClickUp plugin shares no namespace with github, so dev sees neither ClickUp tool
    expect(seen('dev').sort()).toEqual(
      [...always, 'mcp__github__add_issue_tags', 'mcp__github__create_pull_request', 'mcp__github__get_issue', 'mcp__github__list_pull_requests'].sort(),
    );
  });

  it('patterns and ids: exactly the tools they match', () => {
    expect(seen('sales').sort()).toEqual([...always, 'mcp__crm__get_contact', 'mcp__crm__get_deal', 'mcp__crm__get_deal_stage'].sort());
    // an owner pattern takes the MCP server, not the plugin that shares its namespace
    expect(seen('pm').sort()).toEqual([...always, 'mcp__clickup__create_task'].sort());
    // patterns with a * in the owner part match across owners
    expect(seen('readers').sort()).toEqual(
      [
        ...always,
        'mcp__crm__get_contact',
        'mcp__crm__get_deal',
        'mcp__crm__get_deal_stage',
        'mcp__crm__listDeals',
        'mcp__github__get_issue',
        'mcp__github__list_pull_requests',
      ].sort(),
    );
    expect(seen('odd').sort()).toEqual([...always, 'mcp__odd.name__run+fast'].sort());
  });

  it('is undefined for a role the map does not know (that caller is not gated); roleSees is then false', () => {
    expect(roleScope(roles, 'intern')).toBeUndefined();
    expect(roleScope(roles, 'constructor')).toBeUndefined();
    expect(roleSees(roles, 'intern', byId('read_file'))).toBe(false);
  });

  it('gives masks and counts by the same rule', () => {
    expect(Array.from(roleMask(roles, 'sales', tools)!)).toEqual(tools.map((t) => (seen('sales').includes(t.id) ? 1 : 0)));
    expect(roleMask(roles, 'intern', tools)).toBeUndefined();
    expect(visibleCounts(roles, tools)).toEqual({ dev: 7, sales: 6, pm: 4, readers: 9, odd: 4 });
  });

  it("a map without always or alwaysTools: only the role's own tools and pinned ones", () => {
    const bare: RoleMap = { schemaVersion: 1, always: [], roles: { sales: { description: '', namespaces: [], tools: ['mcp__crm__get_contact'] } } };
    expect(tools.filter((t) => roleSees(bare, 'sales', t)).map((t) => t.id)).toEqual(['finish', 'mcp__crm__get_contact']);
  });
});
