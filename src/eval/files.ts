/**
 * The results folder of an evaluation, written atomically (a temporary sibling folder, renamed
 * into place at the end, so an interrupted run never leaves a half-written `results.json`):
 *
 *   results.json                  the versioned envelope (metrics per retriever, overall / slice / namespace)
 *   details/<name>.jsonl          per case (retriever or profile): ranked [id, score], pinned, leaks, ms (profiles: eager gold tools)
 *   runs/<retriever>.trec         TREC run: `qid Q0 docid rank score tag`
 *   runs/qrels.txt                TREC qrels of the graded cases: `qid 0 docid 1`
 *   runs/cases.tsv                every evaluated case: expected (tool | none | skill-only), gold mode, slices
 *   cases.jsonl                   every evaluated case as it was scored (request, gold tools, slices…; case-records.ts)
 *   tools.jsonl                   every catalog tool: id, namespace, pinned; the summary of gold tools (case-records.ts)
 *   shard-positions.json          a shard only: where its cases stand in the whole input, for merge (case-records.ts)
 *   never-surfaced/<retriever>.txt  tools no case brought into the top k, one id a line
 *   catalog-snapshot.json         when the catalog was an mcpServers configuration: the snapshot evaluated (docs/snapshot.md)
 *
 * The TREC score column is `depth + 1 − rank`, strictly decreasing along Backpack's ranking, so
 * trec_eval, ir_measures and ranx (which break score ties their own way) evaluate exactly the
 * order Backpack ranked. The retrievers' own scores are in `details/`. A case whose ranking is
 * empty has no line in the run (TREC has no way to write an empty ranking): evaluate with
 * `trec_eval -c` so it counts as a miss, as in results.json (docs/trec.md).
 */
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { assertReplaceable, replaceDir } from '../catalog/dataset-files.ts';
import { checkRunConsistency } from './results-consistency.ts';
import { InputError } from '../util/errors.ts';
import { MAX_TEXT_BYTES, readTextFile } from '../util/bounded.ts';
import { parseJson, parseJsonLines } from '../util/jsonl.ts';
import type { Case, Catalog } from '../catalog/types.ts';
import { EVAL_SNAPSHOT_FILE } from '../snapshot/for-catalog.ts';
import { processAlive } from '../util/file-lock.ts';
import type { EvalRun } from './run.ts';
import { RESULTS_SCHEMA_VERSION, type DatasetSource, type QueryDetail, type Results } from './results.ts';
import { checkDetails, checkResults } from './results-validate.ts';
import {
  type CaseRecords,
  CASES_FILE,
  casesJsonl,
  readCaseRecords,
  runRecords,
  SHARD_POSITIONS_FILE,
  shardPositionsJson,
  TOOLS_FILE,
  toolsJsonl,
} from './case-records.ts';
import { makeDirs, writeFileNamed } from '../util/atomic-write.ts';

/**
 * TREC run `qid Q0 docid rank score tag`, one line per ranked tool, cases in `details` order. A case
 * with an empty ranking (skill-only, or everything below the floor) gets no line: there is no valid
 * TREC line for "nothing retrieved", and a dummy doc would be counted as retrieved. Evaluate with
 * `trec_eval -c`, which scores a qrels query missing from the run 0 on every measure.
 */
export function trecRun(details: readonly QueryDetail[], tag: string, depth: number): string {
  const lines: string[] = [];
  for (const d of details) d.ranked.forEach(([id], i) => lines.push(`${d.caseId} Q0 ${id} ${i + 1} ${depth - i} ${tag}`));
  return lines.length ? `${lines.join('\n')}\n` : '';
}

/**
 * TREC qrels `qid 0 docid 1` of the graded cases (no-tool and skill-only cases have no judgement),
 * each (qid, docid) once, in first-occurrence order: a case may list a gold tool twice (the
 * metrics count it once) and trec_eval refuses qrels with a duplicate judgement.
 */
export function trecQrels(cases: readonly Case[]): string {
  const lines: string[] = [];
  const seen = new Set<string>();
  for (const c of cases) {
    for (const id of c.expectedTools ?? []) {
      const key = `${c.id}\u0000${id}`;
      if (seen.has(key)) continue;
      seen.add(key);
      lines.push(`${c.id} 0 ${id} 1`);
    }
  }
  return lines.length ? `${lines.join('\n')}\n` : '';
}

export function casesTsv(cases: readonly Case[]): string {
  const rows = cases.map((c) =>
    [c.id, c.expectedTools === undefined ? 'skill-only' : c.expectedTools.length ? 'tool' : 'none', c.goldMode ?? 'all', c.slices.join(',')].join('\t'),
  );
  return `${['query-id', 'expected', 'gold-mode', 'slices'].join('\t')}\n${rows.map((r) => `${r}\n`).join('')}`;
}

/** Tools no case brought into the top `k`, in catalog order (pinned tools excluded). */
export function neverSurfacedList(tools: ReadonlyArray<{ id: string; pinned?: boolean }>, details: readonly QueryDetail[], k: number): string[] {
  const seen = new Set<string>();
  for (const d of details) for (const [id] of d.ranked.slice(0, k)) seen.add(id);
  return tools.filter((t) => !t.pinned && !seen.has(t.id)).map((t) => t.id);
}

/**
 * Write the results folder for `run` (replacing `dir` if it holds an earlier run), with what it
 * keeps of `cases` (the whole input, of which a shard scored some) and `catalog`. `fill` writes more
 * into the temporary folder (a report, timings) before it is swapped in by one rename, so the
 * folder is only ever the previous complete one or the new complete one.
 */
export function writeRunDir(
  dir: string,
  run: EvalRun,
  cases: readonly Case[],
  catalog: Catalog,
  extraFiles: Readonly<Record<string, string>> = {},
  fill?: (tmp: string) => void,
): void {
  writeRunRecords(dir, run, runRecords(run, cases, catalog), extraFiles, fill);
}

/** {@link writeRunDir} from the case and tool records themselves (what `merge` has: no catalog). */
export function writeRunRecords(
  dir: string,
  run: EvalRun,
  records: CaseRecords,
  extraFiles: Readonly<Record<string, string>> = {},
  fill?: (tmp: string) => void,
): void {
  const target = resolve(dir);
  recoverInterruptedSwap(target);
  assertReplaceable(target, 'results folder', isResultsDir);
  const inRun = records.cases;
  const files = new Map<string, string>();
  const k = run.results.config.ks[run.results.config.ks.length - 1]!;
  for (const [name, details] of Object.entries(run.details)) {
    files.set(`details/${name}.jsonl`, details.map((d) => `${JSON.stringify(d)}\n`).join(''));
    files.set(`runs/${name}.trec`, trecRun(details, name, run.results.config.depth));
    const never = neverSurfacedList(records.tools, details, k);
    files.set(`never-surfaced/${name}.txt`, never.map((id) => `${id}\n`).join(''));
  }
  files.set('runs/qrels.txt', trecQrels(inRun));
  files.set('runs/cases.tsv', casesTsv(inRun));
  files.set(CASES_FILE, casesJsonl(inRun));
  files.set(TOOLS_FILE, toolsJsonl(records.tools));
  if (records.shard) files.set(SHARD_POSITIONS_FILE, shardPositionsJson(records.shard));
  files.set('results.json', `${JSON.stringify(run.results, null, 2)}\n`);
  for (const [path, text] of Object.entries(extraFiles)) files.set(path, text);
  const tmp = `${target}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  try {
    for (const [path, text] of files) {
      const p = join(tmp, path);
      makeDirs(dirname(p));
      writeFileNamed(p, text);
    }
    fill?.(tmp);
    replaceDir(tmp, target);
  } catch (err) {
    rmSync(tmp, { recursive: true, force: true });
    throw err;
  }
}

/**
 * A writer killed between the two renames of a swap leaves the folder missing and the previous
 * complete run beside it as `<folder>.old-<pid>`: put it back (the newest such copy whose writer is
 * gone), with a warning. Returns whether it did.
 */
export function recoverInterruptedSwap(dir: string, warn: (message: string) => void = () => {}): boolean {
  const target = resolve(dir);
  if (existsSync(target)) return false;
  const parent = dirname(target);
  if (!existsSync(parent)) return false;
  const prefix = `${basename(target)}.old-`;
  const left = readdirSync(parent)
    .filter(
      (n) => n.startsWith(prefix) && /^\d+$/.test(n.slice(prefix.length)) && !processAlive(Number(n.slice(prefix.length))) && isResultsDir(join(parent, n)),
    )
    .map((n) => ({ n, at: statSync(join(parent, n)).mtimeMs }))
    .sort((a, b) => b.at - a.at || (a.n < b.n ? -1 : 1));
  if (!left.length) return false;
  renameSync(join(parent, left[0]!.n), target);
  warn(`warning: ${target} was being replaced when its writer stopped; the previous complete run is back in place (from ${left[0]!.n})\n`);
  return true;
}

/** True if `dir` holds Backpack results (its results.json has the envelope's fields). */
export function isResultsDir(dir: string): boolean {
  return isBackpackResults(join(dir, 'results.json'));
}

function isBackpackResults(file: string): boolean {
  try {
    if (statSync(file).size > MAX_TEXT_BYTES) return false;
    const r = JSON.parse(readFileSync(file, 'utf8')) as Partial<Results>;
    return typeof r.schemaVersion === 'number' && typeof r.retrievers === 'object' && typeof r.configHash === 'string';
  } catch {
    return false;
  }
}

/**
 * Where the input of the run in `dir` is: the source its results record, except that a catalog
 * snapshot kept in the results folder is read from this folder when the recorded path is gone
 * (the folder was moved, or downloaded as a CI artifact).
 */
export function runInputSource(dir: string, results: Results): DatasetSource {
  const s = results.dataset.source;
  if (s.kind !== 'files' || basename(s.catalog) !== EVAL_SNAPSHOT_FILE || existsSync(s.catalog)) return s;
  const here = join(resolve(dir), EVAL_SNAPSHOT_FILE);
  return existsSync(here) ? { ...s, catalog: here } : s;
}

/**
 * Read a results folder back: the envelope and the per-query details of every strategy, each
 * checked before anything uses it (results.json against schemas/results.schema.json, every details
 * line for the fields report, gate and merge read: see results-validate.ts), and the files checked
 * against each other (results-consistency.ts). Anything else is an `InputError` naming the file.
 */
export function readRunDir(dir: string, warn: (message: string) => void = () => {}): EvalRun {
  return readRunFolder(dir, warn).run;
}

/**
 * {@link readRunDir}, with the case and tool records it read and checked the run against
 * (`cases.jsonl`, `tools.jsonl`; undefined for a folder written before they were kept): what
 * report, gate and merge read next, so they are parsed once.
 */
export function readRunFolder(dir: string, warn: (message: string) => void = () => {}): { run: EvalRun; records: CaseRecords | undefined } {
  recoverInterruptedSwap(dir, warn);
  if (!existsSync(dir)) throw new InputError('no results.json here: no such folder (a results folder is what eval, merge or run wrote)', { file: dir });
  if (!statSync(dir).isDirectory()) throw new InputError('is a file, not a results folder (the folder eval, merge or run wrote)', { file: dir });
  const file = join(dir, 'results.json');
  if (!existsSync(file)) throw new InputError('no results.json here (not a Backpack results folder)', { file: dir });
  const value = parseJson(readTextFile(file), file);
  const version = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as { schemaVersion?: unknown }).schemaVersion : undefined;
  if (typeof version !== 'number' || version > RESULTS_SCHEMA_VERSION) {
    throw new InputError(`results schemaVersion ${JSON.stringify(version) ?? 'missing'} is not one this Backpack reads (≤ ${RESULTS_SCHEMA_VERSION})`, {
      file,
    });
  }
  checkResults(value, file);
  const results = value;
  const details: Record<string, QueryDetail[]> = {};
  for (const name of [...Object.keys(results.retrievers), ...Object.keys(results.profiles ?? {})]) {
    const p = join(dir, 'details', `${name}.jsonl`);
    if (!existsSync(p)) throw new InputError('per-query details are missing', { file: p });
    details[name] = checkDetails(parseJsonLines(readTextFile(p), p), p);
  }
  // the files agree with each other: rates, details one-to-one with cases.jsonl, figures recomputed
  const records = readCaseRecords(dir, undefined, results.dataset.goldRemoved);
  checkRunConsistency(dir, results, details, records);
  return { run: { results, details }, records };
}
