/**
 * Role / context gating: the caller's role (or task phase) limits the tools searched (what
 * `roleScope` says the role sees: its namespaces and tool patterns), on top of the scope mask,
 * before ranking. An escape hatch covers tasks that span phases: when the best tool outside the
 * role scores at least `1 / escapeRatio` times the best inside it (by default,
 * twice as well), or nothing inside matches, the search widens to every tool the scopes allow.
 * Callers with no role, or a role the map does not know, are not gated.
 */
import { InputError, setting } from '../util/errors.ts';
import { roleMask, type RoleMap } from '../catalog/roles.ts';
import { canonicalJson, sha256 } from '../util/hash.ts';
import type { Catalog } from '../catalog/types.ts';
import { createBm25 } from './bm25/presets.ts';
import type { Describable, Hit, Retriever, SearchContext } from './types.ts';

export interface GateOptions {
  roles?: RoleMap;
  /** Widen when the gated best score is below this share of the ungated best (0 = never widen unless nothing matches). */
  escapeRatio: number;
}

export class GateRetriever implements Retriever, Describable {
  readonly name: string;
  private readonly inner: Retriever & Partial<Describable>;
  private readonly options: GateOptions;
  private masks = new Map<string, Uint8Array>();
  private escapes = 0;
  private gated = 0;

  constructor(name: string, options: GateOptions, inner: Retriever = createBm25('bm25')) {
    this.name = name;
    this.options = options;
    this.inner = inner;
  }

  async index(catalog: Catalog): Promise<void> {
    const roles = this.options.roles;
    if (!roles) throw new InputError(`the gate retriever needs a role map: this dataset has no roles.json; give one with ${setting('roles')} FILE`);
    this.masks = new Map();
    for (const role of Object.keys(roles.roles)) this.masks.set(role, roleMask(roles, role, catalog.tools)!);
    await this.inner.index(catalog);
  }

  async search(request: string, ctx: SearchContext): Promise<Hit[]> {
    const ownMask = ctx.role !== undefined ? this.masks.get(ctx.role) : undefined;
    if (!ownMask) return this.inner.search(request, ctx);
    this.gated++;
    const mask = ctx.allowed ? ownMask.map((v, i) => v & ctx.allowed![i]!) : ownMask;
    const inside = await this.inner.search(request, { ...ctx, allowed: mask });
    const everywhere = await this.inner.search(request, { ...ctx, k: 1 });
    const bestInside = inside[0]?.score ?? 0;
    const bestAnywhere = everywhere[0]?.score ?? 0;
    if (inside.length && bestInside >= this.options.escapeRatio * bestAnywhere) return inside;
    this.escapes++;
    return this.inner.search(request, ctx);
  }

  describe(): Record<string, unknown> {
    return {
      escapeRatio: this.options.escapeRatio,
      roles: this.options.roles ? Object.keys(this.options.roles.roles).length : 0,
      rolesSha256: this.options.roles ? sha256(canonicalJson(this.options.roles)) : null,
      inner: this.inner.describe?.() ?? { name: this.inner.name },
    };
  }

  /** Gated searches and how many of them took the escape hatch (vary with the cases searched). */
  stats(): { gated: number; escapes: number } {
    return { gated: this.gated, escapes: this.escapes };
  }
}

export function createGate(name: string, options: Partial<GateOptions> = {}): GateRetriever {
  return new GateRetriever(name, { escapeRatio: 0.9, ...options });
}
