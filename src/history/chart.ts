/**
 * `backpack history show --out DIR`: one PNG line chart per (strategy, figure), drawn by the
 * report's own renderer (`renderPng`, 1600×900), and an `index.md` listing them.
 *
 * A chart: x the run labels in recorded order, y the figure; the 95% interval of each run that has
 * one as an error bar (a thin floating bar from low to high); blessed runs as large stars, a
 * legend entry of their own. Text drawn on a chart has its invisible characters shown; text in
 * the index is escaped as Markdown.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../util/atomic-write.ts';
import { InputError } from '../util/errors.ts';
import { escapeMarkdown } from '../util/escape.ts';
import { colour, type ChartSpec } from '../report/charts.ts';
import { DEFAULT_PNG_SIZE, renderPng, type PngSize } from '../report/png.ts';
import type { HistoryView, Series } from './query.ts';
import { formatChange, formatValue, plain, sparkline } from './show.ts';

const FONT = { size: 16 };
const BLESSED_COLOUR = '#e15759';

/** The chart of one series (see the module comment). */
export function seriesChart(s: Series, id: string): ChartSpec {
  const name = `${plain(s.strategy)} · ${plain(s.figure)}`;
  const hasCi = s.points.some((p) => p.ciLow !== null && p.ciHigh !== null);
  const hasBlessed = s.points.some((p) => p.blessed);
  const datasets: Array<Record<string, unknown>> = [
    {
      type: 'line',
      label: name,
      data: s.points.map((p) => p.value),
      borderColor: colour(0),
      backgroundColor: colour(0),
      borderWidth: 3,
      pointStyle: 'circle',
      pointRadius: 6,
      tension: 0,
      order: 1,
    },
  ];
  if (hasCi) {
    datasets.push({
      type: 'bar',
      label: '95% interval',
      data: s.points.map((p) => (p.ciLow !== null && p.ciHigh !== null ? [p.ciLow, p.ciHigh] : null)),
      backgroundColor: 'rgba(78, 121, 167, 0.35)',
      borderColor: colour(0),
      borderWidth: 1,
      barPercentage: 0.05,
      categoryPercentage: 1,
      pointStyle: 'rect',
      order: 2,
    });
  }
  if (hasBlessed) {
    datasets.push({
      type: 'line',
      label: 'blessed (accepted on purpose)',
      data: s.points.map((p) => (p.blessed ? p.value : null)),
      showLine: false,
      borderColor: BLESSED_COLOUR,
      backgroundColor: BLESSED_COLOUR,
      pointStyle: 'star',
      pointRadius: 16,
      pointBorderWidth: 3,
      order: 0,
    });
  }
  const axis = (title: string) => ({ title: { display: true, text: title, font: FONT }, ticks: { font: { size: 14 }, autoSkipPadding: 16 } });
  return {
    id,
    title: name,
    caption: `${name} over ${s.points.length} recorded run${s.points.length === 1 ? '' : 's'}, in recorded order${hasCi ? '; bars: bootstrap 95% intervals' : ''}${hasBlessed ? '; stars: runs whose catalog was blessed' : ''}.`,
    config: {
      type: 'line',
      data: { labels: s.points.map((p) => plain(p.label)), datasets },
      options: {
        responsive: false,
        animation: false,
        plugins: {
          title: { display: true, text: `${name} over runs`, font: { size: 20, weight: 'bold' } },
          legend: { position: 'right', labels: { font: { size: 14 }, usePointStyle: true } },
        },
        scales: { x: { ...axis('run (recorded order)'), offset: true }, y: { ...axis(plain(s.figure)), beginAtZero: false, grace: '5%' } },
      },
    },
  };
}

/** A file name for a series: its strategy and figure with anything but `A-Za-z0-9._-` as `_`, made unique. */
function fileNames(series: readonly Series[]): string[] {
  const used = new Set<string>();
  return series.map((s) => {
    const base = `${s.strategy}--${s.figure}`.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 120) || 'series';
    let name = base;
    for (let i = 2; used.has(name.toLowerCase()); i++) name = `${base}-${i}`;
    used.add(name.toLowerCase());
    return `${name}.png`;
  });
}

/** The index of the charts: one table row per chart, blessed runs listed under it. */
function indexMarkdown(view: HistoryView, files: readonly string[]): string {
  const first = view.runs[0];
  const last = view.runs[view.runs.length - 1];
  const lines = [
    '# Backpack history',
    '',
    first && last
      ? `${view.runs.length} run${view.runs.length === 1 ? '' : 's'} recorded, from ${escapeMarkdown(first.label)} (${escapeMarkdown(first.recordedAt)}) to ${escapeMarkdown(last.label)} (${escapeMarkdown(last.recordedAt)}).`
      : 'No run recorded.',
    '',
    '| strategy | figure | runs | trend | last | change | chart |',
    '| --- | --- | ---: | --- | ---: | ---: | --- |',
    ...view.series.map((s, i) => {
      const p = s.points[s.points.length - 1]!;
      return `| ${escapeMarkdown(s.strategy)} | ${escapeMarkdown(s.figure)} | ${s.points.length} | ${sparkline(s.points.map((x) => x.value))} | ${formatValue(p.value)} | ${formatChange(p.change)} | [${files[i]}](${files[i]}) |`;
    }),
  ];
  const blessed = view.runs.filter((r) => r.blessed);
  if (blessed.length) {
    lines.push('', '## Blessed runs', '', 'Runs whose catalog the regression file blessed (figures accepted on purpose), with the reason logged:', '');
    for (const r of blessed) lines.push(`- ${escapeMarkdown(r.label)}: ${escapeMarkdown(r.blessDate ?? '')} ${escapeMarkdown(r.blessReason ?? '')}`.trimEnd());
  }
  return `${lines.join('\n')}\n`;
}

/**
 * One PNG per series and `index.md` into `dir` (created), each file written atomically. Returns
 * the file names written, `index.md` last.
 */
export function writeHistoryCharts(view: HistoryView, dir: string, size: PngSize = DEFAULT_PNG_SIZE): string[] {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (err) {
    throw new InputError(`cannot create the folder: ${(err as Error).message}`, { file: dir });
  }
  const files = fileNames(view.series);
  view.series.forEach((s, i) => {
    writeFileAtomic(join(dir, files[i]!), renderPng(seriesChart(s, files[i]!.replace(/\.png$/, '')), size));
  });
  writeFileAtomic(join(dir, 'index.md'), indexMarkdown(view, files));
  return [...files, 'index.md'];
}

/**
 * One figure of every strategy over the recorded runs, for the report's History section: x the run
 * labels in recorded order, one line per strategy in its report colour (`colours`), a gap where a
 * run lacks the strategy; blessed runs (accepted on purpose) drawn as large diamonds and named in
 * the caption with their reasons.
 */
export function figureChart(view: HistoryView, figure: string, colours: ReadonlyMap<string, string>, dataset: string): ChartSpec | undefined {
  const series = view.series.filter((s) => s.figure === figure);
  if (!series.length) return undefined;
  const labels = view.runs.map((r) => plain(r.label));
  const blessed = new Set(view.runs.filter((r) => r.blessed).map((r) => r.label));
  const datasets = series.map((s) => {
    const at = new Map(s.points.map((p) => [p.label, p.value]));
    const c = colours.get(s.strategy) ?? colour(0);
    return {
      type: 'line',
      label: plain(s.strategy),
      strategy: s.strategy,
      data: view.runs.map((r) => at.get(r.label) ?? null),
      borderColor: c,
      backgroundColor: c,
      borderWidth: 2,
      pointStyle: view.runs.map((r) => (blessed.has(r.label) ? 'rectRot' : 'circle')),
      pointRadius: view.runs.map((r) => (blessed.has(r.label) ? 9 : 4)),
      spanGaps: false,
      tension: 0,
    };
  });
  const reasons = view.runs.filter((r) => r.blessed).map((r) => `${plain(r.label)}: ${plain(r.blessReason ?? 'blessed')}`);
  return {
    id: `history-${figure.replace(/[^A-Za-z0-9]+/g, '_')}`,
    title: `${figure} over the recorded runs — ${plain(dataset)}`,
    caption: `${figure} of each strategy in every run recorded with backpack history add, in recorded order.${reasons.length ? ` Diamonds: blessed runs (${reasons.join('; ')}).` : ' No run is blessed.'}`,
    config: {
      type: 'line',
      data: { labels, datasets },
      options: {
        animation: false,
        responsive: false,
        plugins: { title: { display: true, text: `${figure} over the recorded runs`, font: FONT }, legend: { position: 'right' } },
        scales: {
          x: { title: { display: true, text: 'run (recorded order)' }, ticks: { autoSkip: false, maxRotation: 40, minRotation: 0 } },
          y: { title: { display: true, text: figure } },
        },
      },
    },
  };
}
