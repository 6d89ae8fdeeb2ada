/**
 * Content words of untrusted text, as the diff shows them: stemmed for comparison (so `contacts`
 * and `contact` are one word), shown in the first surface form the text used, in order of first
 * appearance. Built on the project's one notion of a content word (`catalog/overlap.ts`).
 */
import { STOP_WORDS, stem, words } from '../catalog/overlap.ts';

/** Content words of `text`: stem → first surface form (lowercase), in order of first appearance. */
export function contentWordForms(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const w of words(text)) {
    if (STOP_WORDS.has(w)) continue;
    const s = stem(w);
    if (!out.has(s)) out.set(s, w);
  }
  return out;
}

/** Surface forms of the content words of `a` whose stems `b` lacks, in `a`'s order, at most `max`. */
export function wordsOnlyIn(a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>, max = Infinity): string[] {
  const out: string[] = [];
  for (const [s, form] of a) {
    if (out.length >= max) break;
    if (!b.has(s)) out.push(form);
  }
  return out;
}
