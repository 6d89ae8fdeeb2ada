/**
 * The charts of a results file as chart.js configurations: plain JSON (no functions), so the HTML
 * report embeds them as data and the PNG renderer draws the same ones. Deterministic: datasets in
 * strategy order, titles and axis labels always set.
 *
 * Colours: one per strategy for the whole report (`reportStyles` in colours.ts: assigned over the
 * report's sorted strategy names, so a strategy has the same colour in every chart whichever
 * strategies a chart shows). Series that are not strategies (the token table's serializations)
 * use colours outside that palette.
 *
 * What chart.js cannot do from JSON alone is done by Backpack's plugins (assets/chart-plugins.js,
 * registered by both renderers), configured from the spec: error bars (`errorBars: [[low, high] |
 * null, …]` on a dataset, parallel to its data, from the results' bootstrap 95% intervals `ci95`;
 * none when the results have none), point labels (`pointLabels` on a dataset and
 * `options.plugins.backpackLabels.display`), reference lines (`options.plugins.backpackLines`) and
 * tooltips (`tips` on a dataset, one text per data point, with units and metric names). A
 * dataset drawn in a strategy's colour names it in `strategy` (the first one, for a shared series;
 * the skills chart: the listing), which chart.js ignores.
 *
 * Charts (ids are also the PNG file names):
 * - `recall-at-k`: recall@k per ranking strategy, with 95% intervals;
 * - `operating-curve` (retrievers) and `operating-curve-profiles` (profiles): recall@5 against the
 *   no-tool false-positive rate as the floor rises, one line per strategy with an `abstention`
 *   curve, its calibrated floor (`--floor auto`) marked; a curve fixed at x = 1 is named in the
 *   caption instead of drawn;
 * - `recall-vs-tokens`: each profile's recall@5 (`visible` for a profile without a search, marked)
 *   against the tokens it puts in front of the model per request, log scale, with the context
 *   window as a vertical line;
 * - `recall-vs-calls`: the same against the model calls its protocol needs per success (a request
 *   whose gold reached the model; per request for results written before that was counted);
 * - `slices`: headline recall per slice, for up to 8 strategies (best first), with 95% intervals;
 * - `token-table`: tokens of the tool block by tool count (the seed article's table, measured);
 * - `skills`: skill discoverability against listing tokens, at each skill count (one when the
 *   catalog is smaller than every size compared);
 * - `sessions`: exposed-set churn per strategy, per-turn against sticky retrieval.
 * A chart whose section the run did not produce is left out. Every chart's title names the dataset
 * and, where its metric has one, the cut-off k.
 *
 * "Best" never means a profile that does not fit the context window (`tokens.fitsContext < 1`):
 * the charts that pick the 8 best (`recall-at-k`, `slices`) rank such a profile after every one
 * that fits, leave out one that fits in no case (its quality figures do not apply), and label it
 * ("fits 80% of cases", "does not fit") wherever it is drawn.
 */
import type { Results } from '../eval/results.ts';
import { reportStyles, styleAt, type SeriesStyle } from './colours.ts';
import {
  curveOf,
  curveThinness,
  figure,
  fitMark,
  fitNote,
  fitsNowhere,
  floorNumber,
  headline,
  mayBeBest,
  operatingPoint,
  sliceNames,
  strategies,
  contextFit,
  type StrategyView,
} from './view.ts';

export interface ChartSpec {
  id: string;
  title: string;
  /** One sentence under the chart: how to read it. */
  caption: string;
  /** A chart.js configuration (JSON-serialisable). */
  config: { type: string; data: { labels?: Array<string | number>; datasets: Array<Record<string, unknown>> }; options: Record<string, unknown> };
}

/**
 * Tableau 10, by position: for charts whose series are not strategies (bench/scale/chart.ts).
 * Report charts colour strategies with colours.ts instead.
 */
export const PALETTE = ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f', '#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#bab0ac'];

/** The i-th colour of {@link PALETTE} (cycling): for series that are not strategies. */
export function colour(i: number): string {
  return PALETTE[i % PALETTE.length]!;
}

/** A 95% interval. */
type Interval = [number, number];

/** The colour of text and of error bars on filled bars. */
export const INK = '#1d1f23';
/** Colours of the series that are not strategies (outside the strategy palette). */
const OTHER = { blue: '#4477AA', red: '#EE6677', grey: '#7f7f7f' };

/** The styles of one report's strategies; a name it does not know (never, in practice) gets the first style. */
type Styles = (name: string) => SeriesStyle;

function stylesOf(r: Results): Styles {
  const map = reportStyles(r);
  return (name) => map.get(name) ?? styleAt(0);
}

/** chart.js properties of a line or point series in a style. */
function seriesStyle(st: SeriesStyle): Record<string, unknown> {
  return { borderColor: st.colour, backgroundColor: st.colour, pointStyle: st.pointStyle, ...(st.dash.length ? { borderDash: st.dash } : {}) };
}

/**
 * Strategies whose series are identical share one, labelled "a / b" (a line hidden under another
 * says nothing); the shared series keeps the first one's name (for its colour) and extras.
 */
function mergeIdentical<T, E>(
  items: ReadonlyArray<{ name: string; label: string; data: T; extra: E }>,
): Array<{ name: string; label: string; data: T; extra: E }> {
  const out: Array<{ name: string; label: string; data: T; extra: E; key: string }> = [];
  for (const it of items) {
    const key = JSON.stringify(it.data);
    const same = out.find((o) => o.key === key);
    if (same) same.label = `${same.label} / ${it.label}`;
    else out.push({ ...it, key });
  }
  return out.map(({ key: _, ...rest }) => rest);
}

/**
 * The best `n` strategies by `value` (descending, then name), in that order: those that fit the
 * context window first, then those that fit only some cases; those that fit in no case are left out.
 */
function best(all: readonly StrategyView[], value: (s: StrategyView) => number | undefined, n: number): StrategyView[] {
  return all
    .filter((s) => !fitsNowhere(s))
    .map((s) => ({ s, fits: mayBeBest(s) ? 1 : 0, v: value(s) ?? -1 }))
    .sort((a, b) => b.fits - a.fits || b.v - a.v || (a.s.name < b.s.name ? -1 : 1))
    .slice(0, n)
    .map((x) => x.s);
}

/** A strategy's name in a legend, with its context-fit mark when it does not fit every case. */
function seriesName(s: StrategyView): string {
  const mark = fitMark(contextFit(s));
  return mark ? `${s.name} (${mark})` : s.name;
}

/** The k of a metric id (`recall@5` → 5). */
function kOf(metric: string): string {
  return metric.split('@')[1] ?? '';
}

/** A rate for a tooltip: three decimals. */
function rate(v: number): string {
  return v.toFixed(3);
}

/** A whole number with thousands separators. */
function int(v: number): string {
  return Math.round(v).toLocaleString('en-US');
}

/** A 95% interval of a strategy's figure (overall, or of one slice), when the results carry one. */
function intervalOf(s: StrategyView, metric: string, slice?: string): Interval | null {
  const ci = s.results.metrics.ci95;
  const table = slice === undefined ? ci?.overall : ci?.slices?.[slice];
  const iv = table?.[metric];
  return Array.isArray(iv) && iv.length === 2 && Number.isFinite(iv[0]) && Number.isFinite(iv[1]) ? [iv[0], iv[1]] : null;
}

/** "recall@5 0.406 (95% CI 0.38–0.43)"; "recall@5 n/a (…reason)" when the figure does not apply. */
function figureText(metric: string, value: number | null | undefined, iv: Interval | null, reason?: string): string {
  if (value === null || value === undefined) return `${metric} n/a${reason ? ` (${reason})` : ''}`;
  return `${metric} ${rate(value)}${iv ? ` (95% CI ${iv[0].toFixed(2)}–${iv[1].toFixed(2)})` : ''}`;
}

const FONT = { size: 16 };

export interface Axis {
  title: string;
  type?: string;
  min?: number;
  max?: number;
  /** Half a category of room at both ends. */
  offset?: boolean;
}

/** A category axis shows every label: no skipping, rotated up to 45° where they do not fit flat. */
const CATEGORY_TICKS = { font: { size: 14 }, autoSkip: false, maxRotation: 45, minRotation: 0 };
const NUMERIC_TICKS = { font: { size: 14 }, maxRotation: 0, autoSkipPadding: 16 };

/** A chart's chart.js options: title, legend on the right, the two axes, and the project's plugins. */
export function options(title: string, x: Axis, y: Axis, plugins: Record<string, unknown> = {}): Record<string, unknown> {
  const axis = (a: Axis, category: boolean) => ({
    ...(a.type ? { type: a.type } : {}),
    ...(a.min !== undefined ? { min: a.min } : {}),
    ...(a.max !== undefined ? { max: a.max } : {}),
    ...(a.offset !== undefined ? { offset: a.offset } : {}),
    title: { display: true, text: a.title, font: FONT },
    ticks: category ? CATEGORY_TICKS : NUMERIC_TICKS,
  });
  return {
    responsive: false,
    animation: false,
    plugins: {
      title: { display: true, text: title, font: { size: 20, weight: 'bold' } },
      legend: { position: 'right', labels: { font: { size: 14 }, usePointStyle: true } },
      ...plugins,
    },
    // an axis without a type on a bar or line chart is a category axis
    scales: { x: axis(x, x.type === undefined), y: axis(y, false) },
  };
}

/** Point labels on (the backpackLabels plugin). */
const LABELS = { backpackLabels: { display: true, font: { size: 14 } } };

/** Error bars on or off (the backpackErrorBars plugin): off when no dataset has an interval. */
export function errorBarsOption(datasets: ReadonlyArray<Record<string, unknown>>): Record<string, unknown> {
  const any = datasets.some((d) => Array.isArray(d.errorBars) && (d.errorBars as unknown[]).some((b) => b !== null));
  return { backpackErrorBars: { display: any } };
}

/** The caption's sentence on whiskers, when a chart has them. */
function whiskerNote(datasets: ReadonlyArray<Record<string, unknown>>): string {
  return (errorBarsOption(datasets).backpackErrorBars as { display: boolean }).display ? ' Whiskers: bootstrap 95% confidence intervals over the cases.' : '';
}

/**
 * Log-axis bounds that hold every value with a margin: the largest 1, 2 or 5 × 10ⁿ at or below
 * `min / 1.5` and the smallest at or above `max × 1.5`, so no point (nor its label) sits on the edge.
 */
export function logBounds(values: readonly number[]): { min: number; max: number } {
  const pos = values.filter((v) => Number.isFinite(v) && v > 0);
  const lo = (pos.length ? Math.min(...pos) : 1) / 1.5;
  const hi = (pos.length ? Math.max(...pos) : 10) * 1.5;
  // 1, 2 or 5 × a power of ten: round numbers at both ends
  const steps = (v: number) => {
    const p = 10 ** Math.floor(Math.log10(v));
    return [p, 2 * p, 5 * p, 10 * p];
  };
  const min = steps(lo)
    .filter((s) => s <= lo * (1 + 1e-12))
    .pop()!;
  const max = steps(hi).find((s) => s >= hi * (1 - 1e-12))!;
  return { min, max };
}

function recallAtK(r: Results, ranking: readonly StrategyView[], style: Styles): ChartSpec | undefined {
  if (!ranking.length) return undefined;
  const ks = r.config.ks;
  const metric = headline(r);
  const series = mergeIdentical(
    best(ranking, (s) => figure(s, metric).value, 8).map((s) => ({
      name: s.name,
      label: seriesName(s),
      data: ks.map((k) => figure(s, `recall@${k}`).value ?? null),
      extra: ks.map((k) => intervalOf(s, `recall@${k}`)),
    })),
  );
  if (!series.length) return undefined;
  const datasets = series.map((s, i) => {
    const st = style(s.name);
    return {
      label: s.label,
      strategy: s.name,
      data: s.data,
      ...seriesStyle(st),
      borderWidth: 3,
      pointRadius: 5,
      tension: 0,
      errorBars: s.extra,
      errorBarColour: st.colour,
      errorBarOffset: (i - (series.length - 1) / 2) * 5,
      tips: ks.map((k, i) => `${s.label} — ${figureText(`recall@${k}`, s.data[i], s.extra[i]!)}`),
    };
  });
  const kList = ks.join(', ');
  return {
    id: 'recall-at-k',
    title: `Recall@k by strategy (k = ${kList})`,
    caption: `Share of the gold tools among the first k a strategy ranks (overall), for the 8 best by ${metric}; strategies with identical figures share a line. Higher is better; profiles stop at their own search limit.${whiskerNote(datasets)}${fitCaption(ranking)}`,
    config: {
      type: 'line',
      data: { labels: ks.map((k) => `k = ${k}`), datasets },
      options: options(
        `recall@k by strategy — ${r.dataset.name}, k = ${kList}`,
        { title: 'cut-off k (tools ranked)', offset: true },
        { title: 'recall@k (share of gold tools in the top k)', min: 0, max: 1 },
        errorBarsOption(datasets),
      ),
    },
  };
}

/** What the captions of the charts that pick the best say about profiles that do not fit the context window (empty when all fit). */
function fitCaption(shown: readonly StrategyView[], partialAre = 'are ranked after those that fit'): string {
  const partial = shown.filter((s) => !mayBeBest(s) && !fitsNowhere(s)).map((s) => s.name);
  const none = shown.filter(fitsNowhere).map((s) => s.name);
  return [
    partial.length ? ` Profiles whose prompt fits the context window in only some cases (${partial.join(', ')}) ${partialAre}.` : '',
    none.length ? ` Left out, their prompt fitting the context window in no case: ${none.join(', ')}.` : '',
  ].join('');
}

/** A profile's quality point: the headline recall when it searches, else `visible` (marked). */
interface QualityPoint {
  s: StrategyView;
  metric: string;
  y: number;
  text: string;
  iv: Interval | null;
}

function qualityOf(s: StrategyView, metric: string): QualityPoint {
  const m = s.ranks ? metric : 'visible';
  const f = figure(s, m);
  const y = f.value ?? f.raw ?? 0;
  const iv = intervalOf(s, m);
  return { s, metric: m, y, iv, text: figureText(m, f.value ?? f.raw, iv, f.value === undefined && f.raw === undefined ? f.reason : undefined) };
}

/** A profile's name on a point and in a legend: its fit mark, and "visible" when it has no search. */
function profileName(q: QualityPoint): string {
  const marks = [fitMark(contextFit(q.s)), q.s.ranks ? undefined : 'visible'].filter((x): x is string => x !== undefined);
  return marks.length ? `${q.s.name} (${marks.join('; ')})` : q.s.name;
}

/**
 * One large point a profile for a scatter chart, labelled with its name, its tooltip with units;
 * profiles at the same point share it (labelled "a / b").
 */
function profilePoints(points: ReadonlyArray<{ q: QualityPoint; x: number; legend: string; tip: string }>, style: Styles): Array<Record<string, unknown>> {
  return mergeIdentical(
    points.map((p) => ({ name: p.q.s.name, label: profileName(p.q), data: [{ x: p.x, y: p.q.y }], extra: { legend: p.legend, tips: [p.tip], iv: p.q.iv } })),
  ).map((s) => {
    const st = style(s.name);
    const merged = s.label.includes(' / ');
    return {
      label: merged ? s.label : s.extra.legend,
      strategy: s.name,
      data: s.data,
      ...seriesStyle(st),
      pointRadius: 10,
      pointHoverRadius: 12,
      clip: false,
      pointLabels: [s.label],
      errorBars: [s.extra.iv],
      errorBarColour: st.colour,
      tips: [merged ? `${s.label}: ${s.extra.tips[0]}` : s.extra.tips[0]],
    };
  });
}

/** The context windows the profiles were checked against (distinct, ascending). */
function contextWindows(r: Results, profiles: readonly StrategyView[]): number[] {
  const ws = new Set<number>();
  for (const s of profiles) {
    const w = contextFit(s, r)?.window ?? s.profile?.tokens.contextWindow;
    if (typeof w === 'number' && Number.isFinite(w) && w > 0) ws.add(w);
  }
  return [...ws].sort((a, b) => a - b);
}

const QUALITY_AXIS = (metric: string) => `${metric} (share of gold tools in the top ${kOf(metric)}; visible for a profile without a search)`;

function recallVsTokens(r: Results, all: readonly StrategyView[], style: Styles): ChartSpec | undefined {
  const profiles = all.filter((s) => s.profile && s.profile.tokens.perCase > 0);
  if (!profiles.length) return undefined;
  const metric = headline(r);
  const over = profiles.filter((s) => !mayBeBest(s));
  const windows = contextWindows(r, profiles);
  const points = profiles.map((s) => {
    const q = qualityOf(s, metric);
    const x = Math.round(s.profile!.tokens.perCase);
    const note = fitNote(contextFit(s, r));
    return { q, x, legend: profileName(q), tip: `${s.name} — ${q.text}, ${int(x)} tokens per request${note ? `; ${note}` : ''}` };
  });
  const datasets = profilePoints(points, style);
  const bounds = logBounds([...points.map((p) => p.x), ...windows]);
  return {
    id: 'recall-vs-tokens',
    title: `What reaches the model against what it costs (${metric}, k = ${kOf(metric)})`,
    caption: `Each profile: ${metric}, the share of gold tools in its top ${kOf(metric)} after one search (for a profile without a search, marked "visible": the share of gold tools in front of the model), against the tokens it puts in front of the model per request (before search + the search; o200k, log scale). Retrievers are not drawn: they only rank, and results.json gives them no token cost. The dashed vertical line is the context window. Up and left is better.${whiskerNote(datasets)}${over.length ? ` A profile marked "does not fit" or "fits N% of cases" has a prompt larger than the context window in the other cases: there nothing reaches the model, and its figures count them as misses (${over.map((s) => `${s.name}: ${fitNote(contextFit(s, r))}`).join('; ')}).` : ''}`,
    config: {
      type: 'scatter',
      data: { datasets },
      options: options(
        `${metric} vs tokens per request — ${r.dataset.name}, k = ${kOf(metric)}`,
        { title: 'tokens in front of the model per request (o200k, log scale)', type: 'logarithmic', ...bounds },
        { title: QUALITY_AXIS(metric), min: 0, max: 1 },
        {
          ...LABELS,
          ...errorBarsOption(datasets),
          backpackLines: { x: windows.map((w) => ({ value: w, label: `${int(w)}-token context window` })) },
        },
      ),
    },
  };
}

/** 470, 6.8k, 117k, 8.99M: a token count short enough for a legend. */
export function compactTokens(n: number): string {
  const x = Math.round(n);
  if (x < 1000) return String(x);
  if (x < 1e6) return `${x < 1e4 ? (x / 1e3).toFixed(1) : Math.round(x / 1e3)}k`;
  return `${(x / 1e6).toFixed(x < 1e7 ? 2 : 1)}M`;
}

function recallVsCalls(r: Results, all: readonly StrategyView[], style: Styles): ChartSpec | undefined {
  const withCalls = all.filter((s) => s.profile?.calls !== undefined);
  if (!withCalls.length) return undefined;
  const metric = headline(r);
  // Calls per success (cases whose gold became visible), so showing nothing does not look cheap;
  // results written before it was counted are drawn per request, as they were.
  const perSuccess = withCalls.every((s) => s.profile!.calls!.perSuccess !== undefined);
  const callsOf = (s: StrategyView): number | null => (perSuccess ? (s.profile!.calls!.perSuccess ?? null) : s.profile!.calls!.perCase);
  const profiles = withCalls.filter((s) => callsOf(s) !== null);
  const notApplicable = withCalls.filter((s) => callsOf(s) === null).map((s) => s.name);
  if (!profiles.length) return undefined;
  const unit = perSuccess ? 'model calls per success' : 'model calls per request';
  const points = profiles.map((s) => {
    const q = qualityOf(s, metric);
    const x = callsOf(s)!;
    const tokens = s.profile!.tokens.perCase;
    return {
      q,
      x,
      legend: `${profileName(q)} · ${compactTokens(tokens)} tokens`,
      tip: `${s.name} — ${q.text}, ${Number(x.toFixed(2))} ${unit}${perSuccess ? ` (${Number(s.profile!.calls!.perCase.toFixed(2))} per request that needs a tool)` : ''}, ${int(tokens)} tokens per request`,
    };
  });
  const datasets = profilePoints(points, style);
  const maxX = Math.max(0, ...points.map((p) => p.x));
  const counted = perSuccess
    ? 'per success: the mean over the requests whose gold tools all reached the model, so a strategy that shows nothing, and so calls nothing, does not look cheap'
    : 'per request that needs a tool (results written before calls per success were counted)';
  return {
    id: 'recall-vs-calls',
    title: `What reaches the model against the model calls it takes (${metric}, k = ${kOf(metric)})`,
    caption: `Each profile: ${metric} (for a profile without a search, marked "visible": the share of gold tools in front of the model) against the model calls its protocol needs (searches with retries, describe or load calls, namespaces opened, then the tool calls or one code-mode run), ${counted}; the legend gives each profile's tokens per request. Up and left is better.${notApplicable.length ? ` Not applicable (no request's gold reached the model): ${notApplicable.join(', ')}.` : ''}${whiskerNote(datasets)}`,
    config: {
      type: 'scatter',
      data: { datasets },
      options: options(
        `${metric} vs ${unit} — ${r.dataset.name}, k = ${kOf(metric)}`,
        {
          title: perSuccess ? 'model calls per success (gold reached the model)' : 'model calls per request that needs a tool',
          type: 'linear',
          min: 0,
          max: Math.max(1, Math.ceil(maxX * 1.2)),
        },
        { title: QUALITY_AXIS(metric), min: 0, max: 1 },
        { ...LABELS, ...errorBarsOption(datasets) },
      ),
    },
  };
}

function slices(r: Results, all: readonly StrategyView[], style: Styles): ChartSpec | undefined {
  const metric = headline(r);
  const names = sliceNames(r).filter((s) => s !== 'no-tool' && s !== 'skill');
  if (!names.length) return undefined;
  // Strategies that rank (a profile without a search has no recall), up to 8, best overall first;
  // identical series share a bar.
  const chosen = best(
    all.filter((s) => s.ranks),
    (s) => figure(s, metric).value,
    8,
  );
  if (!chosen.length) return undefined;
  const series = mergeIdentical(
    chosen.map((s) => ({
      name: s.name,
      label: seriesName(s),
      data: names.map((n) => figure(s, metric, s.results.metrics.slices[n]).value ?? null),
      extra: names.map((n) => intervalOf(s, metric, n)),
    })),
  );
  const datasets = series.map((s) => ({
    label: s.label,
    strategy: s.name,
    data: s.data,
    backgroundColor: style(s.name).colour,
    borderColor: style(s.name).colour,
    errorBars: s.extra,
    errorBarColour: INK,
    tips: names.map((n, i) => `${s.label} — ${n}: ${figureText(metric, s.data[i], s.extra[i]!)}`),
  }));
  const k = kOf(metric);
  return {
    id: 'slices',
    title: `${metric} by slice (k = ${k})`,
    caption: `${metric} (share of gold tools in the top ${k}) per slice of the cases, for the 8 best ranking strategies (strategies with identical figures share a bar).${whiskerNote(datasets)}${fitCaption(all.filter((s) => s.ranks))}`,
    config: {
      type: 'bar',
      data: { labels: names, datasets },
      options: options(
        `${metric} by slice — ${r.dataset.name}, k = ${k}`,
        { title: 'slice of the cases' },
        { title: `${metric} (share of gold tools in the top ${k})`, min: 0, max: 1 },
        errorBarsOption(datasets),
      ),
    },
  };
}

function tokenTable(r: Results): ChartSpec | undefined {
  const rows = r.tokenTable?.rows;
  if (!rows?.length) return undefined;
  const line = (label: string, colour: string, ys: number[], extra: Record<string, unknown>) => ({
    label,
    data: rows.map((x, i) => ({ x: x.tools, y: ys[i]! })),
    borderColor: colour,
    backgroundColor: colour,
    tips: rows.map((x, i) => `${label} — ${int(x.tools)} tools: ${int(ys[i]!)} tokens`),
    ...extra,
  });
  return {
    id: 'token-table',
    title: 'Tool block tokens by tool count',
    caption: `Tokens of the serialized tool block for n tools sampled evenly from this catalog (o200k), against the seed article's assumed 150 per tool; a 12-turn conversation pays it 12 times uncached.`,
    config: {
      type: 'line',
      data: {
        datasets: [
          line(
            'Anthropic tools JSON',
            OTHER.blue,
            rows.map((x) => x.blockTokens.anthropic),
            { borderWidth: 3, pointRadius: 5 },
          ),
          line(
            'OpenAI function tools',
            OTHER.red,
            rows.map((x) => x.blockTokens.openai),
            { borderWidth: 3, pointRadius: 5, pointStyle: 'rectRot' },
          ),
          line(
            'assumed 150 / tool',
            OTHER.grey,
            rows.map((x) => 150 * x.tools),
            { borderWidth: 2, borderDash: [6, 4], pointRadius: 0 },
          ),
        ],
      },
      options: options(
        `Tool block tokens by tool count — ${r.dataset.name}`,
        { title: 'tools in the block', type: 'linear', min: 0 },
        { title: 'tokens of the tool block (o200k)', min: 0 },
      ),
    },
  };
}

/** Point styles of the skill sizes, in order. */
const SIZE_STYLES = ['circle', 'rectRot', 'triangle', 'rect'] as const;
const SIZE_SHAPES = ['circle', 'diamond', 'triangle', 'square'] as const;

/** A skill listing's name in the legend. */
function listingName(n: string): string {
  return n === 'searched-index' ? 'searched skill index (after one search)' : `${n} listing`;
}

function skills(r: Results, style: Styles): ChartSpec | undefined {
  const all = r.skills?.sizes;
  if (!all?.length) return undefined;
  // Sizes over the catalog take all of it: a size equal to one before adds nothing, so it is drawn once.
  const sizes = all.filter((z, i) => all.findIndex((o) => o.skills === z.skills) === i);
  const collapsed = sizes.length < all.length;
  const names = Object.keys(sizes[0]!.listings);
  const searchK = Math.max(1, ...(r.skills!.ks ?? []));
  const count = (n: number) => n.toLocaleString('en-US');
  const datasets: Array<Record<string, unknown>> = names.map((n) => {
    const st = style(n);
    const points = sizes.map((z) => z.listings[n as keyof typeof z.listings]);
    const ys = points.map((m) => m.discoverability.withDescription ?? 0);
    return {
      label: listingName(n),
      strategy: n,
      data: sizes.map((z, j) => ({ x: Math.max(1, points[j]!.tokens), y: ys[j]!, skills: z.skills })),
      showLine: sizes.length > 1,
      borderColor: st.colour,
      backgroundColor: st.colour,
      ...(st.dash.length ? { borderDash: st.dash } : {}),
      borderWidth: 2,
      pointStyle: sizes.map((_, j) => SIZE_STYLES[j % SIZE_STYLES.length]),
      pointRadius: sizes.map((_, j) => (j === 0 ? 8 : 11)),
      clip: false,
      pointLabels: sizes.map((_, j) => (j === sizes.length - 1 ? n.replace(/^searched-index$/, 'searched index') : '')),
      tips: sizes.map(
        (z, j) =>
          `${listingName(n)} — ${count(z.skills)} skills: discoverability ${rate(ys[j]!)} (share of skill requests whose skill is visible with its description), ${int(points[j]!.tokens)} listing tokens`,
      ),
    };
  });
  // With more than one size, the legend says which shape is which (entries with no data).
  if (sizes.length > 1)
    sizes.forEach((z, j) =>
      datasets.push({
        label: `${SIZE_SHAPES[j % SIZE_SHAPES.length]}: ${count(z.skills)} skills`,
        data: [],
        pointStyle: SIZE_STYLES[j % SIZE_STYLES.length],
        borderColor: OTHER.grey,
        backgroundColor: OTHER.grey,
      }),
    );
  const tokens = sizes.flatMap((z) => names.map((n) => Math.max(1, z.listings[n as keyof typeof z.listings].tokens)));
  const shapes =
    sizes.length > 1
      ? ` Shapes: ${sizes.map((z, j) => `${SIZE_SHAPES[j % SIZE_SHAPES.length]} = ${count(z.skills)} skills`).join(', ')}; a line joins one listing's sizes.`
      : '';
  const collapseNote = collapsed
    ? ` The catalog has only ${count(sizes[sizes.length - 1]!.skills)} skills, so the sizes compared (${all.map((z) => count(z.n)).join(' and ')}) take the whole catalog and give the same listing: ${sizes.length === 1 ? 'one size is drawn' : 'each distinct size is drawn once'}.`
    : '';
  const sizeText = sizes.map((z) => count(z.skills)).join(' and ');
  return {
    id: 'skills',
    title: 'Skill discoverability vs listing tokens',
    caption: `Each harness's skill listing, and a searched skill index after one search (top ${searchK}): the share of skill requests whose gold skill the model sees with its description (up is better) against the tokens the listing puts in front of the model (left is better; o200k, log scale).${shapes}${collapseNote}`,
    config: {
      type: 'scatter',
      data: { datasets },
      options: options(
        `Skill discoverability vs listing tokens — ${r.dataset.name}, ${sizeText} skills, index k = ${searchK}`,
        { title: 'tokens of the skill listing in front of the model (o200k, log scale)', type: 'logarithmic', ...logBounds(tokens) },
        { title: 'discoverability (share of skill requests whose skill is visible with its description)', min: 0, max: 1 },
        LABELS,
      ),
    },
  };
}

function sessions(r: Results, all: readonly StrategyView[], style: Styles): ChartSpec | undefined {
  const withSessions = all.filter((s) => s.results.sessions && s.ranks);
  if (!withSessions.length) return undefined;
  const modes = ['per-turn retrieval', 'sticky per task'];
  return {
    id: 'sessions',
    title: 'Exposed-set churn in multi-turn sessions',
    caption:
      'Share of session turns whose exposed tool set changed from the turn before (each change breaks the cached prefix; 0 = the set never changed), per-turn retrieval against sticky-per-task retrieval, one bar per strategy. Lower is better.',
    config: {
      type: 'bar',
      data: {
        labels: modes,
        datasets: withSessions.map((s) => {
          const data = [s.results.sessions!.perTurn.churn, s.results.sessions!.sticky.churn];
          return {
            label: s.name,
            strategy: s.name,
            data,
            backgroundColor: style(s.name).colour,
            borderColor: style(s.name).colour,
            tips: modes.map((m, i) => `${s.name} — ${m}: ${rate(data[i]!)} of turns changed the exposed set`),
          };
        }),
      },
      options: options(
        `Session churn — ${r.dataset.name}`,
        { title: 'retrieval in a session' },
        { title: 'share of turns with a changed tool set', min: 0, max: 1 },
      ),
    },
  };
}

export const OPERATING_CURVE_CAPTION =
  'Each line is one strategy as its floor score rises: a higher floor drops low-scoring tools, so the strategy shows a tool on fewer requests that need none (x: no-tool false-positive rate, the share of no-tool requests where any non-pinned tool is in front of the model, eager or returned by a search) and keeps fewer gold tools in its top 5 (y: recall@5). Pick a strategy and floor together: further up and left is better. The curves are in-sample (each point is scored on the cases its floor is read from); a triangle marks the floor calibrated with --floor auto on other cases, where the strategy runs.';
/** What the profiles' panel adds to the caption. */
export const PROFILE_CURVE_NOTE =
  " A profile that lists tools other than its harness's own core tools eagerly stays at x = 1 whatever the floor: such a curve is named in the caption, not drawn.";

/** What a caption says of curves drawn over fewer than 10 graded or no-tool cases (empty when none is). */
function thinCaption(list: readonly StrategyView[]): string {
  const thin = list.map((s) => [s.name, curveThinness(s)] as const).filter(([, t]) => t !== undefined);
  if (!thin.length) return '';
  return ` Thin (marked "thin"): ${thin.map(([n, t]) => `${n} ${t!.replace(/^thin: /, '')}`).join('; ')}: one case moves such a curve by a tenth or more.`;
}

/** A curve whose every point has a no-tool false-positive rate of 1 (to 3 decimals): the floor never takes a tool away from a no-tool request. */
function fixedAtOne(curve: ReadonlyArray<{ fp: number }>): boolean {
  return curve.every((p) => p.fp >= 0.9995);
}

/**
 * recall@5 against the no-tool false-positive rate along each strategy's `abstention` curve, its
 * calibrated floor marked: one panel for the retrievers (`operating-curve`) and one for the
 * profiles (`operating-curve-profiles`). A curve fixed at x = 1 (an eager listing: the floor never
 * clears a no-tool request) is set apart in the caption with its recall range, not stacked at the
 * right edge; the calibrated-floor markers are left out of the legend (their series is in it).
 */
function operatingCurve(r: Results, all: readonly StrategyView[], style: Styles, kind: 'retriever' | 'profile'): ChartSpec | undefined {
  // A profile whose prompt fits the context window in no case has no curve that applies (its figures are n/a).
  const ofKind = all.filter((s) => s.kind === kind);
  const withCurve = ofKind.map((s) => ({ s, curve: curveOf(s) })).filter((x) => x.curve !== undefined && !fitsNowhere(x.s));
  const apart = withCurve.filter((x) => fixedAtOne(x.curve!));
  const drawn = withCurve.filter((x) => !fixedAtOne(x.curve!));
  if (!drawn.length) return undefined;
  // Strategies with identical curves share a line, labelled "a / b" (as mergeIdentical, keeping who is in it).
  const groups: Array<{ key: string; names: string[]; members: StrategyView[]; data: Array<{ x: number; y: number; floor: number }> }> = [];
  for (const { s, curve } of drawn) {
    const key = JSON.stringify([mayBeBest(s), curve!.map((p) => [p.fp, p.recall5])]);
    const same = groups.find((g) => g.key === key);
    if (same) {
      same.names.push(seriesName(s));
      same.members.push(s);
    } else groups.push({ key, names: [seriesName(s)], members: [s], data: curve!.map((p) => ({ x: p.fp, y: p.recall5, floor: p.floor })) });
  }
  const tip = (label: string, p: { x: number; y: number; floor: number }) =>
    `${label} — floor ${floorNumber(p.floor)}: recall@5 ${rate(p.y)}, no-tool false-positive rate ${rate(p.x)}`;
  // A profile that fits only some cases: a dashed line (its label says how many fit).
  const datasets: Array<Record<string, unknown>> = groups.map((g) => {
    const label = `${g.names.join(' / ')}${curveThinness(g.members[0]!) ? ' (thin)' : ''}`;
    return {
      label,
      strategy: g.members[0]!.name,
      data: g.data,
      showLine: true,
      ...seriesStyle(style(g.members[0]!.name)),
      ...(mayBeBest(g.members[0]!) ? {} : { borderDash: [4, 6] }),
      borderWidth: 3,
      pointRadius: 3,
      pointHoverRadius: 6,
      tension: 0,
      clip: false,
      pointLabels: g.data.map((_, j) => (j === 0 ? label : '')),
      tips: g.data.map((p) => tip(label, p)),
    };
  });
  for (const g of groups) {
    for (const s of g.members) {
      const p = operatingPoint(r, s);
      if (!p) continue;
      const label = `${seriesName(s)}: calibrated floor ${floorNumber(p.floor)}`;
      datasets.push({
        label,
        strategy: g.members[0]!.name,
        data: [{ x: p.x, y: p.y, floor: p.floor }],
        showLine: false,
        hideInLegend: true,
        pointStyle: 'triangle',
        pointRadius: 12,
        pointHoverRadius: 14,
        borderWidth: 2,
        borderColor: INK,
        backgroundColor: style(g.members[0]!.name).colour,
        clip: false,
        tips: [tip(`${seriesName(s)} (calibrated with --floor auto)`, { x: p.x, y: p.y, floor: p.floor })],
      });
    }
  }
  const range = (c: ReadonlyArray<{ recall5: number }>) => {
    const ys = c.map((p) => p.recall5);
    const [lo, hi] = [Math.min(...ys), Math.max(...ys)];
    return lo === hi ? rate(lo) : `${rate(lo)}–${rate(hi)}`;
  };
  const apartCaption = apart.length
    ? ` Set apart, at a no-tool false-positive rate of 1 whatever the floor (they would stack at the right edge): ${apart.map((x) => `${seriesName(x.s)} (recall@5 ${range(x.curve!)})`).join(', ')}.`
    : '';
  const panel = kind === 'retriever' ? 'retrievers' : 'profiles';
  return {
    id: kind === 'retriever' ? 'operating-curve' : 'operating-curve-profiles',
    title: `Operating curve of the ${panel}: recall@5 against no-tool false positives (k = 5)`,
    caption: `${OPERATING_CURVE_CAPTION}${kind === 'profile' ? PROFILE_CURVE_NOTE : ''}${thinCaption(drawn.map((x) => x.s))}${apartCaption}${fitCaption(
      ofKind.filter((s) => curveOf(s) !== undefined),
      'are drawn dashed',
    )}`,
    config: {
      type: 'scatter',
      data: { datasets },
      options: options(
        `Operating curve, ${panel}: recall@5 vs no-tool false positives — ${r.dataset.name}, k = 5`,
        { title: 'no-tool false-positive rate (share of no-tool requests shown a non-pinned tool)', type: 'linear', min: 0, max: 1 },
        { title: 'recall@5 (share of gold tools in the top 5)', min: 0, max: 1 },
        LABELS,
      ),
    },
  };
}

/** Every chart the results support, in report order; one colour per strategy across all of them (see colours.ts). */
export function chartsOf(r: Results): ChartSpec[] {
  const all = strategies(r);
  const ranking = all.filter((s) => s.ranks);
  const style = stylesOf(r);
  return [
    recallAtK(r, ranking, style),
    operatingCurve(r, all, style, 'retriever'),
    operatingCurve(r, all, style, 'profile'),
    recallVsTokens(r, all, style),
    recallVsCalls(r, all, style),
    slices(r, all, style),
    tokenTable(r),
    skills(r, style),
    sessions(r, all, style),
  ].filter((c): c is ChartSpec => c !== undefined);
}
