/**
 * Multi-turn sessions: one caller (one role for every turn) working on one task, a department's
 * workflow shape. The first turn names the product; later turns are short and lean on what came
 * before: the shape's next step ("post that in #ops"), the same request for another target
 * ("now do the same for staging"), another operation on the same object ("and assign it to
 * Priya"), or an aside that needs no tool.
 */
import type { Rng } from '../util/rng.ts';
import type { ToolMeta } from './tools.ts';
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
  push({ request: wrapTurn(kit, opening, fillFrame(opening, vars, names), r), expectedTools: [steps[0]!.tool.tool.id], slices: ['multi-turn'] });
  let step = 0;
  let last: ToolMeta = steps[0]!.tool;
  let lastAside = false;
  // The last tool turn's object is the one "it" refers to, unless its product went unnamed
  // (then which server's object is anyone's guess) or it was already asked again once.
  let known = true;
  let repeated = false;
  while (out.length < turns) {
    const roll = r.next();
    if (!lastAside && roll < 0.2) {
      push({ request: kit.sessionAside(r), expectedTools: [], slices: ['multi-turn', 'no-tool'] });
      lastAside = true;
      continue;
    }
    lastAside = false;
    // Another operation on the object of the last tool turn, on the same server.
    // Not on a message already posted: the hand-off ends the task.
    const handedOff = ['chat', 'messaging'].includes(last.server!.archetype.key);
    // Only on one object the caller just opened or made ("assign it", "tag it").
    const single = ['get', 'create'].includes(last.op!.key);
    const ops =
      handedOff || !single || !known
        ? []
        : Object.keys(WORKFLOWS.followUps.ops).filter(
            (op) =>
              op !== last.op!.key &&
              !(last.op!.key === 'create' && ['history', 'listComments', 'get'].includes(op)) &&
              idx.byKey.has(key(last.server!.name, op, last.object!.key)),
          );
    const canRepeat = known && !repeated && last.op!.scope === 'read' && last === steps[step]!.tool;
    if (step + 1 < steps.length && (roll < 0.65 || (!ops.length && !canRepeat))) {
      step++;
      const s = steps[step]!;
      const phrase = r.pick(shape.turns[step]!);
      const named = phrase.includes(`{${step}}`) || s.step.sameServerAs !== undefined;
      const gold = named ? { expectedTools: [s.tool.tool.id] } : unnamedGold(s.tool, s.step.archetypes, idx);
      push({ request: followUp(fillFrame(phrase, vars, names), r), ...gold, slices: ['multi-turn'] });
      last = s.tool;
      known = gold.expectedTools!.length === 1;
      repeated = false;
    } else if (canRepeat && (roll < 0.82 || !ops.length)) {
      // The same request for another target: the phrase's slots drawn afresh, unlike the task's.
      const phrase = r.pick(shape.again);
      let fresh = slotValues(kit, r, dept);
      if (fillFrame(phrase, fresh, names) === fillFrame(phrase, vars, names)) fresh = slotValues(kit, r, dept);
      push({ request: followUp(fillFrame(phrase, fresh, names), r), expectedTools: [last.tool.id], slices: ['multi-turn'] });
      repeated = true;
    } else if (ops.length) {
      const op = r.pick(ops);
      const m = idx.byKey.get(key(last.server!.name, op, last.object!.key))!;
      push({ request: followUp(fillFrame(r.pick(WORKFLOWS.followUps.ops[op]!), vars, names), r), expectedTools: [m.tool.id], slices: ['multi-turn'] });
      last = m;
    } else {
      push({ request: kit.sessionAside(r), expectedTools: [], slices: ['multi-turn', 'no-tool'] });
      lastAside = true;
    }
  }
  return out;
}
