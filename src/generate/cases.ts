/**
 * Labelled requests with named slices. Requests are written from the casual vocabulary (verbs,
 * object synonyms, fillers, casual wrappers), not from tool descriptions; the lexical slice
 * deliberately reuses tool-name words, the paraphrase slice provably shares none.
 */
import type { Case } from '../catalog/types.ts';
import type { Rng } from '../util/rng.ts';
import type { SkillMeta } from './skills.ts';
import { sharesNoNameWord, spaced } from './text.ts';
import { fill, type ServerPlan, type ToolMeta } from './tools.ts';
import { docFor, phrasesFor, uniqueAliases } from './products.ts';
import { OBJECT_WORDING, paraphraseVerbPhrase, requestFrame, TRAFFIC } from './phrasing.ts';
import { noToolRequest, sessionAside } from './no-tool.ts';
import { fixArticles, leadIn, placeholderValues, plural, productName, signOff, SURFACE } from './surface.ts';
import { incidentDraft, workflowDraft, type TextKit } from './workflows.ts';
import { sessionDrafts } from './sessions.ts';

/** Share of the cases each slice is generated for (multi-turn counts turns). */
export const SLICE_SHARES = {
  lexical: 0.19,
  paraphrase: 0.17,
  'near-duplicate': 0.1,
  'rare-tool': 0.06,
  'scope-restricted': 0.07,
  'no-tool': 0.16,
  'multi-tool': 0.07,
  skill: 0.07,
  'multi-turn': 0.11,
} as const;

type Mode = 'lexical' | 'paraphrase';

interface Draft {
  request: string;
  expectedTools?: string[];
  goldMode?: 'all' | 'any';
  expectedSkill?: string;
  callerScopes?: string[];
  role?: string;
  slices: string[];
  hardNegatives?: string[];
  sessionId?: string;
  turn?: number;
}

/** Lead-ins before a command, sign-offs after a request (`data/surface.json`; most requests have neither). */
export const PREFIXES: readonly string[] = SURFACE.leadIns;
export const SUFFIXES: readonly string[] = SURFACE.signOffs;

/** The lead-ins and sign-offs above as bare phrases (`"quick one: "` → `quick one`), each once, in order. */
export function wrapperPhrases(): string[] {
  const out = [...PREFIXES, ...QUESTION_PREFIXES, ...SUFFIXES].map((w) => w.replace(/[^\w' ]+/g, ' ').replace(/\s+/g, ' ').trim()).filter(Boolean);
  return [...new Set(out)];
}

/** Indexes over the generated tools that the case builders share. */
class ToolIndex {
  readonly mcp: ToolMeta[];
  readonly hand: ToolMeta[];
  readonly byIntent = new Map<string, ToolMeta[]>();
  readonly byKey = new Map<string, ToolMeta>();
  readonly legacyByBase = new Map<string, ToolMeta[]>();
  readonly byServer = new Map<string, ToolMeta[]>();
  readonly servers: ServerPlan[];
  readonly serverWeights: number[];

  constructor(tools: readonly ToolMeta[], servers: readonly ServerPlan[], private readonly usedByDepartment: (m: ToolMeta) => boolean = () => true) {
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

function key(server: string, op: string, object: string): string {
  return `${server}|${op}|${object}`;
}

function push<K, V>(map: Map<K, V[]>, k: K, v: V): void {
  const list = map.get(k);
  if (list) list.push(v);
  else map.set(k, [v]);
}

function fillers(r: Rng): Record<string, string> {
  return placeholderValues(r);
}

interface Phrase {
  /** Product named before the request (`Kubernetes: …`), if any. */
  lead: string;
  core: string;
}

function productMention(server: ServerPlan, core: string, r: Rng): Phrase {
  const name = productName(server.spec, uniqueAliases(server.spec), r);
  const form = r.int(0, 4);
  if (form === 0) return { lead: `${name}:`, core };
  return { lead: '', core: `${core} ${['in', 'on', 'over in', ''][form - 1]} ${form === 4 ? `(${name})` : name}` };
}

/** Lead-ins that read well before a question as well as before a command. */
export const QUESTION_PREFIXES: readonly string[] = SURFACE.questionLeadIns;
const QUESTION_START = /^(who|what|what's|how|is|are|which|when|where|why|can|could|do|does|did|should|any)\b|^[A-Z"{]/;

/** Casual wrapping: an optional lead-in and sign-off around the request, the product lead first; articles set by sound. */
function wrap(p: Phrase, r: Rng, opts: { prefix?: boolean; signOff?: boolean } = {}): string {
  const prefix = opts.prefix === false ? '' : leadIn(r, QUESTION_START.test(p.core));
  const suffix = opts.signOff === false ? '' : signOff(r);
  return fixArticles(`${p.lead} ${prefix}${p.core}${suffix}`.replace(/\s+/g, ' ').trim());
}

/**
 * The object as a paraphrase names it: its own words, its documentation phrase or a casual
 * description. `archetypeOnly`: the wording is its archetype's (see `gold`).
 */
function objectWording(m: ToolMeta, r: Rng): { obj: string; objs: string; archetypeOnly: boolean } {
  const roll = r.next();
  if (roll < OBJECT_WORDING.own) return { obj: spaced(m.object!.key), objs: spaced(m.object!.plural), archetypeOnly: false };
  if (roll < OBJECT_WORDING.own + OBJECT_WORDING.doc) {
    const doc = docFor(m.object!, m.server!.spec);
    return { obj: doc, objs: plural(doc), archetypeOnly: true };
  }
  const casual = r.pick(phrasesFor(m.object!, m.server!.spec));
  return { obj: casual, objs: plural(casual), archetypeOnly: true };
}

/**
 * The object as a lexical request names it: its own words; now and then its documentation phrase
 * ("sales lead"), or, when the product is named, only the head noun of a compound name
 * ("template" for an email template) if no other object of the archetype shares it, as people
 * shorten names. `archetypeOnly`: the wording is the archetype's (a documentation phrase), so only
 * that archetype's servers answer it when the product is not named.
 */
function lexicalObject(m: ToolMeta, mention: boolean, r: Rng): { kw: string; kws: string; archetypeOnly: boolean } {
  const roll = r.next();
  if (roll < OBJECT_WORDING.lexicalDoc) {
    const doc = docFor(m.object!, m.server!.spec);
    return { kw: doc, kws: plural(doc), archetypeOnly: true };
  }
  const parts = m.object!.key.split('_');
  if (mention && parts.length > 1 && roll < OBJECT_WORDING.lexicalDoc + OBJECT_WORDING.lexicalHead) {
    const head = parts.at(-1)!;
    const shared = m.server!.archetype.objects.some((o) => o !== m.object && (o.key === head || o.key.endsWith(`_${head}`)));
    if (!shared) return { kw: head, kws: plural(head), archetypeOnly: false };
  }
  return { kw: spaced(m.object!.key), kws: spaced(m.object!.plural), archetypeOnly: false };
}

/** Stands for the object while the wording of the operation is checked against the tool's name. */
const OBJ_MARK = 'zqobjmark';
const OBJS_MARK = 'zqobjsmark';

/**
 * The bare request for one MCP tool (no lead-in or sign-off), with or without the product. A
 * paraphrase words the operation with a verb of its class and none of the operation's name words
 * (`phrasing.ts`); the object keeps whatever wording was drawn.
 */
function mcpPhrase(m: ToolMeta, mode: Mode, mention: boolean, r: Rng, framed = true): (Phrase & { archetypeOnly: boolean; framed: boolean; objectText: string[] }) | undefined {
  const values = fillers(r);
  let core: string;
  let archetypeOnly: boolean;
  let objectText: string[] = [];
  if (mode === 'lexical') {
    const o = lexicalObject(m, mention, r);
    archetypeOnly = o.archetypeOnly;
    core = fill(r.pick(m.op!.lexical), { ...values, kw: o.kw, kws: o.kws });
  } else {
    const opName = m.op!.name('x', 'x');
    const marked = paraphraseVerbPhrase(m.op!.key, { ...values, obj: OBJ_MARK, objs: OBJS_MARK }, r, (verb) => !sharesNoNameWord(verb, opName));
    if (!marked || !sharesNoNameWord(marked.replaceAll(OBJS_MARK, '').replaceAll(OBJ_MARK, ''), opName)) return undefined;
    const o = objectWording(m, r);
    archetypeOnly = o.archetypeOnly;
    objectText = [o.objs, o.obj];
    core = marked.replaceAll(OBJS_MARK, o.objs).replaceAll(OBJ_MARK, o.obj);
  }
  const p = mention ? productMention(m.server!, core, r) : { lead: '', core };
  const core2 = framed ? requestFrame(p.core, r) : p.core;
  return { lead: p.lead, core: core2, archetypeOnly, framed: core2 !== p.core, objectText };
}

/**
 * A request for one MCP tool. Returns undefined when no paraphrase avoids the operation's name
 * words (the caller then tries another tool).
 */
function mcpRequest(m: ToolMeta, mode: Mode, mention: boolean, r: Rng): { text: string; archetypeOnly: boolean } | undefined {
  for (let attempt = 0; attempt < 12; attempt++) {
    const p = mcpPhrase(m, mode, mention, r);
    if (!p) continue;
    // A request frame ("I need to…", "next step: …") is its own opening: no lead-in before it.
    const text = wrap(p, r, { prefix: !p.framed });
    // A paraphrase keeps avoiding the operation's name words with its lead-in and sign-off ("when
    // you get a chance" is no paraphrase of a get_… tool); only the object's wording may share them.
    if (mode === 'paraphrase') {
      let rest = text.toLowerCase();
      for (const o of p.objectText) rest = rest.split(o.toLowerCase()).join(' ');
      if (!sharesNoNameWord(rest, m.op!.name('zqobj', 'zqobjs'))) continue;
    }
    return { text, archetypeOnly: p.archetypeOnly };
  }
  return undefined;
}

/**
 * A request for a hand-written (core or plugin) tool: its casual phrasings are whole sentences.
 * A plugin tool's request names the plugin (many plugins share tool names, and some mirror MCP
 * operations), as a user who wants that plugin would.
 */
function handRequest(m: ToolMeta, mode: Mode, r: Rng): string | undefined {
  const casual = r.pick(m.hand!.casual);
  const lead = m.plugin ? `${r.pick(['with the', 'using the', 'via the'])} ${m.plugin.display} plugin:` : '';
  if (mode === 'paraphrase') {
    const text = wrap({ lead, core: casual }, r, { prefix: false });
    return sharesNoNameWord(text, m.tool.name) ? text : undefined;
  }
  return wrap({ lead: lead ? `${lead} ${spaced(m.tool.name)} -` : `${spaced(m.tool.name)}:`, core: casual }, r, { prefix: false });
}

/**
 * Gold for a single-tool request: the tool, or — when the product was not named — every tool
 * doing the same operation on the same kind of object. A request that names the object by its own
 * words means the same on any server (`wording` 'any-server'); one that uses its archetype's
 * documentation phrase or casual words ("marker on a contact" is a CRM tag, not a git tag) is
 * answered only by that archetype's servers ('archetype').
 */
function gold(m: ToolMeta, mention: boolean, idx: ToolIndex, wording: 'any-server' | 'archetype'): { expectedTools: string[]; goldMode?: 'any' } {
  if (!m.server || mention) return { expectedTools: [m.tool.id] };
  const all = idx.byIntent.get(m.intent!) ?? [m];
  const same = wording === 'any-server' ? all : all.filter((t) => t.server!.archetype === m.server!.archetype);
  if (same.length === 1) return { expectedTools: [m.tool.id] };
  return { expectedTools: same.map((s) => s.tool.id).sort(), goldMode: 'any' };
}

function singleToolDraft(m: ToolMeta, mode: Mode, mention: boolean, idx: ToolIndex, r: Rng, slice: string): Draft | undefined {
  const made = m.hand ? { text: handRequest(m, mode, r), archetypeOnly: false } : mcpRequest(m, mode, mention, r);
  const request = made?.text;
  if (!request) return undefined;
  const g = gold(m, mention || !!m.hand, idx, made!.archetypeOnly ? 'archetype' : 'any-server');
  const goldSet = new Set(g.expectedTools);
  const negatives = m.server ? idx.siblings(m, true).map((s) => s.tool.id).filter((id) => !goldSet.has(id)) : [];
  const slices = slice === mode ? [mode] : [slice, mode];
  return { request, ...g, slices, ...(negatives.length ? { hardNegatives: [...new Set(negatives)].sort() } : {}) };
}

/** A request that needs no tool: a near miss on the catalog or chit-chat (see `no-tool.ts`). */
function noToolDraft(r: Rng, idx: ToolIndex): Draft {
  return { request: noToolRequest(r, idx).request, expectedTools: [], slices: ['no-tool'] };
}

function scopeDraft(idx: ToolIndex, r: Rng): Draft | undefined {
  const wantAlternative = r.chance(0.6);
  const hasAlternative = (m: ToolMeta): boolean => !!m.op!.alternative && idx.byKey.has(key(m.server!.name, m.op!.alternative, m.object!.key));
  const tempting = idx.pickTool(r, (m) => m.op!.scope !== 'read' && (!wantAlternative || hasAlternative(m)));
  if (!tempting) return undefined;
  const op = tempting.op!;
  const server = tempting.server!;
  // A caller holding the alternative's scope but not the tempting tool's.
  const altKey = op.alternative;
  const alt = altKey ? idx.byKey.get(key(server.name, altKey, tempting.object!.key)) : undefined;
  const readOnly = op.scope === 'write' || !alt || alt.op!.scope === 'read';
  const callerScopes = [`${server.name}:read`];
  if (!readOnly) callerScopes.push(`${server.name}:write`);
  for (const other of r.sample(idx.servers, 4)) if (other.name !== server.name) callerScopes.push(`${other.name}:read`);
  const permitted = alt && callerScopes.includes(alt.tool.scopes[0]!) ? alt : undefined;
  // With a permitted alternative the request states a need it meets; without one, the plain
  // privileged request, to which the right answer is no tool.
  const request = permitted && op.need ? needRequest(tempting, r) : mcpRequest(tempting, r.chance(0.5) ? 'lexical' : 'paraphrase', true, r)?.text;
  if (!request) return undefined;
  return {
    request,
    expectedTools: permitted ? [permitted.tool.id] : [],
    callerScopes: callerScopes.sort(),
    role: readOnly ? 'read-only-analyst' : 'editor',
    slices: ['scope-restricted'],
    hardNegatives: [tempting.tool.id],
  };
}

/**
 * The need a permitted alternative meets, as an ordinary request: only the need ("who changed
 * this and when?"), not the fallback the vocabulary spells out after it ("…the audit log would be
 * ideal, any change history will do"): the restriction is the caller's, not the request's. A need
 * that names the privileged operation itself ("export each…") is not used.
 */
function needRequest(m: ToolMeta, r: Rng): string {
  const vars = { ...fillers(r), obj: objectWording(m, r).obj, kw: spaced(m.object!.key), kws: spaced(m.object!.plural) };
  const needs = m.op!.need!.map(needOnly);
  const plain = needs.filter((n) => sharesNoNameWord(n.replace(/\{[^}]*\}/g, ' '), m.tool.name));
  // No sign-off: some ("that would be ideal") read like the fallback the request must not state.
  return wrap(productMention(m.server!, fill(r.pick(plain.length ? plain : needs), vars), r), r, { prefix: false, signOff: false });
}

/** A need phrase up to its first fallback clause (`; …`, ` (…)`, `? …`, `, or …`, `, by …`). */
export function needOnly(phrase: string): string {
  const cut = /;|\s\(|\?\s|,\s(?:or|by)\b/.exec(phrase);
  if (!cut) return phrase;
  return phrase.slice(0, cut.index) + (cut[0].startsWith('?') ? '?' : '');
}

function skillDraft(skills: readonly SkillMeta[], r: Rng): Draft {
  const s = r.pick(skills);
  return { request: wrap({ lead: '', core: r.pick(s.casual) }, r, { prefix: false }), expectedSkill: s.skill.name, slices: ['skill'] };
}

/**
 * A session on one server, for catalogs too small for the workflow shapes: the product named on
 * the first tool turn, later turns on the same server that refer back without naming it
 * (labelled with their own tool), and asides that need no tool. One caller throughout.
 */
function oneServerSession(idx: ToolIndex, r: Rng, sessionId: string): Draft[] {
  const turns = r.int(3, 5);
  const server = r.weighted(idx.servers, idx.serverWeights);
  const out: Draft[] = [];
  for (let guard = 0; out.length < turns && guard < turns * 10; guard++) {
    let d: Draft | undefined;
    if (out.length > 0 && r.chance(0.18)) d = { request: sessionAside(r), expectedTools: [], slices: ['no-tool'] };
    else {
      const m = r.pick(idx.byServer.get(server.name)!);
      const mode: Mode = r.chance(0.5) ? 'lexical' : 'paraphrase';
      const mention = out.length === 0;
      d = singleToolDraft(m, mode, mention, idx, r, mode);
      if (d && !mention) {
        d.expectedTools = [m.tool.id];
        delete d.goldMode;
      }
    }
    if (d) out.push({ ...d, slices: ['multi-turn', ...d.slices], sessionId, turn: out.length });
  }
  return out;
}

/**
 * A multi-step task on one server, for catalogs too small for the workflow shapes: two or three
 * operations on one object of one product, in the order a person would do them (look it up,
 * change it, then tell people if a chat server is there), named once.
 */
function oneServerTask(idx: ToolIndex, r: Rng): Draft | undefined {
  const first = idx.pickTool(r, (m) => ['get', 'search', 'list'].includes(m.op!.key));
  if (!first) return undefined;
  const then = ['update', 'comment', 'assign', 'tag', 'archive'].map((op) => idx.byKey.get(key(first.server!.name, op, first.object!.key))).filter((m): m is ToolMeta => m !== undefined);
  if (!then.length) return undefined;
  const second = r.pick(then);
  const steps = [first, second];
  const chat = idx.servers.find((s) => s.archetype.key === 'chat' && s !== first.server);
  const post = chat ? idx.byServer.get(chat.name)!.find((m) => m.op!.key === 'create') : undefined;
  if (post && r.chance(0.5)) steps.push(post);
  const parts = steps.map((m, i) => {
    const mention = i === 0 || m.server !== first.server;
    const p = mcpPhrase(m, 'paraphrase', mention, r, false) ?? mcpPhrase(m, 'lexical', mention, r, false)!;
    return `${p.lead} ${p.core}`.trim();
  });
  const request = wrap({ lead: '', core: parts.join(r.pick([', then ', ' and then ', ', and '])) }, r);
  return { request, expectedTools: steps.map((m) => m.tool.id), goldMode: 'all', slices: ['multi-tool'] };
}

/** The wording helpers the workflow and session builders use. */
const TEXT_KIT: TextKit = { fillers, wrap, sessionAside };

/** Generate about `count` cases (exactly `count` unless the catalog is too small for a slice). */
export function generateCases(
  count: number,
  tools: readonly ToolMeta[],
  servers: readonly ServerPlan[],
  skills: readonly SkillMeta[],
  rng: Rng,
  onProgress: (done: number, total: number) => void = () => {},
  usedByDepartment: (m: ToolMeta) => boolean = () => true,
): Case[] {
  const idx = new ToolIndex(tools, servers, usedByDepartment);
  const quota = (s: keyof typeof SLICE_SHARES): number => Math.round(count * SLICE_SHARES[s]);
  const blocks: Draft[][] = [];
  const fillSlice = (name: string, n: number, make: (r: Rng) => Draft | undefined): void => {
    onProgress(blocks.length, count);
    const r = rng.fork(`cases:${name}`);
    let made = 0;
    for (let guard = 0; made < n && guard < n * 20; guard++) {
      const d = make(r);
      if (d) {
        blocks.push([d]);
        made++;
      }
    }
  };
  const handShare = idx.hand.length / (idx.hand.length + idx.mcp.length);
  const single = (mode: Mode) => (r: Rng) => {
    const m = r.chance(Math.max(0.03, handShare * 3)) && idx.hand.length ? r.pick(idx.hand) : idx.pickTool(r);
    return m ? singleToolDraft(m, mode, r.chance(mode === 'lexical' ? 0.7 : 0.6), idx, r, mode) : undefined;
  };
  const skillQuota = skills.length ? quota('skill') : 0;
  fillSlice('lexical', quota('lexical'), single('lexical'));
  fillSlice('paraphrase', quota('paraphrase') + (skills.length ? 0 : quota('skill')), single('paraphrase'));
  fillSlice('near-duplicate', quota('near-duplicate'), (r) => {
    const m = idx.pickTool(r, (t) => idx.siblings(t, false).length > 0 || (idx.byIntent.get(t.intent!)?.length ?? 0) >= 3);
    return m ? singleToolDraft(m, r.chance(0.5) ? 'lexical' : 'paraphrase', true, idx, r, 'near-duplicate') : undefined;
  });
  const sizes = idx.servers.map((s) => s.size).sort((a, b) => a - b);
  const median = sizes[Math.floor(sizes.length / 2)] ?? 0;
  // Rare: an operation on a kind of object that exactly one server offers, on a smaller server or a tier-3 operation.
  const rare = idx.mcp.filter((m) => (idx.byIntent.get(m.intent!)?.length ?? 0) === 1 && (m.server!.size <= median || m.op!.tier === 3));
  fillSlice('rare-tool', quota('rare-tool'), (r) => (rare.length ? singleToolDraft(r.pick(rare), r.chance(0.5) ? 'lexical' : 'paraphrase', r.chance(0.5), idx, r, 'rare-tool') : undefined));
  fillSlice('scope-restricted', quota('scope-restricted'), (r) => scopeDraft(idx, r));
  fillSlice('no-tool', quota('no-tool'), (r) => noToolDraft(r, idx));
  const incidents = Math.min(5, Math.max(1, Math.round(quota('multi-tool') * 0.05)));
  fillSlice('incident', incidents, (r) => incidentDraft(idx, r));
  fillSlice('multi-tool', quota('multi-tool') - blocks.filter((b) => b[0]!.slices[0] === 'multi-tool').length, (r) => workflowDraft(idx, TEXT_KIT, r));
  // A catalog too small for the workflow shapes (the tiny preset): tasks of two or three steps on
  // one product's object, looked up, changed, then shared.
  fillSlice('multi-tool-small', quota('multi-tool') - blocks.filter((b) => b[0]!.slices[0] === 'multi-tool').length, (r) => oneServerTask(idx, r));
  if (skillQuota) fillSlice('skill', skillQuota, (r) => skillDraft(skills, r));
  // Sessions fill what is left, so the total is exactly `count`.
  const sr = rng.fork('cases:sessions');
  let turnsLeft = count - blocks.length;
  for (let s = 0; turnsLeft > 0 && s < count; s++) {
    const drafts = sessionDrafts(idx, TEXT_KIT, sr, `s${String(s + 1).padStart(4, '0')}`).slice(0, turnsLeft);
    if (!drafts.length) continue;
    blocks.push(drafts);
    turnsLeft -= drafts.length;
  }
  // A catalog too small for the workflow shapes (the tiny preset) fills the rest with sessions on
  // one server, then single requests, so the total is still exactly `count`.
  const fr = rng.fork('cases:fill');
  for (let s = 0; turnsLeft > 0 && s < count; s++) {
    const drafts = oneServerSession(idx, fr, `f${String(s + 1).padStart(4, '0')}`).slice(0, turnsLeft);
    blocks.push(drafts);
    turnsLeft -= drafts.length;
  }
  onProgress(count, count);
  const order = rng.fork('cases:order').shuffle(blocks);
  const split = rng.fork('cases:split');
  const cases: Case[] = [];
  for (const block of order) {
    const s = split.chance(0.25) ? 'train' : 'test';
    for (const d of block) {
      const id = `q${String(cases.length + 1).padStart(6, '0')}`;
      cases.push({
        id,
        request: d.request,
        ...(d.expectedTools !== undefined ? { expectedTools: d.expectedTools } : {}),
        ...(d.goldMode ? { goldMode: d.goldMode } : {}),
        ...(d.expectedSkill ? { expectedSkill: d.expectedSkill } : {}),
        ...(d.callerScopes ? { callerScopes: d.callerScopes } : {}),
        ...(d.role ? { role: d.role } : {}),
        slices: d.slices,
        ...(d.sessionId ? { sessionId: d.sessionId, turn: d.turn! } : {}),
        ...(d.hardNegatives?.length ? { hardNegatives: d.hardNegatives } : {}),
        split: s,
      });
    }
  }
  return cases;
}

