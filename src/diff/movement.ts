/**
 * Which cases moved between the old and the new ranking, and who moved them: pure functions of
 * the cases, both rankings and the catalog changes. Deterministic: groups are ordered by size
 * (descending), then tool ids; examples and case lists follow case order.
 */
import type { Case, Catalog } from '../catalog/types.ts';
import { compareStrings } from '../util/unicode.ts';
import { evaluate } from '../metrics/aggregate.ts';
import type { CaseLabel, CaseResult, CatalogFacts } from '../metrics/types.ts';
import type { Ranking } from './cache.ts';
import type { ToolStatus } from './changes.ts';

/** Example cases quoted per group. */
export const EXAMPLES_PER_GROUP = 3;
/** Tools named as having pushed a tool out of the top k. */
export const PUSHERS_PER_TOOL = 3;

export interface CaseExample {
  id: string;
  request: string;
}

/** One (winner, displaced) pair: `winner` is top-1 now on `cases` cases where `displaced` was. */
export interface Takeover {
  /** Top-1 now; null: nothing ranked. */
  winner: string | null;
  winnerStatus: ToolStatus | null;
  /** Top-1 before; null: nothing ranked. */
  displaced: string | null;
  displacedStatus: ToolStatus | null;
  cases: number;
  /** Cases where the displaced tool was a labelled (gold) tool and the winner is not: top-1 lost. */
  goldLost: number;
  /** Cases where the winner is a gold tool and the displaced one was not: top-1 gained. */
  goldGained: number;
  examples: CaseExample[];
}

/** A tool that left the top k of some cases. */
export interface Dropout {
  tool: string;
  status: ToolStatus;
  cases: number;
  /** Of those, cases where the tool was gold. */
  goldLost: number;
  /** Tools that entered the top k on those cases, most cases first. */
  pushedOutBy: Array<{ tool: string; cases: number }>;
  examples: CaseExample[];
}

export interface MovedCase {
  id: string;
  request: string;
  gold: string[];
  oldTop1: string | null;
  newTop1: string | null;
  /** Tools that left and entered the top k (in rank order). */
  leftTopK: string[];
  enteredTopK: string[];
}

export interface Figures {
  top1: number | null;
  recallAtK: number | null;
  /** Graded cases (labelled with at least one tool). */
  graded: number;
}

export interface NamespaceDrop {
  namespace: string;
  /** Graded cases with a gold tool in the namespace. */
  cases: number;
  old: number;
  new: number;
  delta: number;
}

export interface ReviewTool {
  tool: string;
  status: ToolStatus;
  /** Cases where the tool was top-1 before and is not now. */
  lostTop1: number;
  /** Of those, cases where it was a labelled (gold) tool and the new top-1 is not one: a labelled answer lost. */
  goldLost: number;
}

export interface Movement {
  /** Tool-labelled cases compared. */
  cases: number;
  top1Changed: number;
  topKChanged: number;
  overall: { old: Figures; new: Figures };
  takeovers: Takeover[];
  dropouts: Dropout[];
  /** Tools of the new catalog that were in some case's top k before and are in none now. */
  neverSurfaceNow: string[];
  /** Namespaces whose recall@k fell, biggest drop first. */
  namespaces: NamespaceDrop[];
  /** Tools in both catalogs that lost top-1 on at least one case, most first. */
  lostTop1: ReviewTool[];
  moved: MovedCase[];
}

function facts(primary: Catalog, fallback: Catalog): CatalogFacts {
  const ns = new Map(fallback.tools.map((t) => [t.id, t.namespace]));
  for (const t of primary.tools) ns.set(t.id, t.namespace);
  return { toolIds: primary.tools.map((t) => t.id), pinned: new Set(primary.tools.filter((t) => t.pinned).map((t) => t.id)), namespaceOf: (id) => ns.get(id) };
}

const round = (x: number | undefined): number | null => (x === undefined ? null : Math.round(x * 1e6) / 1e6);

/** Compare the rankings of `cases` (tool-labelled ones; `null` rankings are skipped) at cut-off `k`. */
export function movement(
  cases: readonly Case[],
  oldRankings: ReadonlyArray<Ranking | null>,
  newRankings: ReadonlyArray<Ranking | null>,
  catalogs: { old: Catalog; new: Catalog },
  status: ReadonlyMap<string, ToolStatus>,
  k: number,
): Movement {
  const statusOf = (id: string | null): ToolStatus | null => (id === null ? null : (status.get(id) ?? 'unchanged'));
  const idx = cases.map((_, i) => i).filter((i) => cases[i]!.expectedTools !== undefined && oldRankings[i] && newRankings[i]);
  const takeovers = new Map<string, Takeover>();
  const dropouts = new Map<string, { d: Dropout; pushers: Map<string, number> }>();
  const lost = new Map<string, ReviewTool>();
  const surfacedBefore = new Set<string>();
  const surfacedNow = new Set<string>();
  const moved: MovedCase[] = [];
  let top1Changed = 0;
  let topKChanged = 0;
  for (const i of idx) {
    const c = cases[i]!;
    const gold = new Set(c.expectedTools!);
    const before = oldRankings[i]!.slice(0, k).map(([id]) => id);
    const after = newRankings[i]!.slice(0, k).map(([id]) => id);
    for (const id of before) surfacedBefore.add(id);
    for (const id of after) surfacedNow.add(id);
    const a = before[0] ?? null;
    const b = after[0] ?? null;
    const beforeSet = new Set(before);
    const afterSet = new Set(after);
    const left = before.filter((id) => !afterSet.has(id));
    const entered = after.filter((id) => !beforeSet.has(id));
    if (a === b && !left.length && !entered.length) continue;
    const example = { id: c.id, request: c.request };
    moved.push({ id: c.id, request: c.request, gold: [...c.expectedTools!], oldTop1: a, newTop1: b, leftTopK: left, enteredTopK: entered });
    if (left.length || entered.length) topKChanged++;
    if (a !== b) {
      top1Changed++;
      const key = `${b ?? ''}\u0000${a ?? ''}`;
      let t = takeovers.get(key);
      if (!t)
        takeovers.set(
          key,
          (t = { winner: b, winnerStatus: statusOf(b), displaced: a, displacedStatus: statusOf(a), cases: 0, goldLost: 0, goldGained: 0, examples: [] }),
        );
      t.cases++;
      const wasGold = a !== null && gold.has(a);
      const isGold = b !== null && gold.has(b);
      if (wasGold && !isGold) t.goldLost++;
      if (isGold && !wasGold) t.goldGained++;
      if (t.examples.length < EXAMPLES_PER_GROUP) t.examples.push(example);
      if (a !== null && statusOf(a) !== 'removed' && statusOf(a) !== 'added') {
        let r = lost.get(a);
        if (!r) lost.set(a, (r = { tool: a, status: statusOf(a)!, lostTop1: 0, goldLost: 0 }));
        r.lostTop1++;
        if (wasGold && !isGold) r.goldLost++;
      }
    }
    for (const y of left) {
      if (statusOf(y) === 'removed') continue;
      let e = dropouts.get(y);
      if (!e) dropouts.set(y, (e = { d: { tool: y, status: statusOf(y)!, cases: 0, goldLost: 0, pushedOutBy: [], examples: [] }, pushers: new Map() }));
      e.d.cases++;
      if (gold.has(y)) e.d.goldLost++;
      if (e.d.examples.length < EXAMPLES_PER_GROUP) e.d.examples.push(example);
      for (const x of entered) e.pushers.set(x, (e.pushers.get(x) ?? 0) + 1);
    }
  }
  const bySize =
    <T>(size: (x: T) => number, name: (x: T) => string) =>
    (x: T, y: T) =>
      size(y) - size(x) || compareStrings(name(x), name(y));

  // Overall and per-namespace figures, with the project's metric kernels.
  const labels: CaseLabel[] = [];
  const oldResults: CaseResult[] = [];
  const newResults: CaseResult[] = [];
  for (const i of idx) {
    const c = cases[i]!;
    labels.push({ id: c.id, expectedTools: c.expectedTools!, ...(c.goldMode ? { goldMode: c.goldMode } : {}), slices: c.slices });
    oldResults.push({ caseId: c.id, ranked: oldRankings[i]!.map(([id]) => id), scopeLeaks: 0 });
    newResults.push({ caseId: c.id, ranked: newRankings[i]!.map(([id]) => id), scopeLeaks: 0 });
  }
  const ks = [1, k];
  const evOld = evaluate(labels, oldResults, facts(catalogs.old, catalogs.new), ks);
  const evNew = evaluate(labels, newResults, facts(catalogs.new, catalogs.old), ks);
  const figures = (t: Record<string, number>): Figures => ({ top1: round(t.top1), recallAtK: round(t[`recall@${k}`]), graded: t.gradedCases ?? 0 });
  const namespaces: NamespaceDrop[] = [];
  for (const [ns, tNew] of Object.entries(evNew.namespaces)) {
    const o = evOld.namespaces[ns]?.[`recall@${k}`];
    const n = tNew[`recall@${k}`];
    if (o === undefined || n === undefined || !(n < o - 1e-12)) continue;
    namespaces.push({ namespace: ns, cases: tNew.gradedCases ?? 0, old: round(o)!, new: round(n)!, delta: round(n - o)! });
  }
  namespaces.sort((x, y) => x.delta - y.delta || compareStrings(x.namespace, y.namespace));

  const inNew = new Set(catalogs.new.tools.map((t) => t.id));
  return {
    cases: idx.length,
    top1Changed,
    topKChanged,
    overall: { old: figures(evOld.overall), new: figures(evNew.overall) },
    takeovers: [...takeovers.values()].sort(
      bySize(
        (t) => t.cases,
        (t) => `${t.winner ?? ''}\u0000${t.displaced ?? ''}`,
      ),
    ),
    dropouts: [...dropouts.values()]
      .map(({ d, pushers }) => ({
        ...d,
        pushedOutBy: [...pushers]
          .map(([tool, n]) => ({ tool, cases: n }))
          .sort(
            bySize(
              (p) => p.cases,
              (p) => p.tool,
            ),
          )
          .slice(0, PUSHERS_PER_TOOL),
      }))
      .sort(
        bySize(
          (d) => d.cases,
          (d) => d.tool,
        ),
      ),
    neverSurfaceNow: [...surfacedBefore].filter((id) => inNew.has(id) && !surfacedNow.has(id)).sort(compareStrings),
    namespaces,
    lostTop1: [...lost.values()].sort(
      bySize(
        (r) => r.lostTop1,
        (r) => r.tool,
      ),
    ),
    moved,
  };
}
