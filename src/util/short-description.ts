/**
 * Hermes's `_short_desc` (`NousResearch/hermes-agent` `tools/tool_search_catalog.py` @13a4e497): a
 * description cut to its first sentence and at most 60 characters. In util because two parts write
 * what Hermes writes with it: its deferred tool listing (profiles/hermes/listing.ts) and its skill
 * listing (skills/listings/hermes.ts), and a skill listing shares helpers with a profile only here.
 */
import { charCount, cutToChars } from './unicode.ts';
import { normalizeWhitespace, PY_WS } from './py-strings.ts';

/** `_short_desc` max_chars. */
export const SHORT_DESCRIPTION_CHARS = 60;

const SENTENCE_END = new RegExp(`(?<!(?<![\\p{L}\\p{N}_])e\\.g)(?<!(?<![\\p{L}\\p{N}_])i\\.e)(?<!(?<![\\p{L}\\p{N}_])etc)[.!?](?=[${PY_WS}]|$)`, 'u');

/**
 * `_short_desc`: whitespace normalised, cut after the first sentence end (`.`, `!` or `?` followed by
 * whitespace or the end, not in `e.g.`/`i.e.`/`etc.`); if still over `maxChars` characters: the first
 * `maxChars`, cut back to the last space, trailing `,;: ` stripped, `…` appended.
 */
export function shortDescription(description: string, maxChars: number = SHORT_DESCRIPTION_CHARS): string {
  let text = normalizeWhitespace(description ?? '');
  const m = SENTENCE_END.exec(text);
  if (m) text = text.slice(0, m.index + 1);
  if (charCount(text) <= maxChars) return text;
  let clipped = cutToChars(text, maxChars);
  const space = clipped.lastIndexOf(' ');
  if (space >= 0) clipped = clipped.slice(0, space);
  return `${clipped.replace(/[,;: ]+$/, '')}…`;
}
