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
 * These per-request fusions give scores that mean something only inside one request (a greeting's
 * best tool gets as high a reciprocal rank, and nearly as high a standard score, as a real
 * request's), so no floor separates "something fits" from "nothing fits". The registry's `hybrid`
 * and `hybrid-rrf` are therefore {@link CalibratedHybridRetriever}s: a logistic model over
 * the children's raw scores plus these per-request features, whose score is a probability
 * comparable across requests. `hybrid-zscore` is `zscore` over bm25 and embed, weights 0.4 / 0.6
 * (the former `hybrid`).
 *
 * The per-request fusions are in `hybrid/per-request.ts`, the calibrated one (a logistic model) in
 * `hybrid/calibrated.ts`, what both share (indexing, prefetching, opening a search) in
 * `hybrid/pair.ts`; the rest of the project imports them from here.
 */
export {
  checkHybridOptions,
  defaultDepth,
  HYBRID_DEFAULT_OPTIONS,
  HybridRetriever,
  zStats,
  type FusionMethod,
  type HybridOptions,
} from './hybrid/per-request.ts';
export {
  CALIBRATED_DEFAULT_OPTIONS,
  CalibratedHybridRetriever,
  calibrationBudget,
  checkCalibratedOptions,
  HYBRID_DEFAULT_COEFFICIENTS,
  selectCases,
  type CalibratedFeatures,
  type CalibratedHybridOptions,
  type CalibrationInfo,
} from './hybrid/calibrated.ts';
