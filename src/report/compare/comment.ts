/**
 * The pull-request comment of a comparison (`comment.md` of `backpack report BASE HEAD`): only
 * what moved — the figures whose change the change rule calls more than noise (worse first), and
 * the cases that changed for the most strategies — so a reviewer reads it in one screen; the rest
 * (every figure, every changed case with both rankings) is in summary.md and report.html.
 * Untrusted text (requests, tool ids, strategy names) is escaped; ids are code spans.
 */
import { metricLabel } from '../../metrics/ids.ts';
import { escapeMarkdown as md, markdownId } from '../../util/escape.ts';
import { goldRemovedCases } from '../view.ts';
import { fmt, signed, verdictText } from './markdown.ts';
import type { Comparison, FigureChange, RunComparison } from './model.ts';

/** Moved figures listed per later run (the rest are counted). */
export const COMMENT_FIGURES = 15;
/** Changed cases listed per later run. */
export const COMMENT_CASES = 5;
/** A request longer than this is cut. */
const REQUEST_CHARS = 100;

const ORDER: Record<FigureChange['verdict'], number> = { worse: 0, changed: 1, better: 2, same: 3, 'n/a': 4 };
const moved = (f: FigureChange): boolean => f.verdict === 'worse' || f.verdict === 'better' || f.verdict === 'changed';

/** A case that changed, with the strategies it was lost and won for. */
interface CaseMove {
  caseId: string;
  request: string;
  expected: readonly string[];
  lost: string[];
  won: string[];
}

/** Cases by how many strategies they changed for (lost first), then case order. */
function caseMoves(p: RunComparison): CaseMove[] {
  const byId = new Map<string, CaseMove>();
  for (const s of p.strategies)
    for (const c of [...s.lost, ...s.won]) {
      let m = byId.get(c.caseId);
      if (!m) byId.set(c.caseId, (m = { caseId: c.caseId, request: c.request, expected: c.expected, lost: [], won: [] }));
      (c.change === 'lost' ? m.lost : m.won).push(s.name);
    }
  return [...byId.values()]
    .map((m, i) => ({ m, i }))
    .sort((a, b) => b.m.lost.length - a.m.lost.length || b.m.won.length - a.m.won.length || a.i - b.i)
    .map(({ m }) => m);
}

function caseLine(m: CaseMove): string {
  const request = m.request.length > REQUEST_CHARS ? `${m.request.slice(0, REQUEST_CHARS)}…` : m.request;
  const gold = m.expected.length ? `gold ${m.expected.map(markdownId).join(', ')}` : 'no-tool case';
  const parts = [...(m.lost.length ? [`lost for ${m.lost.map(md).join(', ')}`] : []), ...(m.won.length ? [`won for ${m.won.map(md).join(', ')}`] : [])];
  return `- ${markdownId(m.caseId)} ${md(request)} — ${gold}: ${parts.join('; ')}`;
}

function pairComment(p: RunComparison, headline: string, several: boolean): string[] {
  const lines: string[] = [];
  if (several) lines.push(`#### ${md(p.head)} against ${md(p.base)}`, '');
  const all = p.strategies.flatMap((s) => s.figures.map((f) => ({ s: s.name, f })));
  const rows = all.filter(({ f }) => moved(f)).sort((a, b) => ORDER[a.f.verdict] - ORDER[b.f.verdict]);
  const worse = rows.filter(({ f }) => f.verdict === 'worse').length;
  const better = rows.filter(({ f }) => f.verdict === 'better').length;
  if (!rows.length) lines.push(`**No figure moved**: all ${all.length} compared are the same or within noise.`);
  else {
    lines.push(
      `**${rows.length} of ${all.length} figures moved**: ${worse} worse, ${better} better${rows.length - worse - better ? `, ${rows.length - worse - better} changed` : ''}.`,
      '',
      '| strategy | figure | base | head | change | verdict |',
      '| --- | --- | ---: | ---: | ---: | --- |',
    );
    for (const { s, f } of rows.slice(0, COMMENT_FIGURES))
      lines.push(`| ${md(s)} | ${md(metricLabel(f.figure))} | ${fmt(f.base)} | ${fmt(f.head)} | ${signed(f.delta)} | ${verdictText(f)} |`);
    if (rows.length > COMMENT_FIGURES) lines.push('', `… and ${rows.length - COMMENT_FIGURES} more moved figures in the full comparison.`);
  }
  const moves = caseMoves(p);
  lines.push('');
  if (!moves.length) lines.push(`No case changed its ${md(metricLabel(headline))}.`);
  else {
    lines.push(
      `**${moves.length} case${moves.length === 1 ? '' : 's'} changed ${moves.length === 1 ? 'its' : 'their'} ${md(metricLabel(headline))}**${moves.length > COMMENT_CASES ? ` (the ${COMMENT_CASES} that moved most strategies)` : ''}:`,
      '',
    );
    lines.push(...moves.slice(0, COMMENT_CASES).map(caseLine));
  }
  return lines;
}

/** The comment's Markdown: per later run, its moved figures and top changed cases; removed and renamed gold of the last run; the link. */
export function comparisonComment(c: Comparison, opts: { reportLink?: string } = {}): string {
  const lines: string[] = [];
  const several = c.pairs.length > 1;
  for (const p of c.pairs) lines.push(...pairComment(p, c.headline, several), '');
  const d = c.runs.at(-1)!.results.dataset;
  if (d.goldRemoved)
    lines.push(
      `**Gold tools not in the catalog** (scored as misses): ${Object.entries(d.goldRemoved)
        .map(([id, cases]) => `${markdownId(id)} (${md(goldRemovedCases(cases))})`)
        .join('; ')}.`,
      '',
    );
  if (d.goldRenamed)
    lines.push(
      `**Gold tools renamed**: ${Object.entries(d.goldRenamed)
        .map(([from, a]) => `${markdownId(from)} → ${markdownId(a.to)} (${md(goldRemovedCases(a.cases))})`)
        .join('; ')}.`,
      '',
    );
  if (opts.reportLink) lines.push(opts.reportLink, '');
  return `${lines.join('\n').trimEnd()}\n`;
}
