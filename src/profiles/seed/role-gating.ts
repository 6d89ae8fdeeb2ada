/**
 * `role-gating`, the seed's role / context gating (When Your Agent Has 200 Tools), static within a
 * phase: every tool the caller's role (or task phase) may see (its namespaces and tool patterns,
 * `roles.json` or `--roles`) is sent eagerly; no search. A caller with no role, or a dataset with
 * no role map, sees everything its scopes allow (the static list).
 */
import { roleScope, type RoleMap, type RoleScope } from '../../catalog/roles.ts';
import { describeWith } from '../facts.ts';
import { allowedIds } from '../text.ts';
import type { BeforeSearch, Caller } from '../types.ts';
import { ROLE_GATING_FACTS } from './facts.ts';
import { StaticProfile } from './static.ts';

/** The static full list narrowed to what the caller's role sees. */
export class RoleGatingProfile extends StaticProfile {
  private readonly roles: RoleMap | undefined;

  constructor(name: string, roles?: RoleMap) {
    super(name, 'anthropic', ROLE_GATING_FACTS.description);
    this.roles = roles;
  }

  /** What a role sees (`always` and pinned tools included), or undefined when the caller is not gated. */
  scopeOf(role: string | undefined): RoleScope | undefined {
    return this.roles && role !== undefined ? roleScope(this.roles, role) : undefined;
  }

  override beforeSearch(caller: Caller): BeforeSearch {
    if (!this.catalog) throw new Error(`profile "${this.name}": beforeSearch() called before index()`);
    const scope = this.scopeOf(caller.role);
    return { eager: allowedIds(this.catalog.tools, caller.allowed, (t) => !scope || scope.sees(t)), metaTools: [], advertisement: '' };
  }

  override describe(): Record<string, unknown> {
    return describeWith(ROLE_GATING_FACTS.description, { roles: this.roles ? Object.keys(this.roles.roles).length : 0 });
  }
}
