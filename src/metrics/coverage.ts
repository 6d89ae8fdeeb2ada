/**
 * Coverage: catalog tools that no case ever surfaced. A tool that is never shown costs tokens and
 * crowds its neighbours for nothing; one that is gold for some case yet never shown is a retrieval
 * bug worth fixing first.
 */

/** Never-surfaced tools, as reported in `Evaluation.neverSurfaced`. */
export interface NeverSurfaced {
  /** The cut-off used: a tool surfaced if it was in some case's top k. */
  k: number;
  /** Catalog tools, pinned excluded, that are in no case's top k. */
  count: number;
  /** Those of them that are gold for at least one graded case, sorted (code-unit order). */
  gold: string[];
}

/**
 * Never-surfaced tools at cut-off `k`.
 * @param rankedLists every case's ranked list (all cases: graded, no-tool and skill-only).
 * @param toolIds the catalog's tool ids; repeats count once.
 * @param pinned pinned tools, always exposed, so never counted.
 * @param goldTools gold tool ids of the graded cases; ids not in the catalog are ignored (they are
 *   not catalog tools, so they cannot be counted as never surfaced).
 */
export function neverSurfaced(
  rankedLists: ReadonlyArray<readonly string[]>,
  k: number,
  toolIds: readonly string[],
  pinned: ReadonlySet<string>,
  goldTools: Iterable<string>,
): NeverSurfaced {
  if (!Number.isInteger(k) || k < 1) throw new Error(`k must be an integer ≥ 1, got ${k}`);
  const surfaced = new Set<string>();
  for (const ranked of rankedLists) for (const id of ranked.slice(0, k)) surfaced.add(id);
  const never = new Set<string>();
  for (const id of toolIds) if (!pinned.has(id) && !surfaced.has(id)) never.add(id);
  const gold = [...new Set(goldTools)].filter((id) => never.has(id)).sort();
  return { k, count: never.size, gold };
}
