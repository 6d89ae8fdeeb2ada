/**
 * The operating-curve charts, `operating-curve` (retrievers) and `operating-curve-profiles`
 * (profiles): recall@5 against the no-tool false-positive rate as the floor rises, one line per
 * strategy along its `abstention` curve, its calibrated floor (`--floor auto`) marked; a curve
 * fixed at x = 1 is named in the caption instead of drawn.
 */
import type { Results } from '../../eval/results.ts';
import { curveOf, curveThinness, fitsNowhere, floorNumber, mayBeBest, operatingPoint, type StrategyView } from '../view.ts';
import { type ChartSpec, fitCaption, INK, LABELS, options, rate, seriesName, seriesStyle, type Styles } from './shared.ts';

export const OPERATING_CURVE_CAPTION =
  'Each line is one strategy as its floor score rises: a higher floor drops low-scoring tools, so the strategy shows a tool on fewer requests that need none (x: no-tool false-positive rate, the share of no-tool requests where any non-pinned tool is in front of the model, eager or returned by a search) and keeps fewer gold tools in its top 5 (y: recall@5). Pick a strategy and floor together: further up and left is better. The curves are in-sample (each point is scored on the cases its floor is read from); a triangle marks the floor calibrated with --floor auto on other cases, where the strategy runs.';
/** What the profiles' panel adds to the caption. */
export const PROFILE_CURVE_NOTE =
  " A profile that lists tools other than its harness's own core tools eagerly stays at x = 1 whatever the floor: such a curve is named in the caption, not drawn.";

/** What a caption says of curves drawn over fewer than 10 graded or no-tool cases (empty when none is). */
function thinCaption(list: readonly StrategyView[]): string {
  const thin = list.map((s) => [s.name, curveThinness(s)] as const).filter(([, t]) => t !== undefined);
  if (!thin.length) return '';
  return ` Thin (marked "thin"): ${thin.map(([n, t]) => `${n} ${t!.replace(/^thin: /, '')}`).join('; ')}: one case moves such a curve by a tenth or more.`;
}

/** A curve whose every point has a no-tool false-positive rate of 1 (to 3 decimals): the floor never takes a tool away from a no-tool request. */
function fixedAtOne(curve: ReadonlyArray<{ fp: number }>): boolean {
  return curve.every((p) => p.fp >= 0.9995);
}

/**
 * recall@5 against the no-tool false-positive rate along each strategy's `abstention` curve, its
 * calibrated floor marked: one panel for the retrievers (`operating-curve`) and one for the
 * profiles (`operating-curve-profiles`). A curve fixed at x = 1 (an eager listing: the floor never
 * clears a no-tool request) is set apart in the caption with its recall range, not stacked at the
 * right edge; the calibrated-floor markers are left out of the legend (their series is in it).
 */
export function operatingCurveChart(r: Results, all: readonly StrategyView[], style: Styles, kind: 'retriever' | 'profile'): ChartSpec | undefined {
  // A profile whose prompt fits the context window in no case has no curve that applies (its figures are n/a).
  const ofKind = all.filter((s) => s.kind === kind);
  const withCurve = ofKind.map((s) => ({ s, curve: curveOf(s) })).filter((x) => x.curve !== undefined && !fitsNowhere(x.s));
  const apart = withCurve.filter((x) => fixedAtOne(x.curve!));
  const drawn = withCurve.filter((x) => !fixedAtOne(x.curve!));
  if (!drawn.length) return undefined;
  // Strategies with identical curves share a line, labelled "a / b" (as mergeIdentical, keeping who is in it).
  const groups: Array<{ key: string; names: string[]; members: StrategyView[]; data: Array<{ x: number; y: number; floor: number }> }> = [];
  for (const { s, curve } of drawn) {
    const key = JSON.stringify([mayBeBest(s), curve!.map((p) => [p.fp, p.recall5])]);
    const same = groups.find((g) => g.key === key);
    if (same) {
      same.names.push(seriesName(s));
      same.members.push(s);
    } else groups.push({ key, names: [seriesName(s)], members: [s], data: curve!.map((p) => ({ x: p.fp, y: p.recall5, floor: p.floor })) });
  }
  const tip = (label: string, p: { x: number; y: number; floor: number }) =>
    `${label} — floor ${floorNumber(p.floor)}: recall@5 ${rate(p.y)}, no-tool false-positive rate ${rate(p.x)}`;
  // A profile that fits only some cases: a dashed line (its label says how many fit).
  const datasets: Array<Record<string, unknown>> = groups.map((g) => {
    const label = `${g.names.join(' / ')}${curveThinness(g.members[0]!) ? ' (thin)' : ''}`;
    return {
      label,
      strategy: g.members[0]!.name,
      data: g.data,
      showLine: true,
      ...seriesStyle(style(g.members[0]!.name)),
      ...(mayBeBest(g.members[0]!) ? {} : { borderDash: [4, 6] }),
      borderWidth: 3,
      pointRadius: 3,
      pointHoverRadius: 6,
      tension: 0,
      clip: false,
      pointLabels: g.data.map((_, j) => (j === 0 ? label : '')),
      tips: g.data.map((p) => tip(label, p)),
    };
  });
  for (const g of groups) {
    for (const s of g.members) {
      const p = operatingPoint(r, s);
      if (!p) continue;
      const label = `${seriesName(s)}: calibrated floor ${floorNumber(p.floor)}`;
      datasets.push({
        label,
        strategy: g.members[0]!.name,
        data: [{ x: p.x, y: p.y, floor: p.floor }],
        showLine: false,
        hideInLegend: true,
        pointStyle: 'triangle',
        pointRadius: 12,
        pointHoverRadius: 14,
        borderWidth: 2,
        borderColor: INK,
        backgroundColor: style(g.members[0]!.name).colour,
        clip: false,
        tips: [tip(`${seriesName(s)} (calibrated with --floor auto)`, { x: p.x, y: p.y, floor: p.floor })],
      });
    }
  }
  const range = (c: ReadonlyArray<{ recall5: number }>) => {
    const ys = c.map((p) => p.recall5);
    const [lo, hi] = [Math.min(...ys), Math.max(...ys)];
    return lo === hi ? rate(lo) : `${rate(lo)}–${rate(hi)}`;
  };
  const apartCaption = apart.length
    ? ` Set apart, at a no-tool false-positive rate of 1 whatever the floor (they would stack at the right edge): ${apart.map((x) => `${seriesName(x.s)} (recall@5 ${range(x.curve!)})`).join(', ')}.`
    : '';
  const panel = kind === 'retriever' ? 'retrievers' : 'profiles';
  return {
    id: kind === 'retriever' ? 'operating-curve' : 'operating-curve-profiles',
    title: `Operating curve of the ${panel}: recall@5 against no-tool false positives (k = 5)`,
    caption: `${OPERATING_CURVE_CAPTION}${kind === 'profile' ? PROFILE_CURVE_NOTE : ''}${thinCaption(drawn.map((x) => x.s))}${apartCaption}${fitCaption(
      ofKind.filter((s) => curveOf(s) !== undefined),
      'are drawn dashed',
    )}`,
    config: {
      type: 'scatter',
      data: { datasets },
      options: options(
        `Operating curve, ${panel}: recall@5 vs no-tool false positives — ${r.dataset.name}, k = 5`,
        { title: 'no-tool false-positive rate (share of no-tool requests shown a non-pinned tool)', type: 'linear', min: 0, max: 1 },
        { title: 'recall@5 (share of gold tools in the top 5)', min: 0, max: 1 },
        LABELS,
      ),
    },
  };
}
