/** The Slices section: the headline metric of each strategy on each slice of the cases. */
import type { Results } from '../../eval/results.ts';
import { escapeHtml as esc } from '../../util/escape.ts';
import { figure, headline, sliceNames, type Figure, type StrategyView } from '../view.ts';
import { fmtInt } from './format.ts';
import { absent, figureCell, fitTag, section, table, type Column } from './table.ts';

/** The Slices section. */
export function slicesTable(r: Results, all: readonly StrategyView[], minCases = 0): string {
  const metric = headline(r);
  const names = sliceNames(r);
  const value = (s: StrategyView, n: string): Figure => {
    const t = s.results.metrics.slices[n];
    return t ? figure(s, s.ranks ? metric : 'visible', t) : { reason: 'no case of this slice' };
  };
  const held = (f: Figure): boolean => f.value !== undefined || (f.reason !== undefined && f.raw !== undefined);
  const shown = names.filter((n) => all.some((s) => held(value(s, n))));
  const hidden = names.filter((n) => !shown.includes(n));
  if (!shown.length) return section('slices', `Per slice: ${metric}`, '', absent());
  const count = (n: string) => Math.max(0, ...all.map((s) => s.results.metrics.slices[n]?.gradedCases ?? s.results.metrics.slices[n]?.cases ?? 0));
  const few = (n: string) => count(n) < minCases;
  const columns: Column[] = [
    { label: 'strategy' },
    ...shown.map((n) => ({
      label: few(n) ? `${n} (n=${count(n)})` : n,
      title: `${n}: ${count(n)} graded cases${few(n) ? `, fewer than ${minCases}: too few to compare` : ''}`,
      num: true,
    })),
  ];
  const rows = all.map((s) => [
    { html: `${esc(s.name)}${s.ranks ? '' : ' <span class="tag" title="no search: visible">visible</span>'}${fitTag(s, r)}` },
    ...shown.map((n) => {
      const m = s.ranks ? metric : 'visible';
      const cell = figureCell(value(s, n));
      const ci = s.results.metrics.ci95?.slices[n]?.[m];
      const withCi = ci && cell.v !== undefined ? { ...cell, title: `${m} ${cell.v.toFixed(3)}, 95% interval ${ci[0].toFixed(3)}–${ci[1].toFixed(3)}` } : cell;
      return few(n) ? { ...withCi, html: `<span class="low-support">${withCi.html}</span>` } : withCi;
    }),
  ]);
  const fewNote = shown.some(few)
    ? ` Greyed: slices with fewer than ${esc(fmtInt(minCases))} graded cases (<code>--min-cases</code>), too few to compare.`
    : '';
  const countsRow = `<p class="note">Graded cases per slice: ${shown.map((n) => `${esc(n)} ${esc(fmtInt(count(n)))}`).join(' · ')}.${fewNote} Hover a figure for its bootstrap 95% interval.${hidden.length ? ` Slices without a ${esc(metric)} (no gold tool, e.g. no-tool or skill-only cases): ${hidden.map(esc).join(', ')}.` : ''}</p>`;
  const intro = `${esc(metric)} of each strategy on each slice of the cases (a case may sit in several). Profiles without a search show <em>visible</em> instead.`;
  return section('slices', `Per slice: ${metric}`, intro, `${table(columns, rows, { sortable: true, id: 'slices-table' })}\n${countsRow}`);
}
