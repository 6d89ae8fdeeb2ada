/** How the HTML report writes numbers and long text: rates, integers, milliseconds, percentages, folded requests. */
import { metricInfo } from '../../metrics/ids.ts';
import { escapeHtml as esc } from '../../util/escape.ts';

export function isNum(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v);
}

export const DASH = '–';

export function fmtRate(v: number | null | undefined): string {
  return isNum(v) ? v.toFixed(3) : DASH;
}

export function fmtInt(v: number | null | undefined): string {
  return isNum(v) ? Math.round(v).toLocaleString('en-US') : DASH;
}

/** Model calls: means, two decimals (1.00 … 5.25). */
export function fmtCalls(v: number | null | undefined): string {
  return isNum(v) ? (v >= 100 ? Math.round(v).toLocaleString('en-US') : v.toFixed(2)) : DASH;
}

export function fmtMs(v: number | null | undefined): string {
  return isNum(v) ? (v >= 100 ? Math.round(v).toLocaleString('en-US') : v.toFixed(v >= 10 ? 1 : 2)) : DASH;
}

export function fmtPct(v: number | null | undefined): string {
  return isNum(v) ? `${(v * 100).toFixed(1)}%` : DASH;
}

export function fmtScore(v: number): string {
  return isNum(v) ? (Math.abs(v) >= 1000 ? v.toFixed(0) : v.toFixed(3)) : String(v);
}

/** Counts are integers; everything else a metric table holds is a rate or a mean. */
export function fmtMetric(metric: string, v: number | undefined): string {
  return isCount(metric) ? fmtInt(v) : fmtRate(v);
}

/** Case counts and the scope-leak count. */
function isCount(metric: string): boolean {
  return metricInfo(metric)?.group === 'count' || metric === 'scopeLeakCount';
}

/** At most `n` code points of `s`, with an ellipsis when cut. */
export function clip(s: string, n: number): string {
  const cps = Array.from(s);
  return cps.length > n ? `${cps.slice(0, n).join('')}…` : s;
}

/** Characters of a request shown before the rest is folded away. */
export const REQUEST_CHARS = 400;

/**
 * Untrusted text that may be long, as HTML: escaped, and past `n` characters cut with the whole
 * text behind a "show all" fold, so one 100 KB request cannot make a table thousands of pixels tall.
 */
export function foldedText(s: string, n = REQUEST_CHARS): string {
  const cps = Array.from(s);
  if (cps.length <= n) return esc(s);
  return `${esc(cps.slice(0, n).join(''))}… <details class="fold"><summary>show all ${esc(fmtInt(cps.length))} characters</summary><div class="whole">${esc(s)}</div></details>`;
}
