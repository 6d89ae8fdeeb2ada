/**
 * The profile points of the two cost scatter charts (`recall-vs-tokens`, `recall-vs-calls`): a
 * profile's quality (its headline recall when it searches, else `visible`, marked), its name with
 * its context-fit mark, one large labelled point a profile (profiles at the same point share it),
 * and the quality axis's title.
 */
import { contextFit, figure, fitMark, type StrategyView } from '../view.ts';
import { figureText, intervalOf, kOf, mergeIdentical, seriesStyle, type Interval, type Styles } from './shared.ts';

/** A profile's quality point: the headline recall when it searches, else `visible` (marked). */
export interface QualityPoint {
  s: StrategyView;
  metric: string;
  y: number;
  text: string;
  iv: Interval | null;
}

export function qualityOf(s: StrategyView, metric: string): QualityPoint {
  const m = s.ranks ? metric : 'visible';
  const f = figure(s, m);
  const y = f.value ?? f.raw ?? 0;
  const iv = intervalOf(s, m);
  return { s, metric: m, y, iv, text: figureText(m, f.value ?? f.raw, iv, f.value === undefined && f.raw === undefined ? f.reason : undefined) };
}

/** A profile's name on a point and in a legend: its fit mark, and "visible" when it has no search. */
export function profileName(q: QualityPoint): string {
  const marks = [fitMark(contextFit(q.s)), q.s.ranks ? undefined : 'visible'].filter((x): x is string => x !== undefined);
  return marks.length ? `${q.s.name} (${marks.join('; ')})` : q.s.name;
}

/**
 * One large point a profile for a scatter chart, labelled with its name, its tooltip with units;
 * profiles at the same point share it (labelled "a / b").
 */
export function profilePoints(
  points: ReadonlyArray<{ q: QualityPoint; x: number; legend: string; tip: string }>,
  style: Styles,
): Array<Record<string, unknown>> {
  return mergeIdentical(
    points.map((p) => ({ name: p.q.s.name, label: profileName(p.q), data: [{ x: p.x, y: p.q.y }], extra: { legend: p.legend, tips: [p.tip], iv: p.q.iv } })),
  ).map((s) => {
    const st = style(s.name);
    const merged = s.label.includes(' / ');
    return {
      label: merged ? s.label : s.extra.legend,
      strategy: s.name,
      data: s.data,
      ...seriesStyle(st),
      pointRadius: 10,
      pointHoverRadius: 12,
      clip: false,
      pointLabels: [s.label],
      errorBars: [s.extra.iv],
      errorBarColour: st.colour,
      tips: [merged ? `${s.label}: ${s.extra.tips[0]}` : s.extra.tips[0]],
    };
  });
}

export const QUALITY_AXIS = (metric: string) => `${metric} (share of gold tools in the top ${kOf(metric)}; visible for a profile without a search)`;
