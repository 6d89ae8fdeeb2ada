/**
 * Ranking kernels: pure functions of one case's ranked tool ids and its gold tool ids.
 *
 * Conventions shared by every kernel here:
 * - The top k are the first k entries of `ranked` as given (a shorter list is used whole).
 * - A tool id repeated in `ranked` counts once, at its first position; later copies gain nothing
 *   but still take up their slot (the cut-off is on what was shown, not on distinct ids).
 * - `gold` is a set: repeated gold ids count once. It must not be empty: no-tool cases are scored
 *   by `noToolFalsePositive` (no-tool.ts), never by these kernels, which throw on `[]`.
 * - Gold ids need not be in the catalog; such a tool simply never matches.
 * - `k` and `cutoff` must be integers ≥ 1.
 */

/** How a case's gold tools combine: every one is needed (`all`), or any one will do (`any`). */
export type GoldMode = 'all' | 'any';

function checkCutoff(k: number, name = 'k'): void {
  if (!Number.isInteger(k) || k < 1) throw new Error(`${name} must be an integer ≥ 1, got ${k}`);
}

function goldSet(gold: readonly string[]): ReadonlySet<string> {
  const set = new Set(gold);
  if (set.size === 0) throw new Error('ranking metrics need at least one gold tool (score no-tool cases with noToolFalsePositive)');
  return set;
}

/** 1-based ranks, ascending, at which a distinct gold tool first appears within the top k. */
export function goldHitRanks(ranked: readonly string[], gold: readonly string[], k: number): number[] {
  checkCutoff(k);
  const g = goldSet(gold);
  const seen = new Set<string>();
  const hits: number[] = [];
  const n = Math.min(k, ranked.length);
  for (let i = 0; i < n; i++) {
    const id = ranked[i]!;
    if (seen.has(id)) continue;
    seen.add(id);
    if (g.has(id)) hits.push(i + 1);
  }
  return hits;
}

/** DCG discount of a 1-based rank: 1 / log2(rank + 1). */
function gainAt(rank: number): number {
  return 1 / Math.log2(rank + 1);
}

/** Top-1: 1 if `ranked[0]` is a gold tool, else 0 (also 0 for an empty list). */
export function top1(ranked: readonly string[], gold: readonly string[]): number {
  return goldHitRanks(ranked, gold, 1).length;
}

/**
 * Recall@k.
 * - mode `all`: |gold ∩ top-k| / |gold| (distinct gold tools).
 * - mode `any`: 1 if any gold tool is in the top k, else 0 (the alternatives are interchangeable).
 */
export function recallAtK(ranked: readonly string[], gold: readonly string[], k: number, mode: GoldMode = 'all'): number {
  const hits = goldHitRanks(ranked, gold, k).length;
  if (mode === 'any') return hits > 0 ? 1 : 0;
  return hits / new Set(gold).size;
}

/**
 * Visible: the share of gold tools in front of the model after one search, whether a search
 * returned them (`ranked`, already cut to what the search returns) or they were there from the
 * start (`eager`: the case's gold tools whose definitions a profile sends eagerly).
 * - mode `all`: |gold ∩ (ranked ∪ eager)| / |gold| (distinct gold tools);
 * - mode `any`: 1 if any gold tool is visible, else 0.
 */
export function visible(ranked: readonly string[], eager: readonly string[], gold: readonly string[], mode: GoldMode = 'all'): number {
  const shown = new Set([...ranked, ...eager]);
  const distinct = [...new Set(gold)];
  const hits = distinct.filter((id) => shown.has(id)).length;
  if (mode === 'any') return hits > 0 ? 1 : 0;
  return hits / distinct.length;
}

/** AllGold@k: 1 if every (distinct) gold tool is in the top k, else 0. */
export function allGoldAtK(ranked: readonly string[], gold: readonly string[], k: number): number {
  return goldHitRanks(ranked, gold, k).length === new Set(gold).size ? 1 : 0;
}

/** AnyGold@k: 1 if at least one gold tool is in the top k, else 0. */
export function anyGoldAtK(ranked: readonly string[], gold: readonly string[], k: number): number {
  return goldHitRanks(ranked, gold, k).length > 0 ? 1 : 0;
}

/** Reciprocal rank: 1 / rank of the first gold tool within the top `cutoff`, else 0. MRR is its mean. */
export function reciprocalRank(ranked: readonly string[], gold: readonly string[], cutoff: number): number {
  checkCutoff(cutoff, 'cutoff');
  const first = goldHitRanks(ranked, gold, cutoff)[0];
  return first === undefined ? 0 : 1 / first;
}

/**
 * nDCG@k with binary gains and a 1 / log2(rank + 1) discount.
 * - mode `all`: DCG = Σ over gold hits in the top k of 1 / log2(rank + 1); the ideal DCG comes from
 *   the labels: min(|gold|, k) relevant tools at ranks 1, 2, …, so a missing gold tool costs even
 *   when the list is short.
 * - mode `any`: the alternatives are interchangeable, so only the first gold hit gains:
 *   DCG = 1 / log2(rank + 1) of that hit (0 if none) and the ideal DCG is 1.
 */
export function ndcgAtK(ranked: readonly string[], gold: readonly string[], k: number, mode: GoldMode = 'all'): number {
  const hits = goldHitRanks(ranked, gold, k);
  if (mode === 'any') return hits[0] === undefined ? 0 : gainAt(hits[0]);
  let dcg = 0;
  for (const r of hits) dcg += gainAt(r);
  let idcg = 0;
  const ideal = Math.min(new Set(gold).size, k);
  for (let r = 1; r <= ideal; r++) idcg += gainAt(r);
  return dcg / idcg;
}

/** MissedEntirely@k: 1 when no gold tool is in the top k, else 0 (the complement of AnyGold@k). */
export function missedEntirely(ranked: readonly string[], gold: readonly string[], k: number): number {
  return 1 - anyGoldAtK(ranked, gold, k);
}

/**
 * Namespace key of a tool: its namespace, or, for a tool `namespaceOf` does not know (a gold id not
 * in the catalog), a namespace of its own that only that exact id can fill.
 */
function namespaceKey(id: string, namespaceOf: (id: string) => string | undefined): string {
  const ns = namespaceOf(id);
  return ns === undefined ? `tool\u0000${id}` : `ns\u0000${ns}`;
}

/**
 * NamespaceRecall@k: did the right neighbourhoods surface, even if not the exact tool?
 * - mode `all` (default): |ns(gold) ∩ ns(top-k)| / |ns(gold)|, over distinct namespaces.
 * - mode `any`: 1 if any gold namespace is among ns(top-k), else 0.
 * A gold tool whose namespace is unknown counts as a namespace of its own, filled only by that id.
 */
export function namespaceRecallAtK(
  ranked: readonly string[],
  gold: readonly string[],
  k: number,
  namespaceOf: (id: string) => string | undefined,
  mode: GoldMode = 'all',
): number {
  checkCutoff(k);
  const goldNs = new Set([...goldSet(gold)].map((id) => namespaceKey(id, namespaceOf)));
  const topNs = new Set(ranked.slice(0, k).map((id) => namespaceKey(id, namespaceOf)));
  let hit = 0;
  for (const ns of goldNs) if (topNs.has(ns)) hit++;
  if (mode === 'any') return hit > 0 ? 1 : 0;
  return hit / goldNs.size;
}
