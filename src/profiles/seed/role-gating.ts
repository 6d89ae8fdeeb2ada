/**
 * `role-gating`, the seed's role / context gating (When Your Agent Has 200 Tools), static within a
 * phase: every tool the caller's role (or task phase) may see (its namespaces and tool patterns,
 * `roles.json` or `--roles`) is sent eagerly; no search. A caller with no role, or a dataset with
 * no role map, sees everything its scopes allow (the static list).
 */
import { roleScope, type RoleMap, type RoleScope } from '../../catalog/roles.ts';
import type { Catalog } from '../../catalog/types.ts';
import { allowedIds } from '../text.ts';
import type { BeforeSearch, Caller, CallProtocol, Profile, QueryStyle, SearchAddition } from '../types.ts';

export class RoleGatingProfile implements Profile {
  readonly name: string;
  readonly searchLimit = 0;
  /** Everything needed is eager: the model calls each tool it needs, nothing else. */
  readonly calls: CallProtocol = { search: 0, perFoundTool: 0, call: 'each' };
  readonly queryStyle: QueryStyle = 'raw';
  private readonly roles: RoleMap | undefined;
  private catalog: Catalog | undefined;

  constructor(name: string, roles?: RoleMap) {
    this.name = name;
    this.roles = roles;
  }

  async index(catalog: Catalog): Promise<void> {
    this.catalog = catalog;
  }

  searcher(): null {
    return null;
  }

  /** What a role sees (`always` and pinned tools included), or undefined when the caller is not gated. */
  scopeOf(role: string | undefined): RoleScope | undefined {
    return this.roles && role !== undefined ? roleScope(this.roles, role) : undefined;
  }

  beforeSearch(caller: Caller): BeforeSearch {
    if (!this.catalog) throw new Error(`profile "${this.name}": beforeSearch() called before index()`);
    const scope = this.scopeOf(caller.role);
    return { eager: allowedIds(this.catalog.tools, caller.allowed, (t) => !scope || scope.sees(t)), metaTools: [], advertisement: '' };
  }

  afterSearch(): SearchAddition {
    return { form: 'schemas', loaded: [], text: '' };
  }

  describe(): Record<string, unknown> {
    return {
      profile: 'role-gating',
      exposure: "every tool the caller's role sees (its namespaces and tool patterns, and `always`), full definitions; pinned tools always; no search",
      roles: this.roles ? Object.keys(this.roles.roles).length : 0,
      ungated: 'callers with no role (or no role map) see every tool their scopes allow',
    };
  }
}
