/**
 * Labelled cases from CSV, JSON Lines or a JSON array, checked against a catalog.
 *
 * CSV (parsed with csv-parse; a header row is required):
 *   request, expected_tools                     required columns
 *   id, expected_skill, caller_scopes, role, slices, session_id, turn, hard_negatives, split,
 *   gold_mode                                   optional columns; any other column is an error
 * List cells (expected_tools, caller_scopes, slices, hard_negatives) hold values separated by `|`.
 * An empty expected_tools cell means "no tool needed" (`expectedTools: []`), except on a row with
 * an expected_skill, where it means "not labelled for tools" (a skill-only case, `expectedTools`
 * left undefined). An empty caller_scopes cell means an unrestricted caller. Rows are numbered like
 * a spreadsheet: the header is row 1, the first case row 2 (blank lines are not rows). A row with no
 * id gets `row-N`.
 *
 * JSONL: one case a line with exactly the `Case` fields (`id`, `request`, `expectedTools`,
 * `goldMode`, `expectedSkill`, `callerScopes`, `role`, `slices`, `sessionId`, `turn`,
 * `hardNegatives`, `split`); `request` and `expectedTools` are required unless `expectedSkill` is
 * given; unknown fields are an error. A line with no id gets `line-N`. A `.json` file holds an array
 * of the same objects (ids `case-N`, N from 1).
 *
 * In every format `slices` defaults to `["no-tool"]` for a case with `expectedTools: []`, else `[]`.
 * Problems are `InputError`s naming the file and `row N` / `line N` / `$[i]`.
 */
import { parse } from 'csv-parse/sync';
import { extname } from 'node:path';
import { InputError, ProblemCollector } from '../../util/errors.ts';
import { nonBlankLines, parseJson, parseJsonLine } from '../../util/jsonl.ts';
import { readTextFile } from '../../util/bounded.ts';
import { didYouMean } from '../../util/suggest.ts';
import type { Case, Catalog, GoldMode, Split } from '../types.ts';
import { checkCases, type CheckCasesOptions, requireText, type Located } from '../validate.ts';
import { describeJson, isObject, quoted } from './common.ts';

export const CSV_REQUIRED_COLUMNS = ['request', 'expected_tools'] as const;
export const CSV_OPTIONAL_COLUMNS = [
  'id',
  'expected_skill',
  'caller_scopes',
  'role',
  'slices',
  'session_id',
  'turn',
  'hard_negatives',
  'split',
  'gold_mode',
] as const;
const CSV_COLUMNS: readonly string[] = [...CSV_REQUIRED_COLUMNS, ...CSV_OPTIONAL_COLUMNS];

export const CASE_FIELDS = [
  'id',
  'request',
  'expectedTools',
  'goldMode',
  'expectedSkill',
  'callerScopes',
  'role',
  'slices',
  'sessionId',
  'turn',
  'hardNegatives',
  'split',
  'calls',
] as const;
const CASE_FIELD_SET: ReadonlySet<string> = new Set(CASE_FIELDS);

/** The separator of multiple values in a CSV cell. */
export const LIST_SEPARATOR = '|';

/**
 * Parse a cases CSV. A problem of the header, or CSV that cannot be read at all, throws at once;
 * problems of rows are collected into `problems` (every row is read), or thrown one at a time
 * when none is given.
 */
export function parseCasesCsv(text: string, file: string, problems?: ProblemCollector): Array<Located<Case>> {
  const own = problems ?? new ProblemCollector();
  const out = csvCases(text, file, own);
  if (problems === undefined) own.throwIfAny();
  return out;
}

function csvCases(text: string, file: string, problems: ProblemCollector): Array<Located<Case>> {
  let records: Array<{ record: string[]; info: { lines: number } }>;
  try {
    records = parse(text, { bom: true, skip_empty_lines: true, relax_column_count: true, info: true }) as unknown as Array<{
      record: string[];
      info: { lines: number };
    }>;
  } catch (err) {
    const e = err as Error & { lines?: number };
    throw new InputError(`invalid CSV: ${e.message.replace(/^Invalid Record Length: /, '')}`, {
      file,
      ...(e.lines !== undefined ? { where: `line ${e.lines}` } : {}),
    });
  }
  const rows = records.map((r) => r.record);
  const header = rows[0];
  if (!header) throw new InputError('empty CSV: a header row with at least "request,expected_tools" is required', { file, where: 'row 1' });
  const columns = header.map((h) => h.trim().toLowerCase());
  const seen = new Set<string>();
  for (const c of columns) {
    if (!CSV_COLUMNS.includes(c)) {
      throw new InputError(`unknown column "${c}"${didYouMean(c, CSV_COLUMNS)}; columns are ${CSV_COLUMNS.join(', ')}`, { file, where: 'row 1' });
    }
    if (seen.has(c)) throw new InputError(`column "${c}" appears twice`, { file, where: 'row 1' });
    seen.add(c);
  }
  for (const c of CSV_REQUIRED_COLUMNS) {
    if (!seen.has(c)) throw new InputError(`missing required column "${c}" (the header needs at least request,expected_tools)`, { file, where: 'row 1' });
  }
  const out: Array<Located<Case>> = [];
  for (let r = 1; r < rows.length; r++) {
    const where = `row ${r + 1}`;
    const cells = rows[r]!;
    if (cells.length !== columns.length) {
      problems.add(
        new InputError(`invalid CSV: ${cells.length} ${cells.length === 1 ? 'cell' : 'cells'} where the header has ${columns.length} columns`, {
          file,
          where: `line ${records[r]!.info.lines}`,
        }),
      );
      continue;
    }
    const c = problems.attempt(() => csvRow(cells, columns, file, where, r));
    if (c) out.push({ value: c, file, where });
  }
  return out;
}

/** One CSV row as a case (`r`: its index among the rows, the header being 0). */
function csvRow(cells: string[], columns: string[], file: string, where: string, r: number): Case {
  const cell = (name: string): string | undefined => {
    const i = columns.indexOf(name);
    const v = i < 0 ? undefined : cells[i];
    return v === undefined || v.trim() === '' ? undefined : v;
  };
  const list = (name: string): string[] | undefined => {
    const v = cell(name);
    return v === undefined
      ? undefined
      : v
          .split(LIST_SEPARATOR)
          .map((s) => s.trim())
          .filter((s) => s !== '');
  };
  const request = cell('request');
  if (request === undefined) throw new InputError('"request" is empty', { file, where });
  const expectedSkill = cell('expected_skill')?.trim();
  const tools = list('expected_tools');
  const expectedTools = tools ?? (expectedSkill !== undefined ? undefined : []);
  const turnText = cell('turn')?.trim();
  return buildCase(
    {
      id: cell('id')?.trim() ?? `row-${r + 1}`,
      request,
      expectedTools,
      goldMode: cell('gold_mode')?.trim(),
      expectedSkill,
      callerScopes: list('caller_scopes'),
      role: cell('role')?.trim(),
      slices: list('slices'),
      sessionId: cell('session_id')?.trim(),
      turn: turnText === undefined ? undefined : /^-?\d+$/.test(turnText) ? Number(turnText) : turnText,
      hardNegatives: list('hard_negatives'),
      split: cell('split')?.trim(),
      calls: undefined,
    },
    file,
    where,
    { goldMode: 'gold_mode', split: 'split', turn: 'turn' },
  );
}

/** Parse cases from JSON Lines: every line is read, its problems collected as `parseCasesCsv`'s are. */
export function parseCasesJsonl(text: string, file: string, problems?: ProblemCollector): Array<Located<Case>> {
  const own = problems ?? new ProblemCollector();
  const out: Array<Located<Case>> = [];
  for (const { text: line, where } of nonBlankLines(text)) {
    const c = own.attempt(() => caseFromObject(parseJsonLine(line, file, where), file, where, `line-${where.replace(/^line /, '')}`));
    if (c) out.push({ value: c, file, where });
  }
  if (problems === undefined) own.throwIfAny();
  return out;
}

/** Parse cases from a JSON array: every element is read, its problems collected as `parseCasesCsv`'s are. */
export function parseCasesJson(text: string, file: string, problems?: ProblemCollector): Array<Located<Case>> {
  const value = parseJson(text, file);
  if (!Array.isArray(value)) throw new InputError(`expected a JSON array of cases (got ${describeJson(value)})`, { file, where: '$' });
  const own = problems ?? new ProblemCollector();
  const out: Array<Located<Case>> = [];
  value.forEach((v, i) => {
    const where = `$[${i}]`;
    const c = own.attempt(() => {
      if (!isObject(v)) throw new InputError(`each case must be a JSON object (got ${describeJson(v)})`, { file, where });
      return caseFromObject(v, file, where, `case-${i + 1}`);
    });
    if (c) out.push({ value: c, file, where });
  });
  if (problems === undefined) own.throwIfAny();
  return out;
}

function caseFromObject(r: Record<string, unknown>, file: string, where: string, defaultId: string): Case {
  for (const k of Object.keys(r)) {
    if (!CASE_FIELD_SET.has(k))
      throw new InputError(`unknown field "${k}"${didYouMean(k, CASE_FIELDS)}; case fields are ${CASE_FIELDS.join(', ')}`, { file, where });
  }
  const id = r.id === undefined ? defaultId : requireText(r.id, '"id"', file, where);
  const request = requireText(r.request, `case "${id}": "request"`, file, where);
  if (r.expectedTools === undefined && r.expectedSkill === undefined) {
    throw new InputError(`case "${id}": "expectedTools" is required (use [] for "no tool needed") unless "expectedSkill" is given`, { file, where });
  }
  return buildCase(
    {
      id,
      request,
      expectedTools: strings(r.expectedTools, 'expectedTools', id, file, where),
      goldMode: r.goldMode,
      expectedSkill: r.expectedSkill === undefined ? undefined : requireText(r.expectedSkill, `case "${id}": "expectedSkill"`, file, where),
      callerScopes: strings(r.callerScopes, 'callerScopes', id, file, where),
      role: r.role === undefined ? undefined : requireText(r.role, `case "${id}": "role"`, file, where),
      slices: strings(r.slices, 'slices', id, file, where),
      sessionId: r.sessionId === undefined ? undefined : requireText(r.sessionId, `case "${id}": "sessionId"`, file, where),
      turn: r.turn,
      hardNegatives: strings(r.hardNegatives, 'hardNegatives', id, file, where),
      split: r.split,
      calls: strings(r.calls, 'calls', id, file, where),
    },
    file,
    where,
    { goldMode: 'goldMode', split: 'split', turn: 'turn' },
  );
}

function strings(v: unknown, what: string, id: string, file: string, where: string): string[] | undefined {
  if (v === undefined) return undefined;
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string'))
    throw new InputError(`case "${id}": "${what}" must be a list of strings (got ${describeJson(v)})`, { file, where });
  return v as string[];
}

interface RawCase {
  id: string;
  request: string;
  expectedTools: string[] | undefined;
  goldMode: unknown;
  expectedSkill: string | undefined;
  callerScopes: string[] | undefined;
  role: string | undefined;
  slices: string[] | undefined;
  sessionId: string | undefined;
  turn: unknown;
  hardNegatives: string[] | undefined;
  split: unknown;
  calls: string[] | undefined;
}

/** Check the enumerated and numeric fields and build the `Case` with a fixed field order. */
function buildCase(r: RawCase, file: string, where: string, names: { goldMode: string; split: string; turn: string }): Case {
  const at = { file, where };
  if (r.goldMode !== undefined && r.goldMode !== 'all' && r.goldMode !== 'any') {
    throw new InputError(`case "${r.id}": "${names.goldMode}" must be "all" or "any" (got ${quoted(r.goldMode)})`, at);
  }
  if (r.split !== undefined && r.split !== 'train' && r.split !== 'test') {
    throw new InputError(`case "${r.id}": "${names.split}" must be "train" or "test" (got ${quoted(r.split)})`, at);
  }
  if (r.turn !== undefined && !(typeof r.turn === 'number' && Number.isInteger(r.turn) && r.turn >= 0)) {
    throw new InputError(`case "${r.id}": "${names.turn}" must be a whole number ≥ 0 (got ${quoted(r.turn)})`, at);
  }
  return {
    id: r.id,
    request: r.request,
    ...(r.expectedTools !== undefined ? { expectedTools: r.expectedTools } : {}),
    ...(r.goldMode !== undefined ? { goldMode: r.goldMode as GoldMode } : {}),
    ...(r.expectedSkill !== undefined ? { expectedSkill: r.expectedSkill } : {}),
    ...(r.callerScopes !== undefined ? { callerScopes: r.callerScopes } : {}),
    ...(r.role !== undefined ? { role: r.role } : {}),
    slices: r.slices ?? (r.expectedTools !== undefined && r.expectedTools.length === 0 ? ['no-tool'] : []),
    ...(r.sessionId !== undefined ? { sessionId: r.sessionId } : {}),
    ...(r.turn !== undefined ? { turn: r.turn as number } : {}),
    ...(r.hardNegatives !== undefined ? { hardNegatives: r.hardNegatives } : {}),
    ...(r.split !== undefined ? { split: r.split as Split } : {}),
    ...(r.calls !== undefined ? { calls: r.calls } : {}),
  };
}

/**
 * Read located cases from a `.csv`, `.jsonl` or `.json` file (chosen by extension), unchecked. The
 * problems of its rows or lines go into `problems` when given; otherwise they are thrown (one as it
 * is, several as one `InputErrors`).
 */
export function readCases(path: string, problems?: ProblemCollector): Array<Located<Case>> {
  const ext = extname(path).toLowerCase();
  if (ext !== '.csv' && ext !== '.jsonl' && ext !== '.json') {
    throw new InputError(`unsupported cases file "${ext || '(no extension)'}": use .csv, .jsonl or .json`, { file: path });
  }
  const text = readTextFile(path);
  if (ext === '.csv') return parseCasesCsv(text, path, problems);
  if (ext === '.jsonl') return parseCasesJsonl(text, path, problems);
  return parseCasesJson(text, path, problems);
}

/**
 * Read cases from `path` (by extension: `.csv`, `.jsonl`, `.json`) and check them against
 * `catalog` (unknown tool ids and skills, duplicate ids, empty requests: see `checkCases`). Every
 * problem of the file is reported at once (up to 50, each with its row or line), as one
 * `InputErrors`; a single problem is thrown as it is.
 */
export function loadCases(path: string, catalog: Catalog, opts: CheckCasesOptions = {}): Case[] {
  const problems = new ProblemCollector();
  const cases = checkCases(readCases(path, problems), catalog, problems, opts);
  problems.throwIfAny();
  return cases;
}
