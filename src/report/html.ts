/**
 * The HTML report: ONE self-contained file that opens from disk with no network.
 *
 * - chart.js (the installed package's UMD build) is inlined in a `<script>`; any `</script`,
 *   `<script` or `<!--` in its text is written as `\x3C…` so the text cannot end (or re-open) the
 *   element early;
 * - every chart of {@link chartsOf} is a `<canvas>` plus its configuration as JSON in a
 *   `<script type="application/json">` block, with `<`, `>`, `&` (and U+2028/9) written as
 *   `\u003c`… escapes, read by a small inline script with `textContent` + `JSON.parse`;
 * - a Content-Security-Policy meta forbids loading anything (`default-src 'none'`), so a stray
 *   reference could not reach the network either.
 *
 * Untrusted text (tool ids and descriptions, requests, case ids, namespace and slice names, the
 * dataset name) reaches the page only through {@link escapeHtml}, and reaches scripts only as
 * escaped JSON data: the inline scripts are constants.
 *
 * Best values: the overview bolds the best value of each column, and the page names a best
 * strategy (the lead, the namespaces, the worst misses). Only a figure that applies can be either
 * (see `figure` in view.ts): an absent or null figure, a no-tool figure when the scored cases have
 * no no-tool case, and every quality figure of a profile whose prompt fits the context window in
 * no case are shown as "n/a" (the reason in a tooltip); a profile that fits only some cases shows
 * its figures, marked, and is never bolded nor named best.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Case, Tool } from '../catalog/types.ts';
import type { QueryDetail, Results } from '../eval/results.ts';
import type { SkillComparison } from '../skills/compare.ts';
import { chartsOf, type ChartSpec } from './charts.ts';
import { escapeHtml } from '../util/escape.ts';
import {
  bestStrategy,
  bestValue,
  contextFit,
  curveOf,
  figure,
  fitMark,
  fitNote,
  floorNumber,
  floorOf,
  floorText,
  FP_RATES,
  headline,
  higherIsBetter,
  mayBeBest,
  metricLabel,
  NO_TOOL_DEFINITION,
  overall,
  recallAtRatesOf,
  sliceNames,
  strategies,
  type Figure,
  type StrategyView,
  reSignedText,
} from './view.ts';

export interface HtmlReportOptions {
  /** Per-case details per strategy (`details/<name>.jsonl`): needed for the worst misses. */
  details?: Readonly<Record<string, readonly QueryDetail[]>>;
  /** The run's cases: request texts and gold tools of the worst misses. */
  cases?: readonly Case[];
  /** The catalog: descriptions of the gold tools in the worst misses. */
  catalog?: { tools: readonly Tool[] };
  title?: string;
}

/** How many rows the long lists show. */
const WORST_NAMESPACES = 15;
const NEVER_SURFACED_IDS = 20;
const WORST_MISSES = 20;
const DESCRIPTION_CHARS = 240;

const CSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:";

const NOT_IN_RUN = 'not in this run';

let chartJsText: string | undefined;

/** The installed chart.js UMD build (the package exports only its ESM/CJS entries, so the file is found next to the CJS one). */
export function chartJsSource(): string {
  if (chartJsText === undefined) {
    const main = createRequire(import.meta.url).resolve('chart.js');
    chartJsText = readFileSync(join(dirname(main), 'chart.umd.min.js'), 'utf8');
  }
  return chartJsText;
}

/** Script text that cannot close (or, after `<!--`, re-open) its `<script>` element: `<` before `/script`, `script`, `!--` becomes `\x3C` (same meaning in strings and regular expressions). */
export function scriptSafe(js: string): string {
  return js.replace(/<(?=\/script|script|!--)/gi, '\\x3C');
}

/** JSON for a `<script type="application/json">` block: no `<`, `>` or `&` left, so no markup can form in it. */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

const esc = escapeHtml;

// ---------------------------------------------------------------------------------------------
// Formatting

function isNum(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v);
}

const DASH = '–';

function fmtRate(v: number | null | undefined): string {
  return isNum(v) ? v.toFixed(3) : DASH;
}

function fmtInt(v: number | null | undefined): string {
  return isNum(v) ? Math.round(v).toLocaleString('en-US') : DASH;
}

/** Model calls: means, two decimals (1.00 … 5.25). */
function fmtCalls(v: number | null | undefined): string {
  return isNum(v) ? (v >= 100 ? Math.round(v).toLocaleString('en-US') : v.toFixed(2)) : DASH;
}

function fmtMs(v: number | null | undefined): string {
  return isNum(v) ? (v >= 100 ? Math.round(v).toLocaleString('en-US') : v.toFixed(v >= 10 ? 1 : 2)) : DASH;
}

function fmtPct(v: number | null | undefined): string {
  return isNum(v) ? `${(v * 100).toFixed(1)}%` : DASH;
}

function fmtScore(v: number): string {
  return isNum(v) ? (Math.abs(v) >= 1000 ? v.toFixed(0) : v.toFixed(3)) : String(v);
}

/** Counts are integers; everything else a metric table holds is a rate or a mean. */
function fmtMetric(metric: string, v: number | undefined): string {
  return /^(cases|gradedCases|noToolCases|multiGoldCases|scopeLeakCount)$/.test(metric) ? fmtInt(v) : fmtRate(v);
}

/** At most `n` code points of `s`, with an ellipsis when cut. */
function clip(s: string, n: number): string {
  const cps = Array.from(s);
  return cps.length > n ? `${cps.slice(0, n).join('')}…` : s;
}

/** Characters of a request shown before the rest is folded away. */
const REQUEST_CHARS = 400;

/**
 * Untrusted text that may be long, as HTML: escaped, and past `n` characters cut with the whole
 * text behind a "show all" fold, so one 100 KB request cannot make a table thousands of pixels tall.
 */
function foldedText(s: string, n = REQUEST_CHARS): string {
  const cps = Array.from(s);
  if (cps.length <= n) return esc(s);
  return `${esc(cps.slice(0, n).join(''))}… <details class="fold"><summary>show all ${esc(fmtInt(cps.length))} characters</summary><div class="whole">${esc(s)}</div></details>`;
}

// ---------------------------------------------------------------------------------------------
// Tables

interface Cell {
  /** Already-escaped HTML. */
  html: string;
  /** Sort key of a numeric column (absent: sorts last). */
  v?: number | undefined;
  num?: boolean;
  /** Plain text for the cell's `title` (escaped when written). */
  title?: string;
}

interface Column {
  label: string;
  title?: string;
  num?: boolean;
  /** Sort ascending on the first click (lower is better). */
  lowFirst?: boolean;
}

const text = (s: string): Cell => ({ html: esc(s) });
const code = (s: string): Cell => ({ html: `<code>${esc(s)}</code>` });
const numCell = (v: number | null | undefined, f: (v: number | null | undefined) => string = fmtRate): Cell => ({ html: f(v), v: isNum(v) ? v : undefined, num: true });

const NA = 'n/a';

/** A figure's cell: its value (bold when it is the column's best), or "n/a" with the reason as its tooltip. */
function figureCell(fig: Figure, f: (v: number | null | undefined) => string = fmtRate, best?: number): Cell {
  if (fig.value === undefined) return { html: `<span class="na">${NA}</span>`, num: true, title: `not applicable: ${fig.reason}` };
  const html = f(fig.value);
  return { html: best !== undefined && fig.value === best ? `<strong>${html}</strong>` : html, v: fig.value, num: true };
}

/** The context-fit tag of a profile that does not fit every case (empty otherwise). */
function fitTag(s: StrategyView, r: Results): string {
  const note = fitNote(contextFit(s, r));
  return note ? ` <span class="tag fit" title="${esc(`${note}: never bolded nor named best`)}">${esc(note)}</span>` : '';
}
function table(columns: readonly Column[], rows: readonly Cell[][], opts: { sortable?: boolean; id?: string; className?: string } = {}): string {
  const head = columns
    .map((c) => {
      const attrs = [c.num ? ' class="num"' : '', c.title ? ` title="${esc(c.title)}"` : ''].join('');
      if (!opts.sortable) return `<th scope="col"${attrs}>${esc(c.label)}</th>`;
      return `<th scope="col"${attrs} data-type="${c.num ? 'num' : 'text'}"${c.lowFirst ? ' data-first="asc"' : ''} aria-sort="none"><button type="button">${esc(c.label)}<span class="arrow" aria-hidden="true"></span></button></th>`;
    })
    .join('');
  const body = rows
    .map((r) => `<tr>${r.map((c, i) => {
      const cls = c.num ?? columns[i]?.num ? ' class="num"' : '';
      const v = c.v !== undefined ? ` data-v="${c.v}"` : '';
      const t = c.title ? ` title="${esc(c.title)}"` : '';
      return i === 0 ? `<th scope="row"${cls}${v}${t}>${c.html}</th>` : `<td${cls}${v}${t}>${c.html}</td>`;
    }).join('')}</tr>`)
    .join('\n');
  const classes = ['data', opts.sortable ? 'sortable' : '', opts.className ?? ''].filter(Boolean).join(' ');
  return `<div class="table-wrap"><table class="${classes}"${opts.id ? ` id="${esc(opts.id)}"` : ''}><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table></div>`;
}

function absent(what = NOT_IN_RUN): string {
  return `<p class="absent">${esc(what)}</p>`;
}

function section(id: string, title: string, intro: string, body: string): string {
  return `<section id="${id}">\n<h2>${esc(title)}</h2>\n${intro ? `<p class="intro">${intro}</p>\n` : ''}${body}\n</section>`;
}

// ---------------------------------------------------------------------------------------------
// Strategies

function kindOf(s: StrategyView): string {
  if (s.kind === 'retriever') return 'retriever';
  return s.ranks ? 'profile' : 'profile (no search)';
}

const METRIC_TITLES: Record<string, string> = {
  top1: 'share of graded cases whose first-ranked tool is gold',
  visible: 'share of gold tools in front of the model (eager or returned by one search)',
  noToolFalsePositiveRate: 'share of no-tool cases where any non-pinned tool is in front of the model: listed eagerly, advertised with its schema, or returned by a search (lower is better)',
  searchNoToolFalsePositiveRate: 'profiles with a search: share of no-tool cases where the search returned a non-pinned tool, eager tools not counted (lower is better)',
  scopeLeakCount: "tools returned outside the caller's scopes (must be 0)",
};

function metricTitle(m: string): string {
  const known = METRIC_TITLES[m];
  if (known) return known;
  const [kind, k] = m.split('@');
  const at = k ? ` in the top ${k}` : '';
  switch (kind) {
    case 'recall':
      return `share of the gold tools${at}`;
    case 'mrr':
      return `mean reciprocal rank of the first gold tool${at}`;
    case 'ndcg':
      return `normalised discounted cumulative gain${at}`;
    case 'anyGold':
      return `multi-gold cases with at least one gold tool${at}`;
    case 'allGold':
      return `multi-gold cases with every gold tool${at}`;
    case 'missedEntirely':
      return `graded cases with no gold tool${at} (lower is better)`;
    case 'namespaceRecall':
      return `share of gold namespaces${at}`;
    default:
      return m;
  }
}


/** Overview columns: the metrics a reader compares, in reading order, those present in some strategy. */
function overviewMetrics(r: Results, all: readonly StrategyView[]): string[] {
  const present = new Set<string>();
  for (const s of all) for (const k of Object.keys(s.results.metrics.overall)) present.add(k);
  const hk = headline(r).split('@')[1];
  const ks = r.config.ks;
  const depthKeys = (kind: string) => [...present].filter((k) => k.startsWith(`${kind}@`)).sort((a, b) => Number(a.split('@')[1]) - Number(b.split('@')[1]));
  // scopeLeakCount must be 0: a column only when some strategy leaked.
  const leaked = all.some((s) => (s.results.metrics.overall.scopeLeakCount ?? 0) > 0);
  const wanted = ['top1', ...ks.map((k) => `recall@${k}`), ...depthKeys('mrr'), ...depthKeys('ndcg'), `missedEntirely@${hk}`, `namespaceRecall@${hk}`, 'visible', 'noToolFalsePositiveRate', 'searchNoToolFalsePositiveRate', ...(leaked ? ['scopeLeakCount'] : [])];
  return [...new Set(wanted)].filter((m) => present.has(m));
}

// ---------------------------------------------------------------------------------------------
// Sections

function provenance(r: Results): string {
  const d = r.dataset;
  const c = r.config;
  const source = d.source.kind === 'dataset' ? `dataset ${d.source.ref}${d.source.split !== null ? ` (split ${d.source.split})` : ''}` : `files: catalog ${d.source.catalog}, cases ${d.source.cases}${d.source.format ? `, format ${d.source.format}` : ''}${d.source.skills ? `, skills ${d.source.skills}` : ''}`;
  const floors = Object.keys(c.floors ?? {}).map((n) => `${n}: ${floorText(floorOf(r, n))}`).join('; ') || 'none';
  const cal = (c as { calibration?: { source?: unknown; cases?: unknown; noToolCases?: unknown } }).calibration;
  const rows: Array<[string, string]> = [
    ['Dataset', esc(d.name)],
    ['Source', esc(source)],
    ['Catalog sha256', `<code class="hash">${esc(d.catalogSha256)}</code>`],
    ...(typeof d.casesSha256 === 'string' ? ([['Cases sha256', `<code class="hash">${esc(d.casesSha256)}</code>`]] as Array<[string, string]>) : []),
    ...(d.reSigned ? ([['Re-signed', esc(reSignedText(d.reSigned))]] as Array<[string, string]>) : []),
    ...(r.warnings?.length ? ([[`Input warnings (${r.warnings.length})`, `<ul class="warnings">${r.warnings.map((w) => `<li>${esc(w)}</li>`).join('')}</ul>`]] as Array<[string, string]>) : []),
    ['Cases', esc(fmtInt(d.cases))],
    ['Tools', esc(fmtInt(d.tools))],
    ['Shard', r.shard ? esc(`${r.shard.index} of ${r.shard.count}`) : 'all cases'],
    ['Retrievers', esc(c.retrievers.join(', ') || 'none')],
    ['Profiles', esc(c.profiles?.length ? c.profiles.join(', ') : 'none')],
    ['Cut-offs (ks)', esc(c.ks.join(', '))],
    ['Depth', esc(String(c.depth))],
    ['Floors', esc(floors)],
    ...(cal && typeof cal.source === 'string' ? ([['Calibration cases', esc(`${cal.source}: ${fmtInt(cal.cases as number)} cases, ${fmtInt(cal.noToolCases as number)} no-tool`)]] as Array<[string, string]>) : []),
    ['Sticky retrieval', c.sticky ? 'yes (sticky per task)' : 'no (per turn)'],
    ['Cache prices', c.cache ? esc(`write ×${c.cache.writeRatio}, read ×${c.cache.readRatio}`) : esc(NOT_IN_RUN)],
    ...(c.contextWindow !== undefined ? ([['Context window', esc(fmtInt(c.contextWindow))]] as Array<[string, string]>) : []),
    ...(c.examples ? ([['Example augmentation', esc(`${c.examples.perTool} per tool from split ${c.examples.from} (${c.examples.added} added)`)]] as Array<[string, string]>) : []),
    ['Agent traces', c.traces ? `<code class="hash">${esc(c.traces)}</code>` : 'none'],
    ['Config hash', `<code class="hash">${esc(r.configHash)}</code>`],
    ['Backpack', esc(`${r.backpack.version}${r.backpack.gitSha ? ` (git ${r.backpack.gitSha})` : ''}`)],
    ['Started', esc(r.timings?.startedAt ?? DASH)],
    ['Duration', esc(isNum(r.timings?.durationMs) ? `${(r.timings.durationMs / 1000).toFixed(1)} s` : DASH)],
  ];
  return section('provenance', 'Provenance', 'Where these numbers come from: the same dataset (same catalog sha256) and the same config hash give the same metrics.', `<dl class="facts">\n${rows.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${v}</dd>`).join('\n')}\n</dl>`);
}

function overviewTable(r: Results, all: readonly StrategyView[]): string {
  if (!all.length) return section('overview', 'Overview', '', absent('No strategy in this run.'));
  const metrics = overviewMetrics(r, all);
  const anyProfile = all.some((s) => s.profile);
  const columns: Column[] = [
    { label: 'strategy' },
    ...metrics.map((m) => ({ label: metricLabel(m), title: `${m}: ${metricTitle(m)}`, num: true, lowFirst: higherIsBetter(m) === false })),
    ...(anyProfile ? [{ label: 'tokens / request', title: 'profiles: mean tokens in front of the model per request (before search + the search)', num: true, lowFirst: true }] : []),
    { label: 'p50 ms', title: 'median search time per query (varies run to run)', num: true, lowFirst: true },
    { label: 'index ms', title: 'index build time (varies run to run)', num: true, lowFirst: true },
  ];
  const bests = new Map(metrics.map((m) => [m, bestValue(all, m)]));
  const rows = all.map((s) => [
    { html: `${esc(s.name)}${s.kind === 'profile' ? ` <span class="tag">${esc(kindOf(s))}</span>` : ''}${fitTag(s, r)}` },
    ...metrics.map((m) => figureCell(figure(s, m), (v) => fmtMetric(m, v ?? undefined), mayBeBest(s) ? bests.get(m) : undefined)),
    ...(anyProfile ? [numCell(s.profile?.tokens.perCase, fmtInt)] : []),
    numCell(s.results.latency?.p50Ms, fmtMs),
    numCell(s.results.latency?.indexMs, fmtMs),
  ]);
  const graded = all[0]?.results.metrics.overall.gradedCases;
  const intro = `${esc(String(all.length))} ${all.length === 1 ? 'strategy' : 'strategies'} (retrievers, then harness profiles) over ${esc(fmtInt(r.dataset.cases))} cases${isNum(graded) ? ` (${esc(fmtInt(graded))} graded)` : ''}. Click a column header to sort; click again to reverse. The best value of a column is in bold. <span class="na">${NA}</span> means the figure does not apply (hover it for why: a profile without a search ranks nothing; no-tool figures need no-tool cases; a profile whose prompt fits the context window in no case has no quality figure).`;
  const notes: string[] = [];
  if (metrics.some((m) => m.startsWith('noToolFalsePositiveRate') || m.startsWith('searchNoToolFalsePositiveRate'))) notes.push(`<p class="note definition" id="no-tool-definition">${esc(NO_TOOL_DEFINITION)}</p>`);
  const unfit = all.filter((s) => !mayBeBest(s));
  if (unfit.length) notes.push(`<p class="note fit">Context window: ${unfit.map((s) => `${esc(s.name)} ${esc(fitNote(contextFit(s, r))!)}`).join('; ')}. A profile that does not fit every case is never bolded nor named best; its token figures are in the Tokens section.</p>`);
  return section('overview', 'Overview', intro, [table(columns, rows, { sortable: true, id: 'overview-table' }), ...notes].join('\n'));
}

function chartsSection(specs: readonly ChartSpec[]): { html: string; data: string } {
  if (!specs.length) return { html: section('charts', 'Charts', '', absent()), data: '' };
  const figures = specs
    .map((c) => {
      const id = `chart-${c.id}`;
      return `<figure class="chart" id="figure-${esc(c.id)}">\n<h3>${esc(c.title)}</h3>\n<canvas id="${esc(id)}" width="1200" height="620" role="img" aria-label="${esc(c.title)}"></canvas>\n<figcaption>${esc(c.caption)}</figcaption>\n</figure>`;
    })
    .join('\n');
  const data = specs.map((c) => `<script type="application/json" data-chart="${esc(`chart-${c.id}`)}" id="${esc(`chart-data-${c.id}`)}">${jsonForScript(c.config)}</script>`).join('\n');
  return { html: section('charts', 'Charts', '', figures), data };
}

/** recall@5 at no-tool false-positive rates 0.05, 0.1, 0.2 and the floor each strategy ran with. */
function floorsSection(r: Results, all: readonly StrategyView[]): string {
  const title = 'Floors and no-tool false positives';
  const has = all.some((s) => recallAtRatesOf(s) !== undefined || curveOf(s) !== undefined || floorOf(r, s.name)?.kind === 'auto');
  if (!has) return section('floors', title, '', absent(`${NOT_IN_RUN}: results written before operating curves and calibrated floors.`));
  const columns: Column[] = [{ label: 'strategy' }, { label: 'floor', title: 'the floor the strategy ran with: a fixed score, calibrated (auto), or none' }, ...FP_RATES.map((k) => ({ label: `recall@5 at FP ≤ ${k}`, title: `recall@5 with the lowest floor whose no-tool false-positive rate is at most ${k}`, num: true }))];
  const rows = all.map((s) => {
    const rates = recallAtRatesOf(s);
    const cells = FP_RATES.map((k): Cell => {
      if (rates === undefined) return figureCell({ reason: 'not in the results' });
      if (rates === null) return figureCell({ reason: 'no operating curve: the strategy has no search, or the scored cases have no no-tool case' });
      const p = rates[k];
      if (!p) return figureCell({ reason: `no floor brings the no-tool false-positive rate to ${k}` });
      const fig = figure(s, 'recall@5', { 'recall@5': p.recall5 });
      if (fig.value === undefined) return figureCell(fig);
      return { html: `${esc(fmtRate(p.recall5))} <span class="note">floor ${esc(p.floor === null ? 'none' : floorNumber(p.floor))}, FP ${esc(fmtRate(p.fp))}</span>`, v: p.recall5, num: true };
    });
    return [{ html: `${esc(s.name)}${fitTag(s, r)}` }, text(floorText(floorOf(r, s.name))), ...cells];
  });
  const intro = `What each strategy keeps of recall@5 when its floor is set so that at most 5%, 10% or 20% of the requests that need no tool are shown one (read off its operating curve${all.some((s) => curveOf(s)) ? ', <a href="#figure-operating-curve">the chart above</a>' : ''}): pick a strategy and floor together. ${esc(NO_TOOL_DEFINITION)}`;
  return section('floors', title, intro, table(columns, rows, { sortable: true, id: 'floors-table' }));
}

function slicesTable(r: Results, all: readonly StrategyView[]): string {
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
  const columns: Column[] = [{ label: 'strategy' }, ...shown.map((n) => ({ label: n, title: `${n}: ${count(n)} graded cases`, num: true }))];
  const rows = all.map((s) => [
    { html: `${esc(s.name)}${s.ranks ? '' : ' <span class="tag" title="no search: visible">visible</span>'}${fitTag(s, r)}` },
    ...shown.map((n) => figureCell(value(s, n))),
  ]);
  const countsRow = `<p class="note">Graded cases per slice: ${shown.map((n) => `${esc(n)} ${esc(fmtInt(count(n)))}`).join(' · ')}.${hidden.length ? ` Slices without a ${esc(metric)} (no gold tool, e.g. no-tool or skill-only cases): ${hidden.map(esc).join(', ')}.` : ''}</p>`;
  const intro = `${esc(metric)} of each strategy on each slice of the cases (a case may sit in several). Profiles without a search show <em>visible</em> instead.`;
  return section('slices', `Per slice: ${metric}`, intro, `${table(columns, rows, { sortable: true, id: 'slices-table' })}\n${countsRow}`);
}

function namespacesTable(r: Results, all: readonly StrategyView[]): string {
  const b = bestStrategy(all, headline(r));
  const title = 'Per namespace: the worst ones';
  if (!b) return section('namespaces', title, '', absent());
  const ns = Object.entries(b.s.results.metrics.namespaces ?? {});
  if (!ns.length) return section('namespaces', title, '', absent());
  const m = b.metric;
  const worst = ns
    .map(([name, t]) => ({ name, t, v: t[m] }))
    .sort((a, b) => (a.v ?? Infinity) - (b.v ?? Infinity) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .slice(0, WORST_NAMESPACES);
  const extra = ['top1', `recall@${r.config.ks[r.config.ks.length - 1]}`, `namespaceRecall@${headline(r).split('@')[1]}`].filter((x) => x !== m && worst.some((w) => isNum(w.t[x])));
  const columns: Column[] = [{ label: 'namespace' }, { label: 'graded cases', num: true }, { label: m, title: metricTitle(m), num: true }, ...extra.map((x) => ({ label: x, title: metricTitle(x), num: true }))];
  const rows = worst.map((w) => [code(w.name), numCell(w.t.gradedCases ?? w.t.cases, fmtInt), numCell(w.v), ...extra.map((x) => numCell(w.t[x]))]);
  const intro = `The ${esc(String(worst.length))} namespaces (of ${esc(fmtInt(ns.length))}) where the best strategy, <strong>${esc(b.s.name)}</strong> (highest ${esc(m)}), does worst, by ${esc(m)} over the graded cases whose gold tools live there.`;
  return section('namespaces', title, intro, table(columns, rows, { sortable: true, id: 'namespaces-table' }));
}

function neverSurfacedSection(all: readonly StrategyView[]): string {
  const title = 'Never-surfaced gold tools';
  if (!all.length) return section('never-surfaced', title, '', absent());
  const columns: Column[] = [{ label: 'strategy' }, { label: 'k', num: true }, { label: 'tools never surfaced', title: 'catalog tools (pinned excluded) no case brought into the top k', num: true }, { label: 'gold, never surfaced', title: 'tools that are gold for some case yet no case brought into the top k', num: true }, { label: `gold tool ids (up to ${NEVER_SURFACED_IDS})` }];
  const rows = all.map((s) => {
    const n = s.results.neverSurfaced;
    if (!n) return [text(s.name), numCell(undefined), numCell(undefined), numCell(undefined), text(NOT_IN_RUN)];
    const ids = n.gold.slice(0, NEVER_SURFACED_IDS).map((id) => `<code>${esc(id)}</code>`).join(' ');
    const more = n.gold.length > NEVER_SURFACED_IDS ? ` <span class="more">+${esc(fmtInt(n.gold.length - NEVER_SURFACED_IDS))} more</span>` : '';
    const noSearch = s.ranks ? '' : '<span class="note">no search: nothing is ever surfaced by one; read <em>visible</em></span>';
    return [text(s.name), numCell(n.k, fmtInt), numCell(n.count, fmtInt), numCell(n.gold.length, fmtInt), { html: noSearch || ids + more || '<span class="none">none</span>' }];
  });
  const intro = 'Tools no case brought into the top k: a gold tool here is one the strategy can never find for anybody — the place to look first (its description, its name, its examples).';
  return section('never-surfaced', title, intro, table(columns, rows, { className: 'wrap-last' }));
}

interface Miss {
  c: Case;
  d: QueryDetail;
  gold: string[];
  /** 0-based rank of the first gold tool in the ranking, or -1 when it is not in it at all. */
  goldRank: number;
}

function worstMissesSection(r: Results, all: readonly StrategyView[], opts: HtmlReportOptions): string {
  const title = 'Worst misses';
  const metric = headline(r);
  const k = Number(metric.split('@')[1]) || 5;
  const details = opts.details;
  if (!details || !opts.cases) return section('worst-misses', title, '', absent(`${NOT_IN_RUN}: the worst misses need the per-case details and the cases (${!details ? 'details' : 'cases'} not given to the report).`));
  const b = bestStrategy(all, metric, (s) => (details[s.name]?.length ?? 0) > 0 && (s.ranks || !all.some((x) => x.ranks && details[x.name]?.length)));
  if (!b) return section('worst-misses', title, '', absent(`${NOT_IN_RUN}: no strategy has per-case details.`));
  const caseById = new Map(opts.cases.map((c) => [c.id, c]));
  const tools = new Map((opts.catalog?.tools ?? []).map((t) => [t.id, t]));
  const misses: Miss[] = [];
  let graded = 0;
  for (const d of details[b.s.name] ?? []) {
    const c = caseById.get(d.caseId);
    if (!c?.expectedTools?.length) continue;
    graded++;
    const gold = [...new Set(c.expectedTools)];
    const seen = new Set<string>([...d.ranked.slice(0, k).map(([id]) => id), ...(d.pinned ?? []), ...(d.eager ?? [])]);
    if (gold.some((g) => seen.has(g))) continue;
    const goldSet = new Set(gold);
    misses.push({ c, d, gold, goldRank: d.ranked.findIndex(([id]) => goldSet.has(id)) });
  }
  // Worst first: gold nowhere in the ranking, then gold ranked deepest; ties by case id (code-unit order).
  const depth = (m: Miss) => (m.goldRank < 0 ? Infinity : m.goldRank);
  misses.sort((a, b) => depth(b) - depth(a) || (a.c.id < b.c.id ? -1 : a.c.id > b.c.id ? 1 : 0));
  const intro = `Graded cases where <strong>${esc(b.s.name)}</strong> (the best strategy by ${esc(b.metric)}${b.metric === metric ? '' : '; none ranks'}) put no gold tool in its top ${esc(String(k))}: ${esc(fmtInt(misses.length))} of ${esc(fmtInt(graded))}${misses.length > WORST_MISSES ? `, the ${WORST_MISSES} worst shown (gold not ranked at all first, then ranked deepest; ties by case id)` : ''}.`;
  if (!misses.length) return section('worst-misses', title, intro, absent('No miss: every graded case had a gold tool in the top k.'));
  const goldHtml = (id: string) => {
    const t = tools.get(id);
    const desc = t ? clip(t.summary || t.description, DESCRIPTION_CHARS) : '';
    return `<li><code>${esc(id)}</code>${desc ? `<div class="desc">${esc(desc)}</div>` : ''}</li>`;
  };
  const instead = (m: Miss) => {
    const top = m.d.ranked.slice(0, k);
    if (!top.length) return '<span class="none">nothing (no tool passed the floor)</span>';
    return `<ol class="instead">${top.map(([id, score]) => `<li><code>${esc(id)}</code> <span class="score">${esc(fmtScore(score))}</span></li>`).join('')}</ol>`;
  };
  const where = (m: Miss) => (m.goldRank >= 0 ? `first gold at rank ${m.goldRank + 1}` : m.d.ranked.length ? `not in the ${m.d.ranked.length} ranked` : 'nothing ranked');
  const rows = misses.slice(0, WORST_MISSES).map((m) => [
    code(m.c.id),
    { html: `<div class="request">${foldedText(m.c.request)}</div>${m.c.slices.length ? `<div class="slices">${m.c.slices.map((s) => `<span class="tag">${esc(s)}</span>`).join(' ')}</div>` : ''}` },
    { html: `<ul class="gold">${m.gold.map(goldHtml).join('')}</ul>${m.c.goldMode === 'any' && m.gold.length > 1 ? '<div class="note">any one will do</div>' : ''}<div class="note">${esc(where(m))}</div>` },
    { html: instead(m) },
  ]);
  const columns: Column[] = [{ label: 'case' }, { label: 'request' }, { label: 'gold tool(s)' }, { label: `what came instead (top ${k}, score)` }];
  return section('worst-misses', title, intro, table(columns, rows, { className: 'misses' }));
}

function tokensSection(r: Results, all: readonly StrategyView[]): string {
  const parts: string[] = [];
  const rows = r.tokenTable?.rows ?? [];
  if (rows.length) {
    const t = r.tokenTable;
    const columns: Column[] = [
      { label: 'tools', num: true },
      { label: 'OpenAI tokens', title: 'function tools serialization', num: true },
      { label: 'Anthropic tokens', title: 'tools JSON serialization', num: true },
      { label: 'tokens / tool (Anthropic)', num: true },
      { label: 'window share', title: `share of a ${fmtInt(t.contextWindow)}-token window (Anthropic)`, num: true },
      { label: `${t.turns}-turn conversation, uncached`, num: true },
    ];
    const body = rows.map((x) => [numCell(x.tools, fmtInt), numCell(x.blockTokens.openai, fmtInt), numCell(x.blockTokens.anthropic, fmtInt), numCell(x.tokensPerTool.anthropic, (v) => (isNum(v) ? v.toFixed(1) : DASH)), numCell(x.windowShare, fmtPct), numCell(x.uncachedConversationTokens, fmtInt)]);
    parts.push(`<h3>Tool block by tool count</h3>\n<p class="intro">Tokens (${esc(t.counter)}) of the serialized tool block for n tools sampled from this catalog (${esc(t.sample)}).</p>\n${table(columns, body)}`);
  } else parts.push(`<h3>Tool block by tool count</h3>\n${absent()}`);
  const profiles = all.filter((s) => s.profile);
  if (profiles.length) {
    const anyFit = profiles.some((s) => contextFit(s, r) !== undefined);
    const anyCalls = profiles.some((s) => s.profile!.calls !== undefined);
    const anyWire = profiles.some((s) => s.profile!.tokens.wire !== undefined);
    const columns: Column[] = [
      { label: 'profile' },
      { label: 'search', title: 'how a search result reaches the model (limit)' },
      { label: 'eager tools', num: true },
      { label: 'before search', title: 'tokens before any search, unrestricted caller', num: true },
      { label: 'per search', num: true },
      { label: 'per request', title: 'before search (own caller) + the search', num: true },
      { label: 'visible', num: true },
      { label: 'visible / 1k tokens', num: true },
      { label: '12 turns uncached', num: true },
      { label: '12 turns cached', num: true },
      ...(anyCalls ? [{ label: 'calls / request', title: 'model calls per request that needs a tool: searches (retries counted), describe or load calls, namespaces opened, tool calls or one code-mode run', num: true, lowFirst: true }, { label: 'searches / request', num: true, lowFirst: true }, { label: 'calls / 12 turns', title: 'a 12-turn session: 12 × the mean calls per session turn', num: true, lowFirst: true }] : []),
      ...(anyWire ? [{ label: 'wire tokens', title: 'definitions that cross the wire before any search without the model reading them (admitted deferred definitions); not in the other token figures', num: true, lowFirst: true }] : []),
      ...(anyFit ? [{ label: 'fits context', title: 'share of the tool-labelled cases whose prompt (before search + the search) fits the context window', num: true }, { label: 'context window', title: 'tokens', num: true }, { label: 'overflow cases', title: 'tool-labelled cases whose prompt does not fit', num: true, lowFirst: true }] : []),
    ];
    const body = profiles.map((s) => {
      const p = s.profile!;
      const fit = contextFit(s, r);
      const mark = fitMark(fit);
      return [
        { html: `${esc(s.name)}${mark ? ` <span class="tag fit">${esc(mark)}</span>` : ''}` },
        text(p.exposure.search ? `${p.exposure.form}, ${p.exposure.searchLimit}` : 'none'),
        numCell(p.exposure.unrestricted.eagerTools, fmtInt),
        numCell(p.tokens.beforeSearch, fmtInt),
        numCell(p.tokens.perSearch, fmtInt),
        numCell(p.tokens.perCase, fmtInt),
        numCell(overall(s, 'visible')),
        numCell(p.tokens.visiblePer1kTokens),
        numCell(p.tokens.session12Uncached, fmtInt),
        numCell(p.tokens.session12Cached, fmtInt),
        ...(anyCalls ? [numCell(p.calls?.perCase, fmtCalls), numCell(p.calls?.searchesPerCase, fmtCalls), numCell(p.calls?.perSession, fmtCalls)] : []),
        ...(anyWire ? [numCell(p.tokens.wire?.perCase, fmtInt)] : []),
        ...(anyFit ? [{ ...numCell(fit?.share, fmtPct), ...(fit && fit.share < 1 ? { title: fitNote(fit)! } : {}) }, numCell(fit?.window, fmtInt), numCell(fit?.overflowCases, fmtInt)] : []),
      ];
    });
    parts.push(`<h3>What each profile puts in front of the model</h3>\n${table(columns, body, { sortable: true, id: 'profiles-table' })}`);
  } else parts.push(`<h3>What each profile puts in front of the model</h3>\n${absent(`${NOT_IN_RUN}: no profile was evaluated.`)}`);
  return section('tokens', 'Tokens', '', parts.join('\n'));
}

function skillsSection(skills: SkillComparison | undefined): string {
  const title = 'Skill listings vs the searched index';
  if (!skills?.sizes?.length) return section('skills', title, '', absent(`${NOT_IN_RUN}: the dataset has no skill cases.`));
  // Sizes over the catalog take all of it: a size equal to the one before adds nothing, so it is named there instead.
  const groups: Array<{ z: SkillComparison['sizes'][number]; asked: number[] }> = [];
  for (const z of skills.sizes) {
    const last = groups[groups.length - 1];
    if (last && last.z.skills === z.skills && last.z.skillCases === z.skillCases) last.asked.push(z.n);
    else groups.push({ z, asked: [z.n] });
  }
  const parts = groups.map(({ z, asked }) => {
    const columns: Column[] = [
      { label: 'listing' },
      { label: 'budget' },
      { label: 'tokens', num: true },
      { label: 'listed', num: true },
      { label: 'with description', num: true },
      { label: 'dropped', num: true },
      { label: 'discoverable', title: 'share of skill requests whose gold skill is visible with its description (searched index: after one search)', num: true },
      { label: 'name only', num: true },
      { label: 'recall', title: 'searched index: recall of skill_search' },
      { label: 'tokens / search', num: true },
    ];
    const rows = Object.entries(z.listings).map(([name, l]) => [
      text(name),
      text(l.budget.value === null ? l.budget.unit : `${fmtInt(l.budget.value)} ${l.budget.unit}`),
      numCell(l.tokens, fmtInt),
      numCell(l.listed, fmtInt),
      numCell(l.withDescription, fmtInt),
      numCell(l.dropped, fmtInt),
      numCell(l.discoverability.withDescription),
      numCell(l.discoverability.nameOnly),
      text(l.recall ? Object.entries(l.recall).map(([m, v]) => `${m} ${fmtRate(v)}`).join(', ') : DASH),
      numCell(l.meanSearchTokens ?? undefined, fmtInt),
    ]);
    const sizes = asked.some((n) => n !== z.skills) ? ` <span class="note">(size${asked.length > 1 ? 's' : ''} asked: ${esc(asked.map(fmtInt).join(', '))}; the catalog has ${esc(fmtInt(z.skills))})</span>` : '';
    return `<h3>${esc(fmtInt(z.skills))} skills (${esc(fmtInt(z.skillCases))} skill requests)${sizes}</h3>\n${table(columns, rows)}`;
  });
  const intro = `How each harness lists skills to the model, against a searched skill index (${esc(skills.retrieval ?? 'search')}), on the first n skills of the catalog; tokens counted with ${esc(skills.counter)}.`;
  return section('skills', title, intro, parts.join('\n'));
}

function sessionsSection(all: readonly StrategyView[]): string {
  const title = 'Session churn';
  const withSessions = all.filter((s) => s.results.sessions);
  if (!withSessions.length) return section('sessions', title, '', absent(`${NOT_IN_RUN}: the cases have no multi-turn sessions.`));
  const columns: Column[] = [
    { label: 'strategy' },
    { label: 'sessions', num: true },
    { label: 'turns', num: true },
    { label: 'per-turn recall@5', num: true },
    { label: 'per-turn churn', title: 'share of turns whose exposed set changed', num: true, lowFirst: true },
    { label: 'per-turn tokens (cached)', title: 'mean per session', num: true, lowFirst: true },
    { label: 'sticky recall@5', num: true },
    { label: 'sticky churn', num: true, lowFirst: true },
    { label: 'sticky kept', title: 'share of turns that kept the session set', num: true },
    { label: 'sticky tokens (cached)', num: true, lowFirst: true },
  ];
  const rows = withSessions.map((s) => {
    const x = s.results.sessions!;
    return [{ html: `${esc(s.name)}${s.ranks ? '' : ' <span class="tag" title="a profile without a search: its set never changes">no search</span>'}` }, numCell(x.sessions, fmtInt), numCell(x.turns, fmtInt), numCell(x.perTurn.recall5), numCell(x.perTurn.churn), numCell(x.perTurn.tokensCached, fmtInt), numCell(x.sticky.recall5), numCell(x.sticky.churn), numCell(x.sticky.keptRate), numCell(x.sticky.tokensCached, fmtInt)];
  });
  const intro = 'Multi-turn sessions under per-turn retrieval and under sticky-per-task retrieval: every change of the exposed tool set breaks the cached prompt prefix.';
  return section('sessions', title, intro, table(columns, rows, { sortable: true, id: 'sessions-table' }));
}

// ---------------------------------------------------------------------------------------------
// Page

const STYLE = `
:root { color-scheme: light; }
* { box-sizing: border-box; }
html { background: #fff; }
body { margin: 0; background: #fff; color: #1d1f23; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", "Liberation Sans", sans-serif; }
main { max-width: 1480px; margin: 0 auto; padding: 24px 28px 64px; }
header.top { border-bottom: 1px solid #d9dce1; margin-bottom: 8px; padding-bottom: 12px; }
h1 { font-size: 30px; line-height: 1.2; margin: 8px 0 6px; }
h2 { font-size: 23px; margin: 40px 0 8px; padding-top: 8px; border-top: 1px solid #eceef1; }
h3 { font-size: 18px; margin: 24px 0 8px; }
p { margin: 6px 0 12px; max-width: 75em; }
.subtitle { color: #4a4f57; margin: 0; }
.lead { font-size: 17px; }
nav.toc { font-size: 14px; margin: 8px 0 0; }
nav.toc a { color: #2b5d91; text-decoration: none; margin-right: 14px; white-space: nowrap; }
nav.toc a:hover { text-decoration: underline; }
code, .hash { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, "DejaVu Sans Mono", "Liberation Mono", monospace; font-size: 0.88em; }
code { background: #f3f4f6; border-radius: 3px; padding: 0 3px; overflow-wrap: anywhere; }
.hash { word-break: break-all; }
.intro { color: #33373d; }
.absent { color: #6b7078; font-style: italic; }
.note, .more, .none { color: #5d636b; font-size: 14px; }
.tag { display: inline-block; background: #eef2f7; color: #2f4b6b; border-radius: 3px; font-size: 12px; padding: 0 5px; margin: 1px 0; }
.tag.fit { background: #fbeaea; color: #8a1f1f; }
.na { color: #6b7078; font-style: italic; }
p.definition, p.fit { max-width: 75em; }
.intro a { color: #2b5d91; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 4px 20px; margin: 8px 0; font-size: 15px; }
dl.facts dt { color: #4a4f57; font-weight: 600; }
dl.facts dd { margin: 0; overflow-wrap: anywhere; }
.table-wrap { overflow-x: auto; margin: 8px 0 12px; }
table.data { border-collapse: collapse; font-size: 14px; font-variant-numeric: tabular-nums; }
table.data th, table.data td { padding: 5px 9px; border-bottom: 1px solid #e3e6ea; text-align: left; vertical-align: top; white-space: nowrap; }
table.data thead th { position: sticky; top: 0; background: #f6f7f9; border-bottom: 2px solid #c9ced6; font-weight: 600; white-space: nowrap; }
table.data tbody th { font-weight: 600; white-space: nowrap; }
table.data tbody tr:nth-child(even) { background: #fafbfc; }
table.data tbody tr:hover { background: #f0f5fb; }
table.data .num { text-align: right; white-space: nowrap; }
table.sortable thead th button { all: inherit; border: 0; background: none; cursor: pointer; padding: 0; display: inline-flex; align-items: center; gap: 4px; }
table.sortable thead th button:focus-visible { outline: 2px solid #2b5d91; outline-offset: 2px; }
table.sortable thead th .arrow { display: inline-block; width: 0.8em; color: #2b5d91; }
table.sortable thead th[aria-sort="ascending"] .arrow::after { content: "▲"; font-size: 10px; }
table.sortable thead th[aria-sort="descending"] .arrow::after { content: "▼"; font-size: 10px; }
table.wrap-last td:last-child { white-space: normal; max-width: 60em; }
table.wrap-last td:last-child code { display: inline-block; margin: 1px 0; }
table.misses td, table.misses th { white-space: normal; }
table.misses .request { max-width: 28em; overflow-wrap: anywhere; }
details.fold summary { cursor: pointer; color: #2f5d8a; font-size: 13px; }
details.fold .whole { max-height: 24em; overflow: auto; white-space: pre-wrap; overflow-wrap: anywhere; }
table.misses ul.gold, table.misses ol.instead { margin: 0; padding-left: 1.2em; }
table.misses ul.gold { list-style: none; padding-left: 0; max-width: 30em; }
table.misses .desc { color: #4a4f57; font-size: 13px; overflow-wrap: anywhere; }
table.misses .score { color: #5d636b; font-size: 12px; }
figure.chart { margin: 20px 0 28px; padding: 12px 16px 8px; border: 1px solid #e3e6ea; border-radius: 6px; background: #fff; }
figure.chart h3 { margin: 0 0 6px; }
figure.chart canvas { display: block; width: 100%; height: auto; }
figure.chart figcaption { color: #33373d; font-size: 14px; margin-top: 6px; }
.chart-error { color: #a4262c; font-weight: 600; }
footer { margin-top: 48px; color: #6b7078; font-size: 13px; border-top: 1px solid #eceef1; padding-top: 12px; }
@media print { nav.toc { display: none; } figure.chart { break-inside: avoid; } }
`;

/** Draws every chart from its JSON block, and makes `table.sortable` sortable. Reads no untrusted text into code. */
const PAGE_SCRIPT = `
(function () {
  'use strict';
  function drawCharts() {
    var blocks = document.querySelectorAll('script[type="application/json"][data-chart]');
    if (typeof Chart !== 'undefined') {
      Chart.defaults.font.family = getComputedStyle(document.body).fontFamily;
      Chart.defaults.color = '#1d1f23';
    }
    for (var i = 0; i < blocks.length; i++) {
      var block = blocks[i];
      var canvas = document.getElementById(block.getAttribute('data-chart'));
      if (!canvas) continue;
      try {
        if (typeof Chart === 'undefined') throw new Error('chart.js is not available');
        new Chart(canvas, JSON.parse(block.textContent));
      } catch (err) {
        var message = err && err.message ? err.message : String(err);
        console.error('chart ' + block.getAttribute('data-chart') + ' could not be drawn: ' + message);
        var note = document.createElement('p');
        note.className = 'chart-error';
        note.textContent = 'This chart could not be drawn: ' + message;
        canvas.parentNode.insertBefore(note, canvas);
      }
    }
  }
  function keyOf(cell, numeric) {
    if (!cell) return null;
    if (numeric) {
      var v = cell.getAttribute('data-v');
      return v === null || v === '' ? null : Number(v);
    }
    return cell.textContent.trim().toLowerCase();
  }
  function sortBy(table, th, col) {
    var numeric = th.getAttribute('data-type') === 'num';
    var current = th.getAttribute('aria-sort');
    var first = th.getAttribute('data-first') === 'asc' || !numeric ? 'ascending' : 'descending';
    var dir = current === 'none' || current === null ? first : current === 'ascending' ? 'descending' : 'ascending';
    var sign = dir === 'ascending' ? 1 : -1;
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var ka = keyOf(a.cells[col], numeric);
      var kb = keyOf(b.cells[col], numeric);
      if (ka === null && kb !== null) return 1;
      if (kb === null && ka !== null) return -1;
      if (ka !== null && kb !== null && ka !== kb) {
        if (numeric) return sign * (ka - kb);
        return sign * (ka < kb ? -1 : 1);
      }
      return Number(a.getAttribute('data-i')) - Number(b.getAttribute('data-i'));
    });
    for (var i = 0; i < rows.length; i++) body.appendChild(rows[i]);
    var ths = table.tHead.rows[0].cells;
    for (var j = 0; j < ths.length; j++) ths[j].setAttribute('aria-sort', 'none');
    th.setAttribute('aria-sort', dir);
  }
  function makeSortable(table) {
    var rows = table.tBodies[0].rows;
    for (var i = 0; i < rows.length; i++) rows[i].setAttribute('data-i', String(i));
    var ths = table.tHead.rows[0].cells;
    for (var c = 0; c < ths.length; c++) {
      (function (th, col) {
        var button = th.querySelector('button');
        (button || th).addEventListener('click', function () { sortBy(table, th, col); });
      })(ths[c], c);
    }
  }
  var tables = document.querySelectorAll('table.sortable');
  for (var t = 0; t < tables.length; t++) makeSortable(tables[t]);
  drawCharts();
})();
`;

/** The self-contained HTML report of a results file (see the module comment). */
export function htmlReport(results: Results, opts: HtmlReportOptions = {}): string {
  const r = results;
  const all = strategies(r);
  const metric = headline(r);
  const specs = chartsOf(r);
  const charts = chartsSection(specs);
  const title = opts.title ?? `Backpack report — ${r.dataset.name}`;
  const best = bestStrategy(all, metric);
  const unfit = all.filter((s) => !mayBeBest(s));
  const notConsidered = unfit.length ? ` Not considered for best: ${unfit.map((s) => `${esc(s.name)} (${esc(fitNote(contextFit(s, r))!)})`).join(', ')}.` : '';
  const lead = best
    ? `Best ${best.metric === metric ? 'ranking ' : ''}strategy: <strong>${esc(best.s.name)}</strong>, ${esc(best.metric)} ${esc(fmtRate(overall(best.s, best.metric)))}.${notConsidered}`
    : all.length
      ? `No strategy can be named best: none has a figure that applies.${notConsidered}`
      : 'No strategy in this run.';
  const sections: Array<[string, string, string]> = [
    ['provenance', 'Provenance', provenance(r)],
    ['overview', 'Overview', overviewTable(r, all)],
    ['charts', 'Charts', charts.html],
    ['floors', 'Floors', floorsSection(r, all)],
    ['slices', 'Slices', slicesTable(r, all)],
    ['namespaces', 'Namespaces', namespacesTable(r, all)],
    ['never-surfaced', 'Never surfaced', neverSurfacedSection(all)],
    ['worst-misses', 'Worst misses', worstMissesSection(r, all, opts)],
    ['tokens', 'Tokens', tokensSection(r, all)],
    ['skills', 'Skills', skillsSection(r.skills)],
    ['sessions', 'Sessions', sessionsSection(all)],
  ];
  const toc = sections.map(([id, label]) => `<a href="#${id}">${esc(label)}</a>`).join('');
  const subtitle = [`dataset ${r.dataset.name}`, `${fmtInt(r.dataset.cases)} cases`, `${fmtInt(r.dataset.tools)} tools`, `${all.length} ${all.length === 1 ? 'strategy' : 'strategies'}`, r.timings?.startedAt ? `run ${r.timings.startedAt}` : ''].filter(Boolean).join(' · ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="generator" content="${esc(`Backpack ${r.backpack.version}`)}">
<title>${esc(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<header class="top">
<h1>${esc(title)}</h1>
<p class="subtitle">${esc(subtitle)}</p>
<p class="lead">${lead}</p>
<nav class="toc" aria-label="Sections">${toc}</nav>
</header>
${sections.map(([, , html]) => html).join('\n')}
<footer>Generated by Backpack ${esc(r.backpack.version)}${r.backpack.gitSha ? ` (git ${esc(r.backpack.gitSha)})` : ''} from results.json schema version ${esc(String(r.schemaVersion))}. Self-contained: opens from disk, loads nothing from the network. Charts drawn with Chart.js (MIT).</footer>
</main>
${charts.data}
<script>${scriptSafe(chartJsSource())}</script>
<script>${PAGE_SCRIPT}</script>
</body>
</html>
`;
}
