/**
 * Fusion of any two retrievers into one ranking.
 *
 * Both children are asked for their `depth` best tools under the SAME mask (the caller's `allowed`),
 * so neither scores a tool the caller may not see; the child lists are then fused:
 *   - `zscore` (score fusion on standard scores, "ZMUV" in Montague and Aslam 2001):
 *       score(t) = Σ over children c of w_c · (s_c(t) − μ_c) / σ_c
 *     μ_c, σ_c = mean and (population) standard deviation of c's scores over EVERY allowed tool
 *     (N of them; the whole catalog without a mask): a tool c did not return counts as scoring
 *     a_c = min(0, the lowest score c returned) (0 for BM25-like children, which return only the
 *     tools they match; a child that returns everything has no absent tool), both in the
 *     statistics and in the sum. σ_c = 0 (an empty list, or all scores equal) makes c add 0. The
 *     default depth is N, so the statistics are exact; a smaller `depth` treats the tools past it
 *     as absent. Unlike min-max, a standard score keeps how far a child's best tools stand out
 *     from the rest of the catalog: a child whose top is flat weighs less in that request;
 *   - `rrf` (reciprocal-rank fusion, Cormack et al. 2009):
 *       score(t) = Σ over children c that returned t of 1 / (rrfK + rank_c(t))
 *     rank_c(t) = t's 1-based position in c's list (so two tools a child scored equally still get
 *     consecutive ranks, in that list's rankStable order); `weights` are not used;
 *   - `weighted` (score fusion):
 *       score(t) = Σ over children c that returned t of w_c · (s_c(t) − min_c) / (max_c − min_c)
 *     min_c / max_c over c's returned list; a list whose scores are all equal (a single hit, or ties)
 *     normalises to 1. A tool a child did not return adds 0; so does the lowest tool of a list.
 * Every tool returned by at least one child is ranked (even at fused score 0), by `rankStable`, and
 * the first `k` are returned. Sums are taken in child order (a, then b), so they are deterministic.
 *
 * A child's hit outside the mask, not in the catalog, or repeated is dropped before fusion (the
 * children must not return one, but a leak must not pass through the fusion). The policy's `floor`
 * is on the fused scale, so it is not passed to the children.
 *
 * The registry's `hybrid` is `zscore` over bm25 and embed, weights 0.4 / 0.6 (the figures that chose
 * it are in its registry description).
 */
import type { Catalog } from '../catalog/types.ts';
import { checkedMask, compareHits, rankStable } from './rank.ts';
import { createRetriever } from './registry.ts';
import { hasDenseScores, isDescribable, isPrefetching, type Describable, type Hit, type Prefetching, type Retriever, type SearchContext } from './types.ts';

export type FusionMethod = 'rrf' | 'weighted' | 'zscore';

export interface HybridOptions {
  /** `rrf` (reciprocal ranks), `weighted` (min-max-normalised scores) or `zscore` (standard scores over the allowed catalog). Default `rrf`. */
  method: FusionMethod;
  /** RRF's rank offset, finite and ≥ 0. Default 60 (the RRF paper's value). */
  rrfK: number;
  /** The two children's weights in `weighted` and `zscore` fusion, finite, ≥ 0, not both 0. Default [0.5, 0.5]. */
  weights: [number, number];
  /**
   * Hits taken from each child (integer ≥ 1); `undefined` = max(50, 5 · k) for `rrf` and
   * `weighted`, every allowed tool for `zscore`, for each request.
   */
  depth: number | undefined;
}

export const HYBRID_DEFAULT_OPTIONS: Readonly<HybridOptions> = Object.freeze({ method: 'rrf', rrfK: 60, weights: Object.freeze([0.5, 0.5]) as unknown as [number, number], depth: undefined });

/** The per-request child depth when `depth` is not set: max(50, 5 · k). */
export function defaultDepth(k: number): number {
  return Math.max(50, 5 * k);
}

/** Throws a `RangeError` if any option is out of range. */
export function checkHybridOptions(o: HybridOptions): void {
  if (o.method !== 'rrf' && o.method !== 'weighted' && o.method !== 'zscore') throw new RangeError(`hybrid method must be "rrf", "weighted" or "zscore" (got ${JSON.stringify(o.method)})`);
  if (typeof o.rrfK !== 'number' || !Number.isFinite(o.rrfK) || o.rrfK < 0) throw new RangeError(`hybrid rrfK must be a finite number ≥ 0 (got ${o.rrfK})`);
  if (!Array.isArray(o.weights) || o.weights.length !== 2) throw new RangeError('hybrid weights must be two numbers');
  for (const w of o.weights) {
    if (typeof w !== 'number' || !Number.isFinite(w) || w < 0) throw new RangeError(`hybrid weights must be finite numbers ≥ 0 (got ${w})`);
  }
  if (o.weights[0] + o.weights[1] <= 0) throw new RangeError('hybrid weights must not both be 0');
  if (o.depth !== undefined && !(Number.isInteger(o.depth) && o.depth >= 1)) throw new RangeError(`hybrid depth must be an integer ≥ 1 (got ${o.depth})`);
}

/** A child's hits that may be fused: in the catalog, allowed, first occurrence only, at most `depth`. */
function admissible(hits: readonly Hit[], position: ReadonlyMap<string, number>, allowed: Uint8Array | undefined, depth: number): Hit[] {
  const out: Hit[] = [];
  const seen = new Set<string>();
  for (const h of hits) {
    if (out.length >= depth) break;
    const p = position.get(h.id);
    if (p === undefined || (allowed !== undefined && allowed[p] !== 1) || seen.has(h.id) || !Number.isFinite(h.score)) continue;
    seen.add(h.id);
    out.push(h);
  }
  return out;
}

/** Allowed-tool counts of the masks seen (a policy reuses one mask object per scope set). */
const allowedCounts = new WeakMap<Uint8Array, number>();

function allowedCount(allowed: Uint8Array | undefined, n: number): number {
  if (allowed === undefined) return n;
  let count = allowedCounts.get(allowed);
  if (count === undefined) {
    count = 0;
    for (let i = 0; i < allowed.length; i++) if (allowed[i] === 1) count++;
    allowedCounts.set(allowed, count);
  }
  return count;
}

/**
 * Mean and (population) standard deviation of a child's scores over `total` allowed tools, given
 * the `count` scores it returned (their `sum` and lowest value `low`): the others count as
 * `absent` = min(0, low). `scoreAt(j)` is the j-th returned score.
 */
export function zStats(count: number, total: number, scoreAt: (j: number) => number): { mean: number; sd: number; absent: number } {
  let low = 0;
  let sum = 0;
  for (let j = 0; j < count; j++) {
    const v = scoreAt(j);
    if (v < low) low = v;
    sum += v;
  }
  if (total <= 0) return { mean: 0, sd: 0, absent: 0 };
  const missing = total - count;
  const mean = (sum + missing * low) / total;
  let squares = missing * (low - mean) * (low - mean);
  for (let j = 0; j < count; j++) {
    const d = scoreAt(j) - mean;
    squares += d * d;
  }
  return { mean, sd: Math.sqrt(squares / total), absent: low };
}

export class HybridRetriever implements Retriever, Describable, Prefetching {
  readonly name: string;
  readonly children: readonly [Retriever, Retriever];
  private readonly options: HybridOptions;
  private built = false;
  private position = new Map<string, number>();
  private ids: string[] = [];
  /** Position of each tool's id in code-unit order (the tie-break of `rankStable`). */
  private idRank = new Uint32Array(0);
  private n = 0;
  /** Catalog-sized working arrays of `fuseZDense`, reused by every request (it runs synchronously, so requests never share them at once). */
  private work = fuseWork(0);

  /** `a` and `b` are child retrievers, or registry names (created with `createRetriever`). */
  constructor(name: string, a: Retriever | string, b: Retriever | string, options: Partial<HybridOptions> = {}) {
    const o: HybridOptions = { ...HYBRID_DEFAULT_OPTIONS, ...options, weights: [...(options.weights ?? HYBRID_DEFAULT_OPTIONS.weights)] as [number, number] };
    checkHybridOptions(o);
    this.name = name;
    this.options = o;
    this.children = [typeof a === 'string' ? createRetriever(a) : a, typeof b === 'string' ? createRetriever(b) : b];
  }

  describe(): Record<string, unknown> {
    const { method, rrfK, weights, depth } = this.options;
    const child = (r: Retriever): Record<string, unknown> => (isDescribable(r) ? r.describe() : { name: r.name });
    return {
      retriever: 'hybrid',
      name: this.name,
      method,
      ...(method === 'rrf' ? { rrfK, fusion: 'sum over children of 1 / (rrfK + rank), rank 1-based in the child list' } : {}),
      ...(method === 'weighted' ? { weights: [...weights], fusion: 'sum over children of weight * min-max-normalised score (all-equal list → 1)' } : {}),
      ...(method === 'zscore'
        ? { weights: [...weights], fusion: 'sum over children of weight * (score - mean) / sd, mean and sd over every allowed tool, a tool a child did not return scoring min(0, its lowest score)' }
        : {}),
      depth: depth ?? (method === 'zscore' ? 'every allowed tool' : 'max(50, 5k)'),
      mask: 'the same allowed mask goes to both children; floor is not passed down',
      children: [child(this.children[0]), child(this.children[1])],
    };
  }

  async index(catalog: Catalog): Promise<void> {
    this.built = false;
    await this.children[0].index(catalog);
    await this.children[1].index(catalog);
    const position = new Map<string, number>();
    catalog.tools.forEach((t, i) => position.set(t.id, i));
    this.position = position;
    this.ids = catalog.tools.map((t) => t.id);
    const order = this.ids.map((_, i) => i).sort((x, y) => (this.ids[x]! < this.ids[y]! ? -1 : this.ids[x]! > this.ids[y]! ? 1 : x - y));
    this.idRank = new Uint32Array(this.ids.length);
    order.forEach((p, r) => (this.idRank[p] = r));
    this.n = catalog.tools.length;
    this.work = fuseWork(this.n);
    this.built = true;
  }

  /** Hand the upcoming requests to each child that prefetches (see {@link Prefetching}), in child order. */
  async prefetch(requests: readonly string[]): Promise<void> {
    if (!this.built) throw new Error(`retriever "${this.name}": prefetch() called before index()`);
    for (const child of this.children) if (isPrefetching(child)) await child.prefetch(requests);
  }

  async search(request: string, context: SearchContext): Promise<Hit[]> {
    if (!this.built) throw new Error(`retriever "${this.name}": search() called before index()`);
    const allowed = checkedMask(this.name, context.allowed, this.n);
    const k = Math.floor(context.k);
    if (!(k > 0)) return [];
    const total = allowedCount(allowed, this.n);
    if (total === 0) return [];
    const depth = this.options.depth ?? (this.options.method === 'zscore' ? total : defaultDepth(k));
    const { floor: _floor, ...rest } = context;
    const [a, b] = this.children;
    if (this.options.method === 'zscore' && depth >= total && hasDenseScores(a) && hasDenseScores(b)) {
      // Every allowed tool from both children: take their score arrays instead of two ranked lists of the whole catalog.
      const [da, db] = await Promise.all([a.denseScores(request, rest), b.denseScores(request, rest)]);
      return this.fuseZDense([da, db], allowed, total, k);
    }
    const childContext: SearchContext = { ...rest, k: depth };
    const [ha, hb] = await Promise.all([a.search(request, childContext), b.search(request, childContext)]);
    if (this.options.method === 'zscore') return this.fuseZ([ha, hb], allowed, depth, total, k);
    const lists = [admissible(ha, this.position, allowed, depth), admissible(hb, this.position, allowed, depth)] as const;

    const fused = new Map<string, number>();
    const add = (id: string, s: number): void => {
      fused.set(id, (fused.get(id) ?? 0) + s);
    };
    if (this.options.method === 'rrf') {
      const { rrfK } = this.options;
      for (const list of lists) list.forEach((h, i) => add(h.id, 1 / (rrfK + i + 1)));
    } else {
      lists.forEach((list, c) => {
        const w = this.options.weights[c]!;
        let min = Infinity;
        let max = -Infinity;
        for (const h of list) {
          if (h.score < min) min = h.score;
          if (h.score > max) max = h.score;
        }
        const span = max - min;
        for (const h of list) add(h.id, w * (span > 0 ? (h.score - min) / span : 1));
      });
    }
    const hits: Hit[] = [];
    for (const [id, score] of fused) hits.push({ id, score });
    return firstK(hits, k);
  }

  /**
   * `zscore` fusion (see the file comment), by catalog position: each child's admissible hits
   * (the same rule as `admissible`), their standard scores over the `total` allowed tools, the
   * weighted sum for every tool either child returned, and the first `k` in rankStable order.
   */
  private fuseZ(raw: readonly [readonly Hit[], readonly Hit[]], allowed: Uint8Array | undefined, depth: number, total: number, k: number): Hit[] {
    const n = this.n;
    const taken = raw.map((hits) => {
      const positions: number[] = [];
      const scores: number[] = [];
      const seen = new Uint8Array(n);
      for (const h of hits) {
        if (positions.length >= depth) break;
        const p = this.position.get(h.id);
        if (p === undefined || (allowed !== undefined && allowed[p] !== 1) || seen[p] === 1 || !Number.isFinite(h.score)) continue;
        seen[p] = 1;
        positions.push(p);
        scores.push(h.score);
      }
      return { positions, scores, seen, total };
    }) as [Taken, Taken];
    return this.fuseZTaken(taken, k);
  }

  /**
   * `zscore` fusion straight from the children's dense arrays: the same sums as {@link fuseZTaken}
   * (each child's in catalog order; each tool's in child order), with both children in each pass
   * over the catalog and typed arrays reused from one request to the next (a request allocates no
   * catalog-sized array here), the first k kept by a bounded insertion on (score, id rank).
   */
  private fuseZDense(dense: readonly [{ scores: Float64Array; returned: Uint8Array }, { scores: Float64Array; returned: Uint8Array }], allowed: Uint8Array | undefined, total: number, k: number): Hit[] {
    const n = this.n;
    const { fused, union, ok } = this.work;
    const [okA, okB] = ok;
    const { scores: sa, returned: ra } = dense[0];
    const { scores: sb, returned: rb } = dense[1];
    // Each child's tools that may be fused (returned, allowed, finite): their count, lowest score (capped at 0) and sum; the union in catalog order.
    let countA = 0, lowA = 0, sumA = 0;
    let countB = 0, lowB = 0, sumB = 0;
    let m = 0;
    for (let p = 0; p < n; p++) {
      if (allowed !== undefined && allowed[p] !== 1) continue;
      let ta = 0;
      let tb = 0;
      if (ra[p] === 1) {
        const v = sa[p]!;
        if (Number.isFinite(v)) {
          ta = 1;
          countA++;
          if (v < lowA) lowA = v;
          sumA += v;
        }
      }
      if (rb[p] === 1) {
        const v = sb[p]!;
        if (Number.isFinite(v)) {
          tb = 1;
          countB++;
          if (v < lowB) lowB = v;
          sumB += v;
        }
      }
      okA[p] = ta;
      okB[p] = tb;
      if (ta === 1 || tb === 1) union[m++] = p;
    }
    // zStats of each child: absent tools take its lowest returned score (0 when every returned score is ≥ 0).
    const missingA = total - countA;
    const missingB = total - countB;
    const meanA = (sumA + missingA * lowA) / total;
    const meanB = (sumB + missingB * lowB) / total;
    let squaresA = missingA * (lowA - meanA) * (lowA - meanA);
    let squaresB = missingB * (lowB - meanB) * (lowB - meanB);
    for (let j = 0; j < m; j++) {
      const p = union[j]!;
      if (okA[p] === 1) {
        const d = sa[p]! - meanA;
        squaresA += d * d;
      }
      if (okB[p] === 1) {
        const d = sb[p]! - meanB;
        squaresB += d * d;
      }
    }
    const sdA = Math.sqrt(squaresA / total);
    const sdB = Math.sqrt(squaresB / total);
    // A child whose scores do not spread (or no allowed tool) adds nothing.
    const useA = total > 0 && sdA > 0;
    const useB = total > 0 && sdB > 0;
    const [wA, wB] = this.options.weights;
    const absentA = wA * ((lowA - meanA) / sdA);
    const absentB = wB * ((lowB - meanB) / sdB);
    for (let j = 0; j < m; j++) {
      const p = union[j]!;
      let f = 0;
      if (useA) f = f + (okA[p] === 1 ? wA * ((sa[p]! - meanA) / sdA) : absentA);
      if (useB) f = f + (okB[p] === 1 ? wB * ((sb[p]! - meanB) / sdB) : absentB);
      fused[p] = f;
    }
    return firstKByScore(union.subarray(0, m), fused, this.idRank, k).map((p) => ({ id: this.ids[p]!, score: fused[p]! }));
  }

  /** `zscore` fusion of the two children's returned tools (positions, scores), the first k by rankStable. */
  private fuseZTaken(taken: readonly [Taken, Taken], k: number): Hit[] {
    const n = this.n;
    const total = taken[0].total;
    const fused = new Float64Array(n);
    const inUnion = new Uint8Array(n);
    const union: number[] = [];
    for (const t of taken) {
      for (const p of t.positions) {
        if (inUnion[p] === 0) {
          inUnion[p] = 1;
          union.push(p);
        }
      }
    }
    // Sums in child order (a, then b): absent tools first get the child's absent term, returned ones their own.
    taken.forEach(({ positions, scores, seen }, c) => {
      const { mean, sd, absent } = zStats(scores.length, total, (j) => scores[j]!);
      if (!(sd > 0)) return;
      const w = this.options.weights[c]!;
      const absentTerm = w * ((absent - mean) / sd);
      for (const p of union) if (seen[p] === 0) fused[p] = fused[p]! + absentTerm;
      positions.forEach((p, j) => {
        fused[p] = fused[p]! + w * ((scores[j]! - mean) / sd);
      });
    });
    // The first k of the union by (score descending, id ascending).
    return firstKByScore(union, fused, this.idRank, k).map((p) => ({ id: this.ids[p]!, score: fused[p]! }));
  }
}

/**
 * The first `k` of `candidates` (catalog positions) by fused score descending, then id rank
 * ascending (the `rankStable` order), by a bounded binary insertion: O(n log k).
 */
function firstKByScore(candidates: ArrayLike<number>, fused: Float64Array, rank: Uint32Array, k: number): number[] {
  const better = (x: number, y: number): boolean => fused[x]! > fused[y]! || (fused[x] === fused[y] && rank[x]! < rank[y]!);
  const top: number[] = [];
  for (let j = 0; j < candidates.length; j++) {
    const p = candidates[j]!;
    if (top.length === k && !better(p, top[k - 1]!)) continue;
    let lo = 0;
    let hi = top.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (better(p, top[mid]!)) hi = mid;
      else lo = mid + 1;
    }
    top.splice(lo, 0, p);
    if (top.length > k) top.pop();
  }
  return top;
}

/** The working arrays of `fuseZDense` for a catalog of n tools (the contents between requests mean nothing). */
function fuseWork(n: number): { fused: Float64Array; ok: [Uint8Array, Uint8Array]; union: Int32Array } {
  return { fused: new Float64Array(n), ok: [new Uint8Array(n), new Uint8Array(n)], union: new Int32Array(n) };
}

/** One child's returned tools for `zscore` fusion: positions and scores in the child's order, a membership mask, and how many tools are allowed. */
interface Taken {
  positions: number[];
  scores: number[];
  seen: Uint8Array;
  total: number;
}

/** `rankStable(hits).slice(0, k)` without sorting every hit (a `zscore` fusion ranks the whole allowed catalog). */
export function firstK(hits: readonly Hit[], k: number): Hit[] {
  if (hits.length <= 4 * k) return rankStable(hits).slice(0, k);
  const top: Hit[] = [];
  for (const h of hits) {
    if (top.length === k && compareHits(h, top[k - 1]!) >= 0) continue;
    let lo = 0;
    let hi = top.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (compareHits(top[mid]!, h) <= 0) lo = mid + 1;
      else hi = mid;
    }
    top.splice(lo, 0, h);
    if (top.length > k) top.pop();
  }
  return top;
}

/** A hybrid retriever named `name` fusing the registered retrievers `a` and `b`. */
export function createHybrid(name: string, a: string, b: string, options: Partial<HybridOptions> = {}): HybridRetriever {
  return new HybridRetriever(name, a, b, options);
}
