/**
 * Replayed agent traces: which tool the agent actually called for a case (or none). With them the
 * evaluation separates the two failures the seed article keeps apart: retrieval never exposed the
 * right tool ("retrieval missed it"), or it did and the agent chose wrong.
 */
import { parse } from 'csv-parse/sync';
import { readText } from '../catalog/dataset-files.ts';
import { InputError } from '../util/errors.ts';
import { didYouMean } from '../util/suggest.ts';
import type { Case } from '../catalog/types.ts';
import type { CatalogFacts } from '../metrics/types.ts';
import type { QueryDetail } from './results.ts';

export interface Trace {
  caseId: string;
  /** The tool the agent called, or null when it called none. */
  called: string | null;
}

export interface AgentMetrics {
  /** The exposure cut-off that "retrieved" refers to. */
  k: number;
  tracedGradedCases: number;
  tracedNoToolCases: number;
  /** Graded cases where the agent did not call a gold tool (another tool, or none). */
  wrongToolRate?: number;
  /** …of which no gold tool had been exposed to it: retrieval missed it. */
  retrievalMissedRate?: number;
  /** …of which a gold tool was exposed and the agent chose otherwise. */
  chosenWrongRate?: number;
  /** No-tool cases where the agent called a non-pinned tool. */
  noToolFalsePositiveRate?: number;
}

/** Read `case_id,called_tool` CSV (empty called_tool = the agent called nothing). */
export function loadTraces(file: string, cases: readonly Case[], catalog: { tools: ReadonlyArray<{ id: string }> }): Map<string, Trace> {
  let rows: Array<Record<string, string>>;
  try {
    rows = parse(readText(file), { columns: true, skip_empty_lines: true, trim: true, bom: true }) as Array<Record<string, string>>;
  } catch (err) {
    if (err instanceof InputError) throw err;
    throw new InputError(`invalid CSV: ${(err as Error).message}`, { file });
  }
  const caseIds = new Set(cases.map((c) => c.id));
  const toolIds = new Set(catalog.tools.map((t) => t.id));
  const out = new Map<string, Trace>();
  rows.forEach((row, i) => {
    const where = `row ${i + 2}`;
    if (!('case_id' in row) || !('called_tool' in row)) throw new InputError('trace CSV needs the columns case_id,called_tool', { file, where: 'row 1' });
    const caseId = row.case_id!;
    if (!caseIds.has(caseId)) throw new InputError(`unknown case id "${caseId}"${didYouMean(caseId, caseIds)}`, { file, where });
    if (out.has(caseId)) throw new InputError(`case "${caseId}" has two traces`, { file, where });
    const called = row.called_tool === '' ? null : row.called_tool!;
    if (called !== null && !toolIds.has(called)) throw new InputError(`unknown tool id "${called}"${didYouMean(called, toolIds)}`, { file, where });
    out.set(caseId, { caseId, called });
  });
  return out;
}

/** Agent-level figures for one retriever's exposure (ranked top `k` plus pinned tools). */
export function agentMetrics(
  cases: readonly Case[],
  details: readonly QueryDetail[],
  facts: CatalogFacts,
  traces: ReadonlyMap<string, Trace>,
  k: number,
): AgentMetrics {
  const byCase = new Map(details.map((d) => [d.caseId, d]));
  let graded = 0;
  let wrong = 0;
  let missed = 0;
  let chosenWrong = 0;
  let noTool = 0;
  let fp = 0;
  for (const c of cases) {
    const t = traces.get(c.id);
    const d = byCase.get(c.id);
    if (!t || !d || c.expectedTools === undefined) continue;
    if (c.expectedTools.length === 0) {
      noTool++;
      if (t.called !== null && !facts.pinned.has(t.called)) fp++;
      continue;
    }
    graded++;
    const gold = new Set(c.expectedTools);
    if (t.called !== null && gold.has(t.called)) continue;
    wrong++;
    const exposed = [...d.ranked.slice(0, k).map(([id]) => id), ...d.pinned];
    if (exposed.some((id) => gold.has(id))) chosenWrong++;
    else missed++;
  }
  return {
    k,
    tracedGradedCases: graded,
    tracedNoToolCases: noTool,
    ...(graded ? { wrongToolRate: wrong / graded, retrievalMissedRate: missed / graded, chosenWrongRate: chosenWrong / graded } : {}),
    ...(noTool ? { noToolFalsePositiveRate: fp / noTool } : {}),
  };
}
