/** The overview: one row per strategy, the metrics a reader compares, the best of each column in bold. */
import type { Results } from '../../eval/results.ts';
import { higherIsBetter, metricLabel, metricTitle } from '../../metrics/ids.ts';
import { escapeHtml as esc } from '../../util/escape.ts';
import { bestValue, contextFit, figure, fitNote, headline, mayBeBest, NO_TOOL_DEFINITION, type StrategyView, THIN_CASES, thinness } from '../view.ts';
import { fmtInt, fmtMetric, fmtMs, isNum } from './format.ts';
import { absent, compactTable, figureCell, fitTag, NA, numCell, section, table, thinTag, type Column } from './table.ts';

/** retriever, profile, or profile (no search). */
export function kindOf(s: StrategyView): string {
  if (s.kind === 'retriever') return 'retriever';
  return s.ranks ? 'profile' : 'profile (no search)';
}

/** The cost columns, after the metrics. */
const LATENCY = ['p50Ms', 'indexMs'] as const;

/** Overview columns: the metrics a reader compares, in reading order, those present in some strategy. */
export function overviewMetrics(r: Results, all: readonly StrategyView[]): string[] {
  const present = new Set<string>();
  for (const s of all) for (const k of Object.keys(s.results.metrics.overall)) present.add(k);
  const hk = headline(r).split('@')[1];
  const ks = r.config.ks;
  const depthKeys = (kind: string) => [...present].filter((k) => k.startsWith(`${kind}@`)).sort((a, b) => Number(a.split('@')[1]) - Number(b.split('@')[1]));
  // scopeLeakCount must be 0: a column only when some strategy leaked.
  const leaked = all.some((s) => (s.results.metrics.overall.scopeLeakCount ?? 0) > 0);
  const wanted = [
    'top1',
    ...ks.map((k) => `recall@${k}`),
    ...depthKeys('mrr'),
    ...depthKeys('ndcg'),
    `missedEntirely@${hk}`,
    `namespaceRecall@${hk}`,
    'visible',
    ...(expands(all) ? ['visibleByExpansion'] : []),
    'noToolFalsePositiveRate',
    'searchNoToolFalsePositiveRate',
    ...(leaked ? ['scopeLeakCount'] : []),
  ];
  return [...new Set(wanted)].filter((m) => present.has(m));
}

/** Some profile's gold tools reached the model through a namespace expansion: the part of `visible` gets its own column. */
function expands(all: readonly StrategyView[]): boolean {
  return all.some((s) => (s.results.metrics.overall.visibleByExpansion ?? 0) > 0);
}

/**
 * The overview's compact view at 1440 px with 15 strategies: top-1, the headline recall, the first
 * MRR, what reaches the model, the no-tool false positives, leaks, tokens and latency; the other
 * columns are one click away ("all columns").
 */
function inCompactView(r: Results, metric: string, metrics: readonly string[]): boolean {
  const mrr = metrics.find((m) => m.startsWith('mrr@'));
  return ['top1', headline(r), mrr, 'visible', 'visibleByExpansion', 'noToolFalsePositiveRate', 'scopeLeakCount'].includes(metric);
}

/** The Overview section. */
export function overviewTable(r: Results, all: readonly StrategyView[]): string {
  if (!all.length) return section('overview', 'Overview', '', absent('No strategy in this run.'));
  const metrics = overviewMetrics(r, all);
  const anyProfile = all.some((s) => s.profile);
  const columns: Column[] = [
    { label: 'strategy' },
    ...metrics.map((m) => ({
      label: metricLabel(m),
      title: `${m}: ${metricTitle(m)}`,
      num: true,
      lowFirst: higherIsBetter(m) === false,
      ...(inCompactView(r, m, metrics) ? {} : { extra: true }),
    })),
    ...(anyProfile
      ? [
          {
            label: 'tokens / request',
            title: 'profiles: mean tokens in front of the model per request (before search + the search)',
            num: true,
            lowFirst: true,
          },
        ]
      : []),
    ...LATENCY.map((m) => ({
      label: metricLabel(m),
      title: metricTitle(m),
      num: true,
      lowFirst: higherIsBetter(m) === false,
      ...(m === 'p50Ms' ? {} : { extra: true }),
    })),
  ];
  const bests = new Map(metrics.map((m) => [m, bestValue(all, m)]));
  const rows = all.map((s) => [
    { html: `${esc(s.name)}${s.kind === 'profile' ? ` <span class="tag">${esc(kindOf(s))}</span>` : ''}${fitTag(s, r)}` },
    ...metrics.map((m) => {
      const base = figureCell(figure(s, m), (v) => fmtMetric(m, v ?? undefined), mayBeBest(s) ? bests.get(m) : undefined);
      const thin = base.v !== undefined ? thinness(s.results.metrics.overall, m) : undefined;
      const cell = thin ? { ...base, html: `${base.html}${thinTag(thin)}` } : base;
      const ci = s.results.metrics.ci95?.overall[m];
      const title = [ci && cell.v !== undefined ? `${m} ${cell.v.toFixed(3)}, 95% interval ${ci[0].toFixed(3)}–${ci[1].toFixed(3)}` : undefined, thin]
        .filter(Boolean)
        .join('; ');
      return title ? { ...cell, title } : cell;
    }),
    ...(anyProfile ? [numCell(s.profile?.tokens.perCase, fmtInt)] : []),
    ...LATENCY.map((m) => numCell(s.results.latency?.[m], fmtMs)),
  ]);
  const graded = all[0]?.results.metrics.overall.gradedCases;
  const intro = `${esc(String(all.length))} ${all.length === 1 ? 'strategy' : 'strategies'} (retrievers, then harness profiles) over ${esc(fmtInt(r.dataset.cases))} cases${isNum(graded) ? ` (${esc(fmtInt(graded))} graded)` : ''}. Click a column header to sort; click again to reverse. The best value of a column is in bold. <span class="na">${NA}</span> means the figure does not apply (hover it for why: a profile without a search ranks nothing; no-tool figures need no-tool cases; a profile whose prompt fits the context window in no case has no quality figure).`;
  const notes: string[] = [];
  if (all.some((s) => metrics.some((m) => thinness(s.results.metrics.overall, m))))
    notes.push(
      `<p class="note">A figure marked <span class="tag thin">thin</span> is a mean over fewer than ${THIN_CASES} cases of the kind it counts (graded or no-tool): one case moves it by a tenth or more. Hover it for the count.</p>`,
    );
  if (metrics.some((m) => m.startsWith('noToolFalsePositiveRate') || m.startsWith('searchNoToolFalsePositiveRate')))
    notes.push(`<p class="note definition" id="no-tool-definition">${esc(NO_TOOL_DEFINITION)}</p>`);
  const unfit = all.filter((s) => !mayBeBest(s));
  if (unfit.length)
    notes.push(
      `<p class="note fit">Context window: ${unfit.map((s) => `${esc(s.name)} ${esc(fitNote(contextFit(s, r))!)}`).join('; ')}. A profile that does not fit every case is never bolded nor named best; its token figures are in the Tokens section.</p>`,
    );
  return section(
    'overview',
    'Overview',
    intro,
    [compactTable('overview-table', columns, table(columns, rows, { sortable: true, id: 'overview-table' })), ...notes].join('\n'),
  );
}
