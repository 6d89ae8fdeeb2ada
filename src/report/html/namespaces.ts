/** The Namespaces section: the namespaces where the best strategy does worst. */
import type { Results } from '../../eval/results.ts';
import { metricTitle } from '../../metrics/ids.ts';
import { escapeHtml as esc } from '../../util/escape.ts';
import { headline, type StrategyView, winner, winnerHtml } from '../view.ts';
import { fmtInt, isNum } from './format.ts';
import { absent, code, numCell, section, table, type Column } from './table.ts';

/** How many namespaces the section lists. */
const WORST_NAMESPACES = 15;

/** The Namespaces section. */
export function namespacesTable(r: Results, all: readonly StrategyView[], minCases = 0): string {
  const b = winner(all, headline(r));
  const title = 'Per namespace: the worst ones';
  if (!b) return section('namespaces', title, '', absent());
  const ns = Object.entries(b.s.results.metrics.namespaces ?? {});
  if (!ns.length) return section('namespaces', title, '', absent());
  const m = b.metric;
  const support = (t: Record<string, number>) => t.gradedCases ?? t.cases ?? 0;
  const supported = ns.filter(([, t]) => support(t) >= minCases);
  const worst = supported
    .map(([name, t]) => ({ name, t, v: t[m], ci: b.s.results.metrics.ci95?.namespaces[name]?.[m] }))
    .sort((a, b) => (a.v ?? Infinity) - (b.v ?? Infinity) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .slice(0, WORST_NAMESPACES);
  const few = ns.length - supported.length;
  const fewNote = few
    ? ` ${esc(fmtInt(few))} namespace${few === 1 ? ' has' : 's have'} fewer than ${esc(fmtInt(minCases))} graded cases and ${few === 1 ? 'is' : 'are'} left out (too few to rank; \`--min-cases\`).`
    : '';
  if (!worst.length) return section('namespaces', title, `Every namespace has fewer than ${esc(fmtInt(minCases))} graded cases: too few to rank.`, absent());
  const anyCi = worst.some((w) => w.ci);
  const extra = ['top1', `recall@${r.config.ks[r.config.ks.length - 1]}`, `namespaceRecall@${headline(r).split('@')[1]}`].filter(
    (x) => x !== m && worst.some((w) => isNum(w.t[x])),
  );
  const columns: Column[] = [
    { label: 'namespace' },
    { label: 'graded cases', num: true },
    { label: m, title: metricTitle(m), num: true },
    ...(anyCi ? [{ label: '95% interval', title: `bootstrap 95% interval of ${m}`, num: true }] : []),
    ...extra.map((x) => ({ label: x, title: metricTitle(x), num: true })),
  ];
  const rows = worst.map((w) => [
    code(w.name),
    numCell(support(w.t), fmtInt),
    numCell(w.v),
    ...(anyCi ? [{ html: w.ci ? esc(`${w.ci[0].toFixed(3)}–${w.ci[1].toFixed(3)}`) : '–', num: true }] : []),
    ...extra.map((x) => numCell(w.t[x])),
  ]);
  const intro = `The ${esc(String(worst.length))} namespaces (of ${esc(fmtInt(ns.length))}) where ${winnerHtml(b, esc)} does worst, by ${esc(m)} over the graded cases whose gold tools live there.${fewNote}`;
  return section('namespaces', title, intro, table(columns, rows, { sortable: true, id: 'namespaces-table' }));
}
