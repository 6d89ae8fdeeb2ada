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
 * sees the gold tool's server, 15% one that does not (tagged `cross-phase`).
 */
export function assignRoles(cases: Case[], roles: RoleMap, catalog: Catalog, rng: Rng): void {
  const namespaceOf = new Map(catalog.tools.map((t) => [t.id, t]));
  const names = Object.keys(roles.roles);
  for (const c of cases) {
    if (c.role !== undefined || !c.expectedTools?.length) continue;
    const gold = c.expectedTools.map((id) => namespaceOf.get(id)!);
    if (gold.some((t) => t.source !== 'mcp') || new Set(gold.map((t) => t.namespace)).size !== 1) continue;
    const ns = gold[0]!.namespace;
    const fitting = names.filter((n) => roles.roles[n]!.namespaces.includes(ns));
    const other = names.filter((n) => !fitting.includes(n));
    if (!fitting.length) continue;
    if (other.length && rng.chance(0.15)) {
      c.role = rng.pick(other);
      c.slices = [...c.slices, 'cross-phase'];
    } else c.role = rng.pick(fitting);
  }
}
