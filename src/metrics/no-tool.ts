/**
 * The "no tool" metric: a case labelled `expected: []` is a first-class case with its own metric,
 * not a query with empty qrels that standard IR maths would quietly drop.
 */

/**
 * No-tool false positive: 1 if any tool that is not pinned is in `ranked` (the whole list that
 * survived the floor, not a top-k cut), else 0. Pinned tools (finish, escalate) are always exposed
 * and never a false positive, so a list of pinned tools only, or an empty list, scores 0.
 * The rate `noToolFalsePositiveRate` is the mean of this over the no-tool cases.
 */
export function noToolFalsePositive(ranked: readonly string[], pinned: ReadonlySet<string>): number {
  return ranked.some((id) => !pinned.has(id)) ? 1 : 0;
}
