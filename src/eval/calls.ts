/**
 * Model calls: the round trips a profile's protocol costs to get the tools a case needs callable
 * and to call them (the seed articles weigh strategies on this as much as on tokens: deferred
 * schemas cost one more call, namespace routing one more per namespace opened, Hermes goes search →
 * describe → call against Codex's search → call, code mode runs several operations in one call).
 *
 * The calls count the protocol as the model runs it, right or wrong: whether the right tool was
 * there is what `visible` and `recall@k` measure. One case, from the profile's
 * {@link CallProtocol} and what happened in the case:
 *   searches  = protocol.search × (the searches the model issued: 1, 2 after a retry, 0 when the
 *               turn kept its sticky set or the model had no keyword to search for);
 *   opens     = protocol.perNamespace × namespaces opened;
 *   needed    = the case's distinct gold tools (goldMode `any`: 1);
 *   before    = needed tools already in front of the model before the search (eager, or callable
 *               from a code-mode SDK), at most `needed`;
 *   picked    = the other needed tools, taken from what the search brought (the gold tool when it
 *               is there, else the model's wrong pick); 0 when the search brought nothing (the
 *               model then answers without a call);
 *   loads     = protocol.perFoundTool × picked (a describe or load_tool_schema each);
 *   toolCalls = before + picked (one call each), or 1 for a code-mode run when either is > 0;
 *   total     = searches + opens + loads + toolCalls.
 * A failed search is counted; a no-tool case costs only its searches and opens. The figures are
 * means over cases, so a 12-turn session is 12 × the mean per session turn (no-tool turns
 * included: a search on a greeting is a call).
 */
import type { Case } from '../catalog/types.ts';
import type { CallProtocol } from '../profiles/types.ts';
import type { QueryDetail } from './results.ts';

/** One case's model calls (`searches` is part of `total`). */
export interface CaseCalls {
  searches: number;
  total: number;
}

export interface CaseCallsInput {
  /** Gold tools of the case (empty: a no-tool case). */
  gold: readonly string[];
  goldMode: 'all' | 'any';
  /** Gold tools in front of the model before any search (eager or code-mode callable). */
  before: readonly string[];
  /** Tools the search put in front of the model (ranked and loaded): the model picks from them. */
  searched: readonly string[];
  /** Searches the model issued for this case (0: none). */
  searches: number;
  /** Namespaces the model opened. */
  namespacesOpened: number;
}

export function caseCalls(protocol: CallProtocol, x: CaseCallsInput): CaseCalls {
  const searches = protocol.search * x.searches;
  const opens = (protocol.perNamespace ?? 0) * x.namespacesOpened;
  const gold = [...new Set(x.gold)];
  const needed = x.goldMode === 'any' ? Math.min(1, gold.length) : gold.length;
  const shown = new Set(x.before);
  const before = Math.min(needed, gold.filter((id) => shown.has(id)).length);
  const picked = x.searched.length > 0 ? needed - before : 0;
  const loads = protocol.perFoundTool * picked;
  const toolCalls = protocol.call === 'script' ? (before + picked > 0 ? 1 : 0) : before + picked;
  return { searches, total: searches + opens + loads + toolCalls };
}

/** The call figures of a profile in `results.json` (`profiles.<name>.calls`). */
export interface CallFigures {
  /** Mean model calls over the cases that need a tool (gold tools labelled). */
  perCase: number;
  /**
   * Mean model calls over the cases that need a tool whose gold became visible (`visible` = 1: every
   * tool the case needs in front of the model): what a success costs, so a strategy that shows
   * nothing (and so calls nothing) is not cheaper for it. null: no case's gold became visible (not
   * applicable); absent in results written before it was counted.
   */
  perSuccess?: number | null;
  /** Mean searches the model issued over the same cases (retries counted). */
  searchesPerCase: number;
  /** Mean model calls on no-tool cases (searches made when nothing was needed); null without such cases. */
  noToolPerCase: number | null;
  /** A 12-turn session: 12 × the mean calls per session turn (every case when the data has no session). */
  perSession: number;
  /** What `perSession` was measured on. */
  sessionBasis: 'sessions' | 'cases';
  protocol: CallProtocol;
}

/**
 * The call figures from a profile's per-case details (in case order), so a merged sharded run gives
 * the same; `sessionTurns12` = the session length (12); `visible` = each case's `visible` score (by
 * case id), for `perSuccess`.
 */
export function callFigures(
  cases: readonly Case[],
  details: readonly QueryDetail[],
  protocol: CallProtocol,
  sessionTurns12: number,
  visible: ReadonlyMap<string, number> = new Map(),
): CallFigures {
  let graded = 0;
  let gradedCalls = 0;
  let gradedSearches = 0;
  let successes = 0;
  let successCalls = 0;
  let noTool = 0;
  let noToolCalls = 0;
  let all = 0;
  let allCalls = 0;
  let sessionTurns = 0;
  let sessionCalls = 0;
  cases.forEach((c, i) => {
    const calls = details[i]?.exposure?.calls;
    if (c.expectedTools === undefined || !calls) return;
    all++;
    allCalls += calls.total;
    if (c.expectedTools.length) {
      graded++;
      gradedCalls += calls.total;
      gradedSearches += calls.searches;
      if (visible.get(c.id) === 1) {
        successes++;
        successCalls += calls.total;
      }
    } else {
      noTool++;
      noToolCalls += calls.total;
    }
    if (c.sessionId !== undefined) {
      sessionTurns++;
      sessionCalls += calls.total;
    }
  });
  const perTurn = sessionTurns ? sessionCalls / sessionTurns : all ? allCalls / all : 0;
  return {
    perCase: graded ? gradedCalls / graded : 0,
    perSuccess: successes ? successCalls / successes : null,
    searchesPerCase: graded ? gradedSearches / graded : 0,
    noToolPerCase: noTool ? noToolCalls / noTool : null,
    perSession: sessionTurns12 * perTurn,
    sessionBasis: sessionTurns ? 'sessions' : 'cases',
    protocol: { ...protocol },
  };
}
