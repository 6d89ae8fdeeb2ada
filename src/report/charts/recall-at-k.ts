/**
 * The `recall-at-k` chart: recall@k per ranking strategy (the 8 best by the headline figure, those
 * that fit the context window first), one line each, with 95% intervals.
 */
import type { Results } from '../../eval/results.ts';
import { figure, headline, type StrategyView } from '../view.ts';
import {
  type ChartSpec,
  best,
  errorBarsOption,
  figureText,
  fitCaption,
  intervalOf,
  mergeIdentical,
  options,
  seriesName,
  seriesStyle,
  type Styles,
  whiskerNote,
} from './shared.ts';

export function recallAtKChart(r: Results, ranking: readonly StrategyView[], style: Styles): ChartSpec | undefined {
  if (!ranking.length) return undefined;
  const ks = r.config.ks;
  const metric = headline(r);
  const series = mergeIdentical(
    best(ranking, (s) => figure(s, metric).value, 8).map((s) => ({
      name: s.name,
      label: seriesName(s),
      data: ks.map((k) => figure(s, `recall@${k}`).value ?? null),
      extra: ks.map((k) => intervalOf(s, `recall@${k}`)),
    })),
  );
  if (!series.length) return undefined;
  const datasets = series.map((s, i) => {
    const st = style(s.name);
    return {
      label: s.label,
      strategy: s.name,
      data: s.data,
      ...seriesStyle(st),
      borderWidth: 3,
      pointRadius: 5,
      tension: 0,
      errorBars: s.extra,
      errorBarColour: st.colour,
      errorBarOffset: (i - (series.length - 1) / 2) * 5,
      tips: ks.map((k, i) => `${s.label} — ${figureText(`recall@${k}`, s.data[i], s.extra[i]!)}`),
    };
  });
  const kList = ks.join(', ');
  return {
    id: 'recall-at-k',
    title: `Recall@k by strategy (k = ${kList})`,
    caption: `Share of the gold tools among the first k a strategy ranks (overall), for the 8 best by ${metric}; strategies with identical figures share a line. Higher is better; profiles stop at their own search limit.${whiskerNote(datasets)}${fitCaption(ranking)}`,
    config: {
      type: 'line',
      data: { labels: ks.map((k) => `k = ${k}`), datasets },
      options: options(
        `recall@k by strategy — ${r.dataset.name}, k = ${kList}`,
        { title: 'cut-off k (tools ranked)', offset: true },
        { title: 'recall@k (share of gold tools in the top k)', min: 0, max: 1 },
        errorBarsOption(datasets),
      ),
    },
  };
}
