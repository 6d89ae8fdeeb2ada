/**
 * The seed's "gate, then retrieve": a retriever over only the tools the caller's role (or task
 * phase) sees — `roleScope` of `../../catalog/roles.ts`, the one visibility rule role-gating and the
 * gate retriever use — intersected with the caller's scope mask, before ranking. Unlike the `gate`
 * retriever there is no escape hatch: a tool outside the role is never searched (the seed's
 * deterministic gate; a task spanning phases is the strategy's known blind spot). A caller with no
 * role, a role the map does not know, or no role map at all is not gated (its scopes decide).
 */
import { roleMask, type RoleMap } from '../../catalog/roles.ts';
import type { Catalog } from '../../catalog/types.ts';
import { isDescribable, isPrefetching, type Describable, type Hit, type Prefetching, type Retriever, type SearchContext } from '../../retrievers/types.ts';

export class RoleGatedRetriever implements Retriever, Describable, Prefetching {
  readonly name: string;
  private readonly inner: Retriever;
  private readonly roles: RoleMap | undefined;
  private masks = new Map<string, Uint8Array | undefined>();
  private tools: Catalog['tools'] = [];

  constructor(name: string, inner: Retriever, roles: RoleMap | undefined) {
    this.name = name;
    this.inner = inner;
    this.roles = roles;
  }

  get children(): Retriever[] {
    return [this.inner];
  }

  async index(catalog: Catalog): Promise<void> {
    this.tools = catalog.tools;
    this.masks = new Map();
    await this.inner.index(catalog);
  }

  /** The tools `role` sees, by catalog position, or undefined when the caller is not gated. */
  roleMaskOf(role: string | undefined): Uint8Array | undefined {
    if (!this.roles || role === undefined) return undefined;
    if (!this.masks.has(role)) this.masks.set(role, roleMask(this.roles, role, this.tools));
    return this.masks.get(role);
  }

  async prefetch(requests: readonly string[]): Promise<void> {
    if (isPrefetching(this.inner)) await this.inner.prefetch(requests);
  }

  async search(request: string, context: SearchContext): Promise<Hit[]> {
    const gate = this.roleMaskOf(context.role);
    if (!gate) return this.inner.search(request, context);
    const allowed = context.allowed;
    if (allowed && allowed.length !== gate.length)
      throw new RangeError(`retriever "${this.name}": allowed mask has ${allowed.length} entries, the catalog ${gate.length} tools`);
    const mask = allowed ? gate.map((v, i) => v & allowed[i]!) : gate;
    return this.inner.search(request, { ...context, allowed: mask });
  }

  describe(): Record<string, unknown> {
    return {
      gate: "the caller's role (roleScope: its namespaces, tool patterns, always, pinned) ∩ its scopes, before ranking; no escape hatch; no role or unknown role: not gated",
      roles: this.roles ? Object.keys(this.roles.roles).length : 0,
      inner: isDescribable(this.inner) ? this.inner.describe() : { name: this.inner.name },
    };
  }
}
