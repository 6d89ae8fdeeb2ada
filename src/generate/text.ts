/** Text helpers shared by the generator: words, name styles, the word-overlap statistic. */

/** Small English stop-word list used for "content words" (overlap statistics and paraphrase checks). */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  ('a an the and or but if then else of to in on at by for with from into onto about as is are was were be been being ' +
    'do does did done have has had having i me my we our us you your it its this that these those there here what which who whom ' +
    'whose when where why how all any each every some no not only own same so than too very can could should would will just ' +
    'please pls hey hi thanks thank up out over under again also get got let lets me can\'t don\'t im i\'m it\'s we\'re you\'re ' +
    'new one two via per across after before since until while yesterday today tomorrow now need want like make sure quick quickly real').split(/\s+/),
);

/** Lowercase words of a text: runs of [a-z0-9], after splitting camelCase, snake_case and kebab-case. */
export function words(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0);
}

/** A light stem (plural endings) so `contacts` and `contact` count as one word. */
export function stem(w: string): string {
  if (w.length > 4 && w.endsWith('ies')) return `${w.slice(0, -3)}y`;
  if (w.length > 4 && /(ses|xes|zes|ches|shes)$/.test(w)) return w.slice(0, -2);
  if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) return w.slice(0, -1);
  return w;
}

/** Stemmed content words (stop words removed), as a set. */
export function contentWords(text: string): Set<string> {
  const out = new Set<string>();
  for (const w of words(text)) if (!STOP_WORDS.has(w)) out.add(stem(w));
  return out;
}

/**
 * Word overlap of a request with a gold text: the share of the request's content words that also
 * occur in the gold text (0 when the request has none). The statistic the manifest reports per slice.
 */
export function wordOverlap(request: string, goldText: string): number {
  const req = contentWords(request);
  if (req.size === 0) return 0;
  const gold = contentWords(goldText);
  let shared = 0;
  for (const w of req) if (gold.has(w)) shared++;
  return shared / req.size;
}

/** True if `text` shares no content word with `name` (split on _ - and camelCase). */
export function sharesNoNameWord(text: string, name: string): boolean {
  const nameWords = contentWords(name);
  for (const w of contentWords(text)) if (nameWords.has(w)) return false;
  return true;
}

export type NameStyle = 'snake' | 'camel' | 'kebab';

/** Render snake_case parts in a server's naming style. */
export function styleName(snake: string, style: NameStyle): string {
  if (style === 'snake') return snake;
  if (style === 'kebab') return snake.replace(/_/g, '-');
  return snake.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
}

export function capitalize(s: string): string {
  return s.length ? s[0]!.toUpperCase() + s.slice(1) : s;
}

/** `a` or `an` before a noun phrase. */
export function article(phrase: string): string {
  return /^[aeiou]/i.test(phrase) && !/^(uni|use|one|eu)/i.test(phrase) ? 'an' : 'a';
}

/** snake_case → words with spaces. */
export function spaced(snake: string): string {
  return snake.replace(/[_-]+/g, ' ');
}
