/**
 * Multi-tool requests as workflows: per department (the company's roles), shapes of ordered
 * steps whose outputs feed the next step ("find the failing deploy in Kubernetes, pull its error
 * logs from Datadog, open a task for it in ClickUp and post the summary in Slack"), read from
 * data/workflows.json. Gold is every step's tool, in order (goldMode `all`).
 */
import raw from './data/workflows.json' with { type: 'json' };
import { generatorDataErrors } from './data-schema.ts';
import type { Rng } from '../util/rng.ts';
import { ANCHORS, type ServerPlan, type ToolMeta } from './tools.ts';
import { uniqueAliases } from './products.ts';

export interface WorkflowStep {
  archetypes: string[];
  /** [operation, object] pairs in order of preference. */
  tools: Array<[string, string]>;
  sameServerAs?: number;
}

export interface WorkflowShape {
  id: string;
  steps: WorkflowStep[];
  frames: string[];
  turns: string[][];
  again: string[];
}

export interface WorkflowData {
  slots: Record<string, string[]>;
  channels: Record<string, string[]>;
  departments: Record<string, WorkflowShape[]>;
  followUps: {
    leads: string[];
    ops: Record<string, string[]>;
    again: string[];
    restateLeads: string[];
    rates: { aside: number; again: number; sameObject: number };
  };
}

/** What the case builders share with this module (a structural view of tool-index.ts's ToolIndex). */
export interface WorkflowIndex {
  readonly servers: readonly ServerPlan[];
  readonly byKey: ReadonlyMap<string, ToolMeta>;
  readonly byIntent: ReadonlyMap<string, readonly ToolMeta[]>;
}

/** The wording helpers of requests.ts, passed in so this module does not own them. */
export interface TextKit {
  fillers(r: Rng): Record<string, string>;
  wrap(p: { lead: string; core: string }, r: Rng, opts?: { prefix?: boolean }): string;
  sessionAside(r: Rng): string;
}

/** A labelled request, as cases.ts's `Draft`. */
export interface FlowDraft {
  request: string;
  expectedTools?: string[];
  goldMode?: 'all' | 'any';
  role?: string;
  slices: string[];
  sessionId?: string;
  turn?: number;
}

/** Schema errors and cross-field errors of a workflows file (empty when it is valid). */
export function workflowErrors(data: unknown): string[] {
  const schemaErrors = generatorDataErrors('workflows', data);
  if (schemaErrors.length) return schemaErrors;
  const d = data as unknown as WorkflowData;
  const errors: string[] = [];
  const slotNames = new Set([
    ...Object.keys(d.slots),
    'channel',
    'person',
    'ref',
    'ref2',
    'name',
    'term',
    'label',
    'text',
    'field',
    'value',
    'place',
    'date',
    'kw',
  ]);
  const checkSlots = (where: string, phrase: string, steps: number): void => {
    for (const [, slot] of phrase.matchAll(/\{([^}]*)\}/g)) {
      if (/^\d+$/.test(slot!)) {
        if (Number(slot) >= steps) errors.push(`${where}: {${slot}} names no step`);
      } else if (!slotNames.has(slot!)) errors.push(`${where}: unknown slot {${slot}}`);
    }
  };
  for (const [dept, shapes] of Object.entries(d.departments)) {
    if (!d.channels[dept]) errors.push(`${dept}: no channels`);
    for (const s of shapes) {
      const where = `${dept}/${s.id}`;
      if (s.turns.length !== s.steps.length) errors.push(`${where}: ${s.turns.length} turn lists for ${s.steps.length} steps`);
      s.steps.forEach((st, i) => {
        if (st.sameServerAs !== undefined && st.sameServerAs >= i) errors.push(`${where}: step ${i} sameServerAs a later step`);
      });
      for (const f of s.frames) {
        checkSlots(where, f, s.steps.length);
        s.steps.forEach((st, i) => {
          if (st.sameServerAs === undefined && !f.includes(`{${i}}`)) errors.push(`${where}: frame does not name step ${i}'s product: ${f}`);
        });
      }
      for (const a of s.again) checkSlots(where, a, 0);
      s.turns.forEach((list, i) => {
        for (const t of list) {
          checkSlots(where, t, s.steps.length);
          if (i === 0 && !t.includes('{0}')) errors.push(`${where}: a first turn must name its product: ${t}`);
        }
      });
    }
  }
  for (const p of [...Object.values(d.followUps.ops).flat(), ...d.followUps.again]) checkSlots('followUps', p, 0);
  return errors;
}

function load(data: unknown): WorkflowData {
  const errors = workflowErrors(data);
  if (errors.length) throw new Error(`src/generate/data/workflows.json is invalid:\n${errors.join('\n')}`);
  return data as WorkflowData;
}

export const WORKFLOWS: WorkflowData = load(raw);
export const DEPARTMENTS: readonly string[] = Object.keys(WORKFLOWS.departments);

/** The key of a tool by server, operation and object (`ToolIndex.byKey`). */
export function key(server: string, op: string, object: string): string {
  return `${server}|${op}|${object}`;
}

export interface ResolvedStep {
  step: WorkflowStep;
  server: ServerPlan;
  tool: ToolMeta;
}

function toolFor(server: ServerPlan, step: WorkflowStep, idx: WorkflowIndex): ToolMeta | undefined {
  for (const [op, object] of step.tools) {
    const m = idx.byKey.get(key(server.name, op, object));
    if (m) return m;
  }
  return undefined;
}

/** Servers and tools for a shape's steps (each step on another server unless `sameServerAs`), or undefined. */
export function resolveShape(shape: WorkflowShape, idx: WorkflowIndex, r: Rng): ResolvedStep[] | undefined {
  const out: ResolvedStep[] = [];
  for (const step of shape.steps) {
    const candidates =
      step.sameServerAs !== undefined
        ? [out[step.sameServerAs]!.server].filter((s) => toolFor(s, step, idx))
        : idx.servers.filter((s) => s.instance === 1 && step.archetypes.includes(s.archetype.key) && !out.some((o) => o.server === s) && toolFor(s, step, idx));
    if (!candidates.length) return undefined;
    const server =
      candidates.length === 1
        ? candidates[0]!
        : r.weighted(
            candidates,
            candidates.map((s) => Math.sqrt(s.size)),
          );
    out.push({ step, server, tool: toolFor(server, step, idx)! });
  }
  return out;
}

/** A product as users name it: its display name, sometimes its one unambiguous nickname (`k8s`). */
export function productName(server: ServerPlan, r: Rng): string {
  const aliases = uniqueAliases(server.spec);
  return aliases.length && r.chance(0.2) ? r.pick(aliases) : server.spec.display;
}

/** One value per slot: the data file's slots and the generator's fillers, plus a second ref. */
export function slotValues(kit: TextKit, r: Rng, dept: string): Record<string, string> {
  const out = kit.fillers(r);
  for (const [k, list] of Object.entries(WORKFLOWS.slots)) out[k] = r.pick(list);
  out.channel = r.pick(WORKFLOWS.channels[dept]!);
  return out;
}

/** `wrap` for a turn that may be a question: the question mark stays at the end when no sign-off follows. */
export function wrapTurn(kit: TextKit, frame: string, core: string, r: Rng): string {
  const bare = core.replace(/\?$/, '');
  const out = kit.wrap({ lead: '', core: bare }, r, { prefix: !frame.startsWith('{') });
  return core.endsWith('?') && out.endsWith(bare) ? `${out}?` : out;
}

export function fillFrame(frame: string, vars: Record<string, string>, names: readonly string[]): string {
  return frame.replace(/\{([^}]*)\}/g, (whole, slot: string) => (/^\d+$/.test(slot) ? names[Number(slot)] : vars[slot]) ?? whole);
}

export function capitalizeFirst(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** The shapes of a department, or of all of them. */
export function pickShape(r: Rng): { dept: string; shape: WorkflowShape } {
  const dept = r.pick(DEPARTMENTS);
  return { dept, shape: r.pick(WORKFLOWS.departments[dept]!) };
}

/** A coherent multi-tool request from one department's workflow shape; its caller has that role. */
export function workflowDraft(idx: WorkflowIndex, kit: TextKit, r: Rng): FlowDraft | undefined {
  const { dept, shape } = pickShape(r);
  const steps = resolveShape(shape, idx, r);
  if (!steps) return undefined;
  const frame = r.pick(shape.frames);
  const text = fillFrame(
    frame,
    slotValues(kit, r, dept),
    steps.map((s) => productName(s.server, r)),
  ).replace(/\.$/, '');
  // A frame opening on a name (kept as written: `orders_fact looks stale`), or of two sentences, takes no lead-in ("pls checkout is throwing…").
  // So does one that sets the scene before a colon ("we need a view of orders: …").
  const twoSentences = /[.!?] [A-Z{]/.test(frame);
  let request = kit.wrap({ lead: '', core: text }, r, { prefix: !/^[{A-Z]/.test(frame) && !twoSentences && !/^[^,]*: /.test(frame) });
  if (twoSentences && !frame.startsWith('{')) request = capitalizeFirst(request);
  // A command does not end on a sign-off question mark ("…post the details in Teams?").
  if (!frame.endsWith('?')) request = request.replace(/\?$/, '');
  return { request, expectedTools: steps.map((s) => s.tool.tool.id), goldMode: 'all', role: dept, slices: ['multi-tool'] };
}

/**
 * The seed article's incident, with the same four operations across four servers. Its caller has
 * no role: no role of the company sees all four (an SRE's role does not see ClickUp).
 */
export function incidentDraft(idx: WorkflowIndex, r: Rng): FlowDraft | undefined {
  const steps = ['kubernetes', 'datadog', 'clickup', 'slack'].map((server) => {
    const [op, object] = ANCHORS[server]![0]!;
    return idx.byKey.get(key(server, op, object));
  });
  if (steps.some((s) => s === undefined)) return undefined;
  const service = r.pick(['Voice AI', 'checkout', 'search-api', 'payments', 'notifications']);
  const request = r.pick([
    `${service} calls started failing after yesterday's deploy. Check the rollout history in Kubernetes, pull the error logs from Datadog, open a ClickUp task for the incident and post a summary in Slack.`,
    `${service} is throwing 429s since the last release: look at the k8s rollout history, search Datadog logs for the errors, create a ClickUp incident task, then drop a summary message in Slack.`,
  ]);
  return { request, expectedTools: steps.map((s) => s!.tool.id), goldMode: 'all', slices: ['multi-tool'] };
}

/** The workflow shapes whose step archetypes are `archetypes`, in order (for checks). */
export function shapesMatching(archetypes: readonly string[]): WorkflowShape[] {
  return Object.values(WORKFLOWS.departments)
    .flat()
    .filter((s) => s.steps.length === archetypes.length && s.steps.every((st, i) => st.archetypes.includes(archetypes[i]!)));
}
