/**
 * What agents really call, and what listing every tool costs: the seed article's opening question
 * answered from a dataset's own requests (`backpack audit`, and the report's Tool use section).
 *
 * Per tool: calls (every call the transcripts record, repeats kept), requests and sessions that
 * called it, its share of all requests, the o200k tokens of its definition as the Anthropic
 * Messages API receives it (`{"name","description","input_schema"}`, what listing it eagerly adds to
 * every request) and those tokens per request that used it (schema tokens ÷ share of requests). Per
 * namespace (server, plugin, `core`): the same summed. Then the tools never called, and what
 * dropping them from an eager listing saves per request. A tool known only by its id (`idOnly`: a
 * called tool no catalog defined) has no definition to count: its token figures are null (n/a).
 *
 * Calls come from the cases' `calls` (imported transcripts). A dataset without them (generated,
 * hand-written) is audited on its gold labels instead, each gold tool of a case counted as one
 * call: `basis` says which.
 */
import type { Case, Tool } from '../catalog/types.ts';
import { countTokens } from '../tokens/count.ts';
import { serializeTool } from '../tokens/serialize.ts';

/** A tool as the audit needs it (from a catalog, or from a results folder's `tools.jsonl`). */
export interface AuditTool {
  id: string;
  namespace: string;
  pinned?: boolean;
  /** Defined by Backpack's stand-in for a harness's core tool (its tokens understate the harness's own definition). */
  standIn?: boolean;
  /** o200k tokens of its definition; null when unknown (a tool known only by its id). */
  schemaTokens: number | null;
}

export interface ToolUse {
  id: string;
  namespace: string;
  pinned?: true;
  /** Its definition is Backpack's stand-in for a harness's core tool: `schemaTokens` counts that, not the harness's own. */
  standIn?: true;
  calls: number;
  requests: number;
  sessions: number;
  /** requests ÷ every request of the dataset. */
  requestShare: number;
  schemaTokens: number | null;
  /** schemaTokens ÷ requestShare: eager-listing tokens per request that used the tool; null when never called or unknown. */
  tokensPerUse: number | null;
}

export interface NamespaceUse {
  namespace: string;
  tools: number;
  calledTools: number;
  calls: number;
  requests: number;
  sessions: number;
  requestShare: number;
  /** Sum of its tools' known schema tokens. */
  schemaTokens: number;
  /** Its tools whose tokens are unknown (id-only). */
  unknownTokenTools: number;
  neverCalledTools: number;
  neverCalledTokens: number;
}

/** The audit of a dataset's requests over its tools (see the module comment): `backpack audit --json` prints it. */
export interface Audit {
  /** `calls`: the cases' recorded calls; `gold`: their gold tools (no case records calls). */
  basis: 'calls' | 'gold';
  totals: {
    requests: number;
    sessions: number;
    tools: number;
    calledTools: number;
    calls: number;
    /** Known schema tokens of every tool: what listing the whole catalog eagerly puts in each request. */
    eagerTokens: number;
    /** Tools whose tokens are unknown (id-only). */
    unknownTokenTools: number;
    /** Tools defined by Backpack's stand-ins for a harness's core tools: their tokens understate the harness's own definitions. */
    standInTools: number;
  };
  /**
   * The tools no request called, pinned tools left out (they are shown by design): how many, their
   * known tokens, that as a share of `eagerTokens` (null when it is 0), and their ids in catalog order.
   */
  neverCalled: { tools: number; tokens: number; share: number | null; ids: string[] };
  /** Every tool, most called first (ties: catalog order). */
  tools: ToolUse[];
  /** Every namespace (an MCP server, a plugin, `core`), most called first (ties: name). */
  namespaces: NamespaceUse[];
}

/** o200k tokens of a tool's definition as the Anthropic Messages API receives it; null for a tool known only by its id. */
export function schemaTokens(t: { id: string; description: string; inputSchema: Record<string, unknown>; idOnly?: true }): number | null {
  if (t.idOnly) return null;
  return countTokens(serializeTool({ name: t.id, description: t.description, inputSchema: t.inputSchema }, 'anthropic'));
}

/**
 * What the audit (and a report that shows it) reads of a catalog's tools: a `Catalog` is one, and
 * the readers of results type on this instead of on the catalog.
 */
export interface AuditedCatalog {
  tools: ReadonlyArray<Pick<Tool, 'id' | 'namespace' | 'description' | 'inputSchema'> & Partial<Pick<Tool, 'pinned' | 'standIn' | 'idOnly' | 'summary'>>>;
}

/** The audit's view of every tool of a catalog. */
export function auditTools(catalog: AuditedCatalog): AuditTool[] {
  return catalog.tools.map((t) => ({
    id: t.id,
    namespace: t.namespace,
    ...(t.pinned ? { pinned: true } : {}),
    ...(t.standIn ? { standIn: true } : {}),
    schemaTokens: schemaTokens(t),
  }));
}

/** Whether any case records the calls its agent made (an imported dataset). */
export function recordsCalls(cases: readonly Pick<Case, 'calls'>[]): boolean {
  return cases.some((c) => c.calls !== undefined);
}

const round = (x: number, places = 4): number => {
  const f = 10 ** places;
  return Math.round(x * f) / f;
};

/** The audit of `cases` over `tools` (see the module comment). Calls to a tool `tools` lacks are not counted. */
export function audit(cases: readonly Case[], tools: readonly AuditTool[]): Audit {
  const basis = recordsCalls(cases) ? 'calls' : 'gold';
  const known = new Map(tools.map((t, i) => [t.id, i]));
  const calls = new Array<number>(tools.length).fill(0);
  const requests = new Array<number>(tools.length).fill(0);
  const sessions = tools.map(() => new Set<string>());
  const allSessions = new Set<string>();
  for (const c of cases) {
    const session = c.sessionId ?? `case:${c.id}`;
    allSessions.add(session);
    const made = basis === 'calls' ? (c.calls ?? []) : [...new Set(c.expectedTools ?? [])];
    const seen = new Set<number>();
    for (const id of made) {
      const i = known.get(id);
      if (i === undefined) continue;
      calls[i]!++;
      if (!seen.has(i)) {
        seen.add(i);
        requests[i]!++;
        sessions[i]!.add(session);
      }
    }
  }
  const n = cases.length;
  const toolUse: ToolUse[] = tools.map((t, i) => {
    const share = n ? requests[i]! / n : 0;
    return {
      id: t.id,
      namespace: t.namespace,
      ...(t.pinned ? { pinned: true as const } : {}),
      ...(t.standIn ? { standIn: true as const } : {}),
      calls: calls[i]!,
      requests: requests[i]!,
      sessions: sessions[i]!.size,
      requestShare: round(share),
      schemaTokens: t.schemaTokens,
      tokensPerUse: t.schemaTokens !== null && share > 0 ? Math.round(t.schemaTokens / share) : null,
    };
  });
  const order = toolUse.map((u, i) => ({ u, i })).sort((a, b) => b.u.calls - a.u.calls || a.i - b.i);
  const never = toolUse.filter((u) => u.calls === 0 && !u.pinned);
  const eagerTokens = sum(toolUse.map((u) => u.schemaTokens ?? 0));
  const neverTokens = sum(never.map((u) => u.schemaTokens ?? 0));
  return {
    basis,
    totals: {
      requests: n,
      sessions: allSessions.size,
      tools: tools.length,
      calledTools: toolUse.filter((u) => u.calls > 0).length,
      calls: sum(calls),
      eagerTokens,
      unknownTokenTools: toolUse.filter((u) => u.schemaTokens === null).length,
      standInTools: toolUse.filter((u) => u.standIn).length,
    },
    neverCalled: { tools: never.length, tokens: neverTokens, share: eagerTokens ? round(neverTokens / eagerTokens) : null, ids: never.map((u) => u.id) },
    tools: order.map(({ u }) => u),
    namespaces: namespaceUse(cases, tools, toolUse, basis),
  };
}

function namespaceUse(cases: readonly Case[], tools: readonly AuditTool[], use: readonly ToolUse[], basis: Audit['basis']): NamespaceUse[] {
  const nsOf = new Map(tools.map((t) => [t.id, t.namespace]));
  const by = new Map<string, NamespaceUse & { sessionSet: Set<string> }>();
  for (const u of use) {
    let ns = by.get(u.namespace);
    if (!ns) {
      ns = {
        namespace: u.namespace,
        tools: 0,
        calledTools: 0,
        calls: 0,
        requests: 0,
        sessions: 0,
        requestShare: 0,
        schemaTokens: 0,
        unknownTokenTools: 0,
        neverCalledTools: 0,
        neverCalledTokens: 0,
        sessionSet: new Set(),
      };
      by.set(u.namespace, ns);
    }
    ns.tools++;
    ns.calls += u.calls;
    if (u.calls > 0) ns.calledTools++;
    else if (!u.pinned) {
      ns.neverCalledTools++;
      ns.neverCalledTokens += u.schemaTokens ?? 0;
    }
    if (u.schemaTokens === null) ns.unknownTokenTools++;
    else ns.schemaTokens += u.schemaTokens;
  }
  // requests and sessions that called any tool of the namespace (a request calling two of its tools counts once)
  for (const c of cases) {
    const made = basis === 'calls' ? (c.calls ?? []) : (c.expectedTools ?? []);
    const spaces = new Set(made.map((id) => nsOf.get(id)).filter((ns): ns is string => ns !== undefined));
    for (const s of spaces) {
      const ns = by.get(s)!;
      ns.requests++;
      ns.sessionSet.add(c.sessionId ?? `case:${c.id}`);
    }
  }
  const n = cases.length;
  return [...by.values()]
    .map(({ sessionSet, ...ns }) => ({ ...ns, sessions: sessionSet.size, requestShare: n ? round(ns.requests / n) : 0 }))
    .sort((a, b) => b.calls - a.calls || (a.namespace < b.namespace ? -1 : a.namespace > b.namespace ? 1 : 0));
}

function sum(xs: readonly number[]): number {
  let s = 0;
  for (const x of xs) s += x;
  return s;
}

/** What the token figures mean when some tools are defined by Backpack's stand-ins, or '' when none is. */
export function standInNote(a: Audit): string {
  const n = a.totals.standInTools;
  if (!n) return '';
  return `${n} harness core ${n === 1 ? 'tool is' : 'tools are'} defined by Backpack's one-line stand-ins (a transcript does not record the harness's own definitions), so their tokens, and these totals, are lower than what the harness sends: give --catalog with the real definitions (an API log of the harness has them)`;
}

/** "dropping the N never-called tools saves X tokens per request (Y%)", or why there is nothing to drop. */
export function neverCalledLine(a: Audit): string {
  const what = a.basis === 'calls' ? 'called' : 'expected by any case';
  if (a.neverCalled.tools === 0) return `every tool was ${what} at least once: nothing to drop`;
  const pct = a.neverCalled.share === null ? 'n/a' : `${(a.neverCalled.share * 100).toFixed(1)}%`;
  return `dropping the ${a.neverCalled.tools.toLocaleString('en-US')} never-${a.basis === 'calls' ? 'called' : 'expected'} tools saves ${a.neverCalled.tokens.toLocaleString('en-US')} tokens per request (${pct} of the ${a.totals.eagerTokens.toLocaleString('en-US')}-token eager listing)`;
}
