/** The skill comparison of a run: part of its configuration (and so of its hash), computed over its cases. */
import type { Case, Catalog } from '../catalog/types.ts';
import { compareSkillStrategies, type SkillComparison } from '../skills/compare.ts';
import type { SkillComparisonConfig } from './results.ts';

/** What every run compares: the hybrid skill index (bm25 + the offline embedding model), at 250 and 2,500 skills, recall@1 and @5. */
export const DEFAULT_SKILL_COMPARISON: Readonly<SkillComparisonConfig> = { retrieval: 'hybrid', sizes: [250, 2500], ks: [1, 5] };

/**
 * The skill comparison `input` calls for, for the run's configuration: the default when the catalog
 * has skills and some case of the whole input (not one shard) expects one, else undefined.
 */
export function skillComparisonConfig(catalog: Catalog, cases: readonly Case[]): SkillComparisonConfig | undefined {
  if (!catalog.skills.length || !cases.some((c) => c.expectedSkill !== undefined)) return undefined;
  return { ...DEFAULT_SKILL_COMPARISON, sizes: [...DEFAULT_SKILL_COMPARISON.sizes], ks: [...DEFAULT_SKILL_COMPARISON.ks] };
}

/** The skill comparison of a run as `config` describes it, over `cases` (undefined when none of them expects a skill). */
export async function skillsOfRun(
  catalog: Catalog,
  cases: readonly Case[],
  contextWindow: number,
  config: SkillComparisonConfig | undefined,
): Promise<SkillComparison | undefined> {
  if (!config || !cases.some((c) => c.expectedSkill !== undefined)) return undefined;
  return compareSkillStrategies(catalog.skills, cases, { contextWindow, retrieval: config.retrieval, sizes: config.sizes, ks: config.ks });
}
