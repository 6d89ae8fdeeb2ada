/**
 * A compact Markdown summary of a results file, for `$GITHUB_STEP_SUMMARY` or a PR comment:
 * provenance, one table of strategies × headline metrics, the profiles' token figures, the worst
 * slices of the best strategy, and the gold tools it never surfaced. GitHub-flavoured tables.
 *
 * Every name and text that comes from the catalog or the cases (dataset, strategy, slice, tool ids)
 * goes through {@link escapeMarkdown}. Deterministic: the date is the run's `timings.startedAt`,
 * strategies keep their run order, ties break by that order. Sections the run did not produce are
 * left out.
 *
 * The overview bolds the best value of each column and the summary names a best strategy (its
 * worst slices); only figures that apply can be either (`figure` in view.ts): one that does not
 * (absent, null, a no-tool figure without no-tool cases, any quality figure of a profile whose
 * prompt fits the context window in no case) is written "n/a", and a profile that fits only some
 * cases is marked ("fits 80% of cases") and never bolded nor named best.
 */
import { type Audit, neverCalledLine } from '../eval/audit.ts';
import type { Results } from '../eval/results.ts';
import { metricLabel } from '../metrics/ids.ts';
import { escapeMarkdown, markdownId } from '../util/escape.ts';
import {
  bestStrategy,
  bestValue,
  curveThinness,
  goldRemovedCases,
  noClearWinnerReason,
  THIN_CASES,
  thinness,
  winner,
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
  mayBeBest,
  NO_TOOL_DEFINITION,
  overall,
  recallAtRatesOf,
  strategies,
  type StrategyView,
  reSignedText,
  originLines,
} from './view.ts';

export interface MarkdownOptions {
  /** Where the full report is: a link when it is an http(s) URL, else shown as text. */
  reportPath?: string;
  /**
   * Show only the best N strategies, in run order: those that rank first (by the headline recall),
   * then profiles without a search (by `visible`); run order breaks ties. Default: all.
   */
  top?: number;
  /** The summary's heading (`--title`; default "Backpack: <dataset>"). */
  title?: string;
  /** Slices with fewer graded cases are not listed among the worst (too few to rank). Default 0. */
  minCases?: number;
  /** What the scored cases' agents called (cases that record calls): one Tool use line. */
  toolUse?: Audit;
}

/** Never-surfaced gold tool ids listed by name (the count is always given). */
const NEVER_SURFACED_LISTED = 5;
const WORST_SLICES = 5;
const DASH = '–';

/**
 * The headline metrics of a run, in column order: top1, recall@1/5/10 (those the ks have, and the
 * headline recall if it is none of them), mrr@10, visible (when profiles ran), visibleByExpansion
 * (when a profile's search expanded a namespace onto a gold tool),
 * noToolFalsePositiveRate, searchNoToolFalsePositiveRate (when profiles ran), scopeLeakCount.
 * The JUnit report checks the same ones.
 */
export function headlineMetrics(r: Results): string[] {
  const ks = r.config.ks ?? [];
  const recalls = [1, 5, 10].filter((k) => ks.includes(k)).map((k) => `recall@${k}`);
  const main = ks.length ? headline(r) : undefined;
  if (main && !recalls.includes(main)) recalls.push(main);
  recalls.sort((a, b) => Number(a.split('@')[1]) - Number(b.split('@')[1]));
  const profiles = Boolean(r.profiles && Object.keys(r.profiles).length);
  return [
    'top1',
    ...recalls,
    'mrr@10',
    ...(profiles ? ['visible'] : []),
    ...(profiles && Object.values(r.profiles!).some((p) => (p.metrics.overall.visibleByExpansion ?? 0) > 0) ? ['visibleByExpansion'] : []),
    'noToolFalsePositiveRate',
    ...(profiles ? ['searchNoToolFalsePositiveRate'] : []),
    'scopeLeakCount',
  ];
}

const NA = 'n/a';

function isNum(x: unknown): x is number {
  return typeof x === 'number' && Number.isFinite(x);
}

function rate(x: number | undefined): string {
  return isNum(x) ? x.toFixed(3) : DASH;
}

/** An integer with thousands separators (locale-independent). */
export function formatInt(x: number | undefined | null): string {
  if (!isNum(x)) return DASH;
  const n = Math.round(x);
  const digits = String(Math.abs(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return n < 0 ? `-${digits}` : digits;
}

function row(cells: readonly string[]): string {
  return `| ${cells.join(' | ')} |`;
}

function table(header: readonly string[], rows: ReadonlyArray<readonly string[]>, align?: ReadonlyArray<'l' | 'r'>): string[] {
  const sep = header.map((_, i) => ((align?.[i] ?? (i === 0 ? 'l' : 'r')) === 'r' ? '---:' : '---'));
  return [row(header), row(sep), ...rows.map(row)];
}

/** A value a strategy is ranked by: its headline recall if it ranks, else `visible` (−∞ when it does not apply). */
function score(r: Results, s: StrategyView): number {
  const v = figure(s, s.ranks ? headline(r) : 'visible').value;
  return isNum(v) ? v : -Infinity;
}

/** The strategy whose headline metric is highest (ranking strategies first; run order breaks ties; never a profile that does not fit the context window). */
function best(r: Results, list: readonly StrategyView[]): StrategyView | undefined {
  return bestStrategy(list, headline(r))?.s;
}

/** "Best" named only when its 95% interval clears the runner-up's; else "no clear winner" and why. */
function winnerLine(r: Results, shown: readonly StrategyView[]): string[] {
  const w = winner(shown, headline(r));
  if (!w) return [];
  const ci = (i: [number, number] | undefined) => (i ? ` (95% interval ${rate(i[0])}–${rate(i[1])})` : '');
  const value = rate(figure(w.s, w.metric).value);
  const name = escapeMarkdown(w.s.name);
  return [
    '',
    w.clear
      ? `**Best** by ${escapeMarkdown(w.metric)}: ${name}, ${value}${ci(w.interval)}${w.runnerUp ? `, clear of ${escapeMarkdown(w.runnerUp.name)}${ci(w.runnerUpInterval)}` : ''}.`
      : `**No clear winner** by ${escapeMarkdown(w.metric)}: ${name} has the highest, ${value}, but ${escapeMarkdown(noClearWinnerReason(w))}.`,
  ];
}

function provenance(r: Results): string[] {
  const d = r.dataset;
  const sha = typeof d?.catalogSha256 === 'string' ? d.catalogSha256.slice(0, 12) : '';
  const git = r.backpack?.gitSha ? String(r.backpack.gitSha).slice(0, 7) : null;
  const at = String(r.timings?.startedAt ?? '');
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(at);
  const facts = [
    `${formatInt(d?.cases)} cases`,
    `${formatInt(d?.tools)} tools`,
    ...(sha ? [`catalog ${code(sha)}`] : []),
    `Backpack ${escapeMarkdown(String(r.backpack?.version ?? '?'))}${git ? ` (${code(git)})` : ''}`,
    ...(at ? [m ? `${m[1]} ${m[2]} UTC` : escapeMarkdown(at)] : []),
    ...(r.shard ? [`shard ${formatInt(r.shard.index)}/${formatInt(r.shard.count)}`] : []),
  ];
  const warnings = Array.isArray(r.warnings) ? r.warnings : [];
  return [
    `## Backpack: ${escapeMarkdown(String(d?.name ?? 'results'))}`,
    '',
    facts.join(' · '),
    ...(d?.reSigned ? ['', `**Dataset re-signed** (\`eval --re-sign\`): ${escapeMarkdown(reSignedText(d.reSigned))}`] : []),
    ...(originLines(r).length ? ['', `**Not built in**: ${originLines(r).map(escapeMarkdown).join('; ')}.`] : []),
    ...(d?.goldRemoved
      ? [
          '',
          `**Gold tools not in the catalog** (removed or renamed; their cases are scored as misses): ${Object.entries(d.goldRemoved)
            .map(([id, cases]) => `${markdownId(id)} (${escapeMarkdown(goldRemovedCases(cases))})`)
            .join('; ')}.`,
        ]
      : []),
    ...(d?.goldRenamed
      ? [
          '',
          `**Gold tools renamed** (\`--renames\`; the cases' gold mapped to the new id): ${Object.entries(d.goldRenamed)
            .map(([from, a]) => `${markdownId(from)} → ${markdownId(a.to)} (${escapeMarkdown(goldRemovedCases(a.cases))})`)
            .join('; ')}.`,
        ]
      : []),
    ...(warnings.length
      ? [
          '',
          `**${formatInt(warnings.length)} input warning${warnings.length === 1 ? '' : 's'}:**`,
          '',
          ...warnings.map((w) => `- ${escapeMarkdown(String(w))}`),
        ]
      : []),
  ];
}

/** A code span for identifiers made of safe characters (hashes, versions); escaped text otherwise. */
function code(s: string): string {
  return /^[A-Za-z0-9._+-]+$/.test(s) ? `\`${s}\`` : escapeMarkdown(s);
}

function overview(r: Results, shown: readonly StrategyView[]): string[] {
  const metrics = headlineMetrics(r).filter((m) => m === 'scopeLeakCount' || shown.some((s) => isNum(overall(s, m))));
  const bestOf = new Map(metrics.map((m) => [m, bestValue(shown, m)]));
  const nsK = shown.find((s) => s.ranks)?.results.neverSurfaced?.k;
  const header = ['strategy', 'kind', ...metrics.map(metricLabel), `gold never surfaced${isNum(nsK) ? ` (top ${nsK})` : ''}`];
  const rows = shown.map((s) => {
    const cells = metrics.map((m) => {
      const v = overall(s, m);
      if (m === 'scopeLeakCount') return !isNum(v) ? NA : v === 0 ? '0' : `**${formatInt(v)}** ⚠`;
      const f = figure(s, m);
      if (f.value === undefined) return NA;
      const text = rate(f.value);
      const shown = mayBeBest(s) && bestOf.get(m) === f.value ? `**${text}**` : text;
      return thinness(s.results.metrics.overall, m) ? `${shown} (thin)` : shown;
    });
    const mark = fitMark(contextFit(s, r));
    const kind = `${s.kind === 'retriever' ? 'retriever' : s.ranks ? 'profile' : 'profile, no search'}${mark ? ` ⚠ ${mark}` : ''}`;
    const never = s.ranks && s.results.neverSurfaced ? formatInt(s.results.neverSurfaced.gold?.length ?? 0) : DASH;
    return [escapeMarkdown(s.name), kind, ...cells, never];
  });
  const notes: string[] = [];
  const unfit = shown.filter((s) => !mayBeBest(s));
  if (unfit.length)
    notes.push(
      `_⚠ Context window: ${unfit.map((s) => `${escapeMarkdown(s.name)} ${fitNote(contextFit(s, r))!}`).join('; ')}. Never bolded nor named best; ${unfit.some((s) => contextFit(s, r)?.share === 0) ? 'a profile that fits no case has n/a for its quality figures; ' : ''}its token figures are below._`,
    );
  const thin = shown.flatMap((s) => metrics.map((m) => thinness(s.results.metrics.overall, m)).filter((x): x is string => x !== undefined));
  if (thin.length)
    notes.push(
      `_(thin): a mean over fewer than ${THIN_CASES} cases of the kind it counts (${[...new Set(thin.map((t) => t.replace(/^thin: a mean over /, '').replace(/ \(fewer than \d+\)$/, '')))].join('; ')}): one case moves it by a tenth or more._`,
    );
  if (metrics.some((m) => m === 'noToolFalsePositiveRate' || m === 'searchNoToolFalsePositiveRate')) notes.push(`_${NO_TOOL_DEFINITION}_`);
  return [...table(header, rows, ['l', 'l', ...metrics.map(() => 'r' as const), 'r']), ...notes.flatMap((n) => ['', n])];
}

function profileTokens(shown: readonly StrategyView[]): string[] {
  const profiles = shown.filter((s) => s.profile?.tokens);
  if (!profiles.length) return [];
  const anyFit = profiles.some((s) => contextFit(s) !== undefined);
  const anyCalls = profiles.some((s) => s.profile!.calls !== undefined);
  const anyCore = profiles.some((s) => (s.profile!.exposure.coreEager?.tools ?? 0) > 0);
  const rows = profiles.map((s) => {
    const t = s.profile!.tokens;
    const core = s.profile!.exposure.coreEager;
    const fit = contextFit(s);
    const fits = !fit ? DASH : fit.share >= 1 ? 'fits' : fitMark(fit)!;
    const c = s.profile!.calls;
    return [
      escapeMarkdown(s.name),
      formatInt(t.beforeSearch),
      ...(anyCore ? [core ? `${formatInt(core.tools)} (${formatInt(core.tokens)})` : DASH] : []),
      s.ranks ? formatInt(t.perSearch) : DASH,
      formatInt(t.perCase),
      formatInt(t.session12Uncached),
      formatInt(t.session12Cached),
      ...(anyCalls ? [c ? c.perCase.toFixed(2) : DASH, perSuccessText(c?.perSuccess), c ? c.perSession.toFixed(1) : DASH] : []),
      ...(anyFit ? [fits, formatInt(fit?.window)] : []),
    ];
  });
  const counter = escapeMarkdown(String(profiles[0]!.profile!.tokens.counter ?? ''));
  return [
    '',
    `### Profile tokens${counter ? ` (${counter})` : ''} and model calls`,
    '',
    ...table(
      [
        'profile',
        'before search',
        ...(anyCore ? ['core tools (tokens)'] : []),
        'per search',
        'per case',
        '12 turns uncached',
        '12 turns cached',
        ...(anyCalls ? ['calls per case', 'calls per success', 'calls per 12 turns'] : []),
        ...(anyFit ? ['context fit', 'context window'] : []),
      ],
      rows,
    ),
  ];
}

/** Calls per success: the figure, "n/a" when no request's gold reached the model, "–" in results written before it was counted. */
function perSuccessText(v: number | null | undefined): string {
  if (v === null) return 'n/a';
  return v === undefined ? DASH : v.toFixed(2);
}

/** recall@5 at no-tool FP rates 0.05 / 0.1 / 0.2 and the floor of each strategy (results written before them: nothing). */
function floors(r: Results, shown: readonly StrategyView[]): string[] {
  if (!shown.some((s) => recallAtRatesOf(s) !== undefined || curveOf(s) !== undefined || floorOf(r, s.name)?.kind === 'auto')) return [];
  const rows = shown.map((s) => {
    const rates = recallAtRatesOf(s);
    const cells = FP_RATES.map((k) => {
      const p = rates?.[k];
      if (!p || figure(s, 'recall@5', { 'recall@5': p.recall5 }).value === undefined) return NA;
      return `${rate(p.recall5)} (floor ${p.floor === null ? 'none' : floorNumber(p.floor)})${curveThinness(s) ? ' (thin)' : ''}`;
    });
    return [escapeMarkdown(s.name), escapeMarkdown(floorText(floorOf(r, s.name))), ...cells];
  });
  return [
    '',
    '### Floors and no-tool false positives',
    '',
    ...table(['strategy', 'floor', ...FP_RATES.map((k) => `recall@5 at FP ≤ ${k} (in-sample)`)], rows, ['l', 'l', 'r', 'r', 'r']),
    '',
    "_recall@5 each strategy keeps with the lowest floor that shows a tool on at most 5%, 10% or 20% of the no-tool requests, read off its operating curve: pick a strategy and floor together. **In-sample**: the floor is read off the same cases it is scored on, so these are optimistic beside a floor calibrated on other cases (`auto`, whose figures are the overview's). n/a: no floor reaches that rate, or the strategy has no curve._",
    ...(shown.some((s) => curveThinness(s) && recallAtRatesOf(s))
      ? [
          '',
          `_(thin): the curve is drawn over fewer than ${THIN_CASES} graded or no-tool cases (${shown
            .map((s) => (recallAtRatesOf(s) ? curveThinness(s) : undefined))
            .filter(Boolean)
            .map((t) => t!.replace(/^thin: drawn over /, '').replace(/ \(fewer than \d+\)$/, ''))
            .filter((x, i, a) => a.indexOf(x) === i)
            .join('; ')})._`,
        ]
      : []),
  ];
}

function worstSlices(r: Results, s: StrategyView, minCases: number): string[] {
  const metric = s.ranks ? headline(r) : 'visible';
  const slices = Object.entries(s.results.metrics.slices ?? {})
    .filter(([, t]) => isNum(t[metric]) && (t.gradedCases ?? 0) >= minCases)
    .sort(([a, ta], [b, tb]) => ta[metric]! - tb[metric]! || (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, WORST_SLICES);
  if (!slices.length) return [];
  const second = s.ranks ? 'top1' : undefined;
  const ci = (name: string) => s.results.metrics.ci95?.slices[name]?.[metric];
  const anyCi = slices.some(([name]) => ci(name));
  const header = ['slice', 'graded cases', metric, ...(anyCi ? ['95% interval'] : []), ...(second ? [second] : [])];
  const rows = slices.map(([name, t]) => {
    const c = ci(name);
    return [
      escapeMarkdown(name),
      formatInt(t.gradedCases),
      rate(t[metric]),
      ...(anyCi ? [c ? `${rate(c[0])}–${rate(c[1])}` : DASH] : []),
      ...(second ? [rate(t[second])] : []),
    ];
  });
  return ['', `### Worst slices of ${escapeMarkdown(s.name)} (by ${metric})`, '', ...table(header, rows)];
}

function neverSurfaced(s: StrategyView): string[] {
  const ns = s.results.neverSurfaced;
  if (!s.ranks || !ns) return [];
  const gold = ns.gold ?? [];
  const listed = gold.slice(0, NEVER_SURFACED_LISTED).map(markdownId).join(', ');
  const more = gold.length > NEVER_SURFACED_LISTED ? `, … ${formatInt(gold.length - NEVER_SURFACED_LISTED)} more` : '';
  return [
    '',
    `**Gold tools ${escapeMarkdown(s.name)} never surfaced in its top ${formatInt(ns.k)}:** ${formatInt(gold.length)}${gold.length ? ` (${listed}${more})` : ''}`,
  ];
}

/** The link to the HTML report: a Markdown link for an http(s) URL, else the path as text. */
export function reportLink(path: string): string {
  if (/^https?:\/\//i.test(path)) {
    const url = path.replace(/[^A-Za-z0-9\-._~:/?#@=%+,;&]/g, (c) =>
      encodeURIComponent(c).replace(/[()'!*]/g, (x) => `%${x.charCodeAt(0).toString(16).toUpperCase()}`),
    );
    return `[Full report](${url})`;
  }
  return `Full report: ${escapeMarkdown(path)}`;
}

/** The Markdown summary of a results file. */
export function markdownSummary(r: Results, opts: MarkdownOptions = {}): string {
  const all = strategies(r);
  let shown = all;
  if (opts.top !== undefined && opts.top >= 0 && opts.top < all.length) {
    const order = all
      .map((s, i) => ({ s, i }))
      .sort((a, b) => Number(mayBeBest(b.s)) - Number(mayBeBest(a.s)) || Number(b.s.ranks) - Number(a.s.ranks) || score(r, b.s) - score(r, a.s) || a.i - b.i);
    const keep = new Set(order.slice(0, Math.floor(opts.top)).map((x) => x.s));
    shown = all.filter((s) => keep.has(s));
  }
  const lines = provenance(r);
  if (opts.title !== undefined) lines[0] = `## ${escapeMarkdown(opts.title)}`;
  if (!shown.length) {
    lines.push('', 'No strategies in this results file.');
  } else {
    lines.push('', ...overview(r, shown), ...winnerLine(r, shown));
    if (shown.length < all.length) lines.push('', `_${all.length - shown.length} more strategies in the full report._`);
    lines.push(...profileTokens(shown), ...floors(r, shown));
    const b = best(r, shown);
    if (b) lines.push(...worstSlices(r, b, opts.minCases ?? 0), ...neverSurfaced(b));
  }
  if (opts.toolUse) {
    const t = opts.toolUse.totals;
    lines.push(
      '',
      `**Tool use:** ${t.calledTools.toLocaleString('en-US')} of ${t.tools.toLocaleString('en-US')} tools ${opts.toolUse.basis === 'calls' ? 'called' : 'expected'} in ${t.requests.toLocaleString('en-US')} requests; ${neverCalledLine(opts.toolUse)}.`,
    );
  }
  if (opts.reportPath) lines.push('', reportLink(opts.reportPath));
  return `${lines.join('\n')}\n`;
}
