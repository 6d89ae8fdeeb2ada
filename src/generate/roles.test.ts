import { describe, expect, it } from 'vitest';
import { checkRoleMap, roleScope, roleSees, visibleCounts, type RoleMap } from '../catalog/roles.ts';
import { makeTool } from '../catalog/model.ts';
import type { Case, Catalog, Tool } from '../catalog/types.ts';
import { generate, resolveParams } from './index.ts';
import { Rng } from '../util/rng.ts';
import { assignRoles, objectPatterns } from './roles.ts';
import type { ServerPlan } from './tools.ts';
import { COMPANY_DEPARTMENTS, COMPANY_PLUGINS, departmentErrors } from './vocab/departments.ts';
import { PLUGINS } from './vocab/plugins.ts';
import { DEPARTMENTS } from './workflows.ts';

const PLATFORM = COMPANY_DEPARTMENTS.filter((d) => d.systems.some((s) => s.objects === 'all')).map((d) => d.name);

describe('the departments vocabulary', () => {
  it('is valid, has a department for every workflow department and a couple of platform roles, and places every plugin', () => {
    expect(departmentErrors()).toEqual([]);
    const names = COMPANY_DEPARTMENTS.map((d) => d.name);
    expect(names).toEqual(expect.arrayContaining([...DEPARTMENTS]));
    expect(PLATFORM.length).toBeGreaterThanOrEqual(2);
    const placed = new Set([...COMPANY_PLUGINS, ...COMPANY_DEPARTMENTS.flatMap((d) => d.plugins)]);
    expect(PLUGINS.map((p) => p.name).filter((p) => !placed.has(p))).toEqual([]);
  });

  it('finds broken departments', () => {
    const base = COMPANY_DEPARTMENTS[0]!;
    const errors = departmentErrors(
      [
        {
          ...base,
          systems: [
            { archetype: 'crm', objects: ['deal', 'dael'] },
            { archetype: 'nope', objects: 'all' },
            { archetype: 'vcs', objects: 'all', products: 0 },
          ],
          plugins: ['no-such-plugin'],
        },
        { ...base, systems: [] },
      ],
      ['ghost-plugin'],
    );
    expect(errors).toEqual([
      `${base.name}: crm has no object dael`,
      `${base.name}: unknown archetype nope`,
      `${base.name}: vcs: products must be a whole number ≥ 1 or 'all'`,
      `${base.name}: unknown plugin no-such-plugin`,
      `${base.name}: department named twice`,
      'company plugins: unknown plugin ghost-plugin',
    ]);
  });
});

describe('objectPatterns', () => {
  const server = (name: string, nameStyle: ServerPlan['nameStyle']) => ({ name, nameStyle }) as ServerPlan;
  it("writes the object in the server's name style, and the plural too when it is not the singular plus a suffix", () => {
    expect(objectPatterns(server('github', 'snake'), { key: 'pull_request', plural: 'pull_requests', doc: '', casual: [] })).toEqual([
      'mcp__github__*_pull_request*',
    ]);
    expect(objectPatterns(server('clickup', 'camel'), { key: 'task_list', plural: 'task_lists', doc: '', casual: [] })).toEqual(['mcp__clickup__*TaskList*']);
    expect(objectPatterns(server('crm', 'kebab'), { key: 'opportunity', plural: 'opportunities', doc: '', casual: [] })).toEqual([
      'mcp__crm__*-opportunity*',
      'mcp__crm__*-opportunities*',
    ]);
  });
});

describe("the generated company's roles", () => {
  const small = generate(resolveParams('small', 7));
  const { catalog, cases } = small.dataset;
  const roles = small.dataset.roles!;
  const counts = visibleCounts(roles, catalog.tools);
  const departments = Object.keys(counts).filter((r) => !PLATFORM.includes(r));
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

  it('load as a valid role file for their catalog', () => {
    expect(checkRoleMap(JSON.parse(JSON.stringify(roles)), 'roles.json', catalog)).toEqual(roles);
    expect(Object.keys(roles.roles)).toEqual(COMPANY_DEPARTMENTS.map((d) => d.name));
  });

  it('give departments part of the catalog and platform roles much more', () => {
    const n = catalog.tools.length; // 5,194 tools on small
    for (const r of departments) {
      expect(counts[r], r).toBeGreaterThanOrEqual(40);
      expect(counts[r], r).toBeLessThanOrEqual(Math.max(300, n * 0.06));
      expect(roles.roles[r]!.namespaces, r).toEqual([]); // no whole server
    }
    expect(mean(departments.map((r) => counts[r]!))).toBeLessThan(n * 0.04);
    expect(mean(PLATFORM.map((r) => counts[r]!))).toBeGreaterThan(3 * mean(departments.map((r) => counts[r]!)));
    expect(Math.max(...PLATFORM.map((r) => counts[r]!))).toBeGreaterThan(Math.max(...departments.map((r) => counts[r]!)));
  });

  it('show every role the core tools and company plugins, and no department the whole of a server', () => {
    const company = new Set(COMPANY_PLUGINS);
    for (const r of Object.keys(roles.roles)) {
      const scope = roleScope(roles, r)!;
      for (const t of catalog.tools)
        if (t.source === 'core' || (t.source === 'plugin' && company.has(t.plugin!))) expect(scope.sees(t), `${r} ${t.id}`).toBe(true);
    }
    const byServer = new Map<string, Tool[]>();
    for (const t of catalog.tools) if (t.source === 'mcp') byServer.set(t.server!, [...(byServer.get(t.server!) ?? []), t]);
    for (const r of departments) {
      const scope = roleScope(roles, r)!;
      for (const [server, list] of byServer)
        expect(
          list.every((t) => scope.sees(t)),
          `${r} sees all of ${server}`,
        ).toBe(false);
    }
    // a trade-off: sales sees CRM deals but no Kubernetes pod; SRE the reverse
    const deal = catalog.tools.find((t) => t.id === 'mcp__crm__get_deal' || (t.id.startsWith('mcp__crm__') && /get.?deal$/i.test(t.name)))!;
    const pod = catalog.tools.find((t) => t.server === 'kubernetes' && /list.?pods$/i.test(t.name))!;
    expect([roleSees(roles, 'sales', deal), roleSees(roles, 'sales', pod), roleSees(roles, 'sre', deal), roleSees(roles, 'sre', pod)]).toEqual([
      true,
      false,
      false,
      true,
    ]);
  });

  it('are the same for the same seed, byte for byte', () => {
    const again = generate(resolveParams('tiny', 3)).dataset.roles;
    expect(JSON.stringify(generate(resolveParams('tiny', 3)).dataset.roles)).toBe(JSON.stringify(again));
  });

  for (const [name, gen] of [
    ['small-7', small],
    ['tiny-3', generate(resolveParams('tiny', 3))],
  ] as const) {
    it(`${name}: every caller's role sees its gold unless the case is cross-phase, and a session has one role`, () => {
      const map = gen.dataset.roles!;
      const byId = new Map(gen.dataset.catalog.tools.map((t) => [t.id, t]));
      let withRole = 0;
      for (const c of gen.dataset.cases) {
        if (c.role === undefined || !map.roles[c.role] || !c.expectedTools?.length) continue;
        withRole++;
        const gold = c.expectedTools.map((id) => byId.get(id)!);
        const sees = c.goldMode === 'any' ? gold.some((t) => roleSees(map, c.role!, t)) : gold.every((t) => roleSees(map, c.role!, t));
        expect(sees, `${c.id} ${c.role}`).toBe(!c.slices.includes('cross-phase'));
      }
      expect(withRole).toBeGreaterThan(gen.dataset.cases.length * 0.3);
      const sessionRoles = new Map<string, Set<string | undefined>>();
      for (const c of gen.dataset.cases) if (c.sessionId) sessionRoles.set(c.sessionId, (sessionRoles.get(c.sessionId) ?? new Set()).add(c.role));
      for (const [id, set] of sessionRoles) expect(set.size, id).toBe(1);
    });
  }

  it('small-7: drawn callers see their gold about 85% of the time', () => {
    // single-tool requests: their roles are drawn here (workflows and sessions come with theirs)
    const drawn = cases.filter(
      (c) => c.role !== undefined && roles.roles[c.role] && c.sessionId === undefined && !c.slices.includes('multi-tool') && c.expectedTools?.length,
    );
    const cross = drawn.filter((c) => c.slices.includes('cross-phase')).length;
    expect(drawn.length).toBeGreaterThan(300);
    expect(cross / drawn.length).toBeGreaterThan(0.08);
    expect(cross / drawn.length).toBeLessThan(0.22);
  });
});

describe('assignRoles', () => {
  const tool = (server: string, name: string): Tool => makeTool({ name, source: 'mcp', server, summary: name, description: name });
  const tools = [
    tool('crm', 'get_deal'),
    tool('crm', 'get_contact'),
    tool('k8s', 'list_pods'),
    tool('k8s', 'get_pod'),
    tool('wiki', 'get_page'),
    makeTool({ name: 'read_file', source: 'core', summary: 'r', description: 'r' }),
  ];
  const catalog: Catalog = { tools, skills: [], servers: [], plugins: [] };
  const roles: RoleMap = {
    schemaVersion: 1,
    always: ['core'],
    roles: {
      sales: { description: '', namespaces: [], tools: ['mcp__crm__get_deal'] },
      support: { description: '', namespaces: [], tools: ['mcp__crm__get_contact'] },
      sre: { description: '', namespaces: ['k8s'] },
    },
  };
  const single = (i: number, gold: string[], extra: Partial<Case> = {}): Case => ({
    id: `c${i}`,
    request: 'r',
    expectedTools: gold,
    slices: ['lexical'],
    ...extra,
  });

  it('gives 85% of callers a role that sees the gold tool and 15% another, tagged cross-phase; none when no role sees it', () => {
    const cases = Array.from({ length: 2000 }, (_, i) => single(i, ['mcp__crm__get_deal']));
    cases.push(single(9000, ['mcp__wiki__get_page']), single(9001, []));
    assignRoles(cases, roles, catalog, new Rng(1, 'test'));
    const deal = cases.slice(0, 2000);
    const sales = deal.filter((c) => c.role === 'sales');
    expect(sales.every((c) => !c.slices.includes('cross-phase'))).toBe(true);
    expect(deal.filter((c) => c.role !== 'sales').every((c) => c.slices.includes('cross-phase') && ['support', 'sre'].includes(c.role!))).toBe(true);
    expect(sales.length / deal.length).toBeGreaterThan(0.82);
    expect(sales.length / deal.length).toBeLessThan(0.88);
    expect(cases[2000]!.role).toBeUndefined(); // no role sees the wiki
    expect(cases[2001]!.role).toBeUndefined(); // no gold
  });

  it('reads goldMode: any needs one visible gold tool, all needs every one', () => {
    const cases = [
      ...Array.from({ length: 200 }, (_, i) => single(i, ['mcp__crm__get_deal', 'mcp__crm__get_contact'], { goldMode: 'any' })),
      ...Array.from({ length: 200 }, (_, i) => single(1000 + i, ['mcp__crm__get_deal', 'mcp__crm__get_contact'], { goldMode: 'all' })),
    ];
    assignRoles(cases, roles, catalog, new Rng(2, 'test'));
    for (const c of cases.slice(0, 200)) expect(c.slices.includes('cross-phase'), c.id).toBe(c.role === 'sre');
    for (const c of cases.slice(200)) expect(c.role).toBeUndefined(); // no role sees both
  });

  it('keeps a role given with the request, tagging it cross-phase when that role does not see the gold; leaves roles the map does not know alone', () => {
    const cases = [
      single(1, ['mcp__k8s__get_pod'], { role: 'sales' }),
      single(2, ['mcp__crm__get_deal'], { role: 'sales' }),
      single(3, ['mcp__k8s__get_pod'], { role: 'editor' }),
    ];
    assignRoles(cases, roles, catalog, new Rng(3, 'test'));
    expect(cases.map((c) => [c.role, c.slices.includes('cross-phase')])).toEqual([
      ['sales', true],
      ['sales', false],
      ['editor', false],
    ]);
  });

  it('gives a session one role, drawn among the roles that see the most of its turns, with its scopes on every turn', () => {
    let sre = 0;
    for (let s = 0; s < 200; s++) {
      const turns = [
        single(1, ['mcp__k8s__list_pods'], { sessionId: 's', turn: 0, callerScopes: ['k8s:read'] }),
        single(2, [], { sessionId: 's', turn: 1, slices: ['no-tool'] }),
        single(3, ['mcp__k8s__get_pod'], { sessionId: 's', turn: 2 }),
        single(4, ['mcp__crm__get_deal'], { sessionId: 's', turn: 3 }),
      ];
      assignRoles(turns, roles, catalog, new Rng(s, 'sessions'));
      expect(new Set(turns.map((t) => t.role)).size).toBe(1);
      expect(turns.every((t) => t.callerScopes?.[0] === 'k8s:read')).toBe(true);
      const role = turns[0]!.role!;
      if (role === 'sre') sre++;
      // each tool turn whose gold the role does not see is cross-phase; the no-tool turn never is
      expect(turns.map((t) => t.slices.includes('cross-phase'))).toEqual([role !== 'sre', false, role !== 'sre', role !== 'sales']);
    }
    expect(sre / 200).toBeGreaterThan(0.75);
    expect(sre / 200).toBeLessThan(0.95);
  });
});
