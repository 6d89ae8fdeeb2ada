/**
 * The case explorer of the HTML reports: every scored case with every strategy's ranking (top k
 * with scores) and outcome, in one or more runs, as compact JSON the page script
 * (`assets/explorer.js`) searches, filters and opens. Tool ids are indices into one table and
 * scores are cut to 4 significant digits, so 6,000 cases × 20 strategies stay a few megabytes; the
 * page renders only the rows asked for (a page of matches at a time).
 *
 * Outcomes per case and strategy (the headline figure, recall@k at the report's k): `hit` (every
 * gold tool in the top k; for `goldMode: any`, one), `partial`, `miss`; a no-tool case is `fp` when
 * a non-pinned tool reached the model, else `ok`; `na` when the strategy has no figure for the case
 * (a skill-only case, a profile without a search is judged on `visible`).
 */
import type { CaseRecord as Case } from '../eval/case-records.ts';
import type { ToolRecord } from '../eval/case-records.ts';
import { factsOfRecords } from '../eval/case-records.ts';
import { perCaseScores, type QueryDetail, type Results } from '../eval/results.ts';
import type { MetricTable } from '../metrics/types.ts';
import { INVISIBLE_SOURCE } from '../util/escape.ts';
import { jsonForScript } from './html/inline.ts';
import { headline, strategies } from './view.ts';

/** One run the explorer shows: its label, results, per-case details and case records. */
export interface ExplorerRun {
  label: string;
  results: Results;
  details: Readonly<Record<string, readonly QueryDetail[]>>;
}

/** What the explorer needs of the tools: id, namespace, and a summary or description for the gold tools. */
export type ExplorerTools = ReadonlyArray<Pick<ToolRecord, 'id'> & { namespace?: string; pinned?: boolean; summary?: string; description?: string }>;

/** Ranked tools kept per case and strategy. */
export const EXPLORER_DEPTH = 5;

type Outcome = 'hit' | 'partial' | 'miss' | 'fp' | 'ok' | 'na';
const OUTCOMES: readonly Outcome[] = ['hit', 'partial', 'miss', 'fp', 'ok', 'na'];

function outcomeOf(scores: MetricTable | undefined, metric: string): Outcome {
  if (!scores) return 'na';
  const v = scores[metric] ?? scores.visible;
  if (v !== undefined) return v >= 1 ? 'hit' : v > 0 ? 'partial' : 'miss';
  const fp = scores.noToolFalsePositiveRate;
  return fp === undefined ? 'na' : fp > 0 ? 'fp' : 'ok';
}

const short = (x: number): number => Number(x.toPrecision(4));

/**
 * The explorer's data for `runs` over `cases` (the first run's case order), tool descriptions from
 * `tools` (a results folder's tool records, or the catalog's tools), as JSON for a
 * `<script type="application/json">` block.
 */
export function explorerData(runs: readonly ExplorerRun[], cases: readonly Case[], tools: ExplorerTools): unknown {
  /** The index of `name` in `list` (appended when new): tool ids, slices and namespaces are sent as indices. */
  const index = (list: string[], map: Map<string, number>, name: string) => {
    let i = map.get(name);
    if (i === undefined) {
      i = list.length;
      list.push(name);
      map.set(name, i);
    }
    return i;
  };
  const toolIndex = new Map<string, number>();
  const toolIds: string[] = [];
  const idx = (id: string): number => index(toolIds, toolIndex, id);
  const namespaceOf = new Map(tools.map((t) => [t.id, t.namespace ?? '']));
  const describe = new Map(tools.map((t) => [t.id, t.summary || t.description || '']));
  const names = [...new Set(runs.flatMap((r) => strategies(r.results).map((s) => s.name)))];
  const metric = headline(runs[0]!.results);
  const slices: string[] = [];
  const sliceIndex = new Map<string, number>();
  const namespaces: string[] = [];
  const nsIndex = new Map<string, number>();
  const rows = cases.map((c) => {
    const gold = c.expectedTools === undefined ? null : [...new Set(c.expectedTools)].map(idx);
    const ns = [...new Set((c.expectedTools ?? []).map((id) => namespaceOf.get(id)).filter((n): n is string => n !== undefined))].sort();
    return [c.id, c.request, c.slices.map((s) => index(slices, sliceIndex, s)), gold, ns.map((n) => index(namespaces, nsIndex, n))];
  });
  const facts = factsOfRecords(tools.map((t) => ({ id: t.id, namespace: t.namespace ?? '', ...(t.pinned ? { pinned: true as const } : {}) })));
  // per run, per strategy: [outcome codes (one char a case), rankings ([tool, score, …] a case)] or null when absent
  const perRun = runs.map((r) =>
    names.map((name) => {
      const details = r.details[name];
      if (!details?.length) return null;
      const scores = perCaseScores(details, cases, facts, r.results.config);
      const byId = new Map(details.map((d) => [d.caseId, d]));
      const outcomes = cases.map((c) => OUTCOMES.indexOf(outcomeOf(scores.get(c.id), metric))).join('');
      const ranked = cases.map((c) => (byId.get(c.id)?.ranked ?? []).slice(0, EXPLORER_DEPTH).flatMap(([id, score]) => [idx(id), short(score)]));
      return [outcomes, ranked];
    }),
  );
  const summaries: Record<number, string> = {};
  for (const c of cases) for (const g of c.expectedTools ?? []) summaries[idx(g)] = describe.get(g) ?? '';
  return {
    metric,
    // the characters the page shows as [U+XXXX], as the static tables do (showInvisible)
    invisible: INVISIBLE_SOURCE,
    depth: EXPLORER_DEPTH,
    outcomes: OUTCOMES,
    runs: runs.map((r) => r.label),
    strategies: names,
    tools: toolIds,
    summaries,
    slices,
    namespaces,
    cases: rows,
    perRun,
  };
}

/** The explorer's markup: its controls, the result table and the case dialog, plus its data block. */
export function explorerHtml(
  data: unknown,
  esc: (s: string) => string,
  filters: { strategies: readonly string[]; slices: readonly string[]; namespaces: readonly string[]; runs: number },
): string {
  const options = (list: readonly string[]) => list.map((x) => `<option value="${esc(x)}">${esc(x)}</option>`).join('');
  const outcomes = ['hit', 'partial', 'miss', 'fp', 'ok', ...(filters.runs > 1 ? ['changed'] : [])];
  const outcomeLabel: Record<string, string> = {
    hit: 'hit (every gold tool in the top k)',
    partial: 'partial',
    miss: 'miss',
    fp: 'false positive (no-tool case)',
    ok: 'no tool shown (no-tool case)',
    changed: 'changed between runs',
  };
  return `<div class="controls explorer-controls">
<label>Search <input type="search" id="x-search" placeholder="request, case or tool id"></label>
<label>Strategy <select id="x-strategy">${options(filters.strategies)}</select></label>
<label>Outcome <select id="x-outcome"><option value="">any</option>${outcomes.map((o) => `<option value="${o}">${esc(outcomeLabel[o]!)}</option>`).join('')}</select></label>
<label>Slice <select id="x-slice"><option value="">any</option>${options(filters.slices)}</select></label>
<label>Namespace <select id="x-namespace"><option value="">any</option>${options(filters.namespaces)}</select></label>
<span id="x-count" aria-live="polite"></span>
</div>
<div class="table-wrap"><table class="data explorer" id="x-table"><thead><tr><th scope="col">case</th><th scope="col">request</th><th scope="col">gold</th><th scope="col">outcome</th><th scope="col">top tools</th></tr></thead><tbody></tbody></table></div>
<p><button type="button" id="x-more" hidden>show more</button></p>
<dialog id="x-dialog" aria-labelledby="x-dialog-title"><form method="dialog"><button class="close" aria-label="close">×</button></form><h2 id="x-dialog-title"></h2><div id="x-dialog-body"></div></dialog>
<script type="application/json" id="x-data">${jsonForScript(data)}</script>`;
}
