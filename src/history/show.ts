/**
 * `backpack history show` as text and as JSON. Per (strategy, figure): a heading with a one-line
 * Unicode sparkline of the values (▁ lowest … █ highest of the series), then one line per run
 * (label, value, 95% interval, change from the previous run), blessed runs marked `*` and listed
 * with their reasons under the table. Untrusted text (labels, strategy and figure names, reasons)
 * is printed on one line with its invisible characters shown (`[U+202E]`), so it can neither
 * break the layout nor send terminal control sequences.
 */
import { showInvisible } from '../util/escape.ts';
import type { HistoryView, Series } from './query.ts';

/** The eight levels of a sparkline, lowest first. */
export const SPARK_LEVELS = '▁▂▃▄▅▆▇█';

/**
 * One character per value: the level of each value between the lowest and the highest of
 * `values` (rounded to the nearest of the eight); a flat series is all `▄`.
 */
export function sparkline(values: readonly number[]): string {
  if (!values.length) return '';
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  return values.map((v) => SPARK_LEVELS[hi === lo ? 3 : Math.round(((v - lo) / (hi - lo)) * 7)]!).join('');
}

/** Untrusted text on one terminal line: line breaks and tabs as spaces, invisible and control characters shown. */
export function plain(s: string): string {
  return showInvisible(String(s).replace(/[\r\n\t\u0085\u2028\u2029]+/g, ' '));
}

/** A figure's value for a table: whole numbers as they are, others with 4 decimals (1 beyond 1,000). */
export function formatValue(v: number): string {
  if (Number.isInteger(v)) return String(v);
  return Math.abs(v) >= 1000 ? v.toFixed(1) : v.toFixed(4);
}

/** A change with its sign (`+0.0123`, `−0.0040`, `0`); empty for the first run. */
export function formatChange(d: number | null): string {
  if (d === null) return '';
  if (d === 0) return '0';
  return `${d > 0 ? '+' : '−'}${formatValue(Math.abs(d))}`;
}

function pad(s: string, n: number): string {
  const len = [...s].length;
  return len >= n ? s : s + ' '.repeat(n - len);
}

/** The table of one series (heading, one line per run, blessed runs listed under it). */
export function seriesText(s: Series, reasons: ReadonlyMap<string, string>): string {
  const labels = s.points.map((p) => `${plain(p.label)}${p.blessed ? ' *' : ''}`);
  const values = s.points.map((p) => formatValue(p.value));
  const cis = s.points.map((p) => (p.ciLow !== null && p.ciHigh !== null ? `[${formatValue(p.ciLow)}, ${formatValue(p.ciHigh)}]` : ''));
  const w = (xs: string[], head: string) => Math.max([...head].length, ...xs.map((x) => [...x].length));
  const wl = w(labels, 'run');
  const wv = w(values, 'value');
  const wc = w(cis, '95% interval');
  const lines = [
    `${plain(s.strategy)} · ${plain(s.figure)}  ${sparkline(s.points.map((p) => p.value))}  (${s.points.length} run${s.points.length === 1 ? '' : 's'})`,
    `  ${pad('run', wl)}  ${pad('value', wv)}  ${pad('95% interval', wc)}  change`,
    ...s.points.map((p, i) => `  ${pad(labels[i]!, wl)}  ${pad(values[i]!, wv)}  ${pad(cis[i]!, wc)}  ${formatChange(p.change)}`.trimEnd()),
  ];
  const blessed = s.points.filter((p) => p.blessed);
  if (blessed.length) {
    lines.push('  * blessed (accepted on purpose):');
    for (const p of blessed) lines.push(`    ${plain(p.label)}: ${plain(reasons.get(p.label) ?? '')}`);
  }
  return lines.join('\n');
}

/** Every series as text, one table each, separated by a blank line. */
export function historyText(view: HistoryView): string {
  if (!view.series.length) return 'no runs recorded yet (record one with backpack history add)\n';
  const reasons = new Map(view.runs.filter((r) => r.blessed).map((r) => [r.label, `${r.blessDate ?? ''} ${r.blessReason ?? ''}`.trim()]));
  return `${view.series.map((s) => seriesText(s, reasons)).join('\n\n')}\n`;
}

/** The view as JSON: the same bytes for the same database (no times of day, no paths). */
export function historyJson(view: HistoryView): string {
  return `${JSON.stringify({ schemaVersion: 1, runs: view.runs, series: view.series }, null, 2)}\n`;
}
