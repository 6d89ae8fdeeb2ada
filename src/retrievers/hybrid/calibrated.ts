/**
 * The calibrated fusion of two retrievers: a logistic model over their scores (see
 * {@link CalibratedHybridRetriever}).
 */
import { sha256 } from '../../util/hash.ts';
import { fitLogistic, sigmoid, type LogisticFit } from '../logistic.ts';
import { blockAt, PREFETCH_BLOCK } from '../blocks.ts';
import { Policy } from '../policy.ts';
import { topByScore } from '../rank.ts';
import { hasDenseScores, type Calibrating, type CalibrationCase, type Describable, type Hit, type Retriever, type SearchContext } from '../types.ts';
import { allowedCount, FusedPair } from './pair.ts';

/** The features of the calibrated fusion (see {@link CalibratedHybridRetriever}). */
export type CalibratedFeatures = 'zscore' | 'rrf';

export interface CalibratedHybridOptions {
  /**
   * `zscore`: [a, b, z_a, z_b, â, b̂]; `rrf`: [a, b, rr_a, rr_b, â, b̂] (a, b = the children's raw
   * scores, z = standard score over the allowed tools, rr = 1 / (rrfK + rank), â, b̂ = each
   * child's best score). Default `zscore`.
   */
  features: CalibratedFeatures;
  /** RRF's rank offset for the `rrf` features, finite and ≥ 0. Default 60. */
  rrfK: number;
  /** `rrf` features: ranks past this count as absent (r = 0). Fixed, so a tool's score does not depend on k. Default 50. */
  rankDepth: number;
  /**
   * [β₀, β₁ … β₆], the coefficients used until `calibrate` fits others. Default: the ones fitted
   * on MetaTool's train split for bm25 + embed ({@link HYBRID_DEFAULT_COEFFICIENTS}).
   */
  coefficients: readonly number[] | undefined;
  /** Calibration rows per case: the union of each child's top `topN` allowed tools. Default 10. */
  topN: number;
  /** Calibration cases used at most (the first by sha256 of their id); `undefined` = {@link calibrationBudget}. */
  maxCases: number | undefined;
  /** The fit's L2 penalty on standardised coefficients (see `fitLogistic`). Default 1e-3. */
  l2: number;
}

/**
 * The default coefficients [β₀, β_a, β_b, β_z(a)|rr(a), β_z(b)|rr(b), β_max(a), β_max(b)] of the
 * calibrated `hybrid` (zscore features) and `hybrid-rrf` (rrf features) over bm25 (a) + embed (b),
 * printed by `scripts/fit-hybrid-defaults.ts`: `calibrate` on MetaTool's TRAIN split only (all
 * 10,747 train cases with a tool label, 270 of them no-tool; 178,394 rows, 8,842 positive, 4,260
 * no-tool rows weighted 40.88; Newton converged in 9 / 10 steps; bm25 preset name ×6, namespace ×2, k1 3, b 0.15). No test case was read. The
 * test-split figures they give (`scripts/fit-hybrid-measure.ts`) are in the registry descriptions.
 * They fit that embed model and that catalog; another catalog should calibrate (the runner's
 * calibration source), and a rebuilt model should re-run the script.
 */
export const HYBRID_DEFAULT_COEFFICIENTS: Readonly<Record<CalibratedFeatures, readonly number[]>> = Object.freeze({
  zscore: Object.freeze([
    -7.102897249757878, 0.08459009089345665, 5.1502461817577645, 0.26503149327843334, 0.2823283076704305, -0.05706763910335672, 0.010342391549960837,
  ]),
  rrf: Object.freeze([
    -6.5766585545633856, 0.14914362470640388, 6.154528267745077, 72.89866553291986, 48.392613298238395, -0.09119666404214657, -1.7733946133527143,
  ]),
});

export const CALIBRATED_DEFAULT_OPTIONS: Readonly<CalibratedHybridOptions> = Object.freeze({
  features: 'zscore',
  rrfK: 60,
  rankDepth: 50,
  coefficients: undefined,
  topN: 10,
  maxCases: undefined,
  l2: 1e-3,
});

/**
 * The calibration cases used at most for a catalog of `n` tools, when `maxCases` is not set:
 * min(20000, max(250, ⌊12,500,000 / n⌋)), so scoring them costs at most ~12.5M (tool, case) pairs
 * past 250 cases: 250 at 50,000 tools (~3.5 s on the generated monster catalog, scoring included:
 * each case is one search of both children; the Newton fit itself takes milliseconds), every
 * MetaTool train case at 199 tools.
 */
export function calibrationBudget(n: number): number {
  return Math.min(20_000, Math.max(250, Math.floor(12_500_000 / Math.max(1, n))));
}

/** Throws a `RangeError` if any option is out of range. */
export function checkCalibratedOptions(o: CalibratedHybridOptions): void {
  if (o.features !== 'zscore' && o.features !== 'rrf')
    throw new RangeError(`calibrated hybrid features must be "zscore" or "rrf" (got ${JSON.stringify(o.features)})`);
  if (typeof o.rrfK !== 'number' || !Number.isFinite(o.rrfK) || o.rrfK < 0) throw new RangeError(`hybrid rrfK must be a finite number ≥ 0 (got ${o.rrfK})`);
  if (!(Number.isInteger(o.rankDepth) && o.rankDepth >= 1)) throw new RangeError(`hybrid rankDepth must be an integer ≥ 1 (got ${o.rankDepth})`);
  if (!(Number.isInteger(o.topN) && o.topN >= 1)) throw new RangeError(`hybrid topN must be an integer ≥ 1 (got ${o.topN})`);
  if (o.maxCases !== undefined && !(Number.isInteger(o.maxCases) && o.maxCases >= 1))
    throw new RangeError(`hybrid maxCases must be an integer ≥ 1 (got ${o.maxCases})`);
  if (!(typeof o.l2 === 'number' && Number.isFinite(o.l2) && o.l2 > 0)) throw new RangeError(`hybrid l2 must be a finite number > 0 (got ${o.l2})`);
  if (o.coefficients !== undefined) {
    if (!Array.isArray(o.coefficients) || o.coefficients.length !== FEATURES + 1) throw new RangeError(`hybrid coefficients must be ${FEATURES + 1} numbers`);
    for (const c of o.coefficients)
      if (typeof c !== 'number' || !Number.isFinite(c)) throw new RangeError(`hybrid coefficients must be finite numbers (got ${c})`);
  }
}

/** Features per tool (the intercept aside): a, b, f_a, f_b, â, b̂. */
const FEATURES = 6;

/** A child's scores by catalog position, as `DenseScoring` gives them. */
interface Dense {
  scores: Float64Array;
  returned: Uint8Array;
}

/** How the coefficients in use were obtained. */
export interface CalibrationInfo {
  from: 'defaults' | 'calibration';
  /** Calibration only: cases given, cases used (after the cap), rows fitted, positive rows, Newton steps, convergence. */
  casesGiven?: number;
  casesUsed?: number;
  rows?: number;
  positives?: number;
  iterations?: number;
  converged?: boolean;
}

/**
 * Calibrated fusion: a logistic model of "this tool is a gold tool of this request" over the two
 * children's scores, so the fused score is a probability in [0, 1] that means the same thing in
 * every request (the per-request fusions above do not: a greeting's best tool gets as high a
 * z-score or reciprocal rank as a real request's, so no floor separates "something fits" from
 * "nothing fits").
 *
 *   score(t) = σ(β₀ + β₁ a(t) + β₂ b(t) + β₃ f_a(t) + β₄ f_b(t)),   σ(x) = 1 / (1 + e^(−x))
 *
 *   a(t), b(t)  the children's RAW scores (a tool a child did not return counts as
 *               min(0, the lowest score it returned), as in `zscore`; for bm25 that is 0). They carry
 *               "how well does anything match": bm25 is 0 everywhere for a greeting, cosines are low;
 *   features `zscore` (registry `hybrid`):
 *     f_c(t) = (c(t) − μ_c) / σ_c over every allowed tool (0 when σ_c = 0), exactly `zscore`'s standard score;
 *   features `rrf` (registry `hybrid-rrf`):
 *     f_c(t) = 1 / (rrfK + rank_c(t)) for the child's first `rankDepth` allowed tools (by
 *     rankStable on its raw scores), 0 past them;
 *   â, b̂        each child's best raw score among the allowed tools (0 when it returned none): the
 *               same for every tool of the request, so they move its level, not its order. Fitted,
 *               they say how much a strong best match (or, as on MetaTool, a long request that
 *               accumulates BM25 over many words) should raise or lower every tool.
 *   score(t) = σ(β₀ + β₁ a + β₂ b + β₃ f_a + β₄ f_b + β₅ â + β₆ b̂)
 * Within one request the standard score / reciprocal rank do what the per-request fusions do (who
 * stands out from the rest); the raw scores set the level, so comparing a score with a floor is
 * meaningful across requests. Every tool either child returned is scored; ranked by rankStable.
 * (The features are computed under the request's mask, so z, rr and â, b̂ depend on which tools
 * the caller may see, as any per-request statistic does; a, b do not.)
 *
 * Coefficients: without `calibrate`, the documented defaults ({@link HYBRID_DEFAULT_COEFFICIENTS},
 * fitted on MetaTool's train split). `calibrate(cases)` fits them on the calibration cases:
 *   - cases: at most `maxCases` (default {@link calibrationBudget}), the first by sha256 of their id
 *     when there are more (a deterministic subsample);
 *   - each case is searched under its caller's mask (`Policy.allowedMask` of its scopes; role
 *     passed on), exactly as `search` computes features;
 *   - rows: the union of each child's top `topN` allowed tools (rankStable on raw scores), label 1
 *     for the case's gold tools, 0 otherwise (a no-tool case gives only 0 rows; a gold tool the
 *     caller may not see gives no row);
 *   - weights: each no-tool row weighs (graded rows) / (no-tool rows), so no-tool cases weigh as
 *     much in total as the graded ones whatever their share of the calibration set (2.5% on
 *     MetaTool). Unweighted, the fit is driven by the graded cases' ranking and barely sees what a
 *     floor must reject: on MetaTool (fit on train, test split; a float32 prototype of this fit)
 *     recall@5 at a no-tool FP rate of 0.1 was 0.192 unweighted and 0.289 weighted (this code:
 *     0.286), unfloored recall@5 0.707 and 0.708; without â, b̂ it was 0.275 (weighted). The score is thus a probability under equal weight of "tool"
 *     and "no tool" requests: comparable across requests, not the raw frequency of gold tools;
 *   - fit: `fitLogistic` (L2 `l2` on standardised features, Newton / IRLS, no randomness), so the
 *     same catalog and cases give the same coefficients bit for bit.
 * A case whose mask allows nothing, or that yields no row, adds nothing; with no row at all, or
 * only one class, the defaults stay in use (and `describe` says why).
 */
export class CalibratedHybridRetriever extends FusedPair implements Describable, Calibrating {
  private readonly options: CalibratedHybridOptions;
  private coefficients: number[];
  private info: CalibrationInfo & { note?: string } = { from: 'defaults' };
  /** Catalog-sized working arrays (contents mean nothing between requests; features are computed synchronously). */
  private work = calibratedWork(0);

  constructor(name: string, a: Retriever, b: Retriever, options: Partial<CalibratedHybridOptions> = {}) {
    const o: CalibratedHybridOptions = { ...CALIBRATED_DEFAULT_OPTIONS, ...options };
    checkCalibratedOptions(o);
    super(name, a, b);
    this.options = o;
    this.coefficients = [...(o.coefficients ?? HYBRID_DEFAULT_COEFFICIENTS[o.features])];
  }

  /** The coefficients in use, [β₀ … β₆] (a copy). */
  currentCoefficients(): number[] {
    return [...this.coefficients];
  }

  describe(): Record<string, unknown> {
    const { features, rrfK, rankDepth, topN, maxCases, l2 } = this.options;
    const [ca, cb] = this.children.map((c) => c.name);
    const names = ['1', `${ca}`, `${cb}`, ...(features === 'zscore' ? [`z(${ca})`, `z(${cb})`] : [`rr(${ca})`, `rr(${cb})`]), `max(${ca})`, `max(${cb})`];
    return {
      retriever: 'hybrid',
      name: this.name,
      method: 'calibrated',
      features,
      fusion:
        features === 'zscore'
          ? "sigmoid(b0 + b1 a + b2 b + b3 z(a) + b4 z(b) + b5 max(a) + b6 max(b)): a, b raw child scores (absent = min(0, lowest returned)), z standard score over every allowed tool, max = the child's best allowed score (0 if none)"
          : `sigmoid(b0 + b1 a + b2 b + b3 rr(a) + b4 rr(b) + b5 max(a) + b6 max(b)): a, b raw child scores (absent = min(0, lowest returned)), rr = 1 / (${rrfK} + rank) for the first ${rankDepth}, else 0, max = the child's best allowed score (0 if none)`,
      score: 'probability in [0, 1] that the tool is a gold tool, comparable across requests',
      ...(features === 'rrf' ? { rrfK, rankDepth } : {}),
      coefficients: Object.fromEntries(names.map((f, i) => [f, round(this.coefficients[i]!)])),
      coefficientsFrom: this.info.from,
      calibration: { ...this.info, topN, maxCases: maxCases ?? `min(20000, max(250, 12.5e6 / tools)) = ${calibrationBudget(this.n)}`, l2 },
      ...this.describeFusion(),
    };
  }

  protected allocate(n: number): void {
    this.work = calibratedWork(n);
  }

  async search(request: string, context: SearchContext): Promise<Hit[]> {
    const opened = this.open(context);
    if (opened === undefined) return [];
    const { allowed, k, total } = opened;
    const { floor: _floor, k: _k, ...rest } = context;
    const dense = await this.denseOf(request, rest, total);
    const m = this.features(dense, allowed, total);
    const fast = this.candidateSearch(dense, k, m);
    const { union, fused } = this.work;
    if (fast !== undefined) return fast.map((p) => ({ id: this.ids[p]!, score: fused[p]! }));
    this.fillAll(dense, m);
    for (let j = 0; j < m; j++) {
      const p = union[j]!;
      fused[p] = sigmoid(this.logit(p));
    }
    return topByScore(fused, this.idRank, k, union.subarray(0, m)).map((p) => ({ id: this.ids[p]!, score: fused[p]! }));
  }

  /**
   * The first `k` tools of the union by fused score, found without scoring every tool; undefined
   * when that cannot be shown exact (the caller then scores the whole union, same answer).
   *
   * The candidates (each child's best `depth` tools) are scored first; the k-th of them has logit
   * τ. Outside the candidates a tool's features are linear in its two raw scores (the standard
   * score is, and a rank past `rankDepth` gives 0), so its logit is L̃ = c + w_a·a + w_b·b, one
   * pass over the union without writing features. The tools with L̃ ≥ τ − margin are scored too;
   * every other tool has a logit below τ (the margin covers rounding), and the answer stands if
   * the largest of their L̃ (plus the margin) maps to a fused score below the k-th's: no tool left
   * out can reach or tie it.
   */
  private candidateSearch(dense: readonly [Dense, Dense], k: number, m: number): number[] | undefined {
    const w = this.work;
    const { union, candidates, fused, mark, ok, stats } = w;
    let c = w.candidateCount;
    for (let j = 0; j < c; j++) fused[candidates[j]!] = sigmoid(this.logit(candidates[j]!));
    if (c === m) return topByScore(fused, this.idRank, k, candidates.subarray(0, c));
    if (c < k) return undefined;
    const seed = topByScore(fused, this.idRank, k, candidates.subarray(0, c));
    const tau = this.logit(seed[k - 1]!);
    const co = this.coefficients;
    const zscore = this.options.features === 'zscore';
    let level = co[0]!;
    let scale = Math.abs(co[0]!);
    const weight = [0, 0];
    const raw = [dense[0].scores, dense[1].scores] as const;
    for (let ch = 0; ch < 2; ch++) {
      const { mean, sd, best, absent, low, high } = stats[ch]!;
      const z = zscore && sd > 0 ? co[3 + ch]! / sd : 0;
      weight[ch] = co[1 + ch]! + z;
      level += co[5 + ch]! * best - z * mean;
      const big = Math.max(Math.abs(low), Math.abs(high), Math.abs(absent));
      scale += Math.abs(co[1 + ch]!) * big + Math.abs(z) * (big + Math.abs(mean)) + Math.abs(co[5 + ch]! * best);
    }
    const margin = 1e-9 * (scale + 1);
    const cut = tau - margin;
    const [w0, w1] = weight as [number, number];
    const [ok0, ok1] = ok;
    const [s0, s1] = raw;
    const a0 = stats[0].absent;
    const a1 = stats[1].absent;
    for (let j = 0; j < c; j++) mark[candidates[j]!] = 1;
    let left = -Infinity;
    const first = c;
    for (let j = 0; j < m; j++) {
      const p = union[j]!;
      if (mark[p] === 1) continue;
      const est = level + w0 * (ok0[p] === 1 ? s0[p]! : a0) + w1 * (ok1[p] === 1 ? s1[p]! : a1);
      if (est >= cut) candidates[c++] = p;
      else if (est > left) left = est;
    }
    for (let j = 0; j < first; j++) mark[candidates[j]!] = 0;
    if (c > first) {
      this.fill(dense, candidates.subarray(first, c), c - first);
      for (let j = first; j < c; j++) fused[candidates[j]!] = sigmoid(this.logit(candidates[j]!));
    }
    const top = c > first ? topByScore(fused, this.idRank, k, candidates.subarray(0, c)) : seed;
    if (left !== -Infinity && !(fused[top[k - 1]!]! > sigmoid(left + margin))) return undefined;
    return top;
  }

  async calibrate(cases: readonly CalibrationCase[]): Promise<void> {
    const catalog = this.indexed('calibrate');
    const cap = this.options.maxCases ?? calibrationBudget(this.n);
    const chosen = selectCases(cases, cap);
    const policy = new Policy(catalog);
    const x: number[] = [];
    const y: number[] = [];
    const noTool: number[] = [];
    const { topN } = this.options;
    // prepared in blocks as the runner's search loop prepares them
    for (let s = 0; s < chosen.length; s += PREFETCH_BLOCK) {
      const block = blockAt(chosen, s);
      await this.prefetch(block.map((c) => c.request));
      for (const c of block) {
        const allowed = policy.allowedMask(c.callerScopes);
        const total = allowedCount(allowed, this.n);
        if (total === 0) continue;
        const rest: Omit<SearchContext, 'k'> = {
          ...(allowed ? { allowed } : {}),
          ...(c.callerScopes ? { callerScopes: c.callerScopes } : {}),
          ...(c.role !== undefined ? { role: c.role } : {}),
        };
        const dense = await this.denseOf(c.request, rest, total);
        this.features(dense, allowed, total);
        const gold = new Set(c.expectedTools);
        const rows = new Set<number>();
        for (const d of [0, 1] as const) for (const p of this.work.top[d].subarray(0, Math.min(topN, this.work.topCount[d]))) rows.add(p);
        // In catalog order, so the rows' order does not depend on the children's ranking ties.
        for (const p of [...rows].sort((u, v) => u - v)) {
          for (let f = 0; f < FEATURES; f++) x.push(this.work.feat[p * FEATURES + f]!);
          y.push(gold.has(this.ids[p]!) ? 1 : 0);
          noTool.push(c.expectedTools.length === 0 ? 1 : 0);
        }
      }
    }
    const positives = y.reduce((s, v) => s + v, 0);
    const noToolRows = noTool.reduce((s, v) => s + v, 0);
    // No-tool rows weigh as much in total as the graded cases' rows (see the class comment).
    const noToolWeight = noToolRows > 0 && noToolRows < y.length ? (y.length - noToolRows) / noToolRows : 1;
    const base = { casesGiven: cases.length, casesUsed: chosen.length, rows: y.length, positives, noToolRows, noToolWeight: round(noToolWeight) };
    if (y.length === 0 || positives === 0 || positives === y.length) {
      this.coefficients = [...(this.options.coefficients ?? HYBRID_DEFAULT_COEFFICIENTS[this.options.features])];
      this.info = { from: 'defaults', ...base, note: 'calibration gave no rows or a single class: defaults kept' };
      return;
    }
    const weights = Float64Array.from(noTool, (v) => (v === 1 ? noToolWeight : 1));
    const fit: LogisticFit = fitLogistic(Float64Array.from(x), Uint8Array.from(y), FEATURES, { l2: this.options.l2 }, weights);
    this.coefficients = fit.coefficients;
    this.info = { from: 'calibration', ...base, iterations: fit.iterations, converged: fit.converged };
  }

  /** β₀ + Σ β_f · feature_f of the tool at position p (features of the last `features` call). */
  private logit(p: number): number {
    const c = this.coefficients;
    const f = this.work.feat;
    const o = p * FEATURES;
    return c[0]! + c[1]! * f[o]! + c[2]! * f[o + 1]! + c[3]! * f[o + 2]! + c[4]! * f[o + 3]! + c[5]! * f[o + 4]! + c[6]! * f[o + 5]!;
  }

  /** Both children's scores by position: their dense scores, or their full ranked lists laid out by position. */
  private async denseOf(request: string, rest: Omit<SearchContext, 'k'>, total: number): Promise<[Dense, Dense]> {
    const one = async (child: Retriever): Promise<Dense> => {
      if (hasDenseScores(child)) return child.denseScores(request, rest);
      const scores = new Float64Array(this.n);
      const returned = new Uint8Array(this.n);
      for (const h of await child.search(request, { ...rest, k: total })) {
        const p = this.position.get(h.id);
        if (p === undefined || returned[p] === 1) continue;
        returned[p] = 1;
        scores[p] = h.score;
      }
      return { scores, returned };
    };
    const [a, b] = await Promise.all([one(this.children[0]), one(this.children[1])]);
    return [a, b];
  }

  /**
   * The statistics of both children over the allowed tools and the features of the candidates.
   * Into `work`: the union of the tools either child returned (allowed, finite) in catalog order
   * (`union`; its length is returned), each child's first max(topN, rankDepth) tools by rankStable
   * (`top`), their union (`candidates`, the tools a search scores first) and the candidates'
   * features (`feat`, by position); {@link fillAll} adds the features of the rest of the union.
   * Sums run in catalog order, so a feature is the same whichever tools are scored.
   */
  private features(dense: readonly [Dense, Dense], allowed: Uint8Array | undefined, total: number): number {
    const n = this.n;
    const w = this.work;
    const { union, ok, top, topCount, candidates, mark, stats } = w;
    const [ok0, ok1] = ok;
    const [d0, d1] = dense;
    const r0 = d0.returned;
    const r1 = d1.returned;
    const s0 = d0.scores;
    const s1 = d1.scores;
    let count0 = 0;
    let count1 = 0;
    let low0 = 0;
    let low1 = 0;
    let high0 = -Infinity;
    let high1 = -Infinity;
    let sum0 = 0;
    let sum1 = 0;
    let m = 0;
    for (let p = 0; p < n; p++) {
      if (allowed !== undefined && allowed[p] !== 1) {
        ok0[p] = 0;
        ok1[p] = 0;
        continue;
      }
      let t0 = 0;
      if (r0[p] === 1) {
        const v = s0[p]!;
        // finite (NaN and ±∞ give NaN)
        if (v - v === 0) {
          t0 = 1;
          count0++;
          if (v < low0) low0 = v;
          if (v > high0) high0 = v;
          sum0 += v;
        }
      }
      let t1 = 0;
      if (r1[p] === 1) {
        const v = s1[p]!;
        if (v - v === 0) {
          t1 = 1;
          count1++;
          if (v < low1) low1 = v;
          if (v > high1) high1 = v;
          sum1 += v;
        }
      }
      ok0[p] = t0;
      ok1[p] = t1;
      if ((t0 | t1) === 1) union[m++] = p;
    }
    // Means over the allowed tools (an absent tool scores `absent`), then the squared deviations of
    // both children in one pass, each sum in catalog order.
    const total0 = total - count0;
    const total1 = total - count1;
    const mean0 = (sum0 + total0 * low0) / total;
    const mean1 = (sum1 + total1 * low1) / total;
    let squares0 = total0 * (low0 - mean0) * (low0 - mean0);
    let squares1 = total1 * (low1 - mean1) * (low1 - mean1);
    for (let p = 0; p < n; p++) {
      if (ok0[p] === 1) {
        const d = s0[p]! - mean0;
        squares0 += d * d;
      }
      if (ok1[p] === 1) {
        const d = s1[p]! - mean1;
        squares1 += d * d;
      }
    }
    const count = [count0, count1];
    const low = [low0, low1];
    const high = [high0, high1];
    const mean = [mean0, mean1];
    const squares = [squares0, squares1];
    const depth = Math.max(this.options.topN, this.options.rankDepth);
    let c = 0;
    for (let ch = 0; ch < 2; ch++) {
      const { scores } = dense[ch]!;
      const okc = ok[ch]!;
      const sd = Math.sqrt(squares[ch]! / total);
      const first = topByScore(scores, this.idRank, depth, { mask: okc });
      top[ch]!.set(first);
      topCount[ch] = first.length;
      const st = stats[ch]!;
      st.mean = mean[ch]!;
      st.sd = sd;
      st.absent = low[ch]!;
      st.low = low[ch]!;
      st.high = count[ch]! > 0 ? high[ch]! : 0;
      st.best = count[ch]! > 0 ? high[ch]! : 0;
      for (const p of first) {
        if (mark[p] === 1) continue;
        mark[p] = 1;
        candidates[c++] = p;
      }
    }
    for (let j = 0; j < c; j++) mark[candidates[j]!] = 0;
    w.candidateCount = c;
    this.fill(dense, candidates, c);
    return m;
  }

  /** The features of every tool of the union (after {@link features}, which gave the candidates'). */
  private fillAll(dense: readonly [Dense, Dense], m: number): void {
    this.fill(dense, this.work.union, m);
  }

  /** The features of the tools `list[0 … m−1]` from the children's statistics. */
  private fill(dense: readonly [Dense, Dense], list: Int32Array, m: number): void {
    const { feat, ok, top, topCount, stats } = this.work;
    const zscore = this.options.features === 'zscore';
    for (let ch = 0; ch < 2; ch++) {
      const { scores } = dense[ch]!;
      const okc = ok[ch]!;
      const { mean, sd, absent, best } = stats[ch]!;
      for (let j = 0; j < m; j++) {
        const p = list[j]!;
        const raw = okc[p] === 1 ? scores[p]! : absent;
        feat[p * FEATURES + ch] = raw;
        feat[p * FEATURES + 2 + ch] = zscore ? (sd > 0 ? (raw - mean) / sd : 0) : 0;
        feat[p * FEATURES + 4 + ch] = best;
      }
      if (!zscore) {
        const { rrfK, rankDepth } = this.options;
        const first = top[ch]!;
        for (let r = 0; r < Math.min(rankDepth, topCount[ch]!); r++) feat[first[r]! * FEATURES + 2 + ch] = 1 / (rrfK + r + 1);
      }
    }
  }
}

/**
 * Up to `cap` of `cases`, ordered by sha256 of their id (then id): the first `cap` in that order.
 * The order does not depend on the order the cases were given in, so neither does the fit.
 */
export function selectCases(cases: readonly CalibrationCase[], cap: number): CalibrationCase[] {
  const keyed = cases.map((c) => ({ c, key: sha256(c.id) }));
  keyed.sort((u, v) => (u.key < v.key ? -1 : u.key > v.key ? 1 : u.c.id < v.c.id ? -1 : u.c.id > v.c.id ? 1 : 0));
  return keyed.slice(0, cap).map((e) => e.c);
}

/** A coefficient for display: 6 significant digits. */
function round(v: number): number {
  return Number(v.toPrecision(6));
}

/** A child's statistics over the allowed tools in one search. */
interface ChildStats {
  mean: number;
  sd: number;
  /** The score of a tool the child did not return: min(0, the lowest it returned). */
  absent: number;
  /** The lowest and highest finite score it returned (0 and 0 when none). */
  low: number;
  high: number;
  /** The highest score it returned (0 when none): the feature â / b̂. */
  best: number;
}

function childStats(): ChildStats {
  return { mean: 0, sd: 0, absent: 0, low: 0, high: 0, best: 0 };
}

/** The working arrays of the calibrated fusion for a catalog of n tools. */
function calibratedWork(n: number) {
  return {
    feat: new Float64Array(n * FEATURES),
    fused: new Float64Array(n),
    union: new Int32Array(n),
    /** Each child's first max(topN, rankDepth) tools, each once (`candidateCount` of them). */
    candidates: new Int32Array(n),
    candidateCount: 0,
    /** Scratch: 1 while a position is among the candidates being gathered. */
    mark: new Uint8Array(n),
    /** Per child: its statistics over the allowed tools in the last search. */
    stats: [childStats(), childStats()] as [ChildStats, ChildStats],
    ok: [new Uint8Array(n), new Uint8Array(n)] as [Uint8Array, Uint8Array],
    top: [new Int32Array(n), new Int32Array(n)] as [Int32Array, Int32Array],
    topCount: [0, 0] as [number, number],
  };
}
