/** The Worst misses section: graded cases where the best strategy put no gold tool in its top k, worst first. */
import type { CaseRecord as Case } from '../../eval/case-records.ts';

/**
 * What a report reads of a catalog: each tool's id and, when known, its summary and description.
 * A catalog is one, and so are a results folder's tool records (`tools.jsonl`): the report needs
 * no catalog module.
 */
export interface ReportCatalog {
  tools: ReadonlyArray<{ id: string; summary?: string; description?: string }>;
}
import type { QueryDetail, Results } from '../../eval/results.ts';
import { escapeHtml as esc } from '../../util/escape.ts';
import { headline, type StrategyView, winner, winnerHtml } from '../view.ts';
import { clip, fmtInt, fmtScore, foldedText } from './format.ts';
import { absent, code, NOT_IN_RUN, section, table, type Column } from './table.ts';

/** What the worst misses are read from, besides the results. */
export interface MissInputs {
  /** Per-case details per strategy (`details/<name>.jsonl`): needed for the worst misses. */
  details?: Readonly<Record<string, readonly QueryDetail[]>>;
  /** The run's cases: request texts and gold tools of the worst misses. */
  cases?: readonly Case[];
  /** The gold tools' descriptions, from the catalog or a results folder's `tools.jsonl` (`summary`, else `description`). */
  catalog?: ReportCatalog;
}

/** How many misses the section lists, and how much of a gold tool's description each shows. */

const WORST_MISSES = 20;
const DESCRIPTION_CHARS = 240;

interface Miss {
  c: Case;
  d: QueryDetail;
  gold: string[];
  /** 0-based rank of the first gold tool in the ranking, or -1 when it is not in it at all. */
  goldRank: number;
}

/** The Worst misses section. */
export function worstMissesSection(r: Results, all: readonly StrategyView[], opts: MissInputs): string {
  const title = 'Worst misses';
  const metric = headline(r);
  const k = Number(metric.split('@')[1]) || 5;
  const details = opts.details;
  if (!details || !opts.cases)
    return section(
      'worst-misses',
      title,
      '',
      absent(`${NOT_IN_RUN}: the worst misses need the per-case details and the cases (${!details ? 'details' : 'cases'} not given to the report).`),
    );
  const b = winner(all, metric, (s) => (details[s.name]?.length ?? 0) > 0 && (s.ranks || !all.some((x) => x.ranks && details[x.name]?.length)));
  if (!b) return section('worst-misses', title, '', absent(`${NOT_IN_RUN}: no strategy has per-case details.`));
  const caseById = new Map(opts.cases.map((c) => [c.id, c]));
  const tools = new Map((opts.catalog?.tools ?? []).map((t) => [t.id, t]));
  const misses: Miss[] = [];
  let graded = 0;
  for (const d of details[b.s.name] ?? []) {
    const c = caseById.get(d.caseId);
    if (!c?.expectedTools?.length) continue;
    graded++;
    const gold = [...new Set(c.expectedTools)];
    const seen = new Set<string>([...d.ranked.slice(0, k).map(([id]) => id), ...(d.pinned ?? []), ...(d.eager ?? [])]);
    if (gold.some((g) => seen.has(g))) continue;
    const goldSet = new Set(gold);
    misses.push({ c, d, gold, goldRank: d.ranked.findIndex(([id]) => goldSet.has(id)) });
  }
  // Worst first: gold nowhere in the ranking, then gold ranked deepest; ties by case id (code-unit order).
  const depth = (m: Miss) => (m.goldRank < 0 ? Infinity : m.goldRank);
  misses.sort((a, b) => depth(b) - depth(a) || (a.c.id < b.c.id ? -1 : a.c.id > b.c.id ? 1 : 0));
  const intro = `Graded cases where ${winnerHtml(b, esc)}${b.metric === metric ? '' : ' (none ranks)'} put no gold tool in its top ${esc(String(k))}: ${esc(fmtInt(misses.length))} of ${esc(fmtInt(graded))}${misses.length > WORST_MISSES ? `, the ${WORST_MISSES} worst shown (gold not ranked at all first, then ranked deepest; ties by case id)` : ''}.`;
  if (!misses.length) return section('worst-misses', title, intro, absent('No miss: every graded case had a gold tool in the top k.'));
  const goldHtml = (id: string) => {
    const t = tools.get(id);
    const desc = t ? clip(t.summary || t.description || '', DESCRIPTION_CHARS) : '';
    return `<li><code>${esc(id)}</code>${desc ? `<div class="desc">${esc(desc)}</div>` : ''}</li>`;
  };
  const instead = (m: Miss) => {
    const top = m.d.ranked.slice(0, k);
    if (!top.length) return '<span class="none">nothing (no tool passed the floor)</span>';
    return `<ol class="instead">${top.map(([id, score]) => `<li><code>${esc(id)}</code> <span class="score">${esc(fmtScore(score))}</span></li>`).join('')}</ol>`;
  };
  const where = (m: Miss) =>
    m.goldRank >= 0 ? `first gold at rank ${m.goldRank + 1}` : m.d.ranked.length ? `not in the ${m.d.ranked.length} ranked` : 'nothing ranked';
  const rows = misses.slice(0, WORST_MISSES).map((m) => [
    code(m.c.id),
    {
      html: `<div class="request">${foldedText(m.c.request)}</div>${m.c.slices.length ? `<div class="slices">${m.c.slices.map((s) => `<span class="tag">${esc(s)}</span>`).join(' ')}</div>` : ''}`,
    },
    {
      html: `<ul class="gold">${m.gold.map(goldHtml).join('')}</ul>${m.c.goldMode === 'any' && m.gold.length > 1 ? '<div class="note">any one will do</div>' : ''}<div class="note">${esc(where(m))}</div>`,
    },
    { html: instead(m) },
  ]);
  const columns: Column[] = [{ label: 'case' }, { label: 'request' }, { label: 'gold tool(s)' }, { label: `what came instead (top ${k}, score)` }];
  return section('worst-misses', title, intro, table(columns, rows, { className: 'misses' }));
}
