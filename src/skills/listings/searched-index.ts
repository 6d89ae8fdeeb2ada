/** The searched skill index's listing (the seed article's extension): categories and the `skill_search` tool. */
import type { Skill } from '../../catalog/types.ts';
import { charCount, compareStrings } from '../../util/unicode.ts';
import { invocable, unbudgetedListing, xmlEscape, type SkillListing, type SkillListingOptions } from './common.ts';

/** The `skill_search` meta tool the searched index exposes (MCP-style definition). */
export const SKILL_SEARCH_TOOL = Object.freeze({
  name: 'skill_search',
  description:
    'Search the skill catalog for procedures that match the task. Skill categories and names are listed above; ' +
    'this returns the best-matching skills with their descriptions. Load a skill by name before following it.',
  inputSchema: {
    type: 'object',
    properties: {
      query: { type: 'string', description: 'What you need to do, in a few words.' },
      limit: { type: 'integer', minimum: 1, maximum: 25, default: 5, description: 'How many skills to return.' },
    },
    required: ['query'],
  },
});

/**
 * The searched skill index's visible part: `<skill_categories>`, one `{category} (N skills)` line
 * per category (sorted; the category XML-escaped), `</skill_categories>`, a blank line, then the
 * compact JSON of {@link SKILL_SEARCH_TOOL}. Nothing has a description before a search
 * (`withDescription` = []); `truncatedChars` = every listed skill's description length. No budget.
 */
export function searchedIndexSkillListing(skills: readonly Skill[], _opts: SkillListingOptions): SkillListing {
  const byCategory = new Map<string, Set<string>>();
  for (const s of invocable(skills)) {
    const set = byCategory.get(s.category);
    if (set) set.add(s.name);
    else byCategory.set(s.category, new Set([s.name]));
  }
  // Categories with their sizes only: at 2,500 skills even a names-only line per category costs
  // ~19,000 tokens (measured on monster-7), so names come from skill_search, not from the listing.
  const lines: string[] = ['<skill_categories>'];
  const searchable: string[] = [];
  for (const category of [...byCategory.keys()].sort(compareStrings)) {
    const names = [...byCategory.get(category)!].sort(compareStrings);
    // the category is untrusted text inside our own XML element: escaped
    lines.push(`${xmlEscape(category)} (${names.length} skill${names.length === 1 ? '' : 's'})`);
    searchable.push(...names);
  }
  lines.push('</skill_categories>');
  const shown = new Set(searchable);
  const truncated = skills.filter((s) => shown.has(s.name)).reduce((sum, s) => sum + charCount(s.description), 0);
  const text = `${lines.join('\n')}\n\n${JSON.stringify(SKILL_SEARCH_TOOL)}`;
  // not named before a search, but every invocable skill is searchable: only disabled ones are dropped
  return unbudgetedListing('searched-index', skills, { text, listed: [], withDescription: [], truncatedChars: truncated }, searchable);
}
