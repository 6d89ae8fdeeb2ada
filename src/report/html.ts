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
 * The page is put together here; each section is a module of `html/`, the style sheet and the
 * page script are files of `assets/`.
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
import type { Audit } from '../eval/audit.ts';
import type { Results } from '../eval/results.ts';
import { escapeHtml as esc } from '../util/escape.ts';
import { type ChartSpec, chartsOf } from './charts.ts';
import { chartsSection } from './html/charts-section.ts';
import { floorsSection } from './html/floors.ts';
import { fmtInt, fmtRate } from './html/format.ts';
import { chartJsSource, explorerScript, pageEnd, pageHead, pageScript, scriptSafe } from './html/inline.ts';
import { EXPLORER_DEPTH, explorerData, explorerHtml, type ExplorerTools } from './explorer.ts';
import { absent, NOT_IN_RUN, section } from './html/table.ts';
import { namespacesTable } from './html/namespaces.ts';
import { neverSurfacedSection } from './html/never-surfaced.ts';
import { overviewTable } from './html/overview.ts';
import { provenance } from './html/provenance.ts';
import { sessionsSection } from './html/sessions.ts';
import { skillsSection } from './html/skills.ts';
import { slicesTable } from './html/slices.ts';
import { tokensSection } from './html/tokens.ts';
import { toolUseSection } from './html/tool-use.ts';
import { toolUseChart } from './tool-use.ts';
import { worstMissesSection, type MissInputs } from './html/worst-misses.ts';
import { contextFit, fitNote, headline, mayBeBest, noClearWinnerReason, overall, strategies, winner } from './view.ts';

export { chartJsSource, jsonForScript, scriptSafe } from './html/inline.ts';

export interface HtmlReportOptions extends MissInputs {
  title?: string;
  /** Slices and namespaces with fewer graded cases are greyed (slices) or left out of the worst list (namespaces). */
  minCases?: number;
  /** Charts of figures over the runs of a results history (`report --history FILE`): a History section after the charts. */
  history?: readonly ChartSpec[];
  /** What the scored cases' agents called (cases that record calls): the Tool use section and its chart. */
  toolUse?: Audit;
}

/** The Cases section: the case explorer over every scored case and strategy (needs the details, the cases and the tools). */
function casesExplorer(r: Results, opts: HtmlReportOptions): string {
  const title = 'Cases';
  if (!opts.details || !opts.cases || !opts.catalog)
    return section('cases', title, '', absent(`${NOT_IN_RUN}: the explorer needs the per-case details, the cases and the tools.`));
  const data = explorerData([{ label: r.dataset.name, results: r, details: opts.details }], opts.cases, opts.catalog.tools as ExplorerTools);
  const d = data as { slices: string[]; namespaces: string[]; strategies: string[] };
  const intro = `Every scored case: search by request, case or tool id, filter by strategy, outcome (${esc(headline(r))}), slice and gold namespace; open a case for its gold tools and every strategy's top ${EXPLORER_DEPTH} with scores.`;
  return section(
    'cases',
    title,
    intro,
    explorerHtml(data, esc, { strategies: d.strategies, slices: [...d.slices].sort(), namespaces: [...d.namespaces].sort(), runs: 1 }),
  );
}

/** The self-contained HTML report of a results file (see the module comment). */
export function htmlReport(results: Results, opts: HtmlReportOptions = {}): string {
  const r = results;
  const all = strategies(r);
  const metric = headline(r);
  const useChart = opts.toolUse ? toolUseChart(opts.toolUse, r.dataset.name) : undefined;
  const specs = [...chartsOf(r), ...(useChart ? [useChart] : [])];
  const charts = chartsSection(specs);
  const history = opts.history?.length
    ? chartsSection(opts.history, {
        id: 'history',
        title: 'History',
        intro: 'The headline figure of each strategy over the runs recorded in the results history (<code>backpack history add</code>), blessed runs marked.',
      })
    : undefined;
  const title = opts.title ?? `Backpack report — ${r.dataset.name}`;
  const best = winner(all, metric);
  const unfit = all.filter((s) => !mayBeBest(s));
  const notConsidered = unfit.length ? ` Not considered for best: ${unfit.map((s) => `${esc(s.name)} (${esc(fitNote(contextFit(s, r))!)})`).join(', ')}.` : '';
  const ci = (i: [number, number] | undefined) => (i ? ` (95% interval ${esc(`${fmtRate(i[0])}–${fmtRate(i[1])}`)})` : '');
  const lead = best
    ? best.clear
      ? `Best ${best.metric === metric ? 'ranking ' : ''}strategy: <strong>${esc(best.s.name)}</strong>, ${esc(best.metric)} ${esc(fmtRate(overall(best.s, best.metric)))}${ci(best.interval)}${best.runnerUp ? `, clear of ${esc(best.runnerUp.name)}${ci(best.runnerUpInterval)}` : ''}.${notConsidered}`
      : `No clear winner by ${esc(best.metric)}: <strong>${esc(best.s.name)}</strong> has the highest, ${esc(fmtRate(overall(best.s, best.metric)))}, but ${esc(noClearWinnerReason(best))}.${notConsidered}`
    : all.length
      ? `No strategy can be named best: none has a figure that applies.${notConsidered}`
      : 'No strategy in this run.';
  const sections: Array<[string, string, string]> = [
    ['overview', 'Overview', overviewTable(r, all)],
    ['charts', 'Charts', charts.html],
    ...(history ? [['history', 'History', history.html] as [string, string, string]] : []),
    ['floors', 'Floors', floorsSection(r, all)],
    ['slices', 'Slices', slicesTable(r, all, opts.minCases ?? 0)],
    ['namespaces', 'Namespaces', namespacesTable(r, all, opts.minCases ?? 0)],
    ['never-surfaced', 'Never surfaced', neverSurfacedSection(all)],
    ['worst-misses', 'Worst misses', worstMissesSection(r, all, opts)],
    ['cases', 'Cases', casesExplorer(r, opts)],
    ['tokens', 'Tokens', tokensSection(r, all)],
    // only where the scored cases record the calls their agents made (imported datasets)
    ...(opts.toolUse ? [['tool-use', 'Tool use', toolUseSection(opts.toolUse)] as [string, string, string]] : []),
    ['skills', 'Skills', skillsSection(r.skills)],
    ['sessions', 'Sessions', sessionsSection(all)],
    // results first: where the figures come from closes the page
    ['provenance', 'Provenance', provenance(r)],
  ];
  const toc = sections.map(([id, label]) => `<a href="#${id}">${esc(label)}</a>`).join('');
  const subtitle = [
    `dataset ${r.dataset.name}`,
    `${fmtInt(r.dataset.cases)} cases`,
    `${fmtInt(r.dataset.tools)} tools`,
    `${all.length} ${all.length === 1 ? 'strategy' : 'strategies'}`,
    r.timings?.startedAt ? `run ${r.timings.startedAt}` : '',
  ]
    .filter(Boolean)
    .join(' · ');
  return `${pageHead(title, `Backpack ${r.backpack.version}`)}<main>
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
${history?.data ?? ''}
${pageEnd([scriptSafe(chartJsSource()), pageScript(), explorerScript()])}`;
}
