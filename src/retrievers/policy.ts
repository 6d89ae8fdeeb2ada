/**
 * The policy layer every strategy goes through:
 *   1. scope filter BEFORE ranking: the retriever gets a mask of the tools the caller's scopes
 *      allow and must not score anything else;
 *   2. rank (the retriever);
 *   3. floor: hits scoring below it are dropped (an off-topic request yields only pinned tools);
 *   4. k: at most `depth` ranked tools;
 *   5. pinned tools the caller may use are appended.
 * A retriever that returns a tool outside the mask anyway is a leak: it is counted (the
 * `scopeLeakCount` metric) and the tool is withheld.
 */
import type { Catalog, Tool } from '../catalog/types.ts';
import type { Hit, Retriever, SearchContext } from './types.ts';

export interface CallerContext {
  callerScopes?: readonly string[];
  role?: string;
  session?: { id: string; turn: number };
}

/** The caller a case searches as: its scopes, its role and, when it has one, its session turn (built here only). */
export function callerOf(c: { callerScopes?: readonly string[]; role?: string; sessionId?: string; turn?: number }): CallerContext {
  return {
    ...(c.callerScopes ? { callerScopes: c.callerScopes } : {}),
    ...(c.role !== undefined ? { role: c.role } : {}),
    ...(c.sessionId !== undefined ? { session: { id: c.sessionId, turn: c.turn ?? 0 } } : {}),
  };
}

export interface Exposure {
  /**
   * Ranked hits that passed the scope check and the floor, at most `depth`, best first. For a
   * kept (sticky) exposure: the session's whole carried set, which stays in front of the model,
   * re-ranked for this request (carried tools it does not match score 0).
   */
  ranked: Hit[];
  /** Sticky retrieval kept the session's tool set for this request (no re-retrieval). */
  kept?: boolean;
  /** Pinned tools appended after the ranked ones (those the caller may use and not already ranked). */
  pinned: string[];
  /** Tools the retriever returned although the caller's scopes do not allow them (withheld). */
  leaks: string[];
  /**
   * A fresh retrieval with a floor: the allowed hits the floor dropped, best first, so that
   * `ranked` + `belowFloor` is the unfloored ranking cut at `depth` (for the operating curve).
   */
  belowFloor?: Hit[];
}

/** True if a caller holding `callerScopes` (undefined = unrestricted) may use `tool`. */
export function permits(callerScopes: readonly string[] | undefined, tool: Tool): boolean {
  if (callerScopes === undefined) return true;
  return tool.scopes.every((s) => callerScopes.includes(s));
}

/**
 * What a policy derives from its catalog alone (positions, pinned tools, scope groups, the mask of
 * each caller scope set): built once per catalog and shared by every policy over it, since a run
 * makes a fresh policy per strategy (sticky sessions are per strategy) and building this for
 * 50,000 tools takes ~80 ms. Masks are read-only to everyone who receives them.
 */
interface CatalogShape {
  position: Map<string, number>;
  pinned: readonly Tool[];
  scopeGroups: Array<{ scopes: readonly string[]; positions: Uint32Array }>;
  masks: Map<string, Uint8Array>;
  /** The array's length and last tool when built: an array changed in place since is built again. */
  size: number;
  last: Tool | undefined;
}

const shapes = new WeakMap<readonly Tool[], CatalogShape>();

function shapeOf(tools: readonly Tool[]): CatalogShape {
  let shape = shapes.get(tools);
  if (shape && shape.size === tools.length && shape.last === tools[tools.length - 1]) return shape;
  const position = new Map<string, number>();
  tools.forEach((t, i) => position.set(t.id, i));
  const groups = new Map<string, { scopes: readonly string[]; positions: number[] }>();
  tools.forEach((t, i) => {
    const key = [...t.scopes].sort().join('\n');
    const g = groups.get(key);
    if (g) g.positions.push(i);
    else groups.set(key, { scopes: t.scopes, positions: [i] });
  });
  shape = {
    position,
    pinned: tools.filter((t) => t.pinned),
    scopeGroups: [...groups.values()].map((g) => ({ scopes: g.scopes, positions: Uint32Array.from(g.positions) })),
    masks: new Map(),
    size: tools.length,
    last: tools[tools.length - 1],
  };
  shapes.set(tools, shape);
  return shape;
}

export class Policy {
  private readonly tools: readonly Tool[];
  private readonly position: Map<string, number>;
  private readonly masks: Map<string, Uint8Array>;
  private readonly pinned: readonly Tool[];
  /** Tools grouped by the scopes they need: the unit a caller's mask is decided on. */
  private readonly scopeGroups: Array<{ scopes: readonly string[]; positions: Uint32Array }>;

  constructor(catalog: Catalog) {
    this.tools = catalog.tools;
    ({ position: this.position, masks: this.masks, pinned: this.pinned, scopeGroups: this.scopeGroups } = shapeOf(catalog.tools));
  }

  /** The mask of tools a caller may see (by catalog position), or undefined for an unrestricted caller. Cached per scope set. */
  allowedMask(callerScopes: readonly string[] | undefined): Uint8Array | undefined {
    if (callerScopes === undefined) return undefined;
    const key = [...callerScopes].sort().join('\n');
    let mask = this.masks.get(key);
    if (!mask) {
      // Decide once per distinct scope set of the catalog (a few hundred), then fill by position.
      const held = new Set(callerScopes);
      mask = new Uint8Array(this.tools.length);
      for (const group of this.scopeGroups) {
        if (!group.scopes.every((s) => held.has(s))) continue;
        for (const i of group.positions) mask[i] = 1;
      }
      this.masks.set(key, mask);
    }
    return mask;
  }

  /**
   * The tool set each session currently carries (sticky retrieval), with the caller it was
   * retrieved for (scopes and role): a session whose caller changes (a new role or task phase, other
   * scopes) re-retrieves, so a set gated for one caller never reaches another.
   */
  private readonly sessions = new Map<string, { hits: Hit[]; caller: string }>();

  /** A caller's identity (its scope set and its role): sticky sets and per-caller exposure are keyed by it. */
  static callerKey(caller: Pick<CallerContext, 'callerScopes' | 'role'>): string {
    return `${caller.callerScopes ? [...caller.callerScopes].sort().join('\n') : '*'}\u0000${caller.role ?? ''}`;
  }

  /** The set a sticky session carries for this caller (undefined: none, or retrieved for another caller). */
  private carriedFor(caller: CallerContext, sticky: boolean | undefined): Hit[] | undefined {
    if (!sticky || !caller.session) return undefined;
    const entry = this.sessions.get(caller.session.id);
    return entry && entry.caller === Policy.callerKey(caller) && entry.hits.length ? entry.hits : undefined;
  }

  /**
   * A turn on which the model issues no search (nothing to search for): a sticky session keeps its
   * carried set in front of the model (`kept`, every score 0); otherwise nothing is shown.
   */
  unsearched(caller: CallerContext, opts: { sticky?: boolean }): Exposure {
    const carried = this.carriedFor(caller, opts.sticky);
    if (!carried) return { ranked: [], pinned: [], leaks: [] };
    const ranked = carried.map((h) => ({ id: h.id, score: 0 }));
    return { ranked, pinned: this.pinnedFor(caller, ranked), leaks: [], kept: true };
  }

  /**
   * Run one request through the policy with `retriever`. With `sticky`, a session keeps the tool
   * set it was given and re-retrieves only when the new request scores below the floor (or, with
   * no floor, scores nothing) against every tool it carries: the seed article's rule, which keeps
   * the prompt prefix stable for caching.
   */
  async expose(retriever: Retriever, request: string, caller: CallerContext, opts: { depth: number; floor?: number; sticky?: boolean }): Promise<Exposure> {
    const session = opts.sticky && caller.session ? caller.session.id : undefined;
    const carried = this.carriedFor(caller, opts.sticky);
    if (carried) {
      const kept = await this.keep(retriever, request, caller, carried, opts.floor);
      if (kept) return kept;
    }
    const fresh = await this.retrieve(retriever, request, caller, opts);
    if (session !== undefined) this.sessions.set(session, { hits: fresh.ranked, caller: Policy.callerKey(caller) });
    return fresh;
  }

  /** The carried set re-ranked for this request, or undefined when no carried tool passes the floor. */
  private async keep(
    retriever: Retriever,
    request: string,
    caller: CallerContext,
    carried: readonly Hit[],
    floor: number | undefined,
  ): Promise<Exposure | undefined> {
    const base = this.allowedMask(caller.callerScopes);
    const mask = new Uint8Array(this.tools.length);
    for (const h of carried) {
      const pos = this.position.get(h.id)!;
      if (!base || base[pos] === 1) mask[pos] = 1;
    }
    const raw = await retriever.search(request, {
      k: carried.length,
      allowed: mask,
      ...(caller.callerScopes ? { callerScopes: caller.callerScopes } : {}),
      ...(caller.role !== undefined ? { role: caller.role } : {}),
      ...(caller.session ? { session: caller.session } : {}),
    });
    // A hit outside the caller's scopes is a leak (counted, withheld), as on a fresh search.
    const leaks = raw.filter((h) => base && base[this.position.get(h.id) ?? -1] !== 1).map((h) => h.id);
    const hits = raw.filter((h) => mask[this.position.get(h.id) ?? -1] === 1);
    const best = hits.length ? hits[0]!.score : undefined;
    if (best === undefined || (floor !== undefined && best < floor)) return undefined;
    // Matching carried tools first (this request's scores), then the rest of the set (score 0).
    const matched = new Set(hits.map((h) => h.id));
    const ranked = [...hits, ...carried.filter((h) => !matched.has(h.id) && mask[this.position.get(h.id)!] === 1).map((h) => ({ id: h.id, score: 0 }))];
    return { ranked, pinned: this.pinnedFor(caller, ranked), leaks, kept: true };
  }

  private pinnedFor(caller: CallerContext, ranked: readonly Hit[]): string[] {
    const inRanked = new Set(ranked.map((h) => h.id));
    return this.pinned.filter((t) => !inRanked.has(t.id) && permits(caller.callerScopes, t)).map((t) => t.id);
  }

  /**
   * The context a fresh retrieval for `caller` hands the retriever (what `expose` searches with
   * unless a sticky session keeps its set): for searches sent ahead (`SearchPrefetching`).
   */
  freshContext(caller: CallerContext, depth: number): SearchContext {
    const allowed = this.allowedMask(caller.callerScopes);
    // The floor is not handed to the retriever: the hits below it are kept aside (`belowFloor`), so
    // the operating curve can be drawn from the same search.
    return {
      k: depth,
      ...(allowed ? { allowed } : {}),
      ...(caller.callerScopes ? { callerScopes: caller.callerScopes } : {}),
      ...(caller.role !== undefined ? { role: caller.role } : {}),
      ...(caller.session ? { session: caller.session } : {}),
    };
  }

  private async retrieve(retriever: Retriever, request: string, caller: CallerContext, opts: { depth: number; floor?: number }): Promise<Exposure> {
    const ctx = this.freshContext(caller, opts.depth);
    const allowed = ctx.allowed;
    const hits = await retriever.search(request, ctx);
    const ranked: Hit[] = [];
    const below: Hit[] = [];
    const leaks: string[] = [];
    for (const h of hits) {
      const pos = this.position.get(h.id);
      if (pos === undefined) throw new Error(`retriever ${retriever.name} returned "${h.id}", which is not in the catalog`);
      if (allowed && allowed[pos] !== 1) {
        leaks.push(h.id);
        continue;
      }
      if (ranked.length + below.length >= opts.depth) continue;
      if (opts.floor !== undefined && h.score < opts.floor) below.push(h);
      else ranked.push(h);
    }
    return { ranked, pinned: this.pinnedFor(caller, ranked), leaks, ...(below.length ? { belowFloor: below } : {}) };
  }
}
