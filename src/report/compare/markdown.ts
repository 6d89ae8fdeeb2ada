/**
 * The Markdown of a comparison (`summary.md` of `backpack report BASE HEAD`), for a pull-request
 * comment: per later run, each strategy's headline figures in base and head, the change with its
 * paired 95% interval and a verdict, then the cases that changed with both rankings (in
 * collapsible blocks). Untrusted text (labels, strategy names, requests, tool ids) is escaped.
 */
import { higherIsBetter, metricLabel } from '../../metrics/ids.ts';
import { changedCasesText, minChangedForTest, pValue } from '../../metrics/change.ts';
import { escapeMarkdown as md, markdownId } from '../../util/escape.ts';
import type { ChangedCase, Comparison, FigureChange, RunComparison } from './model.ts';

/** Changed cases listed per strategy and direction in the Markdown (the HTML lists them all). */
export const MARKDOWN_CHANGED_CASES = 10;
/** A request longer than this is cut in the Markdown. */
const REQUEST_CHARS = 160;

const DASH = '–';

/** The change rule in one paragraph (the comparison's Markdown and HTML, and docs/report.md). */
export const CHANGE_RULE = `Change: head − base. Interval: paired bootstrap over the cases both runs scored (1,000 resamples), descriptive. Verdict: the rule the gate uses — with ${minChangedForTest()} or more changed cases, the paired randomization test decides (better or worse at p < 0.05, else within noise); with fewer, no test can reach p < 0.05, so the changed cases are named and decide.`;
/** A figure to three decimals, or a dash when it does not apply. */
export const fmt = (x: number | undefined): string => (x === undefined ? DASH : x.toFixed(3));
/** A change with its sign (`+0.012`, `−0.004`, `0.000`), or a dash when it does not apply. */
export const signed = (x: number | undefined): string => (x === undefined ? DASH : x === 0 ? '0' : `${x > 0 ? '+' : '−'}${Math.abs(x).toFixed(4)}`);
const code = (s: string): string => `\`${s.replace(/`/g, "'").replace(/[\r\n]/g, ' ')}\``;

/**
 * The verdict of a change in words a reviewer scans: ▲ better, ▼ worse, ◆ changed (a figure with no
 * direction), = within noise, = same, n/a; with the p-value when the paired test decided, or the
 * changed cases by name when too few changed for any test (the gate prints the same).
 */
export function verdictText(f: FigureChange): string {
  const word =
    f.verdict === 'better'
      ? '▲ better'
      : f.verdict === 'worse'
        ? '▼ worse'
        : f.verdict === 'changed'
          ? '◆ changed'
          : f.verdict === 'same'
            ? f.delta === undefined || f.delta === 0
              ? '= same'
              : '= within noise'
            : 'n/a';
  if (f.verdict === 'n/a' || f.basis === undefined) return word;
  if (f.basis === 'cases')
    return f.cases && f.cases.up.length + f.cases.down.length ? `${word} (${changedCasesText(f.cases, higherIsBetter(f.figure))})` : word;
  return `${word} (p=${pValue(f.p!)})`;
}

function intervalText(f: FigureChange): string {
  return f.ci95 ? `${signed(f.ci95[0])} … ${signed(f.ci95[1])}` : DASH;
}

function ranking(list: ReadonlyArray<[string, number]>, gold: ReadonlySet<string>): string {
  if (!list.length) return '(nothing)';
  return list.map(([id]) => (gold.has(id) ? `**${markdownId(id)}**` : markdownId(id))).join(', ');
}

function changedLine(c: ChangedCase): string {
  const gold = new Set(c.expected);
  const request = c.request.length > REQUEST_CHARS ? `${c.request.slice(0, REQUEST_CHARS)}…` : c.request;
  const expected = c.expected.length ? c.expected.map(markdownId).join(', ') : 'none (a no-tool case)';
  return `- ${markdownId(c.caseId)} ${md(request)} — gold: ${expected}<br>base: ${ranking(c.baseRanked, gold)}<br>head: ${ranking(c.headRanked, gold)}`;
}

function pairSection(p: RunComparison, headline: string): string[] {
  const lines = [`## ${md(p.head)} against ${md(p.base)}`, ''];
  if (!p.strategies.length) lines.push('No strategy is in both runs.');
  else {
    lines.push('| strategy | figure | base | head | change | 95% interval of the change | verdict |', '| --- | --- | ---: | ---: | ---: | ---: | --- |');
    for (const s of p.strategies)
      for (const f of s.figures)
        lines.push(
          `| ${md(s.name)} | ${md(metricLabel(f.figure))} | ${fmt(f.base)} | ${fmt(f.head)} | ${signed(f.delta)} | ${intervalText(f)} | ${verdictText(f)} |`,
        );
    lines.push('', `_${CHANGE_RULE}_`);
  }
  if (p.onlyBase.length) lines.push('', `Only in ${md(p.base)}: ${p.onlyBase.map(md).join(', ')}.`);
  if (p.onlyHead.length) lines.push('', `Only in ${md(p.head)}: ${p.onlyHead.map(md).join(', ')}.`);
  const changed = p.strategies.filter((s) => s.won.length || s.lost.length);
  lines.push('', `### Cases whose ${md(metricLabel(headline))} changed`, '');
  if (!changed.length) lines.push(`No case changed its ${md(metricLabel(headline))} (no-tool cases: false positive or not).`);
  for (const s of changed) {
    lines.push(`**${md(s.name)}**: ${s.won.length} won, ${s.lost.length} lost.`, '');
    for (const [what, list] of [
      ['lost', s.lost],
      ['won', s.won],
    ] as const) {
      if (!list.length) continue;
      const shown = list.slice(0, MARKDOWN_CHANGED_CASES);
      lines.push(
        `<details><summary>${what} (${list.length}${list.length > shown.length ? `, first ${shown.length} shown` : ''})</summary>`,
        '',
        ...shown.map(changedLine),
        '',
        '</details>',
        '',
      );
    }
  }
  return lines;
}

/** The Markdown of a comparison; `reportPath`: where the HTML is (a URL becomes a link). */
export function comparisonMarkdown(c: Comparison, opts: { title?: string; reportLink?: string } = {}): string {
  const base = c.runs[0]!;
  const lines = [`# ${md(opts.title ?? `Backpack comparison — ${c.runs.map((r) => r.label).join(' → ')}`)}`, ''];
  lines.push(
    ...c.runs.map(
      (r, i) =>
        `- ${i === 0 ? 'base' : 'head'}: **${md(r.label)}**, dataset ${md(r.results.dataset.name)}, ${r.results.dataset.cases.toLocaleString('en-US')} cases, catalog ${code(r.results.dataset.catalogSha256.slice(0, 12))}`,
    ),
  );
  lines.push(
    '',
    `Cases are compared on ${md(metricLabel(c.headline))} (a no-tool case on whether a tool was shown); rankings show the top ${c.k}, gold tools in bold.`,
  );
  if (base.results.dataset.catalogSha256 === c.runs[1]?.results.dataset.catalogSha256)
    lines.push('', '_The runs share one catalog: the changes come from the configuration or the strategies._');
  for (const p of c.pairs) lines.push('', ...pairSection(p, c.headline));
  if (opts.reportLink) lines.push('', opts.reportLink);
  return `${lines.join('\n')}\n`;
}
