/**
 * `backpack history show --out DIR`: one PNG line chart per figure, every strategy a line in its
 * report colour (the colours of `report`: the main job's strategies own theirs in every report,
 * comparison and history chart), drawn by the report's own renderer (`renderPng`, 1600×900), and
 * an `index.md` listing each strategy's series with the chart it is on.
 *
 * A chart: x the run labels in recorded order, y the figure; the 95% interval of each run that has
 * one as a whisker; blessed runs as large diamonds, named in the caption. Text drawn on a chart has
 * its invisible characters shown; text in the index is escaped as Markdown. (Before issue 32 it
 * wrote one single-colour PNG per strategy and figure.)
 */

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { checkOutputFolder } from '../util/output-path.ts';
import { makeDirs, writeFileAtomic } from '../util/atomic-write.ts';
import { InputError } from '../util/errors.ts';
import { escapeMarkdown } from '../util/escape.ts';
import { colour, errorBarsOption, type ChartSpec } from '../report/charts.ts';
import { strategyColours } from '../report/colours.ts';
import { DEFAULT_PNG_SIZE, renderPng, type PngSize } from '../report/png.ts';
import type { HistoryView } from './query.ts';
import { formatChange, formatValue, plain, sparkline } from './show.ts';

const FONT = { size: 16 };

/** A file name per figure: anything but `A-Za-z0-9._-` as `_`, made unique (case-insensitively). */
function figureFiles(figures: readonly string[]): Map<string, string> {
  const used = new Set<string>();
  const out = new Map<string, string>();
  for (const f of figures) {
    const base = f.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 120) || 'figure';
    let name = base;
    for (let i = 2; used.has(name.toLowerCase()); i++) name = `${base}-${i}`;
    used.add(name.toLowerCase());
    out.set(f, `${name}.png`);
  }
  return out;
}

/** The index of the charts: one table row per series with the chart it is on, blessed runs listed under it. */
function indexMarkdown(view: HistoryView, files: ReadonlyMap<string, string>): string {
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
    ...view.series.map((s) => {
      const p = s.points[s.points.length - 1]!;
      const file = files.get(s.figure)!;
      return `| ${escapeMarkdown(s.strategy)} | ${escapeMarkdown(s.figure)} | ${s.points.length} | ${sparkline(s.points.map((x) => x.value))} | ${formatValue(p.value)} | ${formatChange(p.change)} | [${file}](${file}) |`;
    }),
  ];
  const blessed = view.runs.filter((r) => r.blessed);
  if (blessed.length) {
    lines.push('', '## Blessed runs', '', 'Runs whose catalog the regression file blessed (figures accepted on purpose), with the reason logged:', '');
    for (const r of blessed) lines.push(`- ${escapeMarkdown(r.label)}: ${escapeMarkdown(r.blessDate ?? '')} ${escapeMarkdown(r.blessReason ?? '')}`.trimEnd());
  }
  return `${lines.join('\n')}\n`;
}

/** True when `dir` holds charts `history show --out` wrote: its `index.md` begins with their title. */
function isHistoryChartsDir(dir: string): boolean {
  const index = join(dir, 'index.md');
  return existsSync(index) && statSync(index).isFile() && readFileSync(index, 'utf8').startsWith('# Backpack history\n');
}

/**
 * One PNG per figure and `index.md` into `dir` (created), each file written atomically. Returns
 * the file names written, `index.md` last.
 */
export function writeHistoryCharts(view: HistoryView, dir: string, size: PngSize = DEFAULT_PNG_SIZE): string[] {
  // only a folder of its own: absent, empty, or charts written before (their index.md); never the
  // root or a folder holding the working folder
  checkOutputFolder(dir, 'folder of history charts');
  if (existsSync(dir) && statSync(dir).isDirectory() && readdirSync(dir).length > 0 && !isHistoryChartsDir(dir))
    throw new InputError('folder exists, is not empty and does not hold history charts (no index.md of them); refusing to write into it', { file: dir });
  try {
    makeDirs(dir);
  } catch (err) {
    throw new InputError(`cannot create the folder: ${(err as Error).message}`, { file: dir });
  }
  const figures = [...new Set(view.series.map((s) => s.figure))];
  const files = figureFiles(figures);
  const colours = strategyColours(view.series.map((s) => s.strategy));
  for (const f of figures) writeFileAtomic(join(dir, files.get(f)!), renderPng(figureChart(view, f, colours, 'history')!, size));
  writeFileAtomic(join(dir, 'index.md'), indexMarkdown(view, files));
  return [...files.values(), 'index.md'];
}

/**
 * One figure of every strategy over the recorded runs, for the report's History section and
 * `history show --out`: x the run labels in recorded order, one line per strategy in its report
 * colour (`colours`), a gap where a run lacks the strategy, each run's 95% interval as a whisker
 * where recorded; blessed runs (accepted on purpose) drawn as large diamonds and named in the
 * caption with their reasons.
 */
export function figureChart(view: HistoryView, figure: string, colours: ReadonlyMap<string, string>, dataset: string): ChartSpec | undefined {
  const series = view.series.filter((s) => s.figure === figure);
  if (!series.length) return undefined;
  const labels = view.runs.map((r) => plain(r.label));
  const blessed = new Set(view.runs.filter((r) => r.blessed).map((r) => r.label));
  const datasets = series.map((s) => {
    const at = new Map(s.points.map((p) => [p.label, p.value]));
    const ci = new Map(s.points.map((p) => [p.label, p]));
    const c = colours.get(s.strategy) ?? colour(0);
    return {
      type: 'line',
      label: plain(s.strategy),
      strategy: s.strategy,
      data: view.runs.map((r) => at.get(r.label) ?? null),
      errorBars: view.runs.map((r) => {
        const p = ci.get(r.label);
        return p && p.ciLow !== null && p.ciHigh !== null ? [p.ciLow, p.ciHigh] : null;
      }),
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
    caption: `${figure} of each strategy in every run recorded with backpack history add, in recorded order.${datasets.some((d) => d.errorBars.some((b) => b !== null)) ? ' Whiskers: bootstrap 95% intervals.' : ''}${reasons.length ? ` Diamonds: blessed runs (${reasons.join('; ')}).` : ' No run is blessed.'}`,
    config: {
      type: 'line',
      data: { labels, datasets },
      options: {
        animation: false,
        responsive: false,
        plugins: {
          title: { display: true, text: `${figure} over the recorded runs`, font: FONT },
          legend: { position: 'right', labels: { usePointStyle: true } },
          ...errorBarsOption(datasets),
        },
        scales: {
          x: { title: { display: true, text: 'run (recorded order)' }, offset: true, ticks: { autoSkip: false, maxRotation: 40, minRotation: 0 } },
          y: { title: { display: true, text: figure } },
        },
      },
    },
  };
}
