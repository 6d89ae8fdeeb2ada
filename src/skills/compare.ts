/**
 * Skill catalogs at scale: every harness's skill listing, and the searched index, measured on
 * nested subsets of one catalog (the first n skills in catalog order).
 */
import type { Case, Skill } from '../catalog/types.ts';
import { countTokens } from '../tokens/count.ts';
import { discoverability, type Discoverability } from './discoverability.ts';
import { loadedSkillCost, SkillSession } from './load.ts';
import { searchCostTokens, SkillIndex, skillRecallAtK, type SkillRetrieval } from './index.ts';
import { SKILL_LISTING_NAMES, SKILL_LISTINGS, type SkillListingBudget, type SkillListingName } from './listings.ts';

export interface CompareSkillOptions {
  contextWindow: number | null;
  /** Subset sizes (first n skills); default [250, 2500]. A size over the catalog takes it all. */
  sizes?: readonly number[];
  /** recall@k cut-offs of the searched index; default [1, 5]. Tokens per search use the largest. */
  ks?: readonly number[];
  usage?: ReadonlyMap<string, number>;
  /** How the searched index ranks (default `hybrid`: bm25 + the offline embedding model). */
  retrieval?: SkillRetrieval;
}

export interface ListingMeasure {
  budget: SkillListingBudget;
  /** o200k tokens of the listing's text. */
  tokens: number;
  /** The harness's own estimate of the same text: ceil(bytes/4) for codex, ceil(chars/4) for hermes, null otherwise. */
  tokensEstimate: number | null;
  listed: number;
  withDescription: number;
  dropped: number;
  truncatedChars: number;
  warnings: number;
  discoverability: Discoverability;
  /** searched-index only: recall@k of `skill_search` over the skill cases. */
  recall?: Record<string, number | null>;
  /** searched-index only: mean o200k tokens of one `skill_search` result (k = searchK) over the skill cases. */
  meanSearchTokens?: number | null;
  searchK?: number;
}

export interface SizeMeasure {
  /** Requested size. */
  n: number;
  /** Skills in the subset (min(n, catalog)). */
  skills: number;
  /** Skill cases whose gold skill is in the subset. */
  skillCases: number;
  listings: Record<SkillListingName, ListingMeasure>;
  /** What loading the subset's skills costs (model-invocable ones). */
  loaded: LoadedMeasure;
}

export interface LoadedMeasure {
  skills: number;
  /** o200k tokens of the SKILL.md bodies. */
  meanBodyTokens: number;
  maxBodyTokens: number;
  /** Bodies over Codex's 8,000-byte read cap, and over Claude Code's 5,000-token re-attach cap. */
  codexTruncated: number;
  claudeReattachTruncated: number;
  /**
   * The skill cases' gold skills invoked one after another in one conversation: loads, repeats
   * (which add nothing), the tokens added (whole bodies; Codex: byte-capped), and what Claude Code
   * re-attaches after a compaction (newest first, 5,000 each, 25,000 shared).
   */
  conversation: { invocations: number; repeats: number; tokens: number; codexTokens: number; claudeReattachTokens: number };
}

/** The load costs of `skills` and a conversation invoking the gold skills of `cases` in order. */
export function loadedMeasure(skills: readonly Skill[], cases: readonly Case[]): LoadedMeasure {
  const invocable = skills.filter((s) => !s.disableModelInvocation);
  const costs = invocable.map(loadedSkillCost);
  const full = new SkillSession(invocable, 'full');
  const codex = new SkillSession(invocable, 'codex');
  const known = new Set(invocable.map((s) => s.name));
  let invocations = 0;
  let repeats = 0;
  for (const c of cases) {
    if (c.expectedSkill === undefined || !known.has(c.expectedSkill)) continue;
    invocations++;
    if (full.load(c.expectedSkill).repeat) repeats++;
    codex.load(c.expectedSkill);
  }
  return {
    skills: invocable.length,
    meanBodyTokens: costs.length ? costs.reduce((a, x) => a + x.bodyTokens, 0) / costs.length : 0,
    maxBodyTokens: costs.reduce((a, x) => Math.max(a, x.bodyTokens), 0),
    codexTruncated: costs.filter((x) => x.codex.truncated).length,
    claudeReattachTruncated: costs.filter((x) => x.claudeCode.truncated).length,
    conversation: { invocations, repeats, tokens: full.totalTokens, codexTokens: codex.totalTokens, claudeReattachTokens: full.claudeReattachTokens() },
  };
}

export interface SkillComparison {
  contextWindow: number | null;
  ks: number[];
  counter: 'o200k';
  /** How the searched index ranked. */
  retrieval: SkillRetrieval;
  sizes: SizeMeasure[];
}

const OWN_ESTIMATOR: Partial<Record<SkillListingName, 'bytes/4' | 'chars/4'>> = { codex: 'bytes/4', hermes: 'chars/4' };

/**
 * For each size n: the first n skills of `skills` (catalog order) and the skill cases whose gold
 * skill is among them; every listing of {@link SKILL_LISTINGS} measured on them, and the searched
 * index's recall@k and mean tokens per search added to its entry. Deterministic; keys in fixed order.
 */
export async function compareSkillStrategies(skills: readonly Skill[], cases: readonly Case[], opts: CompareSkillOptions): Promise<SkillComparison> {
  const sizes = opts.sizes ?? [250, 2500];
  const ks = [...(opts.ks ?? [1, 5])];
  const searchK = Math.max(1, ...ks);
  const out: SizeMeasure[] = [];
  for (const n of sizes) {
    const subset = skills.slice(0, Math.max(0, n));
    const names = new Set(subset.map((s) => s.name));
    const subCases = cases.filter((c) => c.expectedSkill !== undefined && names.has(c.expectedSkill));
    const listings = {} as Record<SkillListingName, ListingMeasure>;
    for (const name of SKILL_LISTING_NAMES) {
      const listing = SKILL_LISTINGS[name](subset, { contextWindow: opts.contextWindow, ...(opts.usage ? { usage: opts.usage } : {}) });
      const own = OWN_ESTIMATOR[name];
      listings[name] = {
        budget: listing.budget,
        tokens: countTokens(listing.text, 'o200k'),
        tokensEstimate: own === undefined ? null : countTokens(listing.text, own),
        listed: listing.listed.length,
        withDescription: listing.withDescription.length,
        dropped: listing.dropped.length,
        truncatedChars: listing.truncatedChars,
        warnings: listing.warnings.length,
        discoverability: discoverability(listing, subCases),
      };
    }
    const index = await SkillIndex.build(subset, opts.retrieval ?? 'hybrid');
    const { recall } = await skillRecallAtK(index, subCases, ks);
    let searchTokens = 0;
    for (const c of subCases) searchTokens += await searchCostTokens(index, c.request, searchK);
    // The searched index names nothing before a search: its gold skill is visible with a description
    // when one skill_search (k = the largest k) returns it, so its discoverability is recall@k.
    const found = recall[`recall@${searchK}`];
    listings['searched-index'] = {
      ...listings['searched-index'],
      discoverability:
        subCases.length === 0 || found === undefined || found === null
          ? { cases: 0, withDescription: null, nameOnly: null, dropped: null }
          : { cases: subCases.length, withDescription: found, nameOnly: 0, dropped: 1 - found },
      recall,
      meanSearchTokens: subCases.length === 0 ? null : searchTokens / subCases.length,
      searchK,
    };
    out.push({ n, skills: subset.length, skillCases: subCases.length, listings, loaded: loadedMeasure(subset, subCases) });
  }
  return { contextWindow: opts.contextWindow, ks, counter: 'o200k', retrieval: opts.retrieval ?? 'hybrid', sizes: out };
}
