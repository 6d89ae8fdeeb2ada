/**
 * The `slices` chart: the headline recall per slice of the cases, one bar per ranking strategy (up
 * to 8, best overall first), with 95% intervals.
 */
import type { Results } from '../../eval/results.ts';
import { figure, headline, sliceNames, type StrategyView } from '../view.ts';
import {
  type ChartSpec,
  best,
  errorBarsOption,
  figureText,
  fitCaption,
  INK,
  intervalOf,
  kOf,
  mergeIdentical,
  options,
  seriesName,
  type Styles,
  whiskerNote,
} from './shared.ts';

export function slicesChart(r: Results, all: readonly StrategyView[], style: Styles): ChartSpec | undefined {
  const metric = headline(r);
  const names = sliceNames(r).filter((s) => s !== 'no-tool' && s !== 'skill');
  if (!names.length) return undefined;
  // Strategies that rank (a profile without a search has no recall), up to 8, best overall first;
  // identical series share a bar.
  const chosen = best(
    all.filter((s) => s.ranks),
    (s) => figure(s, metric).value,
    8,
  );
  if (!chosen.length) return undefined;
  const series = mergeIdentical(
    chosen.map((s) => ({
      name: s.name,
      label: seriesName(s),
      data: names.map((n) => figure(s, metric, s.results.metrics.slices[n]).value ?? null),
      extra: names.map((n) => intervalOf(s, metric, n)),
    })),
  );
  const datasets = series.map((s) => ({
    label: s.label,
    strategy: s.name,
    data: s.data,
    backgroundColor: style(s.name).colour,
    borderColor: style(s.name).colour,
    errorBars: s.extra,
    errorBarColour: INK,
    tips: names.map((n, i) => `${s.label} — ${n}: ${figureText(metric, s.data[i], s.extra[i]!)}`),
  }));
  const k = kOf(metric);
  return {
    id: 'slices',
    title: `${metric} by slice (k = ${k})`,
    caption: `${metric} (share of gold tools in the top ${k}) per slice of the cases, for the 8 best ranking strategies (strategies with identical figures share a bar).${whiskerNote(datasets)}${fitCaption(all.filter((s) => s.ranks))}`,
    config: {
      type: 'bar',
      data: { labels: names, datasets },
      options: options(
        `${metric} by slice — ${r.dataset.name}, k = ${k}`,
        { title: 'slice of the cases' },
        { title: `${metric} (share of gold tools in the top ${k})`, min: 0, max: 1 },
        errorBarsOption(datasets),
      ),
    },
  };
}
