/**
 * How a generated request is put (generator 3.0): the verb phrase bare, inside a command frame or
 * inside a question frame; a context sentence before the ask about half the time ("the nightly job
 * failed again. can you …?"); and, where the product is named, the way people name it ("in Jira",
 * "from Datadog"), rarely as a label or in brackets. Frames, contexts and rates are data
 * (`data/voice.json`), each frame drawn evenly so none is in more than 2% of requests.
 */
import raw from './data/voice.json' with { type: 'json' };
import { checkedGeneratorData } from './data-schema.ts';
import type { Rng } from '../util/rng.ts';
import { fillForm } from './surface.ts';

export interface VoiceData {
  questionShare: number;
  bareShare: number;
  commands: string[];
  questions: string[];
  contextShare: number;
  contexts: { any: string[]; read: string[]; write: string[] };
  mentionForms: Array<{ form: string; weight: number }>;
  mention: { lexical: number; paraphrase: number; nearDuplicate: number; rareTool: number; scope: number; sessionOpening: number };
}

export const VOICE: VoiceData = checkedGeneratorData<VoiceData>('voice', 'voice.json', raw);

/** The verb phrase as a person asks for it: bare, in a command frame, or in a question frame. */
export function askFrame(vp: string, r: Rng): { text: string; question: boolean } {
  // A verb phrase that already asks ("list the contacts for me", "who changed it?") is not framed again.
  if (r.chance(VOICE.bareShare) || /\bfor me\b|\?$/i.test(vp)) return { text: vp, question: vp.endsWith('?') };
  const question = r.chance(VOICE.questionShare);
  const frame = r.pick(question ? VOICE.questions : VOICE.commands);
  return { text: frame.replace('{vp}', vp), question };
}

/** A context sentence for a request that reads (`read`) or changes something (`write`), or '' (about half the time). */
export function contextSentence(r: Rng, kind: 'read' | 'write'): string {
  if (!r.chance(VOICE.contextShare)) return '';
  const list = r.chance(0.6) ? VOICE.contexts.any : VOICE.contexts[kind];
  return fillForm(r.pick(list), r);
}

/** Context and ask as one request: a sentence that ends in . ! or ? starts the ask afresh. */
export function withContext(context: string, ask: string): string {
  if (!context) return ask;
  const c = context.charAt(0).toUpperCase() + context.slice(1);
  const fresh = /[.!?]$/.test(c);
  return `${c} ${fresh ? ask.charAt(0).toUpperCase() + ask.slice(1) : ask}`;
}

/** How the product is named beside the request (`in Jira`, `from Datadog`, rarely `Jira:` or `(Jira)`). */
export function mentionForm(r: Rng): string {
  return r.weighted(
    VOICE.mentionForms.map((f) => f.form),
    VOICE.mentionForms.map((f) => f.weight),
  );
}

/** Every frame and context form of the voice data, for the realism count (`eval/realism.ts`). */
export function voiceFrames(): { frames: string[]; contexts: string[]; mentions: string[] } {
  return {
    frames: [...VOICE.commands, ...VOICE.questions],
    contexts: [...VOICE.contexts.any, ...VOICE.contexts.read, ...VOICE.contexts.write],
    mentions: VOICE.mentionForms.map((f) => f.form),
  };
}
