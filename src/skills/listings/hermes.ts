/** Hermes Agent's skills index (`agent/prompt_builder.py`, with `tool_search_catalog.py`'s short description). */
import type { Skill } from '../../catalog/types.ts';
import { normalizeWhitespace } from '../../util/py-strings.ts';
import { shortDescription } from '../../util/short-description.ts';
import { charCount, compareStrings } from '../../util/unicode.ts';
import { byName, invocable, unbudgetedListing, type SkillListing, type SkillListingOptions } from './common.ts';

/** Characters of a Hermes short description that show the original text (the `…` it appends is not one). */
function hermesVisibleChars(description: string, short: string): number {
  const norm = normalizeWhitespace(description);
  const clipped = short.endsWith('…') && !norm.startsWith(short);
  return charCount(short) - (clipped ? 1 : 0);
}

/**
 * Hermes Agent's skills index, in the shape of `_render_skills_index` (hermes-agent
 * `agent/prompt_builder.py` @00067189): `<available_skills>`, categories sorted, each `  {category}:`
 * followed by `    - {name}: {short description}` lines sorted by name (`    - {name}` when the
 * description is empty), `</available_skills>`. Descriptions are `_short_desc`'s short first sentence
 * ({@link shortDescription}: whitespace normalised, first sentence, over 60 chars clipped at the
 * last space + `…`). No category descriptions (DESCRIPTION.md), no `[names only]` demotion.
 * **No total budget** (none is known upstream for Hermes skills: pinned). `truncatedChars` =
 * characters of the whitespace-normalised description not in the short one.
 */
export function hermesSkillListing(skills: readonly Skill[], _opts: SkillListingOptions): SkillListing {
  const byCategory = new Map<string, Skill[]>();
  for (const s of invocable(skills)) {
    const list = byCategory.get(s.category);
    if (list) list.push(s);
    else byCategory.set(s.category, [s]);
  }
  const lines: string[] = ['<available_skills>'];
  const listed: string[] = [];
  const withDescription: string[] = [];
  let truncated = 0;
  for (const category of [...byCategory.keys()].sort(compareStrings)) {
    lines.push(`  ${category}:`);
    const seen = new Set<string>();
    for (const s of byCategory.get(category)!.sort(byName)) {
      if (seen.has(s.name)) continue;
      seen.add(s.name);
      const short = shortDescription(s.description);
      lines.push(short === '' ? `    - ${s.name}` : `    - ${s.name}: ${short}`);
      listed.push(s.name);
      if (short !== '') withDescription.push(s.name);
      truncated += charCount(normalizeWhitespace(s.description)) - hermesVisibleChars(s.description, short);
    }
  }
  lines.push('</available_skills>');
  return unbudgetedListing('hermes', skills, { text: lines.join('\n'), listed, withDescription, truncatedChars: truncated });
}
