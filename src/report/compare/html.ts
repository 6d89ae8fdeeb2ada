/**
 * The HTML of a comparison (`report.html` of `backpack report BASE HEAD`): one self-contained page
 * like the single-run report (same style sheet, no network, a Content-Security-Policy that loads
 * nothing). Results first: the changes per strategy with their paired intervals, then the changed
 * cases with both rankings (searchable by text or tool id, filtered by strategy and won/lost), then
 * the runs' provenance. Untrusted text reaches the page only through `escapeHtml`.
 */
import { metricLabel, metricTitle } from '../../metrics/ids.ts';
import { escapeHtml as esc } from '../../util/escape.ts';
import { chartJsSource, compareScript, explorerScript, pageEnd, pageHead, pageScript, scriptSafe } from '../html/inline.ts';
import { chartsSection } from '../html/charts-section.ts';
import { changeCharts } from './charts.ts';
import { explorerHtml } from '../explorer.ts';
import { type Cell, code, numCell, section, table, text } from '../html/table.ts';
import { CHANGE_RULE, signed, verdictText } from './markdown.ts';
import type { ChangedCase, Comparison, FigureChange, RunComparison } from './model.ts';

const fmt = (x: number | null | undefined): string => (typeof x === 'number' ? x.toFixed(3) : '–');

function changeCells(f: FigureChange): Cell[] {
  const cls = f.verdict === 'better' ? 'better' : f.verdict === 'worse' ? 'worse' : 'same';
  // (a change of a figure with no direction is neither better nor worse: plain)
  return [
    { html: esc(metricLabel(f.figure)), title: metricTitle(f.figure) },
    numCell(f.base, fmt),
    numCell(f.head, fmt),
    { html: `<span class="${cls}">${esc(signed(f.delta))}</span>`, v: f.delta, num: true },
    {
      html: f.ci95 ? esc(`${signed(f.ci95[0])} … ${signed(f.ci95[1])}`) : '–',
      num: true,
      title: "paired bootstrap 95% interval of the change (descriptive: the verdict is the change rule's)",
    },
    { html: `<span class="${cls}">${esc(verdictText(f))}</span>` },
  ];
}

function changesTable(p: RunComparison): string {
  if (!p.strategies.length) return '<p class="absent">No strategy is in both runs.</p>';
  const rows: Cell[][] = [];
  for (const s of p.strategies) for (const f of s.figures) rows.push([code(s.name), ...changeCells(f)]);
  const only = [
    p.onlyBase.length ? `<p>Only in ${esc(p.base)}: ${p.onlyBase.map((n) => `<code>${esc(n)}</code>`).join(', ')}.</p>` : '',
    p.onlyHead.length ? `<p>Only in ${esc(p.head)}: ${p.onlyHead.map((n) => `<code>${esc(n)}</code>`).join(', ')}.</p>` : '',
  ].join('');
  return (
    table(
      [
        { label: 'strategy' },
        { label: 'figure' },
        { label: 'base', num: true },
        { label: 'head', num: true },
        { label: 'change', num: true },
        { label: '95% interval', num: true, title: 'paired bootstrap over the cases both runs scored' },
        { label: 'verdict' },
      ],
      rows,
      { sortable: true, className: 'changes' },
    ) + only
  );
}

function rankingHtml(list: ReadonlyArray<[string, number]>, gold: ReadonlySet<string>): string {
  if (!list.length) return '<span class="absent">nothing</span>';
  return `<ol class="ranking">${list
    .map(([id, score]) => `<li${gold.has(id) ? ' class="gold"' : ''}><code>${esc(id)}</code> <span class="score">${esc(score.toPrecision(4))}</span></li>`)
    .join('')}</ol>`;
}

function caseRow(strategy: string, c: ChangedCase, summaries: ReadonlyMap<string, string>, pair: number): string {
  const gold = new Set(c.expected);
  const searchText = [c.caseId, c.request, ...c.expected, ...c.baseRanked.map(([id]) => id), ...c.headRanked.map(([id]) => id)].join(' ').toLowerCase();
  const goldHtml = c.expected.length
    ? c.expected.map((id) => `<code title="${esc(summaries.get(id) ?? '')}">${esc(id)}</code>`).join('<br>')
    : '<span class="absent">none (no-tool)</span>';
  return `<tr data-strategy="${esc(strategy)}" data-outcome="${c.change}" data-text="${esc(searchText)}"><th scope="row"><button type="button" class="open-case" data-case="${esc(c.caseId)}" data-pair="${pair}" title="open: every strategy's ranking of this case in both runs"><code>${esc(c.caseId)}</code></button></th><td><code>${esc(strategy)}</code></td><td class="${c.change === 'won' ? 'better' : 'worse'}">${c.change} (${fmt(c.base)} → ${fmt(c.head)})</td><td class="request">${esc(c.request)}</td><td>${goldHtml}</td><td>${rankingHtml(c.baseRanked, gold)}</td><td>${rankingHtml(c.headRanked, gold)}</td></tr>`;
}

function casesSection(p: RunComparison, c: Comparison, index: number): string {
  const rows = p.strategies.flatMap((s) => [...s.lost, ...s.won].map((x) => caseRow(s.name, x, c.summaries, index)));
  if (!rows.length) return `<p class="absent">No case changed its ${esc(metricLabel(c.headline))}.</p>`;
  const names = p.strategies.filter((s) => s.won.length || s.lost.length);
  const counts = names.map((s) => `<code>${esc(s.name)}</code> ${s.won.length} won, ${s.lost.length} lost`).join('; ');
  const controls =
    index === 0
      ? `<div class="controls"><label>Search <input type="search" id="case-search" placeholder="text, case or tool id"></label> <label>Strategy <select id="case-strategy"><option value="">all</option>${names.map((s) => `<option value="${esc(s.name)}">${esc(s.name)}</option>`).join('')}</select></label> <label>Outcome <select id="case-outcome"><option value="">won and lost</option><option value="won">won</option><option value="lost">lost</option></select></label> <span id="case-count" aria-live="polite"></span></div>`
      : '';
  return `<p>${counts}.</p>${controls}<div class="table-wrap"><table class="data cases"><thead><tr><th scope="col">case</th><th scope="col">strategy</th><th scope="col">change</th><th scope="col">request</th><th scope="col">gold</th><th scope="col">${esc(p.base)}: top ${c.k}</th><th scope="col">${esc(p.head)}: top ${c.k}</th></tr></thead><tbody>\n${rows.join('\n')}\n</tbody></table></div>`;
}

function provenance(c: Comparison): string {
  const rows: Cell[][] = c.runs.map((r, i) => [
    text(`${i === 0 ? 'base' : 'head'}: ${r.label}`),
    text(r.results.dataset.name),
    numCell(r.results.dataset.cases, (x) => (typeof x === 'number' ? x.toLocaleString('en-US') : '–')),
    code(r.results.dataset.catalogSha256.slice(0, 12)),
    code(r.results.configHash.slice(0, 12)),
    text(r.results.timings?.startedAt ?? ''),
    text(r.results.backpack.version),
  ]);
  return table(
    [
      { label: 'run' },
      { label: 'dataset' },
      { label: 'cases', num: true },
      { label: 'catalog sha256' },
      { label: 'config hash' },
      { label: 'started' },
      { label: 'Backpack' },
    ],
    rows,
  );
}

/** Every case in every run: the explorer, with "changed between runs" among its outcomes. */
function explorerSection(data: unknown): string {
  const d = data as { slices: string[]; namespaces: string[]; strategies: string[]; runs: string[] };
  return section(
    'cases',
    'Every case',
    "Search by request, case or tool id; filter by strategy, outcome (in the last run, or changed between runs), slice and gold namespace; open a case for every strategy's ranking in every run.",
    explorerHtml(data, esc, { strategies: d.strategies, slices: [...d.slices].sort(), namespaces: [...d.namespaces].sort(), runs: d.runs.length }),
  );
}

/** The self-contained HTML page of a comparison. */
export function comparisonHtml(c: Comparison, opts: { title?: string; explorer?: unknown } = {}): string {
  const title = opts.title ?? `Backpack comparison — ${c.runs.map((r) => r.label).join(' → ')}`;
  const charts = chartsSection(changeCharts(c), { id: 'change-charts', title: 'Changes at a glance' });
  const sections = [
    ...c.pairs.map((p, i) => section(`changes-${i + 1}`, `${p.head} against ${p.base}: figures`, esc(CHANGE_RULE), changesTable(p))),
    charts.html,
    ...c.pairs.map((p, i) =>
      section(
        `cases-${i + 1}`,
        `${p.head} against ${p.base}: changed cases`,
        `Cases whose ${esc(metricLabel(c.headline))} changed (a no-tool case: whether a tool was shown), with both rankings; gold tools highlighted.`,
        casesSection(p, c, i),
      ),
    ),
    ...(opts.explorer ? [explorerSection(opts.explorer)] : []),
    section('provenance', 'Runs', '', provenance(c)),
  ];
  return `${pageHead(title, `Backpack ${c.runs[0]!.results.backpack.version}`)}<main>
<header class="top">
<h1>${esc(title)}</h1>
<p class="subtitle">${esc(c.runs.map((r, i) => `${i === 0 ? 'base' : 'head'} ${r.label} (${r.results.dataset.name}, ${r.results.dataset.cases.toLocaleString('en-US')} cases)`).join(' · '))}</p>
</header>
${sections.join('\n')}
<footer>Generated by Backpack ${esc(c.runs[0]!.results.backpack.version)}. Self-contained: opens from disk, loads nothing from the network.</footer>
</main>
${charts.data}
${pageEnd([scriptSafe(chartJsSource()), pageScript(), compareScript(), explorerScript()])}`;
}
