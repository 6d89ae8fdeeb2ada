/**
 * Abstention: what a floor score does to a strategy. A floor drops every hit scoring below it, so
 * an off-topic request can come back empty (the strategy abstains) at the price of some real
 * requests losing their gold tool. Three pure functions over per-case unfloored rankings:
 *
 * - {@link floorForRate}: the lowest floor whose no-tool false-positive rate is ≤ a target, from
 *   the no-tool cases' top scores (used to calibrate a floor on one set of cases and to read the
 *   curve at a given rate);
 * - {@link operatingCurve}: recall@1, recall@5 and the no-tool false-positive rate at ≥ 20 floors
 *   spanning the score range;
 * - {@link recallAtRates}: recall@5 at no-tool false-positive rates 0.05, 0.1 and 0.2.
 *
 * A no-tool case is a false positive at floor f when a non-pinned tool scores ≥ f, or when a
 * non-pinned tool is in front of the model whatever the floor (`eagerUnpinned`: a profile's eager
 * tools, the harness's own core tools excepted, as pinned ones are). Recall at floor f is computed on each graded case's hits scoring ≥ f (a prefix of its
 * ranking, which is best first), exactly as the policy layer applies a floor.
 */
import { recallAtK, type GoldMode } from './ranking.ts';

/** One case as abstention sees it. */
export interface AbstentionCase {
  /** `[]` = no tool needed; otherwise the gold tools (a graded case). */
  expected: readonly string[];
  goldMode?: GoldMode;
  /** The unfloored ranking (after the scope check, at most the run's depth), best first. */
  hits: ReadonlyArray<readonly [string, number]>;
  /** A tool neither pinned nor the harness's own core tool is in front of the model before any search (a profile's eager tools): a no-tool case is then a false positive at every floor. */
  eagerUnpinned?: boolean;
}

export interface CurvePoint {
  floor: number;
  'recall@1': number;
  'recall@5': number;
  noToolFalsePositiveRate: number;
  /** Profiles: the same counting only what the search returned. */
  searchNoToolFalsePositiveRate?: number;
}

/** A floor read off the curve at a false-positive rate. `floor: null` = no floor is needed. */
export interface RatePoint {
  'recall@5': number;
  floor: number | null;
  noToolFalsePositiveRate: number;
}

/** The false-positive rates `recallAtFalsePositiveRate` reports. */
export const REPORTED_RATES = [0.05, 0.1, 0.2] as const;

/** The smallest double greater than `x` (x itself for NaN and +∞). */
export function nextUp(x: number): number {
  if (Number.isNaN(x) || x === Infinity) return x;
  if (x === 0) return Number.MIN_VALUE;
  const f = new Float64Array([x]);
  const b = new BigInt64Array(f.buffer);
  b[0] = b[0]! + (x > 0 ? 1n : -1n);
  return f[0]!;
}

/** The best score of a non-pinned hit (−∞ when there is none). Hits are best first. */
export function topUnpinned(hits: AbstentionCase['hits'], pinned: ReadonlySet<string>): number {
  for (const [id, score] of hits) if (!pinned.has(id)) return score;
  return -Infinity;
}

/**
 * The lowest floor whose false-positive rate over `tops` is ≤ `rate`. `tops` holds one value per
 * no-tool case: its best non-pinned score (−∞: nothing returned, never a false positive; +∞: a
 * false positive whatever the floor). With the tops sorted descending t₁ ≥ t₂ ≥ … and
 * m = ⌊rate · n⌋, every floor above t₍ₘ₊₁₎ lets at most m cases through, and none at or below it
 * does; the lowest such floor is the next double after t₍ₘ₊₁₎.
 *
 * Returns `floor: null` when no floor is needed (t₍ₘ₊₁₎ = −∞, or m ≥ n), `undefined` when no floor
 * reaches the rate (more than m cases are false positives whatever the floor) or there is no case.
 * `rate` is the false-positive rate the floor gives on `tops`.
 */
export function floorForRate(tops: readonly number[], rate: number): { floor: number | null; rate: number } | undefined {
  const n = tops.length;
  if (n === 0) return undefined;
  const sorted = [...tops].sort((a, b) => b - a);
  const m = Math.floor(rate * n + 1e-9);
  const fpAt = (floor: number | null): number => sorted.filter((t) => t === Infinity || (t !== -Infinity && (floor === null || t >= floor))).length / n;
  if (m >= n) return { floor: null, rate: fpAt(null) };
  const t = sorted[m]!;
  if (t === Infinity) return undefined;
  if (t === -Infinity) return { floor: null, rate: fpAt(null) };
  const floor = nextUp(t);
  return { floor, rate: fpAt(floor) };
}

function graded(c: AbstentionCase): boolean {
  return c.expected.length > 0;
}

/** Mean recall@k over the graded cases at floor `floor` (null: no floor). */
function recallAt(cases: readonly AbstentionCase[], k: number, floor: number | null): number {
  return recallAtFloor(prefixRecalls(cases, k), floor);
}

/**
 * The graded cases' recall@k for each count of hits a floor keeps: a floor keeps a prefix of a
 * case's hits (best first, up to the first scoring below it) and recall@k reads the first k, so
 * `at[j]` = recall@k of the first j hits (j = 0 … k) and the first k scores say which applies.
 */
interface PrefixRecalls {
  at: Float64Array[];
  scores: number[][];
}

function prefixRecalls(cases: readonly AbstentionCase[], k: number): PrefixRecalls {
  const at: Float64Array[] = [];
  const scores: number[][] = [];
  for (const c of cases) {
    if (!graded(c)) continue;
    const first = c.hits.slice(0, k);
    const ids = first.map(([id]) => id);
    at.push(Float64Array.from({ length: k + 1 }, (_, j) => recallAtK(ids.slice(0, j), c.expected, k, c.goldMode ?? 'all')));
    scores.push(first.map(([, s]) => s));
  }
  return { at, scores };
}

/** Mean recall@k at `floor` (null: no floor) from {@link prefixRecalls}: the same sum, case by case, as ranking each case's kept hits. */
function recallAtFloor(p: PrefixRecalls, floor: number | null): number {
  let sum = 0;
  for (let i = 0; i < p.at.length; i++) {
    const s = p.scores[i]!;
    let kept = 0;
    while (kept < s.length && !(floor !== null && s[kept]! < floor)) kept++;
    sum += p.at[i]![kept]!;
  }
  return p.at.length ? sum / p.at.length : 0;
}

/** Nearest-rank quantile of ascending `sorted`. */
function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

/**
 * The operating curve: floors ascending from the lowest score any case has (nothing dropped) to
 * just above the highest (everything dropped), through 21 evenly spaced values and the 21
 * quantiles (0, 5 %, … 100 %) of the cases' best scores, duplicates removed. Undefined when the
 * cases are not applicable: no graded case, no no-tool case, or no hit at all.
 * `searchNoToolFalsePositiveRate` is given when `search` is set (profiles).
 */
export function operatingCurve(cases: readonly AbstentionCase[], pinned: ReadonlySet<string>, opts: { search?: boolean } = {}): CurvePoint[] | undefined {
  const noTool = cases.filter((c) => !graded(c));
  if (!noTool.length || noTool.length === cases.length) return undefined;
  let lo = Infinity;
  let hi = -Infinity;
  const tops: number[] = [];
  for (const c of cases) {
    for (const [, s] of c.hits) {
      if (s < lo) lo = s;
      if (s > hi) hi = s;
    }
    if (c.hits.length) tops.push(c.hits[0]![1]);
  }
  if (!tops.length) return undefined;
  tops.sort((a, b) => a - b);
  const floors = new Set<number>([lo, nextUp(hi)]);
  for (let i = 0; i <= 20; i++) {
    floors.add(lo + ((hi - lo) * i) / 20);
    floors.add(quantile(tops, i / 20));
  }
  const noToolTops = noTool.map((c) => topUnpinned(c.hits, pinned));
  const at1 = prefixRecalls(cases, 1);
  const at5 = prefixRecalls(cases, 5);
  return [...floors]
    .sort((a, b) => a - b)
    .map((floor) => {
      let fp = 0;
      let searchFp = 0;
      noTool.forEach((c, i) => {
        const found = noToolTops[i]! >= floor;
        if (found) searchFp++;
        if (found || c.eagerUnpinned) fp++;
      });
      return {
        floor,
        'recall@1': recallAtFloor(at1, floor),
        'recall@5': recallAtFloor(at5, floor),
        noToolFalsePositiveRate: fp / noTool.length,
        ...(opts.search ? { searchNoToolFalsePositiveRate: searchFp / noTool.length } : {}),
      };
    });
}

/**
 * recall@5 at each of {@link REPORTED_RATES}: the floor is {@link floorForRate} on these cases'
 * no-tool tops (eager profiles' cases count as false positives whatever the floor), `null` where
 * no floor reaches the rate. Undefined when there is no graded or no no-tool case.
 */
export function recallAtRates(cases: readonly AbstentionCase[], pinned: ReadonlySet<string>): Record<string, RatePoint | null> | undefined {
  const noTool = cases.filter((c) => !graded(c));
  if (!noTool.length || noTool.length === cases.length) return undefined;
  const tops = noTool.map((c) => (c.eagerUnpinned ? Infinity : topUnpinned(c.hits, pinned)));
  const out: Record<string, RatePoint | null> = {};
  for (const rate of REPORTED_RATES) {
    const f = floorForRate(tops, rate);
    out[String(rate)] = f ? { 'recall@5': recallAt(cases, 5, f.floor), floor: f.floor, noToolFalsePositiveRate: f.rate } : null;
  }
  return out;
}
