/**
 * The charts of a results file as chart.js configurations: plain JSON (no functions), so the HTML
 * report embeds them as data and the PNG renderer draws the same ones. Deterministic: datasets in
 * strategy order, titles and axis labels always set. This module puts them in report order
 * ({@link chartsOf}) and re-exports what the rest of the code uses of them; each chart is one
 * module of `charts/`, and what they share is `charts/shared.ts`.
 *
 * Colours: one per strategy for the whole report (`reportStyles` in colours.ts: assigned over the
 * report's sorted strategy names, so a strategy has the same colour in every chart whichever
 * strategies a chart shows). Series that are not strategies (the token table's serializations)
 * use colours outside that palette.
 *
 * What chart.js cannot do from JSON alone is done by Backpack's plugins (assets/chart-plugins.js,
 * registered by both renderers), configured from the spec: error bars (`errorBars: [[low, high] |
 * null, …]` on a dataset, parallel to its data, from the results' bootstrap 95% intervals `ci95`;
 * none when the results have none), point labels (`pointLabels` on a dataset and
 * `options.plugins.backpackLabels.display`), reference lines (`options.plugins.backpackLines`) and
 * tooltips (`tips` on a dataset, one text per data point, with units and metric names). A
 * dataset drawn in a strategy's colour names it in `strategy` (the first one, for a shared series;
 * the skills chart: the listing), which chart.js ignores.
 *
 * Charts (ids are also the PNG file names), each from the module of `charts/` named after it:
 * - `recall-at-k`: recall@k per ranking strategy, with 95% intervals;
 * - `operating-curve` (retrievers) and `operating-curve-profiles` (profiles): recall@5 against the
 *   no-tool false-positive rate as the floor rises, one line per strategy with an `abstention`
 *   curve, its calibrated floor (`--floor auto`) marked; a curve fixed at x = 1 is named in the
 *   caption instead of drawn;
 * - `recall-vs-tokens`: each profile's recall@5 (`visible` for a profile without a search, marked)
 *   against the tokens it puts in front of the model per request, log scale, with the context
 *   window as a vertical line;
 * - `recall-vs-calls`: the same against the model calls its protocol needs per success (a request
 *   whose gold reached the model; per request for results written before that was counted);
 * - `slices`: headline recall per slice, for up to 8 strategies (best first), with 95% intervals;
 * - `token-table`: tokens of the tool block by tool count (the seed article's table, measured);
 * - `skills`: skill discoverability against listing tokens, at each skill count (one when the
 *   catalog is smaller than every size compared);
 * - `sessions`: exposed-set churn per strategy, per-turn against sticky retrieval.
 * The two cost charts (`recall-vs-tokens`, `recall-vs-calls`) draw the same profile points
 * (`charts/profile-points.ts`). A chart whose section the run did not produce is left out. Every
 * chart's title names the dataset and, where its metric has one, the cut-off k.
 *
 * "Best" never means a profile that does not fit the context window (`tokens.fitsContext < 1`):
 * the charts that pick the 8 best (`recall-at-k`, `slices`) rank such a profile after every one
 * that fits, leave out one that fits in no case (its quality figures do not apply), and label it
 * ("fits 80% of cases", "does not fit") wherever it is drawn.
 */
import type { Results } from '../eval/results.ts';
import { operatingCurveChart } from './charts/operating-curve.ts';
import { recallAtKChart } from './charts/recall-at-k.ts';
import { recallVsCallsChart } from './charts/recall-vs-calls.ts';
import { recallVsTokensChart } from './charts/recall-vs-tokens.ts';
import { sessionsChart } from './charts/sessions.ts';
import { type ChartSpec, stylesOf } from './charts/shared.ts';
import { skillsChart } from './charts/skills.ts';
import { slicesChart } from './charts/slices.ts';
import { tokenTableChart } from './charts/token-table.ts';
import { strategies } from './view.ts';

export { OPERATING_CURVE_CAPTION, PROFILE_CURVE_NOTE } from './charts/operating-curve.ts';
export { compactTokens } from './charts/recall-vs-calls.ts';
export { type Axis, type ChartSpec, colour, errorBarsOption, INK, logBounds, options, PALETTE } from './charts/shared.ts';

/** Every chart the results support, in report order; one colour per strategy across all of them (see colours.ts). */
export function chartsOf(r: Results): ChartSpec[] {
  const all = strategies(r);
  const ranking = all.filter((s) => s.ranks);
  const style = stylesOf(r);
  return [
    recallAtKChart(r, ranking, style),
    operatingCurveChart(r, all, style, 'retriever'),
    operatingCurveChart(r, all, style, 'profile'),
    recallVsTokensChart(r, all, style),
    recallVsCallsChart(r, all, style),
    slicesChart(r, all, style),
    tokenTableChart(r),
    skillsChart(r, style),
    sessionsChart(r, all, style),
  ].filter((c): c is ChartSpec => c !== undefined);
}
