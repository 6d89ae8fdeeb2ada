/**
 * Multi-turn sessions: one caller (one role for every turn) working on one task, a department's
 * workflow shape. The first turn names the product; later turns are short and lean on what came
 * before: the shape's next step ("post that in #ops"), the same request for another target
 * ("now do the same for staging"), another operation on the same object ("and assign it to
 * Priya"), or an aside that needs no tool.
 */
import type { Rng } from '../util/rng.ts';
import type { ToolMeta } from './tools.ts';
import { spaced } from './text.ts';
import {
  wrapTurn,
  capitalizeFirst,
  fillFrame,
  key,
  pickShape,
  productName,
  resolveShape,
  slotValues,
  WORKFLOWS,
  type FlowDraft,
  type TextKit,
  type WorkflowIndex,
} from './workflows.ts';

/** Gold for a turn asking for `tool` without naming its product: the same operation on every server of the step's archetypes. */
function unnamedGold(tool: ToolMeta, archetypes: readonly string[], idx: WorkflowIndex): Pick<FlowDraft, 'expectedTools' | 'goldMode'> {
  const same = (idx.byIntent.get(tool.intent!) ?? [tool]).filter((m) => archetypes.includes(m.server!.archetype.key));
  if (same.length <= 1) return { expectedTools: [tool.tool.id] };
  return { expectedTools: same.map((m) => m.tool.id).sort(), goldMode: 'any' };
}

function followUp(text: string, r: Rng): string {
  const lead = r.pick(WORKFLOWS.followUps.leads);
  if (!lead) return r.chance(0.3) ? capitalizeFirst(text) : text;
  return `${lead}${/[.!] $/.test(lead) ? capitalizeFirst(text) : text}`;
}

export function sessionDrafts(idx: WorkflowIndex, kit: TextKit, r: Rng, sessionId: string): FlowDraft[] {
  const { dept, shape } = pickShape(r);
  const steps = resolveShape(shape, idx, r);
  if (!steps) return [];
  const vars = slotValues(kit, r, dept);
  const names = steps.map((s) => productName(s.server, r));
  const turns = r.int(3, 5);
  const out: FlowDraft[] = [];
  const push = (d: Omit<FlowDraft, 'role' | 'sessionId' | 'turn'>): void => {
    out.push({ ...d, role: dept, sessionId, turn: out.length });
  };
  const opening = r.pick(shape.turns[0]!);
  // The phrase of the last shape step asked, so a turn can restate it for another target.
  let stepPhrase = opening;
  push({ request: wrapTurn(kit, opening, fillFrame(opening, vars, names), r), expectedTools: [steps[0]!.tool.tool.id], slices: ['multi-turn'] });
  const rates = WORKFLOWS.followUps.rates;
  let step = 0;
  let last: ToolMeta = steps[0]!.tool;
  let lastAside = false;
  // The last tool turn's object is the one "it" refers to, unless its product went unnamed
  // (then which server's object is anyone's guess).
  let known = true;
  while (out.length < turns) {
    const roll = r.next();
    if (!lastAside && roll < rates.aside) {
      push({ request: kit.sessionAside(r), expectedTools: [], slices: ['multi-turn', 'no-tool'] });
      lastAside = true;
      continue;
    }
    lastAside = false;
    // Another operation on the object of the last tool turn, on the same server ("now close it").
    // Not on a message already posted: the hand-off ends the task.
    const handedOff = ['chat', 'messaging'].includes(last.server!.archetype.key);
    const ops =
      handedOff || !known
        ? []
        : Object.keys(WORKFLOWS.followUps.ops).filter(
            (op) =>
              op !== last.op!.key &&
              !(last.op!.key === 'create' && ['history', 'listComments', 'get'].includes(op)) &&
              idx.byKey.has(key(last.server!.name, op, last.object!.key)),
          );
    const canAgain = known && !handedOff;
    const hasNext = step + 1 < steps.length;
    if (canAgain && (roll < rates.again || (!hasNext && !ops.length))) {
      // The same request for another target ("same for staging", "and the one from yesterday?"):
      // the shape's own phrase on its step's tool, else a phrase that names the object again.
      // Or the step asked again in full with fresh values ("now check the rollout history for search-api in Kubernetes").
      const onStep = last === steps[step]!.tool;
      const roll2 = r.next();
      const restate = onStep && roll2 < 0.4 && /\{(?!\d)\w+\}/.test(stepPhrase);
      const phrase = restate ? stepPhrase : onStep && roll2 < 0.7 ? r.pick(shape.again) : r.pick(WORKFLOWS.followUps.again);
      let fresh = { ...slotValues(kit, r, dept), kw: spaced(last.object!.key) };
      if (fillFrame(phrase, fresh, names) === fillFrame(phrase, { ...vars, kw: fresh.kw }, names)) fresh = { ...slotValues(kit, r, dept), kw: fresh.kw };
      const text = fillFrame(phrase, fresh, names);
      push({
        request: restate ? `${r.pick(WORKFLOWS.followUps.restateLeads)}${text}` : followUp(text, r),
        expectedTools: [last.tool.id],
        slices: ['multi-turn'],
      });
    } else if (ops.length && (roll < rates.sameObject || !hasNext)) {
      const op = r.pick(ops);
      const m = idx.byKey.get(key(last.server!.name, op, last.object!.key))!;
      push({
        request: followUp(fillFrame(r.pick(WORKFLOWS.followUps.ops[op]!), { ...vars, kw: spaced(m.object!.key) }, names), r),
        expectedTools: [m.tool.id],
        slices: ['multi-turn'],
      });
      last = m;
    } else if (hasNext) {
      step++;
      const s = steps[step]!;
      const phrase = r.pick(shape.turns[step]!);
      stepPhrase = phrase;
      const named = phrase.includes(`{${step}}`) || s.step.sameServerAs !== undefined;
      const gold = named ? { expectedTools: [s.tool.tool.id] } : unnamedGold(s.tool, s.step.archetypes, idx);
      push({ request: followUp(fillFrame(phrase, vars, names), r), ...gold, slices: ['multi-turn'] });
      last = s.tool;
      known = gold.expectedTools!.length === 1;
    } else {
      push({ request: kit.sessionAside(r), expectedTools: [], slices: ['multi-turn', 'no-tool'] });
      lastAside = true;
    }
  }
  return out;
}
