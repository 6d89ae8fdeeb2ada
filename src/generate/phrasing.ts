/**
 * Open wording of requests (issue 16): an operation is put in a verb of its class — the lemmas of
 * reviewed WordNet senses, in `data/lexicon.json` — inside an operation frame (`data/phrasing.json`):
 * one of the operation's own, or, for a share of requests, a plain frame that carries the operation
 * by its verb alone (generator 3.0). How the verb phrase is then asked is `voice.ts`'s. None of it
 * comes from a model a retriever uses.
 */
import lexicon from './data/lexicon.json' with { type: 'json' };
import phrasing from './data/phrasing.json' with { type: 'json' };
import { generatorDataErrors } from './data-schema.ts';
import type { Rng } from '../util/rng.ts';
import { fill } from './tools.ts';

/**
 * Problems of the phrasing data and its lexicon: schema violations, an operation naming a verb
 * class the lexicon lacks, object-wording shares that do not sum to 1. Empty when fit to use.
 */
export function phrasingProblems(data: unknown, lex: unknown): string[] {
  const out = [...generatorDataErrors('phrasing', data).map((e) => `phrasing.json${e}`), ...generatorDataErrors('lexicon', lex).map((e) => `lexicon.json${e}`)];
  if (out.length) return out;
  const p = data as typeof phrasing;
  const classes = (lex as typeof lexicon).verbClasses as Record<string, string[]>;
  for (const [op, o] of Object.entries(p.operations))
    for (const c of o.verbs)
      if (!classes[c]) out.push(`phrasing.json/operations/${op}: verb class "${c}" is not in lexicon.json (run scripts/extract-lexicon.ts)`);
  for (const c of Object.keys(p.verbClasses)) if (!classes[c]) out.push(`lexicon.json: no verb class "${c}" (run scripts/extract-lexicon.ts)`);
  const w = p.objectWording;
  if (Math.abs(w.own + w.doc + w.casual - 1) > 1e-9) out.push('phrasing.json/objectWording: own + doc + casual must be 1');
  if (w.lexicalDoc + w.lexicalHead > 1) out.push('phrasing.json/objectWording: lexicalDoc + lexicalHead must be at most 1');
  for (const [op, kind] of Object.entries(p.plainFrames.operations)) {
    if (!(op in p.operations)) out.push(`phrasing.json/plainFrames/operations: "${op}" is not an operation of phrasing.json`);
    if (!(kind in p.plainFrames.frames)) out.push(`phrasing.json/plainFrames/operations/${op}: no frames of kind "${kind}"`);
  }
  return out;
}

{
  const problems = phrasingProblems(phrasing, lexicon);
  if (problems.length) throw new Error(`src/generate/data: ${problems.join('; ')}`);
}

type OperationKey = keyof typeof phrasing.operations;

/** The verbs of a class, in WordNet's order. */
export function classVerbs(name: string): readonly string[] {
  const list = (lexicon.verbClasses as Record<string, string[]>)[name];
  if (!list) throw new Error(`src/generate/data/phrasing.json: no verb class "${name}" in lexicon.json (run scripts/extract-lexicon.ts)`);
  return list;
}

/** The verbs (of all its classes) and frames of each operation the phrasing data covers. */
const PHRASING_BY_OPERATION = new Map(
  Object.entries(phrasing.operations as Record<string, { verbs: string[]; frames: string[] }>).map(([op, p]) => [
    op,
    { verbs: [...new Set(p.verbs.flatMap(classVerbs))] as readonly string[], frames: p.frames as readonly string[] },
  ]),
);

/** The verbs (of all its classes) and frames of an operation, if the phrasing data covers it. */
export function operationPhrasing(op: string): { verbs: readonly string[]; frames: readonly string[] } | undefined {
  return PHRASING_BY_OPERATION.get(op);
}

/** Every operation key the phrasing data words. */
export function phrasedOperations(): string[] {
  return Object.keys(phrasing.operations) as OperationKey[];
}

/**
 * A verb phrase for operation `op` with `vars` filled (`{obj}`, `{objs}`, `{ref}`…), the verb drawn
 * from the operation's class and refused by `avoid` (a verb that is a word of the tool's name).
 * Undefined when the data has no frame for `op`.
 */
export function paraphraseVerbPhrase(op: string, vars: Record<string, string>, r: Rng, avoid: (verb: string) => boolean): string | undefined {
  const p = operationPhrasing(op);
  if (!p) return undefined;
  const verbs = p.verbs.filter((v) => !avoid(v));
  const kind = (phrasing.plainFrames.operations as Record<string, string | undefined>)[op];
  const plain = kind ? (phrasing.plainFrames.frames as Record<string, string[]>)[kind]! : undefined;
  const frame = plain && verbs.length && r.chance(phrasing.plainFrames.share) ? r.pick(plain) : r.pick(p.frames);
  if (frame.includes('{verb}') && !verbs.length) return undefined;
  return fill(frame, { ...vars, verb: frame.includes('{verb}') ? r.pick(verbs) : '' })
    .replace(/\s+/g, ' ')
    .trim();
}

/** The plain frames (`plainFrames`): literal words every plainly framed operation shares. */
export function plainFrames(): string[] {
  return Object.values(phrasing.plainFrames.frames as Record<string, string[]>).flat();
}

/** Shares of the ways a paraphrase names its object (own words, documentation phrase, casual phrase). */
export const OBJECT_WORDING = { ...phrasing.objectWording };

/** How requests spread over tools (`toolPopularityExponent`: Zipf exponent over a server's tools in fill order). */
export const TRAFFIC = { ...phrasing.traffic };
