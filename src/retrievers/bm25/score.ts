/**
 * BM25 scoring kernels: pure functions of plain numbers, no state, no boosts. Field weights and the
 * sum over query tokens happen at the call site (`index.ts`).
 *
 * The formulas are those of Codex's `bm25` crate (v2.3.2, `Michael-JB/bm25`, as `openai/codex`
 * builds it) and Lucene:
 *   score(q, d) = Σ over every query token occurrence t of idf(N, df(t)) · termWeight(tf(t, d), dl(d), avgdl, k1, b)
 * computed here in float64 (the crate uses f32).
 */

/** BM25 saturation and length-normalisation parameters. */
export interface BM25Params {
  /**
   * Term-frequency saturation. Range `[0, ∞)`, typically 1.2–2.0; default **1.2** (Codex, Lucene).
   * `0` makes a term count the same however often it occurs (binary independence).
   */
  k1: number;
  /**
   * Length normalisation. Range `[0, 1]`; default **0.75**. `0` ignores document length, `1`
   * normalises fully by `dl / avgdl`.
   */
  b: number;
}

/** The defaults of Codex's `bm25` crate, of Lucene and of most textbook presentations. */
export const DEFAULT_BM25_PARAMS: Readonly<BM25Params> = Object.freeze({ k1: 1.2, b: 0.75 });

/**
 * Inverse document frequency, in the Lucene / Codex form `ln(1 + (N − df + 0.5) / (df + 0.5))`.
 *
 * Always `> 0` for `0 ≤ df ≤ N` (the argument of `ln` is `> 1`), so a term every document contains
 * still scores a little, unlike the classic Robertson–Spärck Jones form, which goes negative.
 *
 * @param N  number of documents in the collection (`N ≥ 0`)
 * @param df number of documents containing the term (`0 ≤ df ≤ N`)
 */
export function idf(N: number, df: number): number {
  return Math.log(1 + (N - df + 0.5) / (df + 0.5));
}

/**
 * A document's BM25 weight for one term: `tf·(k1 + 1) / (tf + k1·(1 − b + b·dl/avgdl))`.
 *
 * `0` when `tf = 0` (for `k1 > 0`; callers never ask for `tf = 0`); increases with `tf` towards `k1 + 1`; decreases as the document grows longer
 * than average (when `b > 0`).
 *
 * @param tf    (weighted) frequency of the term in the document, `tf ≥ 0`
 * @param dl    (weighted) length of the document, `dl ≥ 0`
 * @param avgdl mean document length over the collection, `avgdl > 0`
 * @param k1    saturation, `k1 ≥ 0` (see {@link BM25Params.k1})
 * @param b     length normalisation, `0 ≤ b ≤ 1` (see {@link BM25Params.b})
 */
export function termWeight(tf: number, dl: number, avgdl: number, k1: number, b: number): number {
  return (tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * dl) / avgdl));
}

/** Throws a `RangeError` unless `k1 ≥ 0` and `0 ≤ b ≤ 1` (both finite). */
export function checkBM25Params(p: BM25Params): void {
  if (!Number.isFinite(p.k1) || p.k1 < 0) throw new RangeError(`BM25 k1 must be a finite number ≥ 0 (got ${p.k1})`);
  if (!Number.isFinite(p.b) || p.b < 0 || p.b > 1) throw new RangeError(`BM25 b must be in [0, 1] (got ${p.b})`);
}
