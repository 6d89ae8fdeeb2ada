/**
 * Labelled requests with named slices. Requests are written from the casual vocabulary (verbs,
 * object synonyms, fillers, casual wrappers), not from tool descriptions (`requests.ts`); the
 * lexical slice deliberately reuses tool-name words, the paraphrase slice provably shares none.
 */
import type { Case } from '../catalog/types.ts';
import type { Rng } from '../util/rng.ts';
import type { SkillMeta } from './skills.ts';
import type { ServerPlan, ToolMeta } from './tools.ts';
import { noToolRequest, sessionAside } from './no-tool.ts';
import { fillers, handRequest, mcpPhrase, mcpRequest, needRequest, wrap, type Mode } from './requests.ts';
import { ToolIndex } from './tool-index.ts';
import { VOICE } from './voice.ts';
import { incidentDraft, key, workflowDraft, type TextKit } from './workflows.ts';
import { sessionDrafts } from './sessions.ts';

export { needOnly, PREFIXES, QUESTION_PREFIXES, SUFFIXES, wrapperPhrases } from './requests.ts';

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
  const negatives = m.server
    ? idx
        .siblings(m, true)
        .map((s) => s.tool.id)
        .filter((id) => !goldSet.has(id))
    : [];
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
  // The product named or not, as people do; not named, the alternative on any server the caller
  // may use answers the need (the same operation on the same kind of object).
  const mention = r.chance(VOICE.mention.scope);
  // With a permitted alternative the request states a need it meets; without one, the plain
  // privileged request, to which the right answer is no tool.
  const request = permitted && op.need ? needRequest(tempting, r, mention) : mcpRequest(tempting, r.chance(0.5) ? 'lexical' : 'paraphrase', mention, r)?.text;
  if (!request) return undefined;
  let expectedTools = permitted ? [permitted.tool.id] : [];
  if (permitted && !mention) {
    const same = (idx.byIntent.get(permitted.intent!) ?? [permitted]).filter((t) => callerScopes.includes(t.tool.scopes[0]!));
    expectedTools = same.map((t) => t.tool.id).sort();
  }
  // Unnamed and not permitted: the privileged operation on another server the caller may use would serve.
  if (!permitted && !mention && (idx.byIntent.get(tempting.intent!) ?? []).some((t) => t !== tempting && callerScopes.includes(t.tool.scopes[0]!)))
    return undefined;
  return {
    request,
    expectedTools,
    ...(expectedTools.length > 1 ? { goldMode: 'any' as const } : {}),
    callerScopes: callerScopes.sort(),
    role: readOnly ? 'read-only-analyst' : 'editor',
    slices: ['scope-restricted'],
    hardNegatives: [tempting.tool.id],
  };
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
  const then = ['update', 'comment', 'assign', 'tag', 'archive']
    .map((op) => idx.byKey.get(key(first.server!.name, op, first.object!.key)))
    .filter((m): m is ToolMeta => m !== undefined);
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
    return m ? singleToolDraft(m, mode, r.chance(mode === 'lexical' ? VOICE.mention.lexical : VOICE.mention.paraphrase), idx, r, mode) : undefined;
  };
  const skillQuota = skills.length ? quota('skill') : 0;
  fillSlice('lexical', quota('lexical'), single('lexical'));
  fillSlice('paraphrase', quota('paraphrase') + (skills.length ? 0 : quota('skill')), single('paraphrase'));
  fillSlice('near-duplicate', quota('near-duplicate'), (r) => {
    const m = idx.pickTool(r, (t) => idx.siblings(t, false).length > 0 || (idx.byIntent.get(t.intent!)?.length ?? 0) >= 3);
    return m ? singleToolDraft(m, r.chance(0.5) ? 'lexical' : 'paraphrase', r.chance(VOICE.mention.nearDuplicate), idx, r, 'near-duplicate') : undefined;
  });
  const sizes = idx.servers.map((s) => s.size).sort((a, b) => a - b);
  const median = sizes[Math.floor(sizes.length / 2)] ?? 0;
  // Rare: an operation on a kind of object that exactly one server offers, on a smaller server or a tier-3 operation.
  const rare = idx.mcp.filter((m) => (idx.byIntent.get(m.intent!)?.length ?? 0) === 1 && (m.server!.size <= median || m.op!.tier === 3));
  fillSlice('rare-tool', quota('rare-tool'), (r) =>
    rare.length ? singleToolDraft(r.pick(rare), r.chance(0.5) ? 'lexical' : 'paraphrase', r.chance(VOICE.mention.rareTool), idx, r, 'rare-tool') : undefined,
  );
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
