/**
 * The searched skill index (seed 000's "honest extension"): BM25 over the model-invocable skills,
 * behind the `skill_search` meta tool of the `searched-index` listing.
 *
 * Each skill becomes a synthetic core `Tool` (id = name = the skill name, `summary` = when_to_use,
 * `description` = description) indexed by Backpack's default BM25 ({@link BM25_DEFAULT_OPTIONS}:
 * identifiers split — so `incident-response` → `incident response` —, ASCII folding, NLTK English
 * stop words, Porter2; k1 1.2, b 0.75) with fields name ×3, when_to_use ×1, description ×1 and
 * nothing else (no category, body or locator). Ties: score descending, then name (`rankStable`).
 */
import type { Case, Skill } from '../catalog/types.ts';
import { makeTool } from '../catalog/model.ts';
import { Bm25Retriever, type Bm25Options } from '../retrievers/bm25/index.ts';
import { createEmbed } from '../retrievers/embed/index.ts';
import { HybridRetriever } from '../retrievers/hybrid.ts';
import type { Describable, Retriever } from '../retrievers/types.ts';
import { BM25_DEFAULT_OPTIONS } from '../retrievers/bm25/presets.ts';
import { countTokens, type TokenCounterName } from '../tokens/count.ts';

export const SKILL_INDEX_BM25_OPTIONS: Readonly<Bm25Options> = Object.freeze({
  params: { ...BM25_DEFAULT_OPTIONS.params },
  tokenizer: { ...BM25_DEFAULT_OPTIONS.tokenizer },
  fields: { name: 3, namespace: 0, summary: 1, description: 1, examples: 0, params: 0 },
});

export interface SkillHit {
  name: string;
  score: number;
}

/**
 * How the index ranks: `bm25` alone, or `hybrid` — the z-score fusion of that BM25 (0.4) with the
 * offline embedding model (0.6) over split name, when_to_use and description, as the `hybrid`
 * tool retriever does. On monster-7's 420 skill cases at 2,500 skills, recall@5: bm25 0.552,
 * embeddings alone 0.295, hybrid 0.614 (recall@10 0.710 / 0.740).
 */
export type SkillRetrieval = 'bm25' | 'hybrid';

export class SkillIndex {
  /** Indexed (model-invocable) skills by name, in input order. */
  readonly skills: ReadonlyMap<string, Skill>;
  private readonly retriever: Retriever & Describable;

  private constructor(skills: ReadonlyMap<string, Skill>, retriever: Retriever & Describable) {
    this.skills = skills;
    this.retriever = retriever;
  }

  /** Index `skills`, leaving out `disableModelInvocation` ones; a repeated name keeps its first skill. */
  static async build(skills: readonly Skill[], retrieval: SkillRetrieval = 'bm25'): Promise<SkillIndex> {
    const byName = new Map<string, Skill>();
    for (const s of skills) if (!s.disableModelInvocation && !byName.has(s.name)) byName.set(s.name, s);
    const tools = [...byName.values()].map((s) =>
      makeTool({ source: 'core', id: s.name, name: s.name, namespace: s.category, summary: s.whenToUse, description: s.description }),
    );
    const bm25 = new Bm25Retriever('skill-index', SKILL_INDEX_BM25_OPTIONS);
    const retriever =
      retrieval === 'bm25'
        ? bm25
        : new HybridRetriever('skill-index', bm25, createEmbed('skill-embed', { recipe: 'intent' }), { method: 'zscore', weights: [0.4, 0.6] });
    await retriever.index({ tools, skills: [], servers: [], plugins: [] });
    return new SkillIndex(byName, retriever);
  }

  /** The top `k` skills for `request`, best first (bm25: score > 0 only). */
  async search(request: string, k: number): Promise<SkillHit[]> {
    const hits = await this.retriever.search(request, { k });
    return hits.map((h) => ({ name: h.id, score: h.score }));
  }

  describe(): Record<string, unknown> {
    return { ...this.retriever.describe(), fields: { name: 3, whenToUse: 1, description: 1 } };
  }
}

export interface SkillRecall {
  /** Skill cases counted. */
  cases: number;
  /** `recall@k` for each k, in the order given; `null` with no skill cases. */
  recall: Record<string, number | null>;
}

/**
 * recall@k over the skill cases of `cases`: the share whose gold skill is in the top k. A case
 * whose gold skill is not indexed (disabled, or absent) counts as a miss.
 */
export async function skillRecallAtK(index: SkillIndex, cases: readonly Case[], ks: readonly number[]): Promise<SkillRecall> {
  const kMax = Math.max(0, ...ks);
  const hits = ks.map(() => 0);
  let n = 0;
  for (const c of cases) {
    if (c.expectedSkill === undefined) continue;
    n++;
    const ranked = await index.search(c.request, kMax);
    const at = ranked.findIndex((h) => h.name === c.expectedSkill);
    ks.forEach((k, i) => {
      if (at >= 0 && at < k) hits[i]!++;
    });
  }
  const recall: Record<string, number | null> = {};
  ks.forEach((k, i) => {
    recall[`recall@${k}`] = n === 0 ? null : hits[i]! / n;
  });
  return { cases: n, recall };
}

/** Text a `skill_search` call returns when nothing matches. */
export const NO_SKILL_MATCH_TEXT = 'No matching skills.';

/**
 * The result text of a `skill_search` call (pinned): one `- {name}: {description}` line per hit in
 * rank order (full description, no when_to_use), or {@link NO_SKILL_MATCH_TEXT}.
 */
export function skillSearchResultText(index: SkillIndex, hits: readonly SkillHit[]): string {
  if (hits.length === 0) return NO_SKILL_MATCH_TEXT;
  return hits.map((h) => `- ${h.name}: ${index.skills.get(h.name)?.description ?? ''}`).join('\n');
}

/** Tokens (o200k by default) of the text a `skill_search(request, k)` call returns. */
export async function searchCostTokens(index: SkillIndex, request: string, k: number, counter: TokenCounterName = 'o200k'): Promise<number> {
  return countTokens(skillSearchResultText(index, await index.search(request, k)), counter);
}
