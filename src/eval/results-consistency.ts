/**
 * A results folder that contradicts itself is refused before anything uses it (issue 34): the
 * schema says each file is well formed (`results-validate.ts`); this says they agree. Every rate in
 * [0, 1]; each strategy's `details/<name>.jsonl` holds exactly one record per case of `cases.jsonl`,
 * no case twice, none unknown; every tool a record ranks is in `tools.jsonl`; and each strategy's
 * records give the overall figures results.json states (recomputed as the run computed them), so
 * the details of two strategies swapped, or a figure edited, are caught. The first disagreement is
 * an `InputError` naming the file and the place (exit 2).
 */
import { join } from 'node:path';
import { InputError } from '../util/errors.ts';
import { CASES_FILE, type CaseRecords, factsOfRecords, TOOLS_FILE } from './case-records.ts';
import { overallOfDetails, type QueryDetail, type Results } from './results.ts';

/** Metric names that are rates (a share of cases, a mean of per-case values in [0, 1]). */
const RATE = /^(?:top1|recall@\d+|mrr@\d+|ndcg@\d+|precision@\d+|hit@\d+|visible|fitsContext|.*Rate)$/;

/** How far a recomputed figure may be from the stored one: the run writes the same doubles, so only rounding of a sum in another order. */
const TOLERANCE = 1e-9;

type Strategy = { kind: 'retrievers' | 'profiles'; name: string; metrics: Results['retrievers'][string]['metrics'] };

function strategiesOf(results: Results): Strategy[] {
  return [
    ...Object.entries(results.retrievers).map(([name, r]) => ({ kind: 'retrievers' as const, name, metrics: r.metrics })),
    ...Object.entries(results.profiles ?? {}).map(([name, r]) => ({ kind: 'profiles' as const, name, metrics: r.metrics })),
  ];
}

/** Throw unless every rate of every strategy's tables (overall, slices, namespaces) is in [0, 1]. */
export function checkRates(results: Results, file: string): void {
  for (const s of strategiesOf(results)) {
    const tables: Array<[string, Record<string, number> | undefined]> = [
      ['overall', s.metrics.overall],
      ...Object.entries(s.metrics.slices ?? {}).map(([k, t]) => [`slices[${JSON.stringify(k)}]`, t] as [string, Record<string, number>]),
      ...Object.entries(s.metrics.namespaces ?? {}).map(([k, t]) => [`namespaces[${JSON.stringify(k)}]`, t] as [string, Record<string, number>]),
    ];
    for (const [where, table] of tables) {
      for (const [metric, v] of Object.entries(table ?? {})) {
        if (!RATE.test(metric) || typeof v !== 'number' || Number.isNaN(v)) continue;
        if (v < 0 || v > 1)
          throw new InputError(`${s.name}: ${metric} is ${v}, not a rate in [0, 1] (the file was edited, or written by something else)`, {
            file,
            where: `$.${s.kind}[${JSON.stringify(s.name)}].metrics.${where}[${JSON.stringify(metric)}]`,
          });
      }
    }
  }
}

/**
 * Throw unless the details agree with `cases.jsonl`, `tools.jsonl` and results.json (see the module
 * comment). `records`: the folder's case and tool records (a folder written before they were kept
 * has none, and only its rates are checked).
 */
export function checkRunConsistency(
  dir: string,
  results: Results,
  details: Readonly<Record<string, readonly QueryDetail[]>>,
  records: CaseRecords | undefined,
): void {
  checkRates(results, join(dir, 'results.json'));
  if (records === undefined) return;
  const caseIds = new Set(records.cases.map((c) => c.id));
  const toolIds = new Set(records.tools.map((t) => t.id));
  const facts = factsOfRecords(records.tools);
  for (const s of strategiesOf(results)) {
    const file = join(dir, 'details', `${s.name}.jsonl`);
    const list = details[s.name] ?? [];
    const seen = new Set<string>();
    list.forEach((d, i) => {
      const where = `line ${i + 1}`;
      if (seen.has(d.caseId)) throw new InputError(`case "${d.caseId}" has two records`, { file, where });
      seen.add(d.caseId);
      if (!caseIds.has(d.caseId))
        throw new InputError(`case "${d.caseId}" is not in ${CASES_FILE} (details of another run, or ${CASES_FILE} cut short?)`, { file, where });
      for (const [id] of d.ranked)
        if (!toolIds.has(id)) throw new InputError(`ranks tool "${id}", which ${TOOLS_FILE} does not list (${TOOLS_FILE} cut short?)`, { file, where });
    });
    if (seen.size !== caseIds.size) {
      const missing = records.cases.filter((c) => !seen.has(c.id));
      throw new InputError(
        `has no record of ${missing.length} of the ${caseIds.size} cases of ${CASES_FILE} (first: "${missing[0]!.id}"): the details are cut short`,
        { file },
      );
    }
    // the figures, recomputed from the records in the cases' order, as the run computed them
    const byId = new Map(list.map((d) => [d.caseId, d]));
    const ordered = records.cases.map((c) => byId.get(c.id)!);
    const overall = overallOfDetails(records.cases, ordered, facts, results.config);
    for (const [metric, stored] of Object.entries(s.metrics.overall)) {
      const again = overall[metric];
      if (typeof stored !== 'number' || again === undefined || (Number.isNaN(stored) && Number.isNaN(again))) continue;
      if (!(Math.abs(again - stored) <= TOLERANCE * Math.max(1, Math.abs(stored))))
        throw new InputError(
          `gives ${metric} ${again} for ${s.name}, and results.json says ${stored}: the details and the figures are not of the same run (swapped, or edited?)`,
          { file },
        );
    }
  }
}
