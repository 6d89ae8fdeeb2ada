/**
 * The skill listing each harness puts in front of the model, rendered from a catalog's skills
 * under that harness's own budget: Codex (`openai/codex` `codex-rs/core-skills/src/render.rs`
 * @0899b7c4), Claude Code (settings schema `skillListingBudgetFraction`, `skillListingMaxDescChars`),
 * Hermes Agent (`NousResearch/hermes-agent` `agent/prompt_builder.py` @00067189, short descriptions
 * as in `tools/tool_search_catalog.py` @13a4e497), DeepSeek DSH (`@deepseek-ai/dsh-tool-skill`,
 * `packages/skill/tool-skill/src/index.ts`, as quoted by ports); the seed article for the searched
 * index. Every renderer is a pure, deterministic function
 * `(skills, {contextWindow, usage?}) => SkillListing`, in `listings/<harness>.ts`; this module is
 * their registry and re-exports them.
 *
 * Shared rules:
 * - skills with `disableModelInvocation` are never listed (Codex lists only skills allowed for
 *   implicit invocation, DSH only model-invocable ones, Claude Code hides manual-only skills); they
 *   count in `dropped`, which holds every input skill that is not in the listing for any reason;
 * - `text` is the skill catalog itself, not the fixed prose a harness wraps around it (Codex's
 *   `## Skills` intro and "How to use skills", Hermes's "Before replying, scan the skills below…");
 * - `truncatedChars` = characters of the description text the harness would show in full
 *   (per renderer: see each one) that the model cannot see.
 */
import type { Skill } from '../catalog/types.ts';
import { claudeCodeSkillListing } from './listings/claude-code.ts';
import { codexSkillListing } from './listings/codex.ts';
import type { SkillListing, SkillListingOptions, SkillListingRenderer } from './listings/common.ts';
import { deepseekSkillListing } from './listings/deepseek.ts';
import { hermesSkillListing } from './listings/hermes.ts';
import { searchedIndexSkillListing } from './listings/searched-index.ts';

export * from './listings/claude-code.ts';
export * from './listings/codex.ts';
export { xmlEscape, type SkillListing, type SkillListingBudget, type SkillListingOptions, type SkillListingRenderer } from './listings/common.ts';
export * from './listings/deepseek.ts';
export * from './listings/hermes.ts';
export * from './listings/searched-index.ts';

export const SKILL_LISTINGS = Object.freeze({
  codex: codexSkillListing,
  'claude-code': claudeCodeSkillListing,
  hermes: hermesSkillListing,
  deepseek: deepseekSkillListing,
  'searched-index': searchedIndexSkillListing,
} satisfies Record<string, SkillListingRenderer>);

export type SkillListingName = keyof typeof SKILL_LISTINGS;

export const SKILL_LISTING_NAMES = Object.freeze(Object.keys(SKILL_LISTINGS) as SkillListingName[]);

/** Render the listing registered under `name`; throws a `RangeError` for an unknown name. */
export function renderSkillListing(name: string, skills: readonly Skill[], opts: SkillListingOptions): SkillListing {
  if (!Object.prototype.hasOwnProperty.call(SKILL_LISTINGS, name)) {
    throw new RangeError(`unknown skill listing "${name}" (known: ${SKILL_LISTING_NAMES.join(', ')})`);
  }
  return SKILL_LISTINGS[name as SkillListingName](skills, opts);
}
