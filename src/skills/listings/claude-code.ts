/** Claude Code's skill listing (settings `skillListingBudgetFraction`, `skillListingMaxDescChars`). */
import type { Skill } from '../../catalog/types.ts';
import { charCount, compareStrings, cutToChars } from '../../util/unicode.ts';
import { byName, droppedOf, invocable, type SkillListing, type SkillListingOptions } from './common.ts';

/** `skillListingBudgetFraction` 0.01, as a percentage (integer arithmetic). */
export const CLAUDE_SKILL_LISTING_BUDGET_PERCENT = 1;
/** Pinned conversion: 4 characters per token (200K tokens × 4 × 1% = 8,000 chars). Unverified. */
export const CLAUDE_CHARS_PER_TOKEN = 4;
export const CLAUDE_SKILL_LISTING_FALLBACK_CHARS = 8_000;
export const CLAUDE_SKILL_LISTING_MAX_DESC_CHARS = 1_536;

/** 1% of the window in characters: floor(window × 4 / 100); 8,000 when the window is unknown. */
export function claudeSkillBudgetChars(contextWindow: number | null): number {
  if (contextWindow === null || !Number.isFinite(contextWindow) || contextWindow <= 0) return CLAUDE_SKILL_LISTING_FALLBACK_CHARS;
  return Math.floor((contextWindow * CLAUDE_CHARS_PER_TOKEN * CLAUDE_SKILL_LISTING_BUDGET_PERCENT) / 100);
}

/** `description` + ` - ` + `when_to_use` (the separator only when both are non-empty): the text capped at 1,536 chars. */
export function claudeEntryText(skill: Skill): string {
  return skill.whenToUse !== '' && skill.description !== '' ? `${skill.description} - ${skill.whenToUse}` : skill.description || skill.whenToUse;
}

/** The capped entry text: over 1,536 chars → the first 1,535 + `…`. */
export function claudeCappedEntryText(skill: Skill): string {
  const text = claudeEntryText(skill);
  return charCount(text) <= CLAUDE_SKILL_LISTING_MAX_DESC_CHARS ? text : `${cutToChars(text, CLAUDE_SKILL_LISTING_MAX_DESC_CHARS - 1)}…`;
}

/**
 * Claude Code's skill listing (settings schema: `skillListingBudgetFraction` 0.01 of the window
 * in characters, `skillListingMaxDescChars` 1,536). Pinned, unverified choices:
 * - budget = window × 4 chars/token × 1% (200K → 8,000 chars; the conversion is inferred from a
 *   third-party test suite's "8,000 at the default window"), counted as the characters of `text` (lines joined by `\n`);
 * - entries sorted by name, each `- {name}: {description} - {when_to_use}` (the format is ours;
 *   `- {name}: {description}` without a when_to_use), description + when_to_use capped together at
 *   1,536 chars (1,535 + `…`); a name-only entry is `- {name}`;
 * - on overflow, descriptions are dropped one skill at a time, least-invoked first (`usage`, missing
 *   = 0); ties, and everything when there is no usage map, drop in **reverse name order** (z… first),
 *   until the text fits; names are always kept, even when they alone exceed the budget (warned).
 * `truncatedChars` = characters of description + when_to_use (joined as above) not visible: the
 * part cut by the 1,536 cap, or all of it for a dropped description. The warnings are ours.
 */
export function claudeCodeSkillListing(skills: readonly Skill[], opts: SkillListingOptions): SkillListing {
  const budget = claudeSkillBudgetChars(opts.contextWindow);
  const entries = invocable(skills)
    .sort(byName)
    .map((s) => {
      const raw = claudeEntryText(s);
      const capped = claudeCappedEntryText(s);
      const full = capped === '' ? `- ${s.name}` : `- ${s.name}: ${capped}`;
      const bare = `- ${s.name}`;
      return { skill: s, raw: charCount(raw), capped, full, bare, showDesc: capped !== '' };
    });
  let total = entries.reduce((sum, e) => sum + charCount(e.full), 0) + Math.max(0, entries.length - 1);
  const usage = opts.usage;
  const dropOrder = entries
    .filter((e) => e.showDesc)
    .sort((a, b) => (usage?.get(a.skill.name) ?? 0) - (usage?.get(b.skill.name) ?? 0) || compareStrings(b.skill.name, a.skill.name));
  let droppedDescs = 0;
  for (const e of dropOrder) {
    if (total <= budget) break;
    total -= charCount(e.full) - charCount(e.bare);
    e.showDesc = false;
    droppedDescs++;
  }
  const warnings: string[] = [];
  if (droppedDescs > 0)
    warnings.push(
      `${droppedDescs} of ${entries.length} skill descriptions were dropped (least-invoked first) to fit the ${budget}-character skill listing budget.`,
    );
  if (total > budget) warnings.push(`Skill names alone take ${total} characters, over the ${budget}-character budget; names are always kept.`);
  let truncated = 0;
  for (const e of entries) {
    if (!e.showDesc) truncated += e.raw;
    else if (e.raw > CLAUDE_SKILL_LISTING_MAX_DESC_CHARS) truncated += e.raw - (CLAUDE_SKILL_LISTING_MAX_DESC_CHARS - 1);
  }
  const listed = entries.map((e) => e.skill.name);
  return {
    harness: 'claude-code',
    text: entries.map((e) => (e.showDesc ? e.full : e.bare)).join('\n'),
    budget: { unit: 'characters', value: budget },
    listed,
    withDescription: entries.filter((e) => e.showDesc).map((e) => e.skill.name),
    dropped: droppedOf(skills, listed),
    truncatedChars: truncated,
    warnings,
  };
}
