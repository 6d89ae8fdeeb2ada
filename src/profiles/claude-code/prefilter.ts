/**
 * Claude Code above the 10,000-tool ceiling: which deferred tools one caller's session admits.
 *
 * Upstream facts:
 * - Claude Code's catalog limit and the API's tool-search limit are both **10,000** tools
 *   (`code.claude.com/docs/en/agent-sdk/tool-search`; `platform.claude.com/docs/en/agents-and-tools/tool-use/tool-search-tool`).
 * - A deferred tool is sent in full in the request's `tools` with `defer_loading: true`. A
 *   `tool_reference` that names a tool missing from `tools` is a request error (HTTP 400). So
 *   `ToolSearch` can only return tools whose definitions are in the request.
 * - The deferred names are announced at session start (`<available-deferred-tools>`, or
 *   system-reminder deltas in newer releases), before any request.
 *
 * So for one session the admitted set is, at the same time, what is advertised (names in the
 * prompt), what `ToolSearch` can find (keywords, `select:`, exact name), and what crosses the wire
 * (definitions the model does not read). It is chosen before the first request, so it cannot depend
 * on the request: it is one set per caller (scope mask and role).
 *
 * **Backpack's pinned assumption.** Upstream documents no rule for choosing ≤ 10,000 tools when a
 * caller may see more (a registered universe above the ceiling has to be "prefiltered or
 * partitioned" first). This rule is ours:
 * 1. the deferrable tools the caller's mask allows; if they fit, all of them;
 * 2. else, when the role map knows the caller's role, only the tools that role sees (its
 *    namespaces and tool patterns, plus `always`);
 * 3. if still over, whole namespaces (the part of each that step 2 kept), in catalog order (the
 *    order servers are configured), each one that still fits ({@link admitNamespaces}): a server
 *    is connected whole or not at all, and one too large for the room left does not stop smaller
 *    ones after it.
 * Below the ceiling nothing is filtered: every deferrable tool the caller may see is admitted.
 */
import { roleMask, type RoleMap } from '../../catalog/roles.ts';
import type { Catalog } from '../../catalog/types.ts';

/** What the ceiling prefilter did for one caller. */
export interface PrefilterTrace {
  /** deferrable tools the caller may see */
  visible: number;
  /** `visible` > ceiling */
  applied: boolean;
  /** the role step kept only the tools the caller's role sees (and `always`) */
  byRole: boolean;
  /** the namespace step ran; `namespaces` are the admitted ones in admission order */
  byNamespace: boolean;
  namespaces: string[];
  /** deferred tools admitted: advertised, searchable and on the wire */
  admitted: number;
}

/** One caller's admitted deferred tools (a mask over catalog positions) and how they were chosen. */
export interface Admitted {
  readonly mask: Uint8Array;
  readonly trace: Readonly<PrefilterTrace>;
}

/**
 * Whole namespaces admitted in the given order, each one that still fits under `ceiling` (first
 * fit: one that would overflow is skipped, later smaller ones may still fit; namespaces with no
 * tools are skipped).
 */
export function admitNamespaces(ordered: ReadonlyArray<{ name: string; count: number }>, ceiling: number): string[] {
  const out: string[] = [];
  let total = 0;
  for (const { name, count } of ordered) {
    if (count === 0 || total + count > ceiling) continue;
    total += count;
    out.push(name);
  }
  return out;
}

/** The rule in words, for `describe()`. */
export function prefilterDescription(ceiling: number): string {
  return (
    `one admitted set per caller (scope mask and role), request-independent: every deferrable tool the caller may see while they number ≤ ${ceiling}; ` +
    "above that (Backpack-pinned; upstream documents none) the tools the caller's role sees (its namespaces and tool patterns, plus roles.always; if the role map knows the role), " +
    'then, if still over, whole namespaces of those in catalog order, each that still fits (first fit). ' +
    'The admitted set is advertised, searched and sent on the wire (defer_loading: true), the same set for all three'
  );
}

const NO_MASK = {};
const NO_ROLE = '\u0000no role';

/** The prefilter over one catalog's deferrable tools; results cached per caller mask object and role. */
export class CeilingPrefilter {
  private n = 0;
  private deferred: Uint32Array<ArrayBufferLike> = new Uint32Array(0);
  /** namespaces of the deferrable tools, in catalog order of first appearance */
  private namespaces: string[] = [];
  private namespaceOf = new Int32Array(0);
  private catalog: Catalog | undefined;
  private roleMasks = new Map<string, Uint8Array | null>();
  private cache = new WeakMap<object, Map<string, Admitted>>();

  constructor(
    readonly ceiling: number,
    private readonly roles: RoleMap | undefined,
  ) {}

  /** `deferred`: positions of the deferrable tools, ascending. */
  index(catalog: Catalog, deferred: Uint32Array<ArrayBufferLike>): void {
    this.n = catalog.tools.length;
    this.deferred = deferred;
    const index = new Map<string, number>();
    this.namespaceOf = new Int32Array(this.n).fill(-1);
    for (const p of deferred) {
      const ns = catalog.tools[p]!.namespace;
      let j = index.get(ns);
      if (j === undefined) index.set(ns, (j = index.size));
      this.namespaceOf[p] = j;
    }
    this.namespaces = [...index.keys()];
    this.catalog = catalog;
    this.roleMasks = new Map();
    this.cache = new WeakMap();
  }

  /** The caller's admitted deferred tools. The mask must have one entry per catalog tool (checked by the caller). */
  admitted(allowed: Uint8Array | undefined, role: string | undefined): Admitted {
    const key = allowed ?? NO_MASK;
    let perRole = this.cache.get(key);
    if (!perRole) this.cache.set(key, (perRole = new Map()));
    const roleKey = role ?? NO_ROLE;
    let a = perRole.get(roleKey);
    if (!a) perRole.set(roleKey, (a = this.compute(allowed, role)));
    return a;
  }

  private compute(allowed: Uint8Array | undefined, role: string | undefined): Admitted {
    let mask = new Uint8Array(this.n);
    let total = 0;
    for (const p of this.deferred) {
      if (allowed !== undefined && allowed[p] !== 1) continue;
      mask[p] = 1;
      total++;
    }
    const trace: PrefilterTrace = { visible: total, applied: total > this.ceiling, byRole: false, byNamespace: false, namespaces: [], admitted: total };
    if (!trace.applied) return { mask, trace };
    const sees = this.roleVisible(role);
    if (sees) {
      trace.byRole = true;
      total = 0;
      for (const p of this.deferred) {
        if (mask[p] === 1 && sees[p] !== 1) mask[p] = 0;
        else if (mask[p] === 1) total++;
      }
    }
    if (total > this.ceiling) {
      trace.byNamespace = true;
      const counts = new Uint32Array(this.namespaces.length);
      for (const p of this.deferred) if (mask[p] === 1) counts[this.namespaceOf[p]!]!++;
      trace.namespaces = admitNamespaces(
        this.namespaces.map((name, j) => ({ name, count: counts[j]! })),
        this.ceiling,
      );
      const kept = new Uint8Array(this.namespaces.length);
      for (const name of trace.namespaces) kept[this.namespaces.indexOf(name)] = 1;
      const admitted = new Uint8Array(this.n);
      total = 0;
      for (const p of this.deferred) {
        if (mask[p] === 1 && kept[this.namespaceOf[p]!] === 1) {
          admitted[p] = 1;
          total++;
        }
      }
      mask = admitted;
    }
    trace.admitted = total;
    return { mask, trace };
  }

  /** The tools a role sees (`always` included), or `undefined` when there is no role or the role map does not know it. */
  private roleVisible(role: string | undefined): Uint8Array | undefined {
    if (role === undefined || !this.roles || !this.catalog) return undefined;
    let m = this.roleMasks.get(role);
    if (m === undefined) {
      m = roleMask(this.roles, role, this.catalog.tools) ?? null;
      this.roleMasks.set(role, m);
    }
    return m ?? undefined;
  }
}
