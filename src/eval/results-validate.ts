/**
 * A results folder checked before anything uses it (`report`, `gate`, `bless`, `merge`):
 * `results.json` against `schemas/results.schema.json` (the schema shipped in the package, compiled
 * once, on first use), and every line of `details/<name>.jsonl` for the fields report, gate and merge
 * read. A file that does not match is an `InputError` naming it and the first few places that are
 * wrong (`$.config.ks must be array`), never a crash deep in the report.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { ajv2020Class } from '../util/ajv.ts';
import { InputError } from '../util/errors.ts';
import { PACKAGE_ROOT } from '../util/version.ts';
import type { QueryDetail, Results } from './results.ts';

/** Where the schema is, relative to the package root (the package's `files` include `schemas`). */
export const RESULTS_SCHEMA_PATH = 'schemas/results.schema.json';

/** How many schema errors a message lists. */
const SHOWN = 3;

let compiled: ValidateFunction | undefined;

function validator(): ValidateFunction {
  if (compiled === undefined) {
    const schema = JSON.parse(readFileSync(join(PACKAGE_ROOT, RESULTS_SCHEMA_PATH), 'utf8')) as Record<string, unknown>;
    compiled = new (ajv2020Class())({ strict: false, allowUnionTypes: true, allErrors: true }).compile(schema);
  }
  return compiled;
}

/** `/a/b/0` → `$.a.b[0]`. */
function jsonPath(pointer: string): string {
  if (pointer === '') return '$';
  return `$${pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^\d+$/.test(s) ? `[${s}]` : /^[A-Za-z_$][\w$]*$/.test(s) ? `.${s}` : `[${JSON.stringify(s)}]`))
    .join('')}`;
}

/** One line per place: ajv's errors grouped by instance path, a `oneOf` as the forms it allows. */
export function describeSchemaErrors(errors: readonly ErrorObject[]): string[] {
  const byPath = new Map<string, ErrorObject[]>();
  for (const e of errors) byPath.set(e.instancePath, [...(byPath.get(e.instancePath) ?? []), e]);
  const lines: string[] = [];
  for (const [pointer, list] of byPath) {
    const at = jsonPath(pointer);
    const choice = list.some((e) => e.keyword === 'oneOf' || e.keyword === 'anyOf');
    // A oneOf whose object form went wrong deeper down (`$.shard.index must be integer`): that is the message.
    if (choice && [...byPath.keys()].some((p) => p.startsWith(`${pointer}/`))) continue;
    const types = [...new Set(list.filter((e) => e.keyword === 'type').map((e) => String((e.params as { type: unknown }).type)))];
    if (choice && types.length) {
      lines.push(`${at} must be ${types.join(' or ')}`);
      continue;
    }
    for (const e of list) {
      if (e.keyword === 'oneOf' || e.keyword === 'anyOf') continue;
      const p = e.params as Record<string, unknown>;
      if (e.keyword === 'required') lines.push(`${at} lacks "${String(p.missingProperty)}"`);
      else if (e.keyword === 'const') lines.push(`${at} must be ${JSON.stringify(p.allowedValue)}`);
      else if (e.keyword === 'enum') lines.push(`${at} must be one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`);
      else lines.push(`${at} ${e.message ?? 'does not match the schema'}`);
    }
    if (choice && !list.some((e) => e.keyword !== 'oneOf' && e.keyword !== 'anyOf')) lines.push(`${at} matches none of the forms the schema allows`);
  }
  return lines;
}

/** Strategy names become file names (`details/<name>.jsonl`): nothing that leaves the folder. */
const STRATEGY_NAME = /^[A-Za-z0-9][\w.@+-]*$/;

/**
 * Throw an `InputError` at `file` unless `value` is a results envelope this Backpack reads: it
 * matches the schema, every strategy name is fit for a file name, and the lists of strategies in
 * `config` match the results given for them.
 */
export function checkResults(value: unknown, file: string): asserts value is Results {
  const validate = validator();
  if (!validate(value)) {
    const lines = describeSchemaErrors(validate.errors ?? []);
    const more = lines.length > SHOWN ? `; and ${lines.length - SHOWN} more` : '';
    throw new InputError(`does not match the results schema (${RESULTS_SCHEMA_PATH}): ${lines.slice(0, SHOWN).join('; ')}${more}`, { file });
  }
  const r = value as Results;
  const fail = (message: string, where: string): never => {
    throw new InputError(message, { file, where });
  };
  for (const [kind, names, given] of [
    ['retrievers', r.config.retrievers, r.retrievers],
    ['profiles', r.config.profiles ?? [], r.profiles ?? {}],
  ] as const) {
    for (const name of Object.keys(given)) {
      if (!STRATEGY_NAME.test(name))
        fail(`strategy name ${JSON.stringify(name)} is not one Backpack writes (letters, digits, "-", "_", "." and no path)`, `$.${kind}`);
      if (!names.includes(name)) fail(`results for "${name}", which config.${kind} does not list`, `$.${kind}`);
    }
    for (const name of names)
      if (!Object.prototype.hasOwnProperty.call(given, name)) fail(`config.${kind} lists "${name}", which has no results`, `$.config.${kind}`);
  }
  if (r.dataset.name.trim() === '') fail('the dataset name is empty', '$.dataset.name');
}

const isStringArray = (v: unknown): boolean => Array.isArray(v) && v.every((x) => typeof x === 'string');
const isRanking = (v: unknown): boolean =>
  Array.isArray(v) && v.every((x) => Array.isArray(x) && x.length === 2 && typeof x[0] === 'string' && typeof x[1] === 'number');
const isCount = (v: unknown): boolean => typeof v === 'number' && Number.isFinite(v) && v >= 0;

/** Why a `details/*.jsonl` record is not a per-case detail report, gate and merge can use, or undefined. */
export function detailProblem(d: Record<string, unknown>): string | undefined {
  if (typeof d.caseId !== 'string' || d.caseId === '') return '"caseId" must be a non-empty string';
  if (!isRanking(d.ranked)) return '"ranked" must be a list of [tool id, score] pairs';
  if (d.belowFloor !== undefined && !isRanking(d.belowFloor)) return '"belowFloor" must be a list of [tool id, score] pairs';
  if (!isStringArray(d.pinned)) return '"pinned" must be a list of tool ids';
  if (!isStringArray(d.leaks)) return '"leaks" must be a list of tool ids';
  if (!isCount(d.ms)) return '"ms" must be a number ≥ 0';
  for (const k of ['eager', 'expanded'] as const) if (d[k] !== undefined && !isStringArray(d[k])) return `"${k}" must be a list of tool ids`;
  if (d.kept !== undefined && typeof d.kept !== 'boolean') return '"kept" must be true or false';
  if (d.alt !== undefined) {
    const alt = d.alt as Record<string, unknown> | null;
    if (alt === null || typeof alt !== 'object' || Array.isArray(alt) || !isStringArray(alt.ranked))
      return '"alt" must be an object with "ranked", a list of tool ids';
    for (const k of ['beforeTokens', 'searchTokens'] as const) if (alt[k] !== undefined && !isCount(alt[k])) return `"alt.${k}" must be a number ≥ 0`;
  }
  if (d.turn !== undefined) {
    const t = d.turn as Record<string, unknown> | null;
    if (t === null || typeof t !== 'object' || Array.isArray(t)) return '"turn" must be an object {"beforeTokens", "searchTokens"}';
    for (const k of ['beforeTokens', 'searchTokens'] as const) if (!isCount(t[k])) return `"turn.${k}" must be a number ≥ 0`;
  }
  if (d.exposure !== undefined) {
    const e = d.exposure as Record<string, unknown> | null;
    if (e === null || typeof e !== 'object' || Array.isArray(e)) return '"exposure" must be an object';
    for (const k of ['eagerTools', 'loadedTools', 'resultChars', 'beforeTokens', 'searchTokens'] as const)
      if (!isCount(e[k])) return `"exposure.${k}" must be a number ≥ 0`;
    for (const k of ['eagerUnpinned', 'coreEager', 'wireTokens', 'loadedUnpinned'] as const)
      if (e[k] !== undefined && !isCount(e[k])) return `"exposure.${k}" must be a number ≥ 0`;
    if (e.coreEager !== undefined && (e.coreEager as number) > ((e.eagerUnpinned as number | undefined) ?? 0))
      return '"exposure.coreEager" must not exceed "exposure.eagerUnpinned" (core tools are among the non-pinned tools shown)';
    if (e.calls !== undefined && (e.calls === null || typeof e.calls !== 'object' || Array.isArray(e.calls))) return '"exposure.calls" must be an object';
  }
  return undefined;
}

/** The records of one strategy's details file, checked (see {@link detailProblem}); each case once. */
export function checkDetails(records: ReadonlyArray<{ value: Record<string, unknown>; where: string }>, file: string): QueryDetail[] {
  const seen = new Map<string, string>();
  return records.map(({ value, where }) => {
    const problem = detailProblem(value);
    if (problem) throw new InputError(`not a per-case detail: ${problem}`, { file, where });
    const id = value.caseId as string;
    const first = seen.get(id);
    if (first !== undefined) throw new InputError(`case "${id}" is listed twice (first at ${first})`, { file, where });
    seen.set(id, where);
    return value as unknown as QueryDetail;
  });
}
