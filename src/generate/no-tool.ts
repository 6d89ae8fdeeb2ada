/**
 * Requests that need no tool (the `no-tool` slice and the asides of sessions), built to test
 * abstention (issue 16, item 4).
 *
 * - Near misses name a product, an object or an operation of the generated catalog but ask for
 *   something no tool does: an operation the named server lacks on that object (`missing-op`), an
 *   opinion or advice about the product (`opinion`), something beyond any tool's power (`beyond`),
 *   a knowledge question in the catalog's words (`knowledge`). Each carries a {@link NearMissClaim}
 *   that {@link answerableBy} checks against the catalog.
 * - The rest is chit-chat, clarifications and off-topic requests: frames × slots from
 *   `data/no-tool.json`, so that few requests repeat.
 */
import { Rng } from '../util/rng.ts';
import { capitalize, spaced } from './text.ts';
import { fill, type ServerPlan, type ToolMeta } from './tools.ts';
import { phrasesFor, uniqueAliases } from './products.ts';
import { OPERATIONS, type OperationSpec } from './vocab/operations.ts';
import { key } from './workflows.ts';
import { fixArticles, placeholderValues, productName as surfaceProductName } from './surface.ts';
import type { ObjectSpec } from './vocab/types.ts';
import data from './data/no-tool.json' with { type: 'json' };
import { generatorDataErrors } from './data-schema.ts';

export interface NoToolData {
  chitchat: { frames: string[]; slots: Record<string, string[]> };
  nearMiss: {
    opinion: string[];
    beyond: string[];
    knowledge: string[];
    missingOp: string[];
    missingOpQuestion: string[];
    slots: Record<string, string[]>;
  };
  asides: { whole: string[]; ack: string[]; follow: string[] };
}

/** Slots of near-miss frames filled from the catalog rather than from the data file. */
const CATALOG_SLOTS = ['product', 'product2', 'obj', 'objs', 'obj2', 'obj2s', 'objA', 'obj2A', 'domain', 'core'];

/**
 * Problems of a no-tool data file: schema violations, then frames using a slot that nothing
 * fills. Empty when the file is fit to use.
 */
export function noToolDataProblems(value: unknown): string[] {
  const errors = generatorDataErrors('noTool', value);
  if (errors.length) return errors;
  const d = value as unknown as NoToolData;
  const out: string[] = [];
  const check = (frames: string[], known: Set<string>, where: string): void => {
    for (const f of frames) for (const [, s] of f.matchAll(/\{(\w+)\}/g)) if (!known.has(s!)) out.push(`${where}: "${f}" uses {${s}}, which no slot fills`);
  };
  check(d.chitchat.frames, new Set(Object.keys(d.chitchat.slots)), 'chitchat.frames');
  const nm = new Set([...Object.keys(d.nearMiss.slots), ...CATALOG_SLOTS]);
  for (const k of ['opinion', 'beyond', 'knowledge', 'missingOp', 'missingOpQuestion'] as const) check(d.nearMiss[k], nm, `nearMiss.${k}`);
  for (const k of ['whole', 'ack', 'follow'] as const) check(d.asides[k], new Set(), `asides.${k}`);
  return out;
}

function load(value: unknown): NoToolData {
  const problems = noToolDataProblems(value);
  if (problems.length) throw new Error(`src/generate/data/no-tool.json is invalid:\n  ${problems.join('\n  ')}`);
  return value as NoToolData;
}

const DATA = load(data);

/** What the no-tool builders need of the case generator's tool index (`ToolIndex` fits). */
export interface NoToolCatalog {
  readonly servers: readonly ServerPlan[];
  readonly byKey: ReadonlyMap<string, ToolMeta>;
  readonly byServer: ReadonlyMap<string, readonly ToolMeta[]>;
}

export type NoToolKind = 'missing-op' | 'opinion' | 'beyond' | 'knowledge' | 'chit-chat';

/** What a near miss is about: the product it names and, for `missing-op`, the operation and object it asks for. */
export interface NearMissClaim {
  kind: Exclude<NoToolKind, 'chit-chat'>;
  /** Display name of the product (every server with that display name counts). */
  product: string;
  /** The operation asked for: only `missing-op` near misses ask for one. */
  op?: string;
  /** Key of the object of the product's kind the request is about. */
  object?: string;
}

export interface NoToolRequest {
  request: string;
  kind: NoToolKind;
  claim?: NearMissClaim;
}

/**
 * Operations that would serve a request for an operation: asking to delete is served by delete,
 * purge, bulk delete or archive, asking for an item by get, list or search… A `missing-op` near
 * miss asks for an operation none of whose servers exists on the object (nor on a confusable
 * object) in the named product.
 */
const SERVES: Record<string, readonly string[]> = {
  list: ['list', 'search', 'export'],
  get: ['get', 'list', 'search'],
  search: ['search', 'list'],
  create: ['create', 'duplicate', 'import'],
  update: ['update', 'bulkUpdate'],
  delete: ['delete', 'purge', 'bulkDelete', 'archive'],
  archive: ['archive', 'delete', 'purge'],
  restore: ['restore'],
  count: ['count', 'list'],
  history: ['history', 'audit', 'activity'],
  audit: ['audit', 'history', 'activity'],
  export: ['export', 'list'],
  import: ['import', 'create'],
  bulkUpdate: ['bulkUpdate', 'update'],
  bulkDelete: ['bulkDelete', 'delete', 'purge'],
  duplicate: ['duplicate', 'create'],
  merge: ['merge'],
  assign: ['assign', 'transfer', 'update'],
  transfer: ['transfer', 'assign'],
  comment: ['comment'],
  listComments: ['listComments', 'activity', 'history'],
  tag: ['tag', 'update'],
  untag: ['untag', 'update'],
  move: ['move', 'update'],
  share: ['share', 'setPermissions'],
  setPermissions: ['setPermissions', 'share'],
  getPermissions: ['getPermissions'],
  subscribe: ['subscribe'],
  link: ['link'],
  lock: ['lock'],
  purge: ['purge', 'delete', 'bulkDelete'],
  activity: ['activity', 'history', 'audit'],
  validate: ['validate'],
};

/**
 * Objects left out of near misses: their tools read out predictions, reports and advice, so
 * "ask Salesforce to predict next quarter's forecasts" might be a `get_forecast` after all.
 */
const ADVISORY_OBJECT = /forecast|predict|insight|recommend|report|dashboard|anomal|suggest|score|health|sentiment|survey|feedback|review|goal|quota|okr/;

/**
 * The tools of the catalog that would answer a near miss, or `[]` (the no-tool check). A claim
 * with an operation (`missing-op`) is answered by any tool doing an operation that serves it
 * ({@link SERVES}) on its object or on a confusable one, on any server of the named product: no
 * such (server, operation, object) triple may exist in `byKey`. The other kinds claim no
 * operation: their frames ask for an opinion, advice, an explanation or something beyond any
 * tool, never for an operation of the vocabulary nor for what a core tool does (web search,
 * code, notes, files; see the data file's `$comment`), and their objects are never advisory
 * ones ({@link ADVISORY_OBJECT}), so no triple can match them.
 */
export function answerableBy(claim: NearMissClaim, catalog: NoToolCatalog): ToolMeta[] {
  if (claim.op === undefined) return [];
  const out: ToolMeta[] = [];
  for (const server of catalog.servers) {
    if (server.spec.display !== claim.product) continue;
    const object = server.archetype.objects.find((o) => o.key === claim.object);
    const objects = [claim.object!, ...(object?.confusable ?? [])];
    for (const op of SERVES[claim.op!] ?? [claim.op!]) {
      for (const o of objects) {
        const m = catalog.byKey.get(key(server.name, op, o));
        if (m) out.push(m);
      }
    }
  }
  return out;
}

/** Fill `{slot}`s from `slots` (a random entry each), catalog values first. */
function fillFrame(frame: string, r: Rng, slots: Record<string, string[]>, fixed: Record<string, string> = {}): string {
  return frame.replace(/\{(\w+)\}/g, (m, k: string) => fixed[k] ?? (slots[k] ? r.pick(slots[k]) : m));
}

/** The product as users write it: the display name, or one of its real nicknames (surface.ts). */
function productName(server: ServerPlan, r: Rng): string {
  return surfaceProductName(server.spec, uniqueAliases(server.spec), r);
}

function usable(o: ObjectSpec): boolean {
  return !ADVISORY_OBJECT.test(o.key);
}

/** A server weighted by the square root of its size, as the tool slices pick them. */
function pickServer(r: Rng, catalog: NoToolCatalog): ServerPlan {
  return r.weighted(
    catalog.servers,
    catalog.servers.map((s) => Math.sqrt(s.size)),
  );
}

const QUESTION = /^(who|what|what's|how|is|are|which|when|where|why|can|could|do|does|did|should|any)\b/;

/** An operation of the vocabulary on an object of the server's kind, which the server (named) does not offer. */
function missingOp(r: Rng, catalog: NoToolCatalog): NoToolRequest | undefined {
  const server = pickServer(r, catalog);
  const objects = server.archetype.objects.filter(usable);
  for (let attempt = 0; attempt < 30; attempt++) {
    const object = r.pick(objects);
    const op: OperationSpec = r.pick(OPERATIONS);
    const claim: NearMissClaim = { kind: 'missing-op', product: server.spec.display, op: op.key, object: object.key };
    if (answerableBy(claim, catalog).length) continue;
    const vars = { ...placeholderValues(r), obj: r.pick(phrasesFor(object, server.spec)), kw: spaced(object.key), kws: spaced(object.plural) };
    const core = fill(r.pick(r.chance(0.5) ? op.casual : op.lexical), vars);
    const frame = r.pick(QUESTION.test(core) ? DATA.nearMiss.missingOpQuestion : DATA.nearMiss.missingOp);
    const request = fillFrame(frame, r, DATA.nearMiss.slots, { core, product: productName(server, r) }).replace(/\?+$/, '?');
    return { request, kind: 'missing-op', claim };
  }
  return undefined;
}

/** A frame about a product and its objects that asks for no operation: opinion, beyond any tool, knowledge. */
function framed(kind: 'opinion' | 'beyond' | 'knowledge', r: Rng, catalog: NoToolCatalog): NoToolRequest {
  const server = pickServer(r, catalog);
  const objects = server.archetype.objects.filter(usable);
  const a = r.pick(objects);
  const others = objects.filter((o) => o !== a);
  const b = others.length ? r.pick(others) : a;
  const peers = catalog.servers.filter((s) => s.archetype === server.archetype && s.spec.display !== server.spec.display);
  const noun = (o: ObjectSpec): string => spaced(o.key);
  const casual = (o: ObjectSpec): string => r.pick(phrasesFor(o, server.spec));
  const fixed: Record<string, string> = {
    product: productName(server, r),
    product2: peers.length ? r.pick(peers).spec.display : 'a spreadsheet',
    obj: noun(a),
    objs: spaced(a.plural),
    obj2: noun(b),
    obj2s: spaced(b.plural),
    objA: r.chance(0.5) ? `a ${casual(a)}`.replace(/^a ([aeiou])/i, 'an $1') : `a ${noun(a)}`.replace(/^a ([aeiou])/i, 'an $1'),
    obj2A: `a ${noun(b)}`.replace(/^a ([aeiou])/i, 'an $1'),
    domain: server.archetype.domain.replace(/\s*\(.*\)/, ''),
  };
  const request = fillFrame(r.pick(DATA.nearMiss[kind]), r, DATA.nearMiss.slots, fixed);
  // The object is named, but no operation: nothing to look up in `byKey` (see `answerableBy`).
  return { request, kind, claim: { kind, product: server.spec.display, object: a.key } };
}

function chitchat(r: Rng): NoToolRequest {
  return { request: fillFrame(r.pick(DATA.chitchat.frames), r, DATA.chitchat.slots), kind: 'chit-chat' };
}

/** Share of the slice's requests that are near misses, and their kinds' weights. */
const NEAR_MISS_SHARE = 0.55;
const NEAR_MISS_KINDS = ['missing-op', 'opinion', 'beyond', 'knowledge'] as const;
const NEAR_MISS_WEIGHTS = [40, 25, 15, 20];

/** One request of the no-tool slice, with its kind (and, for a near miss, what it is about). */
export function noToolRequest(r: Rng, catalog: NoToolCatalog): NoToolRequest {
  let out: NoToolRequest | undefined;
  if (catalog.servers.length && r.chance(NEAR_MISS_SHARE)) {
    const kind = r.weighted(NEAR_MISS_KINDS, NEAR_MISS_WEIGHTS);
    out = kind === 'missing-op' ? missingOp(r, catalog) : framed(kind, r, catalog);
  }
  out ??= chitchat(r);
  const request = fixArticles(out.request);
  return { ...out, request: r.chance(0.5) ? capitalize(request) : request };
}

/**
 * A turn inside a session that needs no tool: an acknowledgement, a pause, a follow-up without
 * a request. It knows nothing of the session's task, so it says nothing about it. It draws one
 * number from `r` (as a single `pick` would), so the session's other turns do not depend on how
 * the aside is worded.
 */
export function sessionAside(sessionRng: Rng): string {
  const r = new Rng(sessionRng.nextU32(), 'session-aside');
  const a = DATA.asides;
  let text = r.pick(a.whole);
  if (r.chance(0.9)) {
    const joiner = r.pick([', ', '. ', ' — ', ', ', '! ']);
    const follow = r.pick(a.follow);
    text = `${r.pick(a.ack)}${joiner}${/[.!] $/.test(joiner) ? capitalize(follow) : follow}`;
  }
  return r.chance(0.3) ? capitalize(text) : text;
}

/** The index {@link noToolRequest} reads, built as the case generator's `ToolIndex` builds it (for tests and tools outside `cases.ts`). */
export function noToolCatalog(tools: readonly ToolMeta[], servers: readonly ServerPlan[]): NoToolCatalog {
  const byKey = new Map<string, ToolMeta>();
  const byServer = new Map<string, ToolMeta[]>();
  for (const m of tools) {
    if (!m.server || m.legacyOf) continue;
    byKey.set(key(m.server.name, m.op!.key, m.object!.key), m);
    const list = byServer.get(m.server.name);
    if (list) list.push(m);
    else byServer.set(m.server.name, [m]);
  }
  return { servers: servers.filter((s) => (byServer.get(s.name)?.length ?? 0) > 0), byKey, byServer };
}
