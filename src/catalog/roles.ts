/**
 * Role / context gating: which namespaces a caller in a role (or a task phase) may see. A file the
 * user writes (`--roles FILE`); the generator writes one for its company (`roles.json` in the
 * dataset folder).
 *
 *   { "schemaVersion": 1,
 *     "always": ["core", …],                       namespaces every role sees
 *     "roles": { "sre": { "description": "…", "namespaces": ["kubernetes", "datadog", …] }, … } }
 */
import { InputError } from './errors.ts';
import { parseJson } from './jsonl.ts';
import { readText } from './dataset-files.ts';
import { didYouMean } from './suggest.ts';
import type { Catalog } from './types.ts';

export interface RoleMap {
  schemaVersion: number;
  always: string[];
  roles: Record<string, { description: string; namespaces: string[] }>;
}

/** Validate a parsed role map: shapes, and every namespace known to the catalog (when given). */
export function checkRoleMap(value: unknown, file: string, catalog?: Catalog): RoleMap {
  const fail = (msg: string, where: string): never => {
    throw new InputError(msg, { file, where });
  };
  if (value === null || typeof value !== 'object' || Array.isArray(value)) fail('a role map must be a JSON object', '$');
  const v = value as Partial<RoleMap>;
  if (typeof v.roles !== 'object' || v.roles === null || Array.isArray(v.roles)) fail('"roles" must be an object of role name → {namespaces}', '$.roles');
  const always = v.always ?? [];
  if (!Array.isArray(always) || always.some((x) => typeof x !== 'string')) fail('"always" must be a list of namespace names', '$.always');
  const known = catalog ? new Set(catalog.tools.map((t) => t.namespace)) : undefined;
  const check = (ns: string, where: string) => {
    if (known && !known.has(ns)) fail(`unknown namespace "${ns}"${didYouMean(ns, known)}`, where);
  };
  always.forEach((ns, i) => check(ns, `$.always[${i}]`));
  for (const [name, role] of Object.entries(v.roles!)) {
    const where = `$.roles.${name}`;
    if (!role || typeof role !== 'object' || !Array.isArray(role.namespaces) || role.namespaces.some((x) => typeof x !== 'string')) fail('each role needs "namespaces": a list of namespace names', where);
    role.namespaces.forEach((ns, i) => check(ns, `${where}.namespaces[${i}]`));
  }
  return { schemaVersion: typeof v.schemaVersion === 'number' ? v.schemaVersion : 1, always, roles: Object.fromEntries(Object.entries(v.roles!).map(([n, r]) => [n, { description: typeof r.description === 'string' ? r.description : '', namespaces: [...r.namespaces] }])) };
}

export function readRoleMap(file: string, catalog?: Catalog): RoleMap {
  return checkRoleMap(parseJson(readText(file), file), file, catalog);
}
