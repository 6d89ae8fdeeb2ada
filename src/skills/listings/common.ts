/** What every skill listing shares: its options and result, and the rules all renderers apply. */
import type { Skill } from '../../catalog/types.ts';
import { compareStrings } from '../../util/unicode.ts';
import type { CodexSkillBudget } from './codex.ts';

export interface SkillListingOptions {
  /** Context window in tokens; `null` = unknown (Codex then falls back to `Characters(8000)`, Claude Code to 8,000 chars). */
  contextWindow: number | null;
  /** Invocation counts by skill name (Claude Code drops the descriptions of the least-invoked skills first). */
  usage?: ReadonlyMap<string, number>;
  /** Codex only: an explicit budget instead of {@link codexSkillBudget}'s (e.g. `skills.max_context_tokens`, or a small one for tests). */
  codexBudget?: CodexSkillBudget;
}

export interface SkillListingBudget {
  unit: 'tokens' | 'characters' | 'none';
  value: number | null;
}

export interface SkillListing {
  harness: string;
  text: string;
  budget: SkillListingBudget;
  /** Names visible in the listing, in listing order. */
  listed: string[];
  /** Names whose (possibly cut) description is visible, in listing order. */
  withDescription: string[];
  /** Input skills not in the listing at all (over budget, or `disableModelInvocation`), in input order. */
  dropped: string[];
  truncatedChars: number;
  warnings: string[];
}

export type SkillListingRenderer = (skills: readonly Skill[], opts: SkillListingOptions) => SkillListing;

/** The skills a harness may list: those without `disableModelInvocation`. */
export function invocable(skills: readonly Skill[]): Skill[] {
  return skills.filter((s) => !s.disableModelInvocation);
}

/** Names of the input skills not in `listed`, in input order. */
export function droppedOf(skills: readonly Skill[], listed: readonly string[]): string[] {
  const shown = new Set(listed);
  return skills.filter((s) => !shown.has(s.name)).map((s) => s.name);
}

/** Listing order: by name, then locator. */
export const byName = (a: Skill, b: Skill): number => compareStrings(a.name, b.name) || compareStrings(a.locator, b.locator);

/**
 * A listing with no budget and no warnings (Hermes, DSH, the searched index); `dropped` is every
 * input skill not in `searchable` (by default the listed ones).
 */
export function unbudgetedListing(
  harness: string,
  skills: readonly Skill[],
  parts: Pick<SkillListing, 'text' | 'listed' | 'withDescription' | 'truncatedChars'>,
  searchable: readonly string[] = parts.listed,
): SkillListing {
  return {
    harness,
    text: parts.text,
    budget: { unit: 'none', value: null },
    listed: parts.listed,
    withDescription: parts.withDescription,
    dropped: droppedOf(skills, searchable),
    truncatedChars: parts.truncatedChars,
    warnings: [],
  };
}

/** XML escape of `& < > " '`. */
export function xmlEscape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '"' ? '&quot;' : '&apos;'));
}
