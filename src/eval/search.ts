/**
 * The runner's search loop: every case through the policy layer with one searcher, in case order,
 * giving each case's record (`QueryDetail`). Strategies (`strategy.ts`) run it for their cases and
 * their other session mode; `diff` runs it to rank each catalog ({@link rankCases}).
 */
import type { Case } from '../catalog/types.ts';
import { queryFor } from '../profiles/keyword-query.ts';
import type { QueryStyle } from '../profiles/types.ts';
import { blockAt, progressDue, startsBlock } from '../retrievers/blocks.ts';
import { callerOf, type Policy } from '../retrievers/policy.ts';
import { isPrefetching, isSearchPrefetching, type Retriever } from '../retrievers/types.ts';
import type { ExposureTally } from './exposure-tally.ts';
import type { QueryDetail } from './results.ts';

/** What the search loop reads of a case (a scored case, or a calibration case). */
export type SearchCase = Pick<Case, 'id' | 'request' | 'sessionId' | 'turn' | 'role' | 'goldMode'> & {
  readonly expectedTools?: readonly string[];
  readonly callerScopes?: readonly string[];
};

/** How one strategy searches its cases. */
export interface SearchPlan {
  /** The strategy's name (progress reports). */
  name: string;
  /** What ranks (null: the strategy issues no search). */
  searcher: Retriever | null;
  /** A profile's tally of what it puts in front of the model (null for a plain retriever). */
  exposure: ExposureTally | null;
  /** The policy layer: scopes before ranking, pinned tools, sticky sessions. A fresh one per strategy and mode. */
  policy: Policy;
  /** Ranked tools kept per case. */
  depth: number;
  /** Hits below this score are set aside (`belowFloor`); undefined: no floor. */
  floor: number | undefined;
  /** The query the search receives: the request (`raw`) or the keywords a model writes. */
  style: QueryStyle;
  /** Sticky retrieval: a session keeps its tool set while the new request matches it. */
  sticky: boolean;
  /** Called as cases are searched: (strategy, done, total). */
  progress?: (name: string, done: number, total: number) => void;
}

/**
 * Every case through the policy layer with the plan's searcher, in case order. With an exposure
 * tally (profiles), each case also records the gold tools the profile sends eagerly, and the tally
 * adds up what was put in front of the model.
 */
export async function searchCases(cases: readonly SearchCase[], plan: SearchPlan): Promise<QueryDetail[]> {
  const { name, searcher, exposure, policy, depth, floor, style, sticky } = plan;
  const list: QueryDetail[] = [];
  // A retriever that prefetches prepares each block of 64 cases' requests in one pass (the same
  // results); the block's prefetch time is shared out evenly over its searched cases' `ms`, so
  // latencies stay comparable with a retriever that does everything in `search`.
  const prefetcher = searcher && depth > 0 && isPrefetching(searcher) ? searcher : null;
  // A remote service gets each block's searches ahead, with the context a fresh retrieval hands it.
  const sender = searcher && depth > 0 && isSearchPrefetching(searcher) ? searcher : null;
  let prefetchShare = 0;
  plan.progress?.(name, 0, cases.length);
  for (let i = 0; i < cases.length; i++) {
    const c = cases[i]!;
    if ((prefetcher || sender) && startsBlock(i)) {
      const block = blockAt(cases, i)
        .filter((x) => x.expectedTools !== undefined)
        .map((x) => ({ x, query: queryFor(x.request, style) }))
        .filter((q) => q.query !== '');
      const p0 = performance.now();
      if (block.length && prefetcher) await prefetcher.prefetch(block.map((b) => b.query));
      if (block.length && sender) await sender.prefetchSearches(block.map((b) => ({ request: b.query, context: policy.freshContext(callerOf(b.x), depth) })));
      prefetchShare = block.length ? (performance.now() - p0) / block.length : 0;
    }
    if (c.expectedTools === undefined) {
      // A skill-only case is not labelled for tools: nothing to search for.
      list.push({ caseId: c.id, ranked: [], pinned: [], leaks: [], ms: 0 });
      continue;
    }
    const caller = callerOf(c);
    // The query the search receives: the request, or the keywords a model writes (none: the model issues no search).
    const query = queryFor(c.request, style);
    const q0 = performance.now();
    const found =
      searcher && depth > 0 && query !== ''
        ? await policy.expose(searcher, query, caller, { depth, ...(floor !== undefined ? { floor } : {}), ...(sticky ? { sticky: true } : {}) })
        : query === '' && searcher && depth > 0
          ? policy.unsearched(caller, { ...(sticky ? { sticky: true } : {}) })
          : { ranked: [], pinned: [], leaks: [] };
    const ms = performance.now() - q0 + prefetchShare;
    const below = 'belowFloor' in found ? found.belowFloor : undefined;
    const detail: QueryDetail = {
      caseId: c.id,
      ranked: found.ranked.map((h) => [h.id, h.score]),
      ...(below?.length ? { belowFloor: below.map((h): [string, number] => [h.id, h.score]) } : {}),
      pinned: found.pinned,
      leaks: found.leaks,
      ...('kept' in found && found.kept ? { kept: true } : {}),
      ms: round3(ms),
    };
    if (exposure) {
      const { exposureLeaks, ...shown } = exposure.record(c, caller, found.ranked, query, detail.kept === true);
      Object.assign(detail, shown);
      // tools put in front of the model outside the caller's scopes are leaks too, wherever they were shown
      if (exposureLeaks.length) detail.leaks = [...new Set([...detail.leaks, ...exposureLeaks])];
    }
    list.push(detail);
    if (progressDue(i, cases.length)) plan.progress?.(name, i + 1, cases.length);
  }
  return list;
}

/**
 * Rank `cases` with a plain retriever through `policy`, exactly as the runner searches a retriever's
 * cases (the request as the query, no floor, per turn, prefetched in blocks): what `diff` ranks each
 * catalog with. `progress`: (done, total).
 */
export function rankCases(
  retriever: Retriever,
  policy: Policy,
  cases: readonly SearchCase[],
  depth: number,
  progress?: (done: number, total: number) => void,
): Promise<QueryDetail[]> {
  return searchCases(cases, {
    name: '',
    searcher: retriever,
    exposure: null,
    policy,
    depth,
    floor: undefined,
    style: 'raw',
    sticky: false,
    ...(progress ? { progress: (_: string, done: number, total: number) => progress(done, total) } : {}),
  });
}

export function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}
