/**
 * The per-request fusions of two retrievers (`rrf`, `weighted`, `zscore`): see `hybrid.ts` for
 * their definitions.
 */
import type { Hit, SearchContext } from '../types.ts';
import { hasDenseScores, type Describable, type Retriever } from '../types.ts';
import { topByScore, topK } from '../rank.ts';
import { FusedPair } from './pair.ts';

export type FusionMethod = 'rrf' | 'weighted' | 'zscore' | 'logistic';

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

export const HYBRID_DEFAULT_OPTIONS: Readonly<HybridOptions> = Object.freeze({
  method: 'rrf',
  rrfK: 60,
  weights: Object.freeze([0.5, 0.5]) as unknown as [number, number],
  depth: undefined,
});

/** The per-request child depth when `depth` is not set: max(50, 5 · k). */
export function defaultDepth(k: number): number {
  return Math.max(50, 5 * k);
}

/** Throws a `RangeError` if any option is out of range. */
export function checkHybridOptions(o: HybridOptions): void {
  if (o.method !== 'rrf' && o.method !== 'weighted' && o.method !== 'zscore')
    throw new RangeError(`hybrid method must be "rrf", "weighted" or "zscore" (got ${JSON.stringify(o.method)})`);
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

export class HybridRetriever extends FusedPair implements Describable {
  private readonly options: HybridOptions;
  /** Catalog-sized working arrays of `fuseZDense`, reused by every request (it runs synchronously, so requests never share them at once). */
  private work = fuseWork(0);

  /** `a` and `b` are the child retrievers (by registry name: `createHybrid` in registry.ts). */
  constructor(name: string, a: Retriever, b: Retriever, options: Partial<HybridOptions> = {}) {
    const o: HybridOptions = { ...HYBRID_DEFAULT_OPTIONS, ...options, weights: [...(options.weights ?? HYBRID_DEFAULT_OPTIONS.weights)] as [number, number] };
    checkHybridOptions(o);
    super(name, a, b);
    this.options = o;
  }

  protected allocate(n: number): void {
    this.work = fuseWork(n);
  }

  describe(): Record<string, unknown> {
    const { method, rrfK, weights, depth } = this.options;
    return {
      retriever: 'hybrid',
      name: this.name,
      method,
      ...(method === 'rrf' ? { rrfK, fusion: 'sum over children of 1 / (rrfK + rank), rank 1-based in the child list' } : {}),
      ...(method === 'weighted' ? { weights: [...weights], fusion: 'sum over children of weight * min-max-normalised score (all-equal list → 1)' } : {}),
      ...(method === 'zscore'
        ? {
            weights: [...weights],
            fusion:
              'sum over children of weight * (score - mean) / sd, mean and sd over every allowed tool, a tool a child did not return scoring min(0, its lowest score)',
          }
        : {}),
      depth: depth ?? (method === 'zscore' ? 'every allowed tool' : 'max(50, 5k)'),
      ...this.describeFusion(),
    };
  }

  async search(request: string, context: SearchContext): Promise<Hit[]> {
    const opened = this.open(context);
    if (opened === undefined) return [];
    const { allowed, k, total } = opened;
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
    return topK(hits, k);
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
  private fuseZDense(
    dense: readonly [{ scores: Float64Array; returned: Uint8Array }, { scores: Float64Array; returned: Uint8Array }],
    allowed: Uint8Array | undefined,
    total: number,
    k: number,
  ): Hit[] {
    const n = this.n;
    const { fused, union, ok } = this.work;
    const [okA, okB] = ok;
    const { scores: sa, returned: ra } = dense[0];
    const { scores: sb, returned: rb } = dense[1];
    // Each child's tools that may be fused (returned, allowed, finite): their count, lowest score (capped at 0) and sum; the union in catalog order.
    let countA = 0,
      lowA = 0,
      sumA = 0;
    let countB = 0,
      lowB = 0,
      sumB = 0;
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
    return topByScore(fused, this.idRank, k, union.subarray(0, m)).map((p) => ({ id: this.ids[p]!, score: fused[p]! }));
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
    return topByScore(fused, this.idRank, k, union).map((p) => ({ id: this.ids[p]!, score: fused[p]! }));
  }
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
