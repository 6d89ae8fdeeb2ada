/**
 * The monster company's roles (who sees which systems) and the role of each request's caller.
 * Most callers work inside their role; some tasks span phases (an SRE filing a CRM note): those
 * are tagged `cross-phase`, where gating needs its escape hatch.
 */
import type { RoleMap } from '../catalog/roles.ts';
import type { Case, Catalog } from '../catalog/types.ts';
import type { Rng } from './rng.ts';
import type { ServerPlan } from './tools.ts';

const ROLE_ARCHETYPES: Record<string, { description: string; archetypes: string[] }> = {
  sre: { description: 'site reliability: clusters, cloud, monitoring, incidents, deploys', archetypes: ['kubernetes', 'cloud', 'observability', 'incident', 'ci_cd', 'error_tracking', 'database', 'chat'] },
  engineering: { description: 'product engineering: code, builds, errors, planning, docs', archetypes: ['vcs', 'ci_cd', 'error_tracking', 'project_management', 'docs', 'feature_flags', 'design', 'chat'] },
  sales: { description: 'sales and marketing: pipeline, campaigns, billing, meetings', archetypes: ['crm', 'marketing', 'billing', 'calendar', 'messaging', 'ecommerce', 'chat'] },
  support: { description: 'customer support: tickets, customers, IT requests, docs', archetypes: ['support', 'crm', 'itsm', 'docs', 'messaging', 'billing', 'chat'] },
  finance: { description: 'finance: billing, accounting, reporting', archetypes: ['billing', 'accounting', 'analytics', 'bi', 'hr', 'chat'] },
  people: { description: 'people operations: HR, hiring, identity, calendars', archetypes: ['hr', 'recruiting', 'calendar', 'identity', 'chat'] },
  data: { description: 'data: warehouses, databases, BI, analytics', archetypes: ['data_platform', 'database', 'bi', 'analytics', 'file_storage', 'docs', 'chat'] },
  security: { description: 'security: posture, identity, IT service, incidents', archetypes: ['security', 'identity', 'itsm', 'incident', 'cloud', 'observability', 'chat'] },
};

/** The company's role map: each role sees the servers of its archetypes; core and plugin tools are always visible. */
export function companyRoles(servers: readonly ServerPlan[], catalog: Catalog): RoleMap {
  const roles: RoleMap['roles'] = {};
  for (const [name, r] of Object.entries(ROLE_ARCHETYPES)) {
    const archetypes = new Set(r.archetypes);
    roles[name] = { description: r.description, namespaces: servers.filter((s) => archetypes.has(s.archetype.key)).map((s) => s.name) };
  }
  const always = [...new Set(catalog.tools.filter((t) => t.source !== 'mcp').map((t) => t.namespace))];
  return { schemaVersion: 1, always, roles };
}

/**
 * Give a role to the caller of every single-server request that has none yet: 85% a role that
 * sees the gold tool's server, 15% one that does not (tagged `cross-phase`). A session has one
 * caller: every turn gets the session's role (a turn's own, else one drawn for its first
 * single-server turn), and the scopes of a turn that has them.
 */
export function assignRoles(cases: Case[], roles: RoleMap, catalog: Catalog, rng: Rng): void {
  const namespaceOf = new Map(catalog.tools.map((t) => [t.id, t]));
  const names = Object.keys(roles.roles);
  const draw = (c: Case): { role: string; cross: boolean } | undefined => {
    if (!c.expectedTools?.length) return undefined;
    const gold = c.expectedTools.map((id) => namespaceOf.get(id)!);
    if (gold.some((t) => t.source !== 'mcp') || new Set(gold.map((t) => t.namespace)).size !== 1) return undefined;
    const ns = gold[0]!.namespace;
    const fitting = names.filter((n) => roles.roles[n]!.namespaces.includes(ns));
    const other = names.filter((n) => !fitting.includes(n));
    if (!fitting.length) return undefined;
    if (other.length && rng.chance(0.15)) return { role: rng.pick(other), cross: true };
    return { role: rng.pick(fitting), cross: false };
  };
  const sessions = new Map<string, Case[]>();
  for (const c of cases) {
    if (c.sessionId !== undefined) {
      const list = sessions.get(c.sessionId);
      if (list) list.push(c);
      else sessions.set(c.sessionId, [c]);
      continue;
    }
    if (c.role !== undefined) continue;
    const d = draw(c);
    if (!d) continue;
    c.role = d.role;
    if (d.cross) c.slices = [...c.slices, 'cross-phase'];
  }
  for (const turns of sessions.values()) {
    let role = turns.find((c) => c.role !== undefined)?.role;
    if (role === undefined) {
      for (const c of turns) {
        const d = draw(c);
        if (d) {
          role = d.role;
          break;
        }
      }
    }
    const scopes = turns.find((c) => c.callerScopes !== undefined)?.callerScopes;
    for (const c of turns) {
      if (role !== undefined) {
        c.role = role;
        // A turn whose gold the role does not see is a cross-phase request of the same caller.
        const sees = !c.expectedTools?.length || c.expectedTools.some((id) => {
          const t = namespaceOf.get(id)!;
          return t.source !== 'mcp' || roles.roles[role!]?.namespaces.includes(t.namespace);
        });
        if (!sees && !c.slices.includes('cross-phase')) c.slices = [...c.slices, 'cross-phase'];
      }
      if (scopes && !c.callerScopes) c.callerScopes = [...scopes];
    }
  }
}
