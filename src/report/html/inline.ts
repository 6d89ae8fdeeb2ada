/**
 * What the HTML report inlines so that it opens from disk with no network: chart.js, the page's
 * style sheet and script (`src/report/assets/`, copied beside the compiled code by the build), and
 * the charts' JSON, each written so that it cannot end its element early.
 */
import { readFileSync } from 'node:fs';
import { escapeHtml } from '../../util/escape.ts';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The Content-Security-Policy of the page: nothing may be loaded. */
export const CSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:";

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

const assets = new Map<string, string>();

/** A file of `src/report/assets/` (read once). */
function asset(name: string): string {
  let text = assets.get(name);
  if (text === undefined) {
    text = readFileSync(new URL(`../assets/${name}`, import.meta.url), 'utf8');
    assets.set(name, text);
  }
  return text;
}

/** The page's style sheet. */
export function pageStyle(): string {
  return asset('report.css');
}

/** The page's script: draws every chart from its JSON block and makes `table.sortable` sortable. Reads no untrusted text into code. */
export function pageScript(): string {
  // the chart plugins (error bars, point labels, reference lines, tooltips) first: report.js installs them
  return `${asset('chart-plugins.js')}\n${asset('report.js')}`;
}

/** The case explorer's script (`explorer.ts` gives its data). Reads no untrusted text into code. */
export function explorerScript(): string {
  return asset('explorer.js');
}

/** The comparison page's script: filters the changed cases by text, strategy and outcome. Reads no untrusted text into code. */
export function compareScript(): string {
  return asset('compare.js');
}

/**
 * The start of a report page, up to and including `<body>`: the charset, the Content-Security-Policy
 * that loads nothing, the viewport, no referrer, the generator, the escaped `title` and the style sheet.
 */
export function pageHead(title: string, generator: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="generator" content="${escapeHtml(generator)}">
<title>${escapeHtml(title)}</title>
<style>
${pageStyle()}</style>
</head>
<body>
`;
}

/** The end of a report page: each script (already safe to inline, see {@link scriptSafe}) in its own `<script>`, then `</body></html>`. */
export function pageEnd(scripts: readonly string[]): string {
  return `${scripts.map((js) => `<script>\n${js}</script>\n`).join('')}</body>
</html>
`;
}
