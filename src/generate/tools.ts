/**
 * Tool synthesis: plans the servers (which, how many tools each, in what house style) and writes
 * every tool's name, description, schema, scopes and examples.
 */
import { plural } from './surface.ts';
import { firstSentence, makeTool } from '../catalog/model.ts';
import type { Plugin, Server, Tool } from '../catalog/types.ts';
import type { Rng } from '../util/rng.ts';
import { docFor } from './products.ts';
import { handSchema, operationSchema, type DocStyle } from './schemas.ts';
import { article, capitalize, spaced, styleName, type NameStyle } from './text.ts';
import { ARCHETYPES } from './vocab/archetypes.ts';
import { CORE_TOOLS } from './vocab/core-tools.ts';
import { OPERATIONS, type OperationSpec } from './vocab/operations.ts';
import { PLUGINS } from './vocab/plugins.ts';
import { SERVERS } from './vocab/servers.ts';
import type { ArchetypeSpec, HandToolSpec, ObjectSpec, PluginSpec, ServerSpec } from './vocab/types.ts';

/** A server of the generated company: a vocabulary server (maybe a second instance of it) with its size and house style. */
export interface ServerPlan {
  name: string;
  spec: ServerSpec;
  archetype: ArchetypeSpec;
  /** 1 for the first instance of a vocabulary server, 2… for extra tenants at very large scales. */
  instance: number;
  size: number;
  docStyle: DocStyle;
  nameStyle: NameStyle;
  paramStyle: NameStyle;
  /** Tool names carry the product as a prefix (`clickup_create_task`). */
  prefixNames: boolean;
  /** Share of the server's tools that are legacy `_v2` versions of its core operations (near-duplicates). */
  legacyShare: number;
  titles: boolean;
  annotations: boolean;
  /** Objects in this server's fill order. */
  objects: ObjectSpec[];
}

/** What the case generator needs to know about a tool beyond the `Tool` itself. */
export interface ToolMeta {
  tool: Tool;
  server?: ServerPlan;
  op?: OperationSpec;
  object?: ObjectSpec;
  /**
   * `op:object` for MCP tools: the same operation on the same kind of object, on whichever server
   * (and archetype): a request that names no product is answered by any of them.
   */
  intent?: string;
  /** Legacy duplicate (`_v2`): a near-duplicate of its base tool. */
  legacyOf?: string;
  hand?: HandToolSpec;
  plugin?: PluginSpec;
}

/** The seed article's seven servers keep their sizes; the rest share what is left, decreasing along the list. */
export const MONSTER_MCP_TOOLS = 50_000;

/** Tool counts of the 100 vocabulary servers at monster scale (sum = MONSTER_MCP_TOOLS). */
export function monsterSizes(): number[] {
  const fixed = SERVERS.map((s) => s.size ?? 0);
  const fixedSum = fixed.reduce((a, b) => a + b, 0);
  const free = SERVERS.map((s, i) => (s.size === undefined ? i : -1)).filter((i) => i >= 0);
  const remainder = MONSTER_MCP_TOOLS - fixedSum;
  const max = 1050;
  const min = 60;
  const n = free.length;
  const curve = (g: number): number[] => free.map((_, j) => min + (max - min) * Math.pow(1 - j / Math.max(1, n - 1), g));
  // Bisection on the exponent so that the decreasing curve sums to the remainder.
  let lo = 0.05;
  let hi = 20;
  for (let it = 0; it < 80; it++) {
    const mid = (lo + hi) / 2;
    const s = curve(mid).reduce((a, b) => a + b, 0);
    if (s > remainder) lo = mid;
    else hi = mid;
  }
  const sizes = curve((lo + hi) / 2).map((x) => Math.floor(x));
  let diff = remainder - sizes.reduce((a, b) => a + b, 0);
  for (let j = 0; diff !== 0; j = (j + 1) % n) {
    sizes[j]! += Math.sign(diff);
    diff -= Math.sign(diff);
  }
  const out = fixed.slice();
  free.forEach((i, j) => (out[i] = sizes[j]!));
  return out;
}

/** Scale integer sizes to a new total, keeping every size ≥ 1 and the order of sizes. */
export function scaleSizes(sizes: readonly number[], total: number): number[] {
  const sum = sizes.reduce((a, b) => a + b, 0);
  const raw = sizes.map((s) => (s * total) / sum);
  const out = raw.map((r) => Math.max(1, Math.floor(r)));
  let diff = total - out.reduce((a, b) => a + b, 0);
  // Hand out the rounding remainder to the largest fractional parts first (index order on ties).
  const order = raw.map((r, i) => [r - Math.floor(r), i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (let k = 0; diff > 0; k = (k + 1) % order.length, diff--) out[order[k]![1]]! += 1;
  for (let k = out.length - 1; diff < 0; k = (k - 1 + out.length) % out.length) {
    if (out[k]! > 1) {
      out[k]! -= 1;
      diff++;
    }
  }
  return out;
}

/**
 * Tools every scale keeps: the operations of the seed article's incident (Kubernetes rollout
 * history, Datadog logs, a ClickUp task, a Slack message).
 */
export const ANCHORS: Readonly<Record<string, ReadonlyArray<readonly [op: string, object: string]>>> = {
  kubernetes: [['history', 'rollout']],
  datadog: [['search', 'log_event']],
  clickup: [['create', 'task']],
  slack: [['create', 'message']],
};

/** How many objects later an operation of each tier starts being added (see `serverTools`). */
const TIER_DELAY = { 1: 0, 2: 6, 3: 16 } as const;

const DOC_STYLES: readonly DocStyle[] = ['terse', 'neutral', 'neutral', 'verbose', 'rest'];

/** Plan `count` servers carrying `mcpTools` tools in all. */
export function planServers(count: number, mcpTools: number, rng: Rng): ServerPlan[] {
  const base = monsterSizes();
  const specs: Array<{ spec: ServerSpec; instance: number; weight: number }> = [];
  for (let i = 0; i < count; i++) {
    const spec = SERVERS[i % SERVERS.length]!;
    specs.push({ spec, instance: Math.floor(i / SERVERS.length) + 1, weight: base[i % SERVERS.length]! });
  }
  const sizes = scaleSizes(
    specs.map((s) => s.weight),
    mcpTools,
  );
  return specs.map(({ spec, instance }, i) => {
    const r = rng.fork(`server:${spec.name}:${instance}`);
    const archetype = ARCHETYPES.find((a) => a.key === spec.archetype);
    if (!archetype) throw new Error(`server ${spec.name}: unknown archetype ${spec.archetype}`);
    const common = Math.ceil(archetype.objects.length * 0.4);
    const objects = [...archetype.objects.slice(0, common), ...r.shuffle(archetype.objects.slice(common))];
    const nameStyle = r.weighted<NameStyle>(['snake', 'camel', 'kebab'], [7, 2, 1]);
    return {
      name: instance === 1 ? spec.name : `${spec.name}-${instance}`,
      spec,
      archetype,
      instance,
      size: sizes[i]!,
      docStyle: r.pick(DOC_STYLES),
      nameStyle,
      paramStyle: r.chance(0.25) ? 'camel' : 'snake',
      prefixNames: r.chance(0.2),
      legacyShare: r.chance(0.25) ? 0.04 : 0,
      titles: r.chance(0.5),
      annotations: r.chance(0.5),
      objects,
    };
  });
}

/** Fill a `{doc}`-style template. */
export function fill(template: string, vars: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (m, k: string) => vars[k] ?? m);
}

/** The plural of a noun phrase (its head noun: `bills of materials`), as `surface.ts` forms it. */
export function pluralPhrase(phrase: string): string {
  return plural(phrase);
}

function docVars(server: ServerPlan, object: ObjectSpec): Record<string, string> {
  const doc = docFor(object, server.spec);
  return { doc, docs: pluralPhrase(doc), a: article(doc), display: server.spec.display };
}

const NOTES = {
  paginated: 'Results are paginated; pass the returned cursor to fetch the next page.',
  notFound: 'Returns 404 if the {doc} does not exist or is not visible to the caller.',
  history: "The change is recorded in the {doc}'s history.",
  webhook: 'Fires a webhook event to subscribed integrations.',
  rate: 'Rate limited to {rate} requests per minute per workspace.',
  idempotent: 'Safe to retry with the same idempotency key.',
};

function describe(server: ServerPlan, op: OperationSpec, object: ObjectSpec, style: DocStyle, r: Rng): string {
  const vars = { ...docVars(server, object), rate: String(r.pick([60, 100, 120, 600, 1000])) };
  const main = fill(r.pick(op.doc), vars);
  if (style === 'terse') return `${fill(op.terse, vars)}.`;
  const notes: string[] = [];
  const readLike = op.scope === 'read';
  if (op.params === 'list' || op.params === 'search' || op.params === 'timeline') notes.push(NOTES.paginated);
  if (op.params === 'get' || op.params === 'byId') notes.push(NOTES.notFound);
  if (!readLike) notes.push(r.pick([NOTES.history, NOTES.webhook, NOTES.idempotent]));
  notes.push(NOTES.rate);
  const scopeNote = `Requires the \`${server.name}:${op.scope}\` scope.`;
  const confusable = object.confusable?.[0];
  const confusableObj = confusable ? server.archetype.objects.find((o) => o.key === confusable) : undefined;
  const editorialFix =
    confusableObj && r.chance(0.3)
      ? `Use this for ${pluralPhrase(docFor(object, server.spec))} only; for ${pluralPhrase(docFor(confusableObj, server.spec))} use the ${spaced(confusableObj.key)} tools instead.`
      : '';
  if (style === 'neutral') {
    return [`${main}.`, r.chance(0.5) ? fill(r.pick(notes), vars) : ''].filter(Boolean).join(' ');
  }
  if (style === 'verbose') {
    const picked = r.sample(notes, r.int(1, Math.min(3, notes.length))).map((n) => fill(n, vars));
    const domain = `Part of the ${server.spec.display} ${server.archetype.domain} API.`;
    return [`${main}.`, domain, ...picked, scopeNote, editorialFix].filter(Boolean).join(' ');
  }
  const [method, path] = op.http;
  const restPath = fill(path, { plural: object.plural.replace(/_/g, '-'), id: `{${object.key}_id}` });
  const picked = r.sample(notes, r.int(0, 2)).map((n) => fill(n, vars));
  return [`${method} /v2${restPath} — ${main}.`, `Wraps the ${server.spec.display} REST API.`, ...picked, r.chance(0.5) ? scopeNote : '', editorialFix]
    .filter(Boolean)
    .join(' ');
}

function titleOf(snake: string): string {
  return snake.split('_').map(capitalize).join(' ');
}

/** All tools of one server, in a stable order. */
export function serverTools(server: ServerPlan, rng: Rng): ToolMeta[] {
  // Fill order: the server's first objects get more operations before later objects get any, as
  // real servers cover their core objects in depth and the rest with CRUD only.
  const candidates: Array<{ op: OperationSpec; object: ObjectSpec; priority: number }> = [];
  server.objects.forEach((object, i) => {
    for (const op of OPERATIONS) {
      const anchored = ANCHORS[server.spec.name]?.some(([o, k]) => o === op.key && k === object.key);
      candidates.push({ op, object, priority: anchored ? -1 : i + TIER_DELAY[op.tier] });
    }
  });
  candidates.sort((a, b) => a.priority - b.priority); // stable: ties keep object, then operation order
  const out: ToolMeta[] = [];
  const used = new Set<string>();
  const make = (op: OperationSpec, object: ObjectSpec, version: number, legacyOf?: string): ToolMeta | undefined => {
    const r = rng.fork(`tool:${server.name}:${op.key}:${object.key}:${version}`);
    let snake = op.name(object.key, object.plural);
    if (server.prefixNames) snake = `${server.spec.name.replace(/-/g, '_')}_${snake}`;
    if (version > 1) snake = `${snake}_v${version}`;
    const name = styleName(snake, server.nameStyle);
    if (used.has(name)) return undefined;
    used.add(name);
    const style: DocStyle = r.chance(0.2) ? r.pick(DOC_STYLES) : server.docStyle;
    let description = describe(server, op, object, style, r);
    if (legacyOf) {
      description = r.chance(0.5) ? `${description} Legacy endpoint kept for backward compatibility; prefer ${legacyOf}.` : `(v${version}) ${description}`;
    }
    const vars = docVars(server, object);
    const examples = r.chance(0.3)
      ? r.sample(op.examples, r.int(1, 2)).map((e) =>
          fill(e, {
            ...vars,
            ref: '#123',
            ref2: '#456',
            name: 'Example',
            person: 'Alex',
            field: 'status',
            term: 'invoice',
            label: 'urgent',
            place: 'Archive',
          }),
        )
      : [];
    const tool = makeTool({
      name,
      source: 'mcp',
      server: server.name,
      ...(server.titles ? { title: titleOf(op.name(object.key, object.plural)) } : {}),
      summary: firstSentence(description),
      description,
      inputSchema: operationSchema(op.params, object.key, vars.doc!, vars.docs!, style, server.paramStyle, r),
      examples,
      scopes: [`${server.name}:${op.scope}`],
      ...(server.annotations
        ? { annotations: { readOnlyHint: op.scope === 'read', destructiveHint: op.key === 'delete' || op.key === 'purge' || op.key === 'bulkDelete' } }
        : {}),
    });
    return { tool, server, op, object, intent: `${op.key}:${object.key}`, ...(legacyOf ? { legacyOf } : {}) };
  };
  const legacy = Math.floor(server.size * server.legacyShare);
  for (const { op, object } of candidates) {
    if (out.length >= server.size - legacy) break;
    if (redundant(op, object)) continue;
    const m = make(op, object, 1);
    if (m) out.push(m);
  }
  // Legacy versions of the tier-1 operations: near-duplicates by construction (and the fill when
  // a server has more tools than operations × objects).
  const bases = out.filter((m) => m.op!.tier === 1);
  for (let version = 2; out.length < server.size && bases.length; version++) {
    for (const base of bases) {
      if (out.length >= server.size) break;
      const m = make(base.op!, base.object!, version, base.tool.name);
      if (m) out.push(m);
    }
  }
  return out;
}

/**
 * An operation whose name repeats a word of the object (`add_ticket_comment_comment`,
 * `duplicate_duplicate`, `share_share_link`): not a tool anyone would write.
 */
function redundant(op: OperationSpec, object: ObjectSpec): boolean {
  const opWords = op
    .name('\u0000', '\u0001')
    .split(/[_\u0000\u0001]+/)
    .filter(Boolean);
  const objectWords = new Set([...object.key.split('_'), ...object.plural.split('_')]);
  return opWords.some((w) => objectWords.has(w));
}

export function serverRecord(server: ServerPlan): Server {
  const tenant = server.instance > 1 ? ` (tenant ${server.instance})` : '';
  return {
    name: server.name,
    source: 'mcp',
    description: `${server.spec.description}${tenant}`,
    instructions: `${server.spec.display} MCP server${tenant}: ${server.archetype.domain}. Tools are named after the object they act on; read tools need ${server.name}:read, changes need ${server.name}:write, destructive and access-control tools need ${server.name}:admin.`,
  };
}

/** Core tools: the first `count` of the vocabulary's, always keeping the pinned ones. */
export function coreTools(count: number): ToolMeta[] {
  const pinned = CORE_TOOLS.filter((t) => t.pinned);
  const rest = CORE_TOOLS.filter((t) => !t.pinned).slice(0, Math.max(0, count - pinned.length));
  return [...rest, ...pinned].map((hand) => ({
    hand,
    tool: makeTool({
      name: hand.name,
      source: 'core',
      summary: hand.summary,
      description: hand.description,
      inputSchema: handSchema(hand.params),
      pinned: hand.pinned === true,
    }),
  }));
}

/** Plugins and their native tools: the first `count` plugins of the vocabulary. */
export function pluginTools(count: number): { plugins: Plugin[]; tools: ToolMeta[] } {
  const chosen = PLUGINS.slice(0, count);
  const tools = chosen.flatMap((plugin) =>
    plugin.tools.map((hand) => ({
      hand,
      plugin,
      tool: makeTool({
        name: hand.name,
        source: 'plugin',
        plugin: plugin.name,
        summary: hand.summary,
        description: hand.description,
        inputSchema: handSchema(hand.params),
      }),
    })),
  );
  return { plugins: chosen.map((p) => ({ name: p.name, description: p.description })), tools };
}
