/**
 * The comparison page's charts: per later run, each strategy's change of the headline figure
 * (head − base), a bar in the strategy's colour, with the paired bootstrap 95% interval of the
 * change as whiskers, so a reviewer sees at a glance what moved and by how much against the noise.
 */
import { metricLabel } from '../../metrics/ids.ts';
import { type ChartSpec, errorBarsOption, INK, options } from '../charts.ts';
import { strategyColours } from '../colours.ts';
import type { Comparison, FigureChange } from './model.ts';

/** The figure a strategy is charted on: the comparison's headline, else `visible` (a profile without a search). */
function charted(figures: readonly FigureChange[], headline: string): FigureChange | undefined {
  return figures.find((f) => f.figure === headline && f.delta !== undefined) ?? figures.find((f) => f.figure === 'visible' && f.delta !== undefined);
}

/** One chart per later run (none when no strategy of the pair has a change to draw). */
export function changeCharts(c: Comparison): ChartSpec[] {
  const out: ChartSpec[] = [];
  c.pairs.forEach((p, i) => {
    const rows = p.strategies.map((s) => ({ name: s.name, f: charted(s.figures, c.headline) })).filter((x) => x.f !== undefined);
    if (!rows.length) return;
    const colours = strategyColours(p.strategies.map((s) => s.name));
    const labels = rows.map((x) => (x.f!.figure === c.headline ? x.name : `${x.name} (visible)`));
    const deltas = rows.map((x) => x.f!.delta!);
    const intervals = rows.map((x) => x.f!.ci95 ?? null);
    const reach = Math.max(0.01, ...deltas.map(Math.abs), ...intervals.flatMap((iv) => (iv ? iv.map(Math.abs) : [])));
    const bound = Math.ceil(reach * 1.15 * 100) / 100;
    const datasets = [
      {
        label: `change of ${metricLabel(c.headline)} (head − base)`,
        data: deltas,
        backgroundColor: rows.map((x) => colours.get(x.name)!),
        borderColor: rows.map((x) => colours.get(x.name)!),
        errorBars: intervals,
        errorBarColour: INK,
        tips: rows.map((x, j) => {
          const f = x.f!;
          const iv = f.ci95 ? `, 95% interval ${f.ci95[0].toFixed(4)} to ${f.ci95[1].toFixed(4)}` : '';
          return `${labels[j]}: ${f.base?.toFixed(3)} → ${f.head?.toFixed(3)} (${f.delta! >= 0 ? '+' : ''}${f.delta!.toFixed(4)}${iv}); ${f.verdict}`;
        }),
      },
    ];
    out.push({
      id: `change-${i + 1}`,
      title: `${p.head} against ${p.base}: change of ${metricLabel(c.headline)} per strategy`,
      caption: `Each bar is a strategy's ${metricLabel(c.headline)} in ${p.head} minus the same figure in ${p.base} (visible for a profile without a search), over the cases both runs scored; whiskers: the paired bootstrap 95% interval of the change (descriptive; the verdict in the table is the change rule's). Above 0 is better.`,
      config: {
        type: 'bar',
        data: { labels, datasets },
        options: options(
          `${metricLabel(c.headline)}: ${p.head} − ${p.base}`,
          { title: 'strategy' },
          { title: `change of ${metricLabel(c.headline)}`, min: -bound, max: bound },
          { ...errorBarsOption(datasets), legend: { display: false } },
        ),
      },
    });
  });
  return out;
}
