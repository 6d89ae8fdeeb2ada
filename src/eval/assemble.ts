/**
 * One strategy's results from its per-case records: the one assembler the runner (`strategy.ts`)
 * and `merge` share, so a merged run is put together exactly as an unsharded one.
 */
import type { Case } from '../catalog/types.ts';
import type { CatalogFacts } from '../metrics/types.ts';
import { type CallProtocol, DEFAULT_CONTEXT_WINDOW } from '../profiles/types.ts';
import { callFigures } from './calls.ts';
import { profileTokens, withoutRanking } from './profile-figures.ts';
import {
  type CachePrices,
  type EvalConfig,
  type ExposureSummary,
  type ProfileResults,
  type QueryDetail,
  type RetrieverResults,
  retrieverResults,
  scoredResults,
  SESSION_TURNS,
} from './results.ts';
import { ownChurn, strategySessions } from './sessions.ts';
import type { Trace } from './traces.ts';

/** What every strategy's results are made of: its cases and their records, and how its sessions are costed. */
export interface StrategyRecords {
  cases: readonly Case[];
  /** One record a case, in the order of `cases`. */
  details: readonly QueryDetail[];
  facts: CatalogFacts;
  config: EvalConfig;
  /** The strategy's own effective configuration (`describe()`). */
  own: Record<string, unknown>;
  latency: RetrieverResults['latency'];
  traces?: ReadonlyMap<string, Trace>;
  sessions: Parameters<typeof strategySessions>[2];
}

/** A retriever's results: its metrics, and its session figures when the cases have sessions. */
export function retrieverResult(a: StrategyRecords): RetrieverResults {
  const sessions = strategySessions(a.cases, a.details, a.sessions);
  return { ...retrieverResults(a.cases, a.details, a.facts, a.config, a.own, a.latency, a.traces), ...(sessions ? { sessions } : {}) };
}

/** What a profile adds to a strategy's records: whether it searches, its exposure, its token meta and its call protocol. */
export interface ProfileRecords extends StrategyRecords {
  searches: boolean;
  exposure: ExposureSummary;
  before: Parameters<typeof profileTokens>[2];
  meta: Parameters<typeof profileTokens>[3];
  /** The prompt-caching prices its token figures are costed at. */
  tokenCache: CachePrices;
  /** How many model calls its protocol makes (absent in results written before calls were counted). */
  protocol?: CallProtocol;
}

/** A profile's results: metrics (none of the ranking ones without a search), sessions, exposure, tokens, calls. */
export function profileResult(a: ProfileRecords): ProfileResults {
  const { results: base, perCase } = scoredResults(a.cases, a.details, a.facts, a.config, a.own, a.latency, a.traces);
  const sessions = strategySessions(a.cases, a.details, a.sessions);
  const churn = ownChurn(sessions, a.sessions.sticky);
  return {
    ...(a.searches ? base : withoutRanking(base)),
    ...(sessions ? { sessions } : {}),
    exposure: a.exposure,
    tokens: profileTokens(a.details, base.metrics.overall, a.before, a.meta, a.tokenCache, churn, a.config.contextWindow ?? DEFAULT_CONTEXT_WINDOW),
    ...(a.protocol ? { calls: callFigures(a.cases, a.details, a.protocol, SESSION_TURNS, visibleByCase(perCase)) } : {}),
  };
}

/** Each case's `visible` score (1: every gold tool it needs reached the model), by case id. */
function visibleByCase(perCase: ReadonlyMap<string, Record<string, number>>): Map<string, number> {
  const out = new Map<string, number>();
  for (const [id, scores] of perCase) if (scores.visible !== undefined) out.set(id, scores.visible);
  return out;
}
