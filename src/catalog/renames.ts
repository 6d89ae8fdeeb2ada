/**
 * Tool renames a registry change made (`eval --renames FILE`): old tool id → new tool id, so the
 * cases written for the old catalog keep their gold. A renames file is a JSON object
 * (`{"mcp__github__list_commits": "mcp__github__list_commits_v2"}`) or a CSV of two columns with
 * the header `old,new`. Applied to a case's expected tools and hard negatives when the old id is not
 * in the catalog and the new one is; every rename applied is reported, never silent.
 */
import { extname } from 'node:path';
import { parse } from 'csv-parse/sync';
import { InputError } from '../util/errors.ts';
import { readTextFile } from '../util/bounded.ts';
import { didYouMean } from '../util/suggest.ts';
import type { Case } from './types.ts';

/** Read and check a renames file: ids non-empty, each old id once, no chain (a new id that is also renamed) and no id renamed to itself. */
export function readRenames(file: string): Map<string, string> {
  const text = readTextFile(file);
  const pairs: Array<{ from: string; to: string; where: string }> = [];
  if (extname(file).toLowerCase() === '.csv') {
    let rows: string[][];
    try {
      rows = parse(text, { skip_empty_lines: true, trim: true }) as string[][];
    } catch (err) {
      throw new InputError(`renames: not readable as CSV (${(err as Error).message})`, { file });
    }
    const [head, ...rest] = rows;
    if (head?.length !== 2 || head[0]!.toLowerCase() !== 'old' || head[1]!.toLowerCase() !== 'new')
      throw new InputError('renames: the CSV needs the header "old,new" and two columns', { file, where: 'row 1' });
    rest.forEach((r, i) => {
      if (r.length !== 2) throw new InputError(`renames: two columns expected, got ${r.length}`, { file, where: `row ${i + 2}` });
      pairs.push({ from: r[0]!, to: r[1]!, where: `row ${i + 2}` });
    });
  } else {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      throw new InputError(`renames: not valid JSON (${(err as Error).message}); give an object {"old id": "new id"} or a CSV with the header old,new`, {
        file,
      });
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value))
      throw new InputError('renames: must be a JSON object {"old id": "new id"}', { file, where: '$' });
    for (const [from, to] of Object.entries(value as Record<string, unknown>)) {
      if (typeof to !== 'string') throw new InputError(`renames: the new id must be a string (got ${JSON.stringify(to)})`, { file, where: `$.${from}` });
      pairs.push({ from, to, where: `$.${from}` });
    }
  }
  const out = new Map<string, string>();
  for (const { from, to, where } of pairs) {
    if (!from || !to) throw new InputError('renames: a tool id is empty', { file, where });
    if (from === to) throw new InputError(`renames: "${from}" is renamed to itself`, { file, where });
    if (out.has(from)) throw new InputError(`renames: "${from}" is renamed twice`, { file, where });
    out.set(from, to);
  }
  for (const [from, to] of out)
    if (out.has(to)) throw new InputError(`renames: "${from}" → "${to}", which is renamed again: give the final id`, { file, where: `${from}` });
  return out;
}

/** What applying renames did: per old id, its new id and the cases whose gold it changed (case order). */
export type AppliedRenames = Map<string, { to: string; cases: string[] }>;

/**
 * Apply `renames` to the cases' expected tools and hard negatives. A rename whose new id is not in
 * the catalog is bad input (an `InputError` naming the file); one whose old id is still in the
 * catalog is not applied (the tool was not renamed) and is returned in `ignored`.
 */
export function applyRenames(
  cases: readonly Case[],
  renames: ReadonlyMap<string, string>,
  toolIds: ReadonlySet<string>,
  file: string,
): { cases: Case[]; applied: AppliedRenames; ignored: string[] } {
  for (const [from, to] of renames)
    if (!toolIds.has(to)) throw new InputError(`renames: "${from}" → "${to}", which the catalog does not have${didYouMean(to, toolIds)}`, { file });
  const live = new Map([...renames].filter(([from]) => !toolIds.has(from)));
  const ignored = [...renames.keys()].filter((from) => toolIds.has(from));
  const applied: AppliedRenames = new Map();
  const map = (c: Case, ids: readonly string[] | undefined): string[] | undefined => {
    if (!ids) return undefined;
    let changed = false;
    const out = ids.map((id) => {
      const to = live.get(id);
      if (to === undefined) return id;
      changed = true;
      const a = applied.get(id) ?? { to, cases: [] };
      if (!a.cases.includes(c.id)) a.cases.push(c.id);
      applied.set(id, a);
      return to;
    });
    return changed ? out : (ids as string[]);
  };
  const out = cases.map((c) => {
    const expectedTools = map(c, c.expectedTools);
    const hardNegatives = map(c, c.hardNegatives);
    if (expectedTools === c.expectedTools && hardNegatives === c.hardNegatives) return c;
    return { ...c, ...(expectedTools ? { expectedTools } : {}), ...(hardNegatives ? { hardNegatives } : {}) };
  });
  return { cases: out, applied, ignored };
}

/** The cases as they were before `applied` renames (new ids back to old), to compare with runs over the old catalog. */
export function unrenamed(cases: readonly Case[], goldRenamed: Readonly<Record<string, { to: string; cases: readonly string[] }>> | undefined): Case[] {
  if (!goldRenamed || !Object.keys(goldRenamed).length) return [...cases];
  const back = new Map<string, Map<string, string>>(); // case id → new id → old id
  for (const [from, { to, cases: ids }] of Object.entries(goldRenamed))
    for (const id of ids) {
      const m = back.get(id) ?? new Map<string, string>();
      m.set(to, from);
      back.set(id, m);
    }
  return cases.map((c) => {
    const m = back.get(c.id);
    if (!m) return c;
    const undo = (ids: readonly string[] | undefined) => ids?.map((id) => m.get(id) ?? id);
    return {
      ...c,
      ...(c.expectedTools ? { expectedTools: undo(c.expectedTools)! } : {}),
      ...(c.hardNegatives ? { hardNegatives: undo(c.hardNegatives)! } : {}),
    };
  });
}
