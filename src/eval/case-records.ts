/**
 * What a results folder keeps of its input, so that `report` and `gate` (with or without a
 * baseline) need no dataset:
 *
 *   cases.jsonl   every scored case, in run order, as the `Case` it was scored as (request text,
 *                 gold tools, gold mode, slices, caller, session): the cases format `eval --cases`
 *                 reads, so the file also re-runs the same cases on another catalog
 *   tools.jsonl   every tool of the catalog, in catalog order: `id`, `namespace`, `pinned` when it
 *                 is, and `summary` (its summary, or its description when it has none) for the
 *                 tools some scored case expects, to explain a miss
 *
 *   shard-positions.json   a shard's results only (`eval --shard i/n`): how many cases the whole input
 *                 has, and where in it each case of `cases.jsonl` stands, so `merge` puts the
 *                 shards' cases back in the input's order without the dataset
 *
 * With `details/<strategy>.jsonl` (each case's ranking with scores, exposure, tokens and calls)
 * these are the per-case records every figure of `results.json` is computed from. Results folders
 * written before these files existed lack them; `report` and `gate` then fall back to loading the
 * dataset (`merge` asks for shards written by this version).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseCasesJsonl } from '../catalog/loaders/cases.ts';
import type { Case, Catalog } from '../catalog/types.ts';
import type { CatalogFacts } from '../metrics/types.ts';
import { readTextFile } from '../util/bounded.ts';
import { InputError } from '../util/errors.ts';
import { parseJson, parseJsonLines } from '../util/jsonl.ts';
import { recordsCalls, schemaTokens } from './audit.ts';

/**
 * A case as a results folder keeps it (`cases.jsonl`): the case's own shape, so the readers of
 * results folders (report, gate) type on this and import no catalog module.
 */
export type CaseRecord = Case;

/** The case records as their file gave them, before renames (`dataset.goldRenamed`) mapped gold to new ids: what a run over the old catalog scored. */
export { unrenamed } from '../catalog/renames.ts';

export const CASES_FILE = 'cases.jsonl';
export const TOOLS_FILE = 'tools.jsonl';
export const SHARD_POSITIONS_FILE = 'shard-positions.json';

const TOOL_RECORD_FIELDS = ['id', 'namespace', 'pinned', 'summary', 'idOnly', 'standIn', 'schemaTokens'];

/** One line of `tools.jsonl`. */
export interface ToolRecord {
  id: string;
  namespace: string;
  /** Present (true) for a pinned tool: always exposed, never a false positive. */
  pinned?: true;
  /** The tool's summary (else its description), for the tools some scored case expects. */
  summary?: string;
  /** Known only by its id (a called tool no catalog defined: `backpack import`). */
  idOnly?: true;
  /** Defined by Backpack's stand-in for a harness's core tool: its schema tokens are lower than the harness's own definition's. */
  standIn?: true;
  /**
   * o200k tokens of its definition (Anthropic tool format), written when the scored cases record
   * their calls (an imported dataset), for the report's Tool use section; absent for an id-only tool.
   */
  schemaTokens?: number;
}

/** Where a shard's cases stand in the whole input (`shard-positions.json`). */
export interface ShardPositions {
  /** Cases of the whole input (every shard's). */
  inputCases: number;
  /** 0-based place in the input of each case of `cases.jsonl`, in its order (increasing). */
  positions: number[];
}

/** The input a results folder keeps: its scored cases and its catalog's tool facts (and, for a shard, the cases' places in the input). */
export interface CaseRecords {
  cases: Case[];
  tools: ToolRecord[];
  shard?: ShardPositions;
}

/**
 * What a results folder keeps of the input of `run`: the cases it scored (those of its details,
 * in `cases` order), every tool of `catalog` with a summary for their gold tools, and, when the run
 * is a shard, where its cases stand among `cases` (the whole input).
 */
export function runRecords(
  run: { results: { shard: unknown }; details: Readonly<Record<string, ReadonlyArray<{ caseId: string }>>> },
  cases: readonly Case[],
  catalog: Catalog,
): CaseRecords {
  const evaluated = new Set(Object.values(run.details)[0]?.map((d) => d.caseId) ?? cases.map((c) => c.id));
  const positions: number[] = [];
  cases.forEach((c, i) => {
    if (evaluated.has(c.id)) positions.push(i);
  });
  const inRun = positions.map((i) => cases[i]!);
  return { cases: inRun, tools: toolRecords(catalog, inRun), ...(run.results.shard ? { shard: { inputCases: cases.length, positions } } : {}) };
}

/** `cases.jsonl`: the scored cases, one JSON object a line, in run order. */
export function casesJsonl(cases: readonly Case[]): string {
  return cases.map((c) => `${JSON.stringify(c)}\n`).join('');
}

/**
 * Every tool of `catalog` (id, namespace, pinned), with a summary for the gold tools of `cases`;
 * when the cases record their calls, each tool's schema tokens (or `idOnly`) for the Tool use section.
 */
export function toolRecords(catalog: Catalog, cases: readonly Case[]): ToolRecord[] {
  const gold = new Set(cases.flatMap((c) => c.expectedTools ?? []));
  const audited = recordsCalls(cases);
  return catalog.tools.map((t) => {
    const tokens = audited ? schemaTokens(t) : null;
    return {
      id: t.id,
      namespace: t.namespace,
      ...(t.pinned ? { pinned: true as const } : {}),
      ...(gold.has(t.id) ? { summary: t.summary || t.description } : {}),
      ...(t.idOnly ? { idOnly: true as const } : {}),
      ...(t.standIn ? { standIn: true as const } : {}),
      ...(tokens !== null ? { schemaTokens: tokens } : {}),
    };
  });
}

/** `tools.jsonl`: one tool record a line. */
export function toolsJsonl(tools: readonly ToolRecord[]): string {
  return tools.map((t) => `${JSON.stringify(t)}\n`).join('');
}

/** `shard-positions.json`. */
export function shardPositionsJson(shard: ShardPositions): string {
  return `${JSON.stringify(shard)}\n`;
}

/** The facts the metrics need of a catalog (tool ids, pinned tools, namespaces), from `tools.jsonl`. */
export function factsOfRecords(tools: readonly ToolRecord[]): CatalogFacts {
  const ns = new Map(tools.map((t) => [t.id, t.namespace]));
  return { toolIds: tools.map((t) => t.id), pinned: new Set(tools.filter((t) => t.pinned).map((t) => t.id)), namespaceOf: (id) => ns.get(id) };
}

function parseToolRecords(text: string, file: string): ToolRecord[] {
  const seen = new Set<string>();
  return parseJsonLines(text, file).map(({ value, where }) => {
    /** A string field: required and non-empty (id, namespace), or optional and possibly empty (summary). */
    const stringField = (key: string, optional: boolean): string | undefined => {
      const v = value[key];
      if (v === undefined && optional) return undefined;
      if (typeof v !== 'string' || (v === '' && !optional))
        throw new InputError(`"${key}" must be a ${optional ? '' : 'non-empty '}string (got ${JSON.stringify(v) ?? 'nothing'})`, { file, where });
      return v;
    };
    for (const k of Object.keys(value))
      if (!TOOL_RECORD_FIELDS.includes(k))
        throw new InputError(`unknown field "${k}"; tool record fields are ${TOOL_RECORD_FIELDS.join(', ')}`, { file, where });
    const id = stringField('id', false)!;
    if (seen.has(id)) throw new InputError(`tool "${id}" is listed twice`, { file, where });
    seen.add(id);
    if (value.pinned !== undefined && value.pinned !== true)
      throw new InputError(`"pinned" must be true when present (got ${JSON.stringify(value.pinned)})`, { file, where });
    const summary = stringField('summary', true);
    if (value.idOnly !== undefined && value.idOnly !== true)
      throw new InputError(`"idOnly" must be true when present (got ${JSON.stringify(value.idOnly)})`, { file, where });
    if (value.standIn !== undefined && value.standIn !== true)
      throw new InputError(`"standIn" must be true when present (got ${JSON.stringify(value.standIn)})`, { file, where });
    const tokens = value.schemaTokens;
    if (tokens !== undefined && !(typeof tokens === 'number' && Number.isSafeInteger(tokens) && tokens >= 0))
      throw new InputError(`"schemaTokens" must be a whole number ≥ 0 (got ${JSON.stringify(tokens)})`, { file, where });
    return {
      id,
      namespace: stringField('namespace', false)!,
      ...(value.pinned === true ? { pinned: true as const } : {}),
      ...(summary !== undefined ? { summary } : {}),
      ...(value.idOnly === true ? { idOnly: true as const } : {}),
      ...(value.standIn === true ? { standIn: true as const } : {}),
      ...(tokens !== undefined ? { schemaTokens: tokens as number } : {}),
    };
  });
}

/**
 * The cases and tool facts a results folder keeps, checked (an `InputError` naming the file and
 * line otherwise); `undefined` when the folder has neither file (written before they existed).
 * `caseIds`, when given, are the cases of the run's details: every one must be in `cases.jsonl`.
 * A case may expect a tool `tools.jsonl` does not list only when the run recorded it as removed
 * (`goldRemoved`: the run's `dataset.goldRemoved`).
 */
export function readCaseRecords(dir: string, caseIds?: readonly string[], goldRemoved?: Record<string, readonly string[]>): CaseRecords | undefined {
  const casesPath = join(dir, CASES_FILE);
  const toolsPath = join(dir, TOOLS_FILE);
  const have = [existsSync(casesPath), existsSync(toolsPath)];
  if (!have[0] && !have[1]) return undefined;
  if (!have[0] || !have[1])
    throw new InputError(
      `${have[0] ? TOOLS_FILE : CASES_FILE} is missing beside ${have[0] ? CASES_FILE : TOOLS_FILE} (a results folder keeps both, or neither when written before they existed)`,
      { file: have[0] ? toolsPath : casesPath },
    );
  const located = parseCasesJsonl(readTextFile(casesPath), casesPath);
  const ids = new Set<string>();
  for (const { value, where } of located) {
    if (ids.has(value.id)) throw new InputError(`case "${value.id}" is listed twice`, { file: casesPath, where });
    ids.add(value.id);
  }
  const tools = parseToolRecords(readTextFile(toolsPath), toolsPath);
  const known = new Set([...tools.map((t) => t.id), ...Object.keys(goldRemoved ?? {})]);
  for (const { value, where } of located) {
    const unknown = (value.expectedTools ?? []).find((id) => !known.has(id));
    if (unknown !== undefined)
      throw new InputError(`case "${value.id}" expects tool "${unknown}", which ${TOOLS_FILE} does not list (nor results.json's dataset.goldRemoved)`, {
        file: casesPath,
        where,
      });
  }
  const gap = caseIds?.find((id) => !ids.has(id));
  if (gap !== undefined) throw new InputError(`case "${gap}" of the details is not in ${CASES_FILE}`, { file: casesPath });
  const shard = readShardPositions(join(dir, SHARD_POSITIONS_FILE), located.length);
  return { cases: located.map((l) => l.value), tools, ...(shard ? { shard } : {}) };
}

/** `shard-positions.json` when present, checked against the number of cases in `cases.jsonl`. */
function readShardPositions(file: string, cases: number): ShardPositions | undefined {
  if (!existsSync(file)) return undefined;
  const value = parseJson(readTextFile(file), file);
  const fail = (message: string, where: string): never => {
    throw new InputError(message, { file, where });
  };
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return fail('must be an object {"inputCases": n, "positions": [...]}', '$');
  const v = value as Record<string, unknown>;
  for (const k of Object.keys(v)) if (k !== 'inputCases' && k !== 'positions') fail(`unknown field "${k}"; the fields are inputCases, positions`, `$.${k}`);
  const n = v.inputCases;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0)
    return fail(`"inputCases" must be a whole number ≥ 0 (got ${JSON.stringify(n) ?? 'nothing'})`, '$.inputCases');
  if (!Array.isArray(v.positions)) return fail('"positions" must be a list of case places', '$.positions');
  const positions = v.positions as unknown[];
  if (positions.length !== cases) fail(`lists ${positions.length} places for the ${cases} cases of ${CASES_FILE}`, '$.positions');
  positions.forEach((p, i) => {
    if (typeof p !== 'number' || !Number.isSafeInteger(p) || p < 0 || p >= n || (i > 0 && p <= (positions[i - 1] as number)))
      fail(`place ${JSON.stringify(p)} is not a whole number in [0, ${n}) above the one before it`, `$.positions[${i}]`);
  });
  return { inputCases: n, positions: positions as number[] };
}
