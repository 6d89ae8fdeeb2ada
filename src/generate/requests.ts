/**
 * The wording of generated requests: an MCP tool's request from the casual vocabulary (verbs of
 * the operation's class, object synonyms, fillers) or, in the lexical slice, from the tool name's
 * own words; a hand-written tool's request from its casual sentences; the need a permitted
 * alternative meets; and the casual wrapping (lead-ins, sign-offs, the product named).
 */
import type { Rng } from '../util/rng.ts';
import { sharesNoNameWord, spaced } from './text.ts';
import { fill, type ServerPlan, type ToolMeta } from './tools.ts';
import { docFor, phrasesFor, uniqueAliases } from './products.ts';
import { OBJECT_WORDING, paraphraseVerbPhrase } from './phrasing.ts';
import { askFrame, contextSentence, mentionForm, withContext } from './voice.ts';
import { fixArticles, leadIn, placeholderValues, plural, productName, signOff, SURFACE } from './surface.ts';

/** How a request words the tool: with its name's words (`lexical`) or none of them (`paraphrase`). */
export type Mode = 'lexical' | 'paraphrase';

/** Lead-ins before a command, sign-offs after a request (`data/surface.json`; most requests have neither). */
export const PREFIXES: readonly string[] = SURFACE.leadIns;
export const SUFFIXES: readonly string[] = SURFACE.signOffs;

/** The lead-ins and sign-offs above as bare phrases (`"quick one: "` → `quick one`), each once, in order. */
export function wrapperPhrases(): string[] {
  const out = [...PREFIXES, ...QUESTION_PREFIXES, ...SUFFIXES]
    .map((w) =>
      w
        .replace(/[^\w' ]+/g, ' ')
        .replace(/\s+/g, ' ')
        .trim(),
    )
    .filter(Boolean);
  return [...new Set(out)];
}

/** Values for a request template's placeholders (`surface.ts`). */
export function fillers(r: Rng): Record<string, string> {
  return placeholderValues(r);
}

/** A request before its wrapping: the product lead, if any, and the request itself. */
export interface Phrase {
  /** Product named before the request (`Kubernetes: …`), if any. */
  lead: string;
  core: string;
}

/** The request with the product named as people name it: mostly after it (`… in Jira`, `… from Datadog`), rarely as a label (`Jira: …`) or in brackets. */
export function productMention(server: ServerPlan, core: string, r: Rng): Phrase {
  const name = productName(server.spec, uniqueAliases(server.spec), r);
  const form = mentionForm(r);
  if (form.endsWith(':')) return { lead: form.replace('{product}', name), core };
  return { lead: '', core: `${core} ${form.replace('{product}', name)}` };
}

/** Lead-ins that read well before a question as well as before a command. */
export const QUESTION_PREFIXES: readonly string[] = SURFACE.questionLeadIns;
const QUESTION_START = /^(who|what|what's|how|is|are|which|when|where|why|can|could|do|does|did|should|any)\b|^[A-Z"{]/;

/** Casual wrapping: an optional lead-in and sign-off around the request, the product lead first; articles set by sound. */
export function wrap(p: Phrase, r: Rng, opts: { prefix?: boolean; signOff?: boolean } = {}): string {
  const prefix = opts.prefix === false ? '' : leadIn(r, QUESTION_START.test(p.core));
  const suffix = opts.signOff === false ? '' : signOff(r);
  return fixArticles(`${p.lead} ${prefix}${p.core}${suffix}`.replace(/\s+/g, ' ').trim());
}

/**
 * The object as a paraphrase names it: its own words, its documentation phrase or a casual
 * description. `archetypeOnly`: the wording is its archetype's (see `gold`).
 */
export function objectWording(m: ToolMeta, r: Rng): { obj: string; objs: string; archetypeOnly: boolean } {
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
export function mcpPhrase(
  m: ToolMeta,
  mode: Mode,
  mention: boolean,
  r: Rng,
  framed = true,
): (Phrase & { archetypeOnly: boolean; framed: boolean; question: boolean; objectText: string[] }) | undefined {
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
  const ask = framed ? askFrame(p.core, r) : { text: p.core, question: false };
  return { lead: p.lead, core: ask.text, archetypeOnly, framed: ask.text !== p.core, question: ask.question, objectText };
}

/**
 * A request for one MCP tool. Returns undefined when no paraphrase avoids the operation's name
 * words (the caller then tries another tool).
 */
export function mcpRequest(m: ToolMeta, mode: Mode, mention: boolean, r: Rng): { text: string; archetypeOnly: boolean } | undefined {
  for (let attempt = 0; attempt < 12; attempt++) {
    const p = mcpPhrase(m, mode, mention, r);
    if (!p) continue;
    // Context before the ask about half the time ("the nightly job failed again. Can you …?"); a
    // request frame ("I need to…") or a context is its own opening: no lead-in before it.
    const context = contextSentence(r, m.op!.scope === 'read' ? 'read' : 'write');
    const text = withContext(context, wrap(p, r, { prefix: !p.framed && !context, signOff: !p.question }));
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
export function handRequest(m: ToolMeta, mode: Mode, r: Rng): string | undefined {
  const casual = r.pick(m.hand!.casual);
  const lead = m.plugin ? `${r.pick(['with the', 'using the', 'via the'])} ${m.plugin.display} plugin:` : '';
  if (mode === 'paraphrase') {
    const text = wrap({ lead, core: casual }, r, { prefix: false });
    return sharesNoNameWord(text, m.tool.name) ? text : undefined;
  }
  return wrap({ lead, core: `${casual} using ${spaced(m.tool.name)}` }, r, { prefix: false });
}

/**
 * The need a permitted alternative meets, as an ordinary request: only the need ("who changed
 * this and when?"), not the fallback the vocabulary spells out after it ("…the audit log would be
 * ideal, any change history will do"): the restriction is the caller's, not the request's. A need
 * that names the privileged operation itself ("export each…") is not used.
 */
export function needRequest(m: ToolMeta, r: Rng, mention = true): string {
  const vars = { ...fillers(r), obj: objectWording(m, r).obj, kw: spaced(m.object!.key), kws: spaced(m.object!.plural) };
  const needs = m.op!.need!.map(needOnly);
  const plain = needs.filter((n) => sharesNoNameWord(n.replace(/\{[^}]*\}/g, ' '), m.tool.name));
  // No sign-off: some ("that would be ideal") read like the fallback the request must not state.
  const core = fill(r.pick(plain.length ? plain : needs), vars);
  const context = contextSentence(r, 'read');
  return withContext(context, wrap(mention ? productMention(m.server!, core, r) : { lead: '', core }, r, { prefix: false, signOff: false }));
}

/** A need phrase up to its first fallback clause (`; …`, ` (…)`, `? …`, `, or …`, `, by …`). */
export function needOnly(phrase: string): string {
  const cut = /;|\s\(|\?\s|,\s(?:or|by)\b/.exec(phrase);
  if (!cut) return phrase;
  return phrase.slice(0, cut.index) + (cut[0].startsWith('?') ? '?' : '');
}
