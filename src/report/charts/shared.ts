/**
 * What the charts share: the spec type ({@link ChartSpec}), the colours (strategy styles from
 * colours.ts, a palette and fixed colours for series that are not strategies), the chart.js options
 * with the two axes and Backpack's plugins (error bars, point labels), log-axis bounds, and the
 * series helpers (identical series merged, the best 8 picked, names, intervals and tooltip figures).
 */
import type { Results } from '../../eval/results.ts';
import { reportStyles, styleAt, type SeriesStyle } from '../colours.ts';
import { contextFit, fitMark, fitsNowhere, mayBeBest, type StrategyView } from '../view.ts';

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
export type Interval = [number, number];

/** The colour of text and of error bars on filled bars. */
export const INK = '#1d1f23';
/** Colours of the series that are not strategies (outside the strategy palette). */
export const OTHER = { blue: '#4477AA', red: '#EE6677', grey: '#7f7f7f' };

/** The styles of one report's strategies; a name it does not know (never, in practice) gets the first style. */
export type Styles = (name: string) => SeriesStyle;

export function stylesOf(r: Results): Styles {
  const map = reportStyles(r);
  return (name) => map.get(name) ?? styleAt(0);
}

/** chart.js properties of a line or point series in a style. */
export function seriesStyle(st: SeriesStyle): Record<string, unknown> {
  return { borderColor: st.colour, backgroundColor: st.colour, pointStyle: st.pointStyle, ...(st.dash.length ? { borderDash: st.dash } : {}) };
}

/**
 * Strategies whose series are identical share one, labelled "a / b" (a line hidden under another
 * says nothing); the shared series keeps the first one's name (for its colour) and extras.
 */
export function mergeIdentical<T, E>(
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
export function best(all: readonly StrategyView[], value: (s: StrategyView) => number | undefined, n: number): StrategyView[] {
  return all
    .filter((s) => !fitsNowhere(s))
    .map((s) => ({ s, fits: mayBeBest(s) ? 1 : 0, v: value(s) ?? -1 }))
    .sort((a, b) => b.fits - a.fits || b.v - a.v || (a.s.name < b.s.name ? -1 : 1))
    .slice(0, n)
    .map((x) => x.s);
}

/** A strategy's name in a legend, with its context-fit mark when it does not fit every case. */
export function seriesName(s: StrategyView): string {
  const mark = fitMark(contextFit(s));
  return mark ? `${s.name} (${mark})` : s.name;
}

/** The k of a metric id (`recall@5` → 5). */
export function kOf(metric: string): string {
  return metric.split('@')[1] ?? '';
}

/** A rate for a tooltip: three decimals. */
export function rate(v: number): string {
  return v.toFixed(3);
}

/** A whole number with thousands separators. */
export function int(v: number): string {
  return Math.round(v).toLocaleString('en-US');
}

/** A 95% interval of a strategy's figure (overall, or of one slice), when the results carry one. */
export function intervalOf(s: StrategyView, metric: string, slice?: string): Interval | null {
  const ci = s.results.metrics.ci95;
  const table = slice === undefined ? ci?.overall : ci?.slices?.[slice];
  const iv = table?.[metric];
  return Array.isArray(iv) && iv.length === 2 && Number.isFinite(iv[0]) && Number.isFinite(iv[1]) ? [iv[0], iv[1]] : null;
}

/** "recall@5 0.406 (95% CI 0.38–0.43)"; "recall@5 n/a (…reason)" when the figure does not apply. */
export function figureText(metric: string, value: number | null | undefined, iv: Interval | null, reason?: string): string {
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
export const LABELS = { backpackLabels: { display: true, font: { size: 14 } } };

/** Error bars on or off (the backpackErrorBars plugin): off when no dataset has an interval. */
export function errorBarsOption(datasets: ReadonlyArray<Record<string, unknown>>): Record<string, unknown> {
  const any = datasets.some((d) => Array.isArray(d.errorBars) && (d.errorBars as unknown[]).some((b) => b !== null));
  return { backpackErrorBars: { display: any } };
}

/** The caption's sentence on whiskers, when a chart has them. */
export function whiskerNote(datasets: ReadonlyArray<Record<string, unknown>>): string {
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
/** What the captions of the charts that pick the best say about profiles that do not fit the context window (empty when all fit). */
export function fitCaption(shown: readonly StrategyView[], partialAre = 'are ranked after those that fit'): string {
  const partial = shown.filter((s) => !mayBeBest(s) && !fitsNowhere(s)).map((s) => s.name);
  const none = shown.filter(fitsNowhere).map((s) => s.name);
  return [
    partial.length ? ` Profiles whose prompt fits the context window in only some cases (${partial.join(', ')}) ${partialAre}.` : '',
    none.length ? ` Left out, their prompt fitting the context window in no case: ${none.join(', ')}.` : '',
  ].join('');
}
