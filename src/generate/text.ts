/** Text helpers of the generator: name styles, articles, the paraphrase check. */
import { contentWords } from '../catalog/overlap.ts';

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
