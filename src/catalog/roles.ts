/**
 * Role / context gating: which tools a caller in a role (or a task phase) may see. A file the
 * user writes (`--roles FILE`); the generator writes one for its company (`roles.json` in the
 * dataset folder).
 *
 *   { "schemaVersion": 1,
 *     "always": ["core", …],                       namespaces every role sees
 *     "alwaysTools": ["plugin__meeting-notes__*"],  tools every role sees (optional)
 *     "roles": {
 *       "sre":   { "description": "…", "namespaces": ["kubernetes", "datadog", …] },
 *       "sales": { "description": "…", "tools": ["mcp__salesforce__*_deal*", "mcp__stripe__create_invoice"] } } }
 *
 * A role sees every tool of its `namespaces` and every tool its `tools` entries match; a role
 * needs at least one of the two lists. A `tools` entry is a tool id (`mcp__github__get_issue`)
 * or a pattern in which `*` stands for any run of characters, matched against the whole id,
 * case-sensitively (`mcp__github__*pull_request*`, `plugin__deal-desk__*`). Pinned tools are seen
 * by every role. {@link roleScope} is the one place that decides whether a role sees a tool: the
 * gate retriever, the gating profiles and the generator's caller assignment all go through it.
 */
import { InputError } from '../util/errors.ts';
import { parseJson } from '../util/jsonl.ts';
import { readTextFile } from '../util/bounded.ts';
import { didYouMean } from '../util/suggest.ts';
import type { Catalog, Tool } from './types.ts';

export interface RoleEntry {
  description: string;
  /** Every tool of these namespaces. */
  namespaces: string[];
  /** Tool ids and `*` patterns over tool ids (absent: none). */
  tools?: string[];
}

export interface RoleMap {
  schemaVersion: number;
  /** Namespaces every role sees. */
  always: string[];
  /** Tool ids and patterns every role sees (absent: none). */
  alwaysTools?: string[];
  roles: Record<string, RoleEntry>;
}

/** The part of a tool that visibility depends on. */
export type ScopedTool = Pick<Tool, 'id' | 'namespace' | 'pinned'>;

/** What one role sees. */
export interface RoleScope {
  /** True when the role sees `tool`: pinned, an `always` namespace or tool, one of the role's namespaces, or a tool its `tools` match. */
  sees(tool: ScopedTool): boolean;
}

/** True when a `tools` entry is a pattern (has a `*`) rather than a tool id. */
export function isToolPattern(entry: string): boolean {
  return entry.includes('*');
}

/** An anchored regular expression for a `*` pattern (every other character literal). */
export function patternRegExp(pattern: string): RegExp {
  return new RegExp(`^(?:${patternSource(pattern)})$`);
}

function patternSource(pattern: string): string {
  return pattern
    .split('*')
    .map((s) => s.replace(/[.+?^${}()|[\]\\/-]/g, '\\$&'))
    .join('.*');
}

/**
 * The literal owner prefix of an id or pattern (`mcp__github__`, `plugin__deal-desk__`), or '' when
 * it has none (core tools; patterns with a `*` before the owner ends). Ids and patterns with the
 * same literal prefix share it, so a pattern is only tried on the tools of its owner.
 */
function ownerPrefix(s: string): string {
  const start = s.startsWith('mcp__') ? 5 : s.startsWith('plugin__') ? 8 : -1;
  if (start < 0) return '';
  const end = s.indexOf('__', start);
  if (end < 0) return '';
  const star = s.indexOf('*');
  if (star >= 0 && star < end + 2) return '';
  return s.slice(0, end + 2);
}

/** Compiled `tools` entries: exact ids, and the patterns grouped by owner prefix into one regular expression each. */
class ToolMatcher {
  private readonly exact = new Set<string>();
  private readonly byOwner = new Map<string, RegExp>();
  private readonly anyOwner: RegExp | undefined;

  constructor(entries: readonly string[]) {
    const groups = new Map<string, string[]>();
    for (const e of entries) {
      if (!isToolPattern(e)) {
        this.exact.add(e);
        continue;
      }
      const owner = ownerPrefix(e);
      const list = groups.get(owner);
      if (list) list.push(patternSource(e));
      else groups.set(owner, [patternSource(e)]);
    }
    for (const [owner, sources] of groups) {
      const re = new RegExp(`^(?:${sources.join('|')})$`);
      if (owner !== '') this.byOwner.set(owner, re);
      else this.anyOwner = re;
    }
  }

  get empty(): boolean {
    return this.exact.size === 0 && this.byOwner.size === 0 && this.anyOwner === undefined;
  }

  matches(id: string): boolean {
    if (this.exact.has(id)) return true;
    if (this.byOwner.size) {
      const re = this.byOwner.get(ownerPrefix(id));
      if (re?.test(id)) return true;
    }
    return this.anyOwner?.test(id) === true;
  }
}

const NONE = new ToolMatcher([]);
const scopeCache = new WeakMap<RoleMap, Map<string, RoleScope>>();

/**
 * What `role` sees under `roles`, or undefined when the map does not know the role (such a caller
 * is not gated). The one visibility rule: every gate and check asks this. A role is compiled once
 * per map object: build a new map rather than change one already asked.
 */
export function roleScope(roles: RoleMap, role: string): RoleScope | undefined {
  if (!Object.prototype.hasOwnProperty.call(roles.roles, role)) return undefined;
  let perMap = scopeCache.get(roles);
  if (!perMap) {
    perMap = new Map();
    scopeCache.set(roles, perMap);
  }
  let scope = perMap.get(role);
  if (!scope) {
    const r = roles.roles[role]!;
    const namespaces = new Set([...roles.always, ...r.namespaces]);
    const always = roles.alwaysTools?.length ? new ToolMatcher(roles.alwaysTools) : NONE;
    const own = r.tools?.length ? new ToolMatcher(r.tools) : NONE;
    scope = {
      sees: (t) => t.pinned || namespaces.has(t.namespace) || (!own.empty && own.matches(t.id)) || (!always.empty && always.matches(t.id)),
    };
    perMap.set(role, scope);
  }
  return scope;
}

/** `roleScope(roles, role).sees(tool)`; false for a role the map does not know. */
export function roleSees(roles: RoleMap, role: string, tool: ScopedTool): boolean {
  return roleScope(roles, role)?.sees(tool) ?? false;
}

/** 1 for each tool of `tools` the role sees, or undefined when the map does not know the role. */
export function roleMask(roles: RoleMap, role: string, tools: readonly ScopedTool[]): Uint8Array | undefined {
  const scope = roleScope(roles, role);
  return scope ? Uint8Array.from(tools, (t) => (scope.sees(t) ? 1 : 0)) : undefined;
}

/** How many tools of `catalog` each role sees, by role name (the role map's order). */
export function visibleCounts(roles: RoleMap, tools: readonly ScopedTool[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const role of Object.keys(roles.roles)) {
    const scope = roleScope(roles, role)!;
    let n = 0;
    for (const t of tools) if (scope.sees(t)) n++;
    out[role] = n;
  }
  return out;
}

/** Validate a parsed role map: shapes, and every namespace, tool id and pattern known to the catalog (when given). */
export function checkRoleMap(value: unknown, file: string, catalog?: Catalog): RoleMap {
  const fail = (msg: string, where: string): never => {
    throw new InputError(msg, { file, where });
  };
  if (value === null || typeof value !== 'object' || Array.isArray(value)) fail('a role map must be a JSON object', '$');
  const v = value as Partial<RoleMap>;
  if (typeof v.roles !== 'object' || v.roles === null || Array.isArray(v.roles))
    fail('"roles" must be an object of role name → {namespaces, tools}', '$.roles');
  const always = v.always ?? [];
  if (!Array.isArray(always) || always.some((x) => typeof x !== 'string')) fail('"always" must be a list of namespace names', '$.always');
  const known = catalog ? new Set(catalog.tools.map((t) => t.namespace)) : undefined;
  const check = (ns: string, where: string) => {
    if (known && !known.has(ns)) fail(`unknown namespace "${ns}"${didYouMean(ns, known)}`, where);
  };
  const tools = catalog ? new ToolIndex(catalog) : undefined;
  const toolList = (list: unknown, where: string): string[] => {
    if (!Array.isArray(list)) fail('must be a list of tool ids or patterns (`*` stands for any run of characters)', where);
    (list as unknown[]).forEach((x, i) => {
      if (typeof x !== 'string' || x.trim() === '' || x !== x.trim())
        fail('a tool entry must be a tool id or a pattern: a non-empty string without surrounding spaces', `${where}[${i}]`);
      if (tools) tools.check(x as string, `${where}[${i}]`, fail);
    });
    return [...(list as string[])];
  };
  always.forEach((ns, i) => check(ns, `$.always[${i}]`));
  const alwaysTools = v.alwaysTools === undefined ? undefined : toolList(v.alwaysTools, '$.alwaysTools');
  const roles: Record<string, RoleEntry> = {};
  for (const [name, role] of Object.entries(v.roles!)) {
    const where = `$.roles.${name}`;
    if (!role || typeof role !== 'object' || Array.isArray(role)) fail('each role must be an object with "namespaces" and/or "tools"', where);
    const r = role as Partial<RoleEntry>;
    if (r.namespaces === undefined && r.tools === undefined)
      fail('each role needs "namespaces" (a list of namespace names) or "tools" (a list of tool ids or patterns), or both', where);
    if (r.namespaces !== undefined && (!Array.isArray(r.namespaces) || r.namespaces.some((x) => typeof x !== 'string')))
      fail('"namespaces" must be a list of namespace names', `${where}.namespaces`);
    const namespaces = [...(r.namespaces ?? [])];
    namespaces.forEach((ns, i) => check(ns, `${where}.namespaces[${i}]`));
    const own = r.tools === undefined ? undefined : toolList(r.tools, `${where}.tools`);
    roles[name] = { description: typeof r.description === 'string' ? r.description : '', namespaces, ...(own ? { tools: own } : {}) };
  }
  return { schemaVersion: typeof v.schemaVersion === 'number' ? v.schemaVersion : 1, always, ...(alwaysTools ? { alwaysTools } : {}), roles };
}

/** The catalog's tool ids, by owner prefix, for checking `tools` entries. */
class ToolIndex {
  private readonly ids: Set<string>;
  private readonly byOwner = new Map<string, string[]>();
  private readonly all: string[];

  constructor(catalog: Catalog) {
    this.all = catalog.tools.map((t) => t.id);
    this.ids = new Set(this.all);
    for (const id of this.all) {
      const owner = ownerPrefix(id);
      const list = this.byOwner.get(owner);
      if (list) list.push(id);
      else this.byOwner.set(owner, [id]);
    }
  }

  /** Fail on a tool id the catalog does not have, or a pattern that matches none of its tools. */
  check(entry: string, where: string, fail: (msg: string, where: string) => never): void {
    if (!isToolPattern(entry)) {
      if (!this.ids.has(entry)) fail(`unknown tool "${entry}"${didYouMean(entry, this.ids)}`, where);
      return;
    }
    const owner = ownerPrefix(entry);
    const re = patternRegExp(entry);
    if (!(owner !== '' ? (this.byOwner.get(owner) ?? []) : this.all).some((id) => re.test(id)))
      fail(`pattern "${entry}" matches no tool of the catalog`, where);
  }
}

export function readRoleMap(file: string, catalog?: Catalog): RoleMap {
  return checkRoleMap(parseJson(readTextFile(file), file), file, catalog);
}
