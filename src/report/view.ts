/**
 * What reporters read: a `results.json` (never a retriever), normalised into one list of
 * strategies (retrievers, then profiles, in run order) with the figures the reports show.
 * Sections the run did not produce (profiles, tokens, skills, sessions) are simply absent, so a
 * report of one retriever and a report of twenty go through the same code.
 */
import type { ProfileResults, Results, RetrieverResults } from '../eval/results.ts';

export interface StrategyView {
  name: string;
  kind: 'retriever' | 'profile';
  results: RetrieverResults;
  /** Profiles only. */
  profile?: ProfileResults;
  /** The profile offers a search on this catalog (ranking metrics exist); retrievers: true. */
  ranks: boolean;
}

export function strategies(r: Results): StrategyView[] {
  const out: StrategyView[] = Object.entries(r.retrievers).map(([name, results]) => ({ name, kind: 'retriever', results, ranks: true }));
  for (const [name, p] of Object.entries(r.profiles ?? {})) out.push({ name, kind: 'profile', results: p, profile: p, ranks: p.exposure.search });
  return out;
}

/** A metric of the overall table, or undefined. */
export function overall(s: StrategyView, metric: string): number | undefined {
  return s.results.metrics.overall[metric];
}

/** Slices present in any strategy's tables, sorted. */
export function sliceNames(r: Results): string[] {
  const names = new Set<string>();
  for (const s of strategies(r)) for (const k of Object.keys(s.results.metrics.slices)) names.add(k);
  return [...names].sort();
}

/** The headline metric of a strategy: recall@5 if it ranks (or the largest k ≤ 5), else `visible`. */
export function headline(r: Results): string {
  const ks = r.config.ks.filter((k) => k <= 5);
  return `recall@${ks.length ? ks[ks.length - 1] : r.config.ks[0]}`;
}
