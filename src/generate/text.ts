/** Text helpers of the generator: name styles, articles, the paraphrase check. */
import { stem, words } from '../catalog/overlap.ts';
import { articleFor } from './surface.ts';

/** Function words that never count as a shared word in the name check. */
export const FUNCTION_WORDS = new Set([
  'a',
  'an',
  'the',
  'of',
  'to',
  'in',
  'on',
  'for',
  'by',
  'with',
  'and',
  'or',
  'is',
  'it',
  'my',
  'me',
  'i',
  'we',
  'our',
  'you',
  'your',
  'this',
  'that',
  'at',
  'as',
  'be',
  'from',
  'so',
  'if',
]);

/** Stemmed words of a text, both split (`pager`, `duty` from PagerDuty) and whole (`pagerduty`). */
function nameCheckWords(text: string): Set<string> {
  const out = new Set<string>();
  for (const w of [...words(text), ...text.toLowerCase().split(/[^a-z0-9]+/)]) if (w && !FUNCTION_WORDS.has(w)) out.add(stem(w));
  return out;
}

/**
 * True if `text` shares no word with `name` (split on _ - . and camelCase, and also whole): the
 * paraphrase rule. Only function words are exempt, so `get` in "when you get a sec" counts
 * against a `get_…` tool.
 */
export function sharesNoNameWord(text: string, name: string): boolean {
  const nameWords = nameCheckWords(name);
  for (const w of nameCheckWords(text)) if (nameWords.has(w)) return false;
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

/** `a` or `an` before a noun phrase, by its sound (`an SLA`, `a URL`, `an hour`). */
export function article(phrase: string): string {
  return articleFor(phrase);
}

/** snake_case → words with spaces. */
export function spaced(snake: string): string {
  return snake.replace(/[_-]+/g, ' ');
}
