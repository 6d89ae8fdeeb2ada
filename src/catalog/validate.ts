import type { Ajv2020 } from 'ajv/dist/2020.js';
import { ajv2020Class } from '../util/ajv.ts';
import { InputError, MAX_REPORTED_PROBLEMS, ProblemCollector } from '../util/errors.ts';
import type { Located } from '../util/jsonl.ts';
import { normaliseSchemaDraft, type SchemaForm } from './schema-drafts.ts';
import { didYouMean } from '../util/suggest.ts';
import type { Case, Catalog, JsonSchema, Plugin, Server, Skill, Tool } from './types.ts';

export type { Located } from '../util/jsonl.ts';

export function located<T>(value: T, file: string, where: string): Located<T> {
  return { value, file, where };
}

let meta: Ajv2020 | undefined;
/** The meta-schema checker, made on first use. */
function ajv2020(): Ajv2020 {
  meta ??= new (ajv2020Class())({ strict: false, validateFormats: false });
  return meta;
}

/**
 * Why a tool input schema is not acceptable, or `undefined` if it is. It must be a JSON Schema
 * whose top level describes an object, as MCP, OpenAI and Anthropic all require. Drafts 04 to
 * 2020-12 are read: the schema is brought to the 2020-12 form first (see `schema-drafts.ts`), and
 * that form is checked against the 2020-12 meta-schema.
 */
export function inputSchemaProblem(schema: unknown): string | undefined {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return 'input schema must be a JSON object';
  return normalisedSchemaProblem(normaliseSchemaDraft(schema).schema as JsonSchema);
}

function normalisedSchemaProblem(s: JsonSchema): string | undefined {
  if (s.type !== undefined && s.type !== 'object') return `input schema must describe an object (type is ${JSON.stringify(s.type)})`;
  const { $schema: _ignored, ...body } = s;
  const checker = ajv2020();
  if (checker.validateSchema(body) === true) return undefined;
  const err = checker.errors?.[0];
  if (!err) return 'invalid JSON Schema';
  const at = err.instancePath ? err.instancePath.replace(/\//g, '.').replace(/^\./, '') : '';
  return `invalid JSON Schema${at ? ` at ${at}` : ''}: ${err.message ?? 'does not match the meta-schema'}`;
}

/** Throw an `InputError` at `file`/`where` if `schema` is not an acceptable input schema. */
export function checkInputSchema(schema: unknown, file: string, where: string): void {
  const problem = inputSchemaProblem(schema);
  if (problem) throw new InputError(problem, { file, where });
}

/**
 * A tool input schema as the catalog keeps it: in the 2020-12 form, with the older forms it used
 * (empty when it was already 2020-12, and then the very object given). An `InputError` at
 * `file`/`where` if it is not acceptable (see `inputSchemaProblem`).
 */
export function readInputSchema(schema: unknown, file: string, where: string): { schema: JsonSchema; forms: SchemaForm[] } {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) throw new InputError('input schema must be a JSON object', { file, where });
  const normalised = normaliseSchemaDraft(schema);
  const problem = normalisedSchemaProblem(normalised.schema as JsonSchema);
  if (problem) throw new InputError(problem, { file, where });
  return { schema: normalised.schema as JsonSchema, forms: normalised.forms };
}

/** Throw unless `text` is a non-empty string. */
export function requireText(value: unknown, what: string, file: string, where: string): string {
  if (typeof value !== 'string') {
    const got = value === undefined ? 'nothing' : value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
    throw new InputError(`${what} must be a string (got ${got})`, { file, where });
  }
  if (value.trim() === '') throw new InputError(`${what} is empty`, { file, where });
  return value;
}

export interface CatalogParts {
  tools: Located<Tool>[];
  skills?: Located<Skill>[];
  servers?: Server[];
  plugins?: Plugin[];
}

/**
 * Put located tools and skills together into a `Catalog`, rejecting duplicate tool ids and skill
 * names (the error names both places). Order is kept as given.
 */
export function assembleCatalog(parts: CatalogParts): Catalog {
  const seen = new Map<string, Located<Tool>>();
  for (const t of parts.tools) {
    const first = seen.get(t.value.id);
    if (first) {
      throw new InputError(`duplicate tool id "${t.value.id}" (first defined at ${first.file}: ${first.where})`, { file: t.file, where: t.where });
    }
    seen.set(t.value.id, t);
  }
  const seenSkills = new Map<string, Located<Skill>>();
  for (const s of parts.skills ?? []) {
    const first = seenSkills.get(s.value.name);
    if (first) {
      throw new InputError(`duplicate skill name "${s.value.name}" (first defined at ${first.file}: ${first.where})`, { file: s.file, where: s.where });
    }
    seenSkills.set(s.value.name, s);
  }
  return {
    tools: parts.tools.map((t) => t.value),
    skills: (parts.skills ?? []).map((s) => s.value),
    servers: parts.servers ?? [],
    plugins: parts.plugins ?? [],
  };
}

/**
 * Check labelled cases against a catalog: ids unique, requests not empty, every expected tool,
 * hard negative and expected skill known (a case's `calls` are a record, never scored: a called
 * tool another catalog lacks is kept, and `audit` does not count it). Each problem is an `InputError` naming the
 * file and line: collected into `problems` when given (the cases with a problem are left out of
 * the list returned), else thrown (one as it is, several at once as one `InputErrors`).
 */
export function checkCases(cases: Located<Case>[], catalog: Catalog, problems?: ProblemCollector, opts: CheckCasesOptions = {}): Case[] {
  const own = problems ?? new ProblemCollector();
  const toolIds = new Set(catalog.tools.map((t) => t.id));
  const skillNames = new Set(catalog.skills.map((s) => s.name));
  const ids = new Map<string, Located<Case>>();
  const good: Case[] = [];
  for (const lc of cases) {
    // past the problems reported, a suggestion would be computed for nothing (over a 50,000-tool catalog, most of the time)
    const suggest = own.count < MAX_REPORTED_PROBLEMS;
    const ok = own.attempt(() => checkCase(lc, toolIds, skillNames, ids, suggest, opts));
    if (ok) good.push(opts.acceptRemovedGold ? withoutRemovedNegatives(lc.value, toolIds) : lc.value);
  }
  if (problems === undefined) own.throwIfAny();
  return good;
}

/** How {@link checkCases} treats tool ids the catalog no longer has. */
export interface CheckCasesOptions {
  /**
   * Accept a case whose expected tools are not all in the catalog (a registry change removed or
   * renamed them): it is kept, its gold unchanged, and scored as a miss for those tools (the caller
   * says which: `goldRemovedOf`). Hard negatives the catalog lacks are dropped from the case (a
   * tool that is not there cannot be confused with its gold). Without it, both are errors.
   */
  acceptRemovedGold?: boolean;
}

/** The case without the hard negatives the catalog lacks (the same object when it lacks none). */
function withoutRemovedNegatives(c: Case, toolIds: ReadonlySet<string>): Case {
  if (!c.hardNegatives?.some((id) => !toolIds.has(id))) return c;
  return { ...c, hardNegatives: c.hardNegatives.filter((id) => toolIds.has(id)) };
}

function checkCase(
  lc: Located<Case>,
  toolIds: ReadonlySet<string>,
  skillNames: ReadonlySet<string>,
  ids: Map<string, Located<Case>>,
  suggest: boolean,
  opts: CheckCasesOptions,
): true {
  const like = (name: string, names: Iterable<string>) => (suggest ? didYouMean(name, names) : '');
  const c = lc.value;
  const at = { file: lc.file, where: lc.where };
  if (c.id.trim() === '') throw new InputError('case id is empty', at);
  const first = ids.get(c.id);
  if (first) throw new InputError(`duplicate case id "${c.id}" (first at ${first.file}: ${first.where})`, at);
  ids.set(c.id, lc);
  if (c.request.trim() === '') throw new InputError(`case "${c.id}": request is empty`, at);
  if (!opts.acceptRemovedGold) {
    for (const id of c.expectedTools ?? []) {
      if (!toolIds.has(id)) throw new InputError(`case "${c.id}": unknown expected tool id "${id}"${like(id, toolIds)}`, at);
    }
    for (const id of c.hardNegatives ?? []) {
      if (!toolIds.has(id)) throw new InputError(`case "${c.id}": unknown hard-negative tool id "${id}"${like(id, toolIds)}`, at);
    }
  }
  if (c.expectedSkill !== undefined && !skillNames.has(c.expectedSkill)) {
    throw new InputError(`case "${c.id}": unknown expected skill "${c.expectedSkill}"${like(c.expectedSkill, skillNames)}`, at);
  }
  if (c.expectedTools === undefined && c.expectedSkill === undefined) {
    throw new InputError(`case "${c.id}": no expected tools (use an empty list for "no tool needed") and no expected skill`, at);
  }
  return true;
}
