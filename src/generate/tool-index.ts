/**
 * The index over the generated tools that the case builders share: tools by intent, by
 * (server, operation, object) key and by server, legacy versions, and the traffic model that picks
 * a tool as real traffic would.
 */
import type { Rng } from '../util/rng.ts';
import { TRAFFIC } from './phrasing.ts';
import type { ServerPlan, ToolMeta } from './tools.ts';
import { key } from './workflows.ts';

/** Indexes over the generated tools that the case builders share. */
export class ToolIndex {
  readonly mcp: ToolMeta[];
  readonly hand: ToolMeta[];
  readonly byIntent = new Map<string, ToolMeta[]>();
  readonly byKey = new Map<string, ToolMeta>();
  readonly legacyByBase = new Map<string, ToolMeta[]>();
  readonly byServer = new Map<string, ToolMeta[]>();
  readonly servers: ServerPlan[];
  readonly serverWeights: number[];

  constructor(
    tools: readonly ToolMeta[],
    servers: readonly ServerPlan[],
    private readonly usedByDepartment: (m: ToolMeta) => boolean = () => true,
  ) {
    this.mcp = tools.filter((m) => m.server && !m.legacyOf);
    this.hand = tools.filter((m) => m.hand && !m.tool.pinned);
    for (const m of this.mcp) {
      push(this.byIntent, m.intent!, m);
      this.byKey.set(key(m.server!.name, m.op!.key, m.object!.key), m);
      push(this.byServer, m.server!.name, m);
    }
    for (const m of tools) if (m.legacyOf && m.server) push(this.legacyByBase, key(m.server.name, m.op!.key, m.object!.key), m);
    this.servers = servers.filter((s) => (this.byServer.get(s.name)?.length ?? 0) > 0);
    this.serverWeights = this.servers.map((s) => Math.sqrt(s.size));
  }

  private readonly weightsByServer = new Map<string, number[]>();

  /** The traffic weight of each of a server's tools, in its fill order (computed once). */
  private trafficWeights(server: string, tools: readonly ToolMeta[]): number[] {
    let w = this.weightsByServer.get(server);
    if (!w) {
      w = tools.map((m, i) => popularity(i) * (this.usedByDepartment(m) ? 1 : TRAFFIC.outsideDepartmentsWeight));
      this.weightsByServer.set(server, w);
    }
    return w;
  }

  /**
   * A tool as traffic picks one: a server by size, then a tool of it with Zipf-like popularity
   * by its place in the server's fill order (core objects and common operations first), so a few
   * tools get many requests and most get few, as in real traffic; a tool no department's role
   * sees gets a fraction of the weight (someone outside the usual roles asks for it).
   */
  pickTool(r: Rng, filter: (m: ToolMeta) => boolean = () => true): ToolMeta | undefined {
    for (let attempt = 0; attempt < 40; attempt++) {
      const server = r.weighted(this.servers, this.serverWeights);
      const all = this.byServer.get(server.name)!;
      const base = this.trafficWeights(server.name, all);
      const list: ToolMeta[] = [];
      const weights: number[] = [];
      for (let i = 0; i < all.length; i++) {
        if (!filter(all[i]!)) continue;
        list.push(all[i]!);
        weights.push(base[i]!);
      }
      if (list.length) return r.weighted(list, weights);
    }
    const all = this.mcp.filter(filter);
    return all.length ? r.pick(all) : undefined;
  }

  /** Same operation on a confusable object of the same server, other servers' same intent, legacy versions. */
  siblings(m: ToolMeta, includeOtherServers: boolean): ToolMeta[] {
    const out: ToolMeta[] = [];
    for (const c of m.object!.confusable ?? []) {
      const s = this.byKey.get(key(m.server!.name, m.op!.key, c));
      if (s) out.push(s);
    }
    if (includeOtherServers) for (const s of this.byIntent.get(m.intent!) ?? []) if (s !== m) out.push(s);
    out.push(...(this.legacyByBase.get(key(m.server!.name, m.op!.key, m.object!.key)) ?? []));
    return out;
  }
}

/** The relative popularity of a server's `rank`-th tool (0 first). */
function popularity(rank: number): number {
  return 1 / Math.pow(rank + 1, TRAFFIC.toolPopularityExponent);
}

function push<K, V>(map: Map<K, V[]>, k: K, v: V): void {
  const list = map.get(k);
  if (list) list.push(v);
  else map.set(k, [v]);
}
