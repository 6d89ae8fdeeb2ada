/** DeepSeek DSH's skill catalog (`@deepseek-ai/dsh-tool-skill`). */
import type { Skill } from '../../catalog/types.ts';
import { charCount, cutToChars } from '../../util/unicode.ts';
import { byName, invocable, unbudgetedListing, xmlEscape, type SkillListing, type SkillListingOptions } from './common.ts';

/** `catalogDescriptionMaxLength` (default 500, minimum 3): the cut description **including** its `...`. */
export const DSH_CATALOG_DESCRIPTION_MAX_LENGTH = 500;
const DSH_TRUNCATION_SUFFIX = '...';

/** Characters of a normalised DSH description that stay visible: all of it up to 500, else 497 (the `...` takes 3). */
function dshVisibleChars(normalised: string): number {
  const n = charCount(normalised);
  return n > DSH_CATALOG_DESCRIPTION_MAX_LENGTH ? DSH_CATALOG_DESCRIPTION_MAX_LENGTH - DSH_TRUNCATION_SUFFIX.length : n;
}

/**
 * A DSH catalog description: whitespace runs → one space, trimmed; over 500 chars → the first 497 +
 * `...` (500 in all: the maximum counts the suffix, as a Go port's test pins — max 50 → 47 + `...`);
 * then XML-escaped.
 */
export function dshDescription(description: string): string {
  const norm = description.replace(/\s+/g, ' ').trim();
  const cut = charCount(norm) > DSH_CATALOG_DESCRIPTION_MAX_LENGTH ? `${cutToChars(norm, dshVisibleChars(norm))}${DSH_TRUNCATION_SUFFIX}` : norm;
  return xmlEscape(cut);
}

/**
 * DSH's skill catalog (`@deepseek-ai/dsh-tool-skill`): `<available_skills>` then one ``- `name`: description`` line per
 * model-invocable skill, then `</available_skills>` (the enclosing `<system-reminder>` is left out).
 * Pinned: sorted by name (one port sorts, another keeps provider order); the cut is applied to the
 * raw normalised text, then escaped; a name-only line ``- `name` `` when the description is empty;
 * names are XML-escaped too (DSH requires kebab-case names, but ours are not validated, and the
 * catalog must stay well-formed). No total budget. `truncatedChars` = normalised characters not
 * shown (past 497 for a cut description).
 */
export function deepseekSkillListing(skills: readonly Skill[], _opts: SkillListingOptions): SkillListing {
  const sorted = invocable(skills).sort(byName);
  const listed: string[] = [];
  const withDescription: string[] = [];
  let truncated = 0;
  const lines = sorted.map((s) => {
    const desc = dshDescription(s.description);
    const norm = s.description.replace(/\s+/g, ' ').trim();
    truncated += charCount(norm) - dshVisibleChars(norm);
    listed.push(s.name);
    if (desc !== '') withDescription.push(s.name);
    const name = xmlEscape(s.name);
    return desc === '' ? `- \`${name}\`` : `- \`${name}\`: ${desc}`;
  });
  const text = ['<available_skills>', ...lines, '</available_skills>'].join('\n');
  return unbudgetedListing('deepseek', skills, { text, listed, withDescription, truncatedChars: truncated });
}
