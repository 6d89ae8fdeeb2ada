/**
 * Multi-turn sessions, turn by turn: recall per turn, how often the exposed set changes (each
 * change breaks the cached prefix) and what a session costs in tokens — under per-turn retrieval
 * and under sticky-per-task retrieval, so the seed's claim "sticky preserves caching" is measured.
 *
 * Token model per turn t of a session (B = tokens before search for the caller, S_t = what the
 * turn's exposure adds):
 * - `prefix` (the exposed definitions are the tools array, rebuilt per request): uncached B + S_t;
 *   cached: (B + S_t)·w on the first turn and whenever the set changed, (B + S_t)·r otherwise;
 * - `history` (search results stay in the conversation): uncached B + Σ_{i≤t} S_i; cached
 *   B·(w on the first turn, else r) + S_t·w + Σ_{i<t} S_i·r. A turn that kept the session's set
 *   (sticky) did not search: S_t = 0.
 * w, r: cache write and read prices (multiples of the uncached input price).
 */
import type { Case } from '../catalog/types.ts';
import { recallAtK } from '../metrics/ranking.ts';
import type { CachePrices, QueryDetail } from './results.ts';

/** One turn of a session as the session figures need it. */
export interface SessionTurn {
  sessionId: string;
  turn: number;
  /** Gold tools (`[]`: a no-tool turn, left out of recall). */
  expected: readonly string[];
  goldMode: 'all' | 'any';
  /** Exposed tools, best first. */
  ranked: readonly string[];
  kept: boolean;
  before: number;
  search: number;
}

export interface SessionModeFigures {
  /** Mean recall@5 of the graded turns at each turn index (0-based); null where no session has a graded turn at that index (a no-tool turn). */
  recall5ByTurn: Array<number | null>;
  /** Mean recall@5 over every graded turn. */
  recall5: number;
  /** Share of turns after a session's first whose exposed set differs from the previous turn's. */
  churn: number;
  /** Share of turns after a session's first that kept the session's set (sticky). */
  keptRate: number;
  /** Mean tokens per session, uncached and with caching (uncached-token equivalents). */
  tokensUncached: number;
  tokensCached: number;
}

export interface SessionFigures {
  sessions: number;
  turns: number;
  placement: 'history' | 'prefix';
  perTurn: SessionModeFigures;
  sticky: SessionModeFigures;
}

/** Group turns by session (sessions in first-appearance order, turns by turn index). */
function bySession(turns: readonly SessionTurn[]): SessionTurn[][] {
  const map = new Map<string, SessionTurn[]>();
  for (const t of turns) {
    let list = map.get(t.sessionId);
    if (!list) map.set(t.sessionId, (list = []));
    list.push(t);
  }
  return [...map.values()].map((l) => [...l].sort((a, b) => a.turn - b.turn));
}

export function sessionModeFigures(turns: readonly SessionTurn[], placement: 'history' | 'prefix', cache: CachePrices): SessionModeFigures {
  const sessions = bySession(turns);
  const byTurn: Array<{ sum: number; n: number }> = [];
  let recallSum = 0;
  let graded = 0;
  let transitions = 0;
  let changed = 0;
  let kept = 0;
  let uncached = 0;
  let cached = 0;
  const { writeRatio: w, readRatio: r } = cache;
  for (const list of sessions) {
    let previous: string | undefined;
    let history = 0;
    list.forEach((t, i) => {
      if (t.expected.length) {
        const rec = recallAtK(t.ranked, t.expected, 5, t.goldMode);
        recallSum += rec;
        graded++;
        const slot = (byTurn[i] ??= { sum: 0, n: 0 });
        slot.sum += rec;
        slot.n++;
      }
      const set = [...t.ranked].sort().join('\n');
      const isChange = previous !== undefined && set !== previous;
      if (i > 0) {
        transitions++;
        if (isChange) changed++;
        if (t.kept) kept++;
      }
      if (placement === 'prefix') {
        const p = t.before + t.search;
        uncached += p;
        cached += p * (i === 0 || isChange ? w : r);
      } else {
        const s = t.kept ? 0 : t.search;
        uncached += t.before + history + s;
        cached += t.before * (i === 0 ? w : r) + s * w + history * r;
        history += s;
      }
      previous = set;
    });
  }
  const n = sessions.length || 1;
  return {
    // an index no session grades (its turns all need no tool) has no recall: null, not 0
    recall5ByTurn: Array.from(byTurn, (s) => (s?.n ? s.sum / s.n : null)),
    recall5: graded ? recallSum / graded : 0,
    churn: transitions ? changed / transitions : 0,
    keptRate: transitions ? kept / transitions : 0,
    tokensUncached: uncached / n,
    tokensCached: cached / n,
  };
}

/**
 * Tokens of a retriever's exposure for one turn: `ranked` = the turn's ranked tools, best first (its
 * top 5 are the turn's set); `pinned` = candidates for the caller's pinned tools (the implementation
 * keeps the catalog's pinned ones and counts each once, outside the top 5).
 */
export type RetrieverTokens = (ranked: readonly string[], pinned: readonly string[]) => { before: number; search: number };

/** The caller's pinned tools of a case: those the policy appended plus those the run ranked (it appends only pinned tools it did not rank). */
function callerPinned(d: QueryDetail): string[] {
  return [...d.pinned, ...d.ranked.map(([id]) => id)];
}

/**
 * Record on a retriever's details what each session turn puts in front of the model, in tokens
 * (`turn`, and the same on `alt` for the other mode), so the session figures, and a merge of
 * shards, need no catalog. Profiles record theirs in `exposure` as they search.
 */
export function recordTurnTokens(cases: readonly Case[], details: QueryDetail[], count: RetrieverTokens): void {
  cases.forEach((c, i) => {
    if (c.sessionId === undefined || c.expectedTools === undefined) return;
    const d = details[i]!;
    const pinned = callerPinned(d);
    const own = count(
      d.ranked.map(([id]) => id),
      pinned,
    );
    d.turn = { beforeTokens: own.before, searchTokens: own.search };
    if (d.alt) {
      const alt = count(d.alt.ranked, pinned);
      d.alt = { ...d.alt, beforeTokens: alt.before, searchTokens: alt.search };
    }
  });
}

/** What a session turn's record says it put in front of the model: from the profile's exposure or the retriever's `turn`. */
function turnTokens(c: Case, tokens: { beforeTokens?: number; searchTokens?: number } | undefined): { before: number; search: number } {
  if (tokens?.beforeTokens === undefined || tokens.searchTokens === undefined)
    throw new Error(`session case "${c.id}" has no turn tokens in its details (recordTurnTokens was not called)`);
  return { before: tokens.beforeTokens, search: tokens.searchTokens };
}

/**
 * The session figures of one strategy from its details (in case order): the run's own mode and the
 * other one (`alt`), each over the session cases. `undefined` when the data has no session. Each
 * session turn's tokens are read from its record (`exposure` for a profile, `turn` for a retriever).
 */
export function strategySessions(
  cases: readonly Case[],
  details: readonly QueryDetail[],
  o: { sticky: boolean; placement: 'history' | 'prefix'; cache: CachePrices },
): SessionFigures | undefined {
  const main: SessionTurn[] = [];
  const alt: SessionTurn[] = [];
  const sessions = new Set<string>();
  cases.forEach((c, i) => {
    if (c.sessionId === undefined || c.expectedTools === undefined) return;
    const d = details[i]!;
    sessions.add(c.sessionId);
    const base = { sessionId: c.sessionId, turn: c.turn ?? 0, expected: c.expectedTools, goldMode: c.goldMode ?? 'all' } as const;
    const ranked = d.ranked.map(([id]) => id);
    main.push({ ...base, ranked, kept: d.kept === true, ...turnTokens(c, d.exposure ?? d.turn) });
    if (d.alt) alt.push({ ...base, ranked: d.alt.ranked, kept: d.alt.kept === true, ...turnTokens(c, d.alt) });
  });
  if (!main.length) return undefined;
  const own = sessionModeFigures(main, o.placement, o.cache);
  const other = sessionModeFigures(alt, o.placement, o.cache);
  return { sessions: sessions.size, turns: main.length, placement: o.placement, perTurn: o.sticky ? other : own, sticky: o.sticky ? own : other };
}

/** The churn of the mode the run itself used (sticky or per turn), or null when no session has a second turn. */
export function ownChurn(sessions: SessionFigures | undefined, sticky: boolean): number | null {
  if (!sessions || sessions.turns <= sessions.sessions) return null;
  return (sticky ? sessions.sticky : sessions.perTurn).churn;
}
