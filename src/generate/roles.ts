/**
 * The monster company's roles (who sees which tools) and the role of each request's caller.
 *
 * A role is a department of `data/departments.json` (read by `vocab/departments.ts`): in each system it uses (its first products
 * of an archetype) it sees every tool on the kinds of object it handles, written as one pattern
 * per product and object (`mcp__crm__*_deal*`, which takes compound objects such as `deal_stage`
 * along) or, where such a pattern would take unrelated tools, as their ids; whole servers as
 * namespaces. It also sees the tools of its own workflows
 * (`data/workflows.json`) on every product: each step's tool and the follow-up operations on the
 * object the step opens or makes. Core tools and the company-wide plugins are always visible.
 *
 * Most callers work inside their role; some tasks span phases (an SRE filing a CRM note): those
 * are tagged `cross-phase`, where gating needs its escape hatch. Whether a role sees a tool is
 * decided by `roleScope` (catalog/roles.ts) only.
 */
import { patternRegExp, roleScope, type RoleMap, type RoleScope } from '../catalog/roles.ts';
import type { Case, Catalog, Tool } from '../catalog/types.ts';
import type { Rng } from '../util/rng.ts';
import { styleName } from './text.ts';
import type { ServerPlan, ToolMeta } from './tools.ts';
import { COMPANY_DEPARTMENTS, COMPANY_PLUGINS, type DepartmentSpec } from './vocab/departments.ts';
import type { ObjectSpec } from './vocab/types.ts';
import { WORKFLOWS } from './workflows.ts';

/** `mcp__<server>__*<object>*` (and the plural when it does not start with the singular), in the server's name style. */
export function objectPatterns(server: ServerPlan, object: ObjectSpec): string[] {
  const part = (snake: string) => `mcp__${server.name}__*${styleName(`_${snake}`, server.nameStyle)}*`;
  return object.plural.startsWith(object.key) ? [part(object.key)] : [part(object.key), part(object.plural)];
}

/** Tools, by server, and by server, operation and object. */
class Index {
  readonly byServer = new Map<string, ToolMeta[]>();
  readonly byKey = new Map<string, ToolMeta>();
  readonly namespaceSources = new Map<string, Set<Tool['source']>>();
  readonly toolById = new Map<string, Tool>();

  constructor(metas: readonly ToolMeta[]) {
    for (const m of metas) {
      this.toolById.set(m.tool.id, m.tool);
      const set = this.namespaceSources.get(m.tool.namespace) ?? new Set();
      set.add(m.tool.source);
      this.namespaceSources.set(m.tool.namespace, set);
      if (!m.server) continue;
      const list = this.byServer.get(m.server.name);
      if (list) list.push(m);
      else this.byServer.set(m.server.name, [m]);
      if (!m.legacyOf) this.byKey.set(`${m.server.name}|${m.op!.key}|${m.object!.key}`, m);
    }
  }
}

/** True when `key` names a kind of `object` (`pod_log`, `direct_message` for `pod`, `message`): its words contain the object's. */
function compoundOf(key: string, object: string): boolean {
  return `_${key}_`.includes(`_${object}_`);
}

/**
 * The `tools` entries that give a department every tool on `object` in `server`: the patterns,
 * when what they match beyond the object's own tools is only tools of compound objects (as a hand
 * written `*_pod*` takes the `pod_log` tools too), else the object's tool ids (a `*_tag*` would
 * take every server's `add_…_tags`).
 */
function objectEntries(server: ServerPlan, object: ObjectSpec, idx: Index): string[] {
  const tools = idx.byServer.get(server.name) ?? [];
  const wanted = tools.filter((m) => m.object!.key === object.key);
  if (!wanted.length) return [];
  const patterns = objectPatterns(server, object);
  const res = patterns.map(patternRegExp);
  const matched = (m: ToolMeta) => res.some((re) => re.test(m.tool.id));
  const fits = wanted.every(matched) && tools.every((m) => !matched(m) || compoundOf(m.object!.key, object.key));
  return fits ? patterns : wanted.map((m) => m.tool.id);
}

/** The servers of an archetype a department uses: the first `products` in plan (vocabulary) order. */
function productsOf(servers: readonly ServerPlan[], archetype: string, products: number | 'all' | undefined): ServerPlan[] {
  const all = servers.filter((s) => s.archetype.key === archetype);
  return products === 'all' ? all : all.slice(0, products ?? 1);
}

/**
 * The ids of a department's workflow tools on every product: the tool each step's first fitting
 * operation gives (as the workflows pick it), and, after a step that opens or makes one object
 * (`get`, `create`) outside chat and messaging, the follow-up operations on that object.
 */
function workflowTools(dept: string, servers: readonly ServerPlan[], idx: Index): string[] {
  const out: string[] = [];
  const followUps = Object.keys(WORKFLOWS.followUps.ops);
  for (const shape of WORKFLOWS.departments[dept] ?? []) {
    for (const step of shape.steps) {
      for (const server of servers.filter((s) => step.archetypes.includes(s.archetype.key))) {
        const first = step.tools.map(([op, object]) => idx.byKey.get(`${server.name}|${op}|${object}`)).find((m) => m !== undefined);
        if (!first) continue;
        out.push(first.tool.id);
        if (!['get', 'create'].includes(first.op!.key) || ['chat', 'messaging'].includes(server.archetype.key)) continue;
        for (const f of followUps) {
          const n = idx.byKey.get(`${server.name}|${f}|${first.object!.key}`);
          if (n) out.push(n.tool.id);
        }
      }
    }
  }
  return out;
}

/** One department's role: namespaces for whole servers, patterns and ids for the rest. */
function departmentRole(d: DepartmentSpec, servers: readonly ServerPlan[], idx: Index, plugins: ReadonlySet<string>): RoleMap['roles'][string] {
  const namespaces: string[] = [];
  const tools: string[] = [];
  for (const s of d.systems) {
    for (const server of productsOf(servers, s.archetype, s.products)) {
      if (s.objects === 'all') {
        // A namespace another source shares (the ClickUp plugin beside the ClickUp server) would bring that source's tools too.
        if (idx.namespaceSources.get(server.name)?.size === 1) namespaces.push(server.name);
        else if (idx.byServer.has(server.name)) tools.push(`mcp__${server.name}__*`);
        continue;
      }
      for (const key of s.objects) {
        const object = server.archetype.objects.find((o) => o.key === key)!;
        tools.push(...objectEntries(server, object, idx));
      }
    }
  }
  for (const p of d.plugins) if (plugins.has(p)) tools.push(`plugin__${p}__*`);
  // The department's own workflows, on every product; ids the entries above already cover are left out.
  const covered = roleScope({ schemaVersion: 1, always: [], roles: { r: { description: '', namespaces, tools } } }, 'r')!;
  for (const id of workflowTools(d.name, servers, idx)) if (!covered.sees(idx.toolById.get(id)!)) tools.push(id);
  return { description: d.description, namespaces: [...new Set(namespaces)], tools: [...new Set(tools)] };
}

/**
 * The company's role map for the generated catalog: the departments of `vocab/departments.ts`;
 * core tools and the company-wide plugins always visible.
 */
export function companyRoles(servers: readonly ServerPlan[], metas: readonly ToolMeta[], catalog: Catalog): RoleMap {
  const idx = new Index(metas);
  const plugins = new Set(catalog.plugins.map((p) => p.name));
  const roles: RoleMap['roles'] = {};
  for (const d of COMPANY_DEPARTMENTS) roles[d.name] = departmentRole(d, servers, idx, plugins);
  const always = catalog.tools.some((t) => t.namespace === 'core' && t.source === 'core') ? ['core'] : [];
  const alwaysTools = COMPANY_PLUGINS.filter((p) => plugins.has(p)).map((p) => `plugin__${p}__*`);
  return { schemaVersion: 1, always, ...(alwaysTools.length ? { alwaysTools } : {}), roles };
}

/** Whether a role sees a case's gold: every gold tool (`goldMode` all), or one of them (`any`). */
function seesGold(scope: RoleScope, c: Case, byId: ReadonlyMap<string, Tool>): boolean {
  const gold = (c.expectedTools ?? []).map((id) => byId.get(id)).filter((t): t is Tool => t !== undefined);
  if (!gold.length) return true;
  return c.goldMode === 'any' ? gold.some((t) => scope.sees(t)) : gold.every((t) => scope.sees(t));
}

/**
 * Give a role to the caller of every request with gold tools that has none yet: 85% a role that
 * sees the gold (every gold tool, or one of an `any` set), 15% one that does not (tagged
 * `cross-phase`); a request no role sees keeps no role. A session has one caller: every turn gets
 * the session's role (a turn's own, else one drawn among the roles that see the most of its turns'
 * gold), and the scopes of a turn that has them. A caller's turn or request whose gold its role
 * does not see is tagged `cross-phase` too (a role set by the workflow that wrote the request).
 */
export function assignRoles(cases: Case[], roles: RoleMap, catalog: Catalog, rng: Rng): void {
  const byId = new Map(catalog.tools.map((t) => [t.id, t]));
  const names = Object.keys(roles.roles);
  const scopes = new Map(names.map((n) => [n, roleScope(roles, n)!]));
  const hasGold = (c: Case): boolean => (c.expectedTools?.length ?? 0) > 0;
  /** 85% one of `fitting`, 15% one of the others (cross-phase); undefined when none fits. */
  const draw = (fitting: string[]): { role: string; cross: boolean } | undefined => {
    if (!fitting.length) return undefined;
    const other = names.filter((n) => !fitting.includes(n));
    if (other.length && rng.chance(0.15)) return { role: rng.pick(other), cross: true };
    return { role: rng.pick(fitting), cross: false };
  };
  const tag = (c: Case, role: string): void => {
    const scope = scopes.get(role);
    if (scope && hasGold(c) && !seesGold(scope, c, byId) && !c.slices.includes('cross-phase')) c.slices = [...c.slices, 'cross-phase'];
  };
  const sessions = new Map<string, Case[]>();
  for (const c of cases) {
    if (c.sessionId !== undefined) {
      const list = sessions.get(c.sessionId);
      if (list) list.push(c);
      else sessions.set(c.sessionId, [c]);
      continue;
    }
    if (c.role !== undefined) {
      tag(c, c.role);
      continue;
    }
    if (!hasGold(c)) continue;
    const d = draw(names.filter((n) => seesGold(scopes.get(n)!, c, byId)));
    if (!d) continue;
    c.role = d.role;
    if (d.cross) c.slices = [...c.slices, 'cross-phase'];
  }
  for (const turns of sessions.values()) {
    let role = turns.find((c) => c.role !== undefined)?.role;
    if (role === undefined) {
      const withGold = turns.filter(hasGold);
      const seen = names.map((n) => withGold.filter((c) => seesGold(scopes.get(n)!, c, byId)).length);
      const most = Math.max(0, ...seen);
      role = most > 0 ? draw(names.filter((_, i) => seen[i] === most))?.role : undefined;
    }
    const callerScopes = turns.find((c) => c.callerScopes !== undefined)?.callerScopes;
    for (const c of turns) {
      if (role !== undefined) {
        c.role = role;
        // A turn whose gold the role does not see is a cross-phase request of the same caller.
        tag(c, role);
      }
      if (callerScopes && !c.callerScopes) c.callerScopes = [...callerScopes];
    }
  }
}
