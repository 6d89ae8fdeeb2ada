/**
 * The MetaTool (ToolE) dataset (Huang et al., ICLR 2024) as a Backpack dataset.
 *
 * Reads a folder holding the repository's data files (see datasets/metatool/PROVENANCE.md):
 *   plugin_des.json               {tool: description}: the catalog, one plugin tool per entry, in
 *                                 file order: id = the plain tool name, source `plugin`,
 *                                 plugin = namespace = the name, empty object input schema; each
 *                                 tool's plugin also goes into `catalog.plugins`
 *   all_clean_data.csv            `Query,Tool`: single-tool cases. Rows are grouped by their exact
 *                                 query string (no trimming), in order of first appearance: exact
 *                                 duplicate rows merge; a query with several different labels is
 *                                 ONE case with `goldMode: 'any'` and slice `single-tool-ambiguous`;
 *                                 the others get slice `single-tool`. Ids `single-000001`, …
 *   multi_tool_query_golden.json  [{query, tool: [t1, t2]}]: `goldMode: 'all'`, slice `multi-tool`,
 *                                 ids `multi-0001`, … in file order
 *   awareness_1040.jsonl          {idx, query, label, gold_tool}: each `negative` row is a no-tool
 *                                 case (`expectedTools: []`, slice `no-tool`, ids `none-0001`, … in
 *                                 file order); a `positive` row whose query is not already a
 *                                 single-tool case is appended as one (next `single-NNNNNN` id);
 *                                 one whose query is, adds its label there if it is new
 * Splits are deterministic halves, for example-augmented indexes (`--examples-from train
 * --split test`): each tool's single-tool cases are ordered by sha256 of their id and the first
 * half (rounded down) is `train`, the rest `test`; every other case is `train` when the first byte
 * of its id's sha256 is even. `big_tool_des.json` is not read.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { InputError } from '../../util/errors.ts';
import { parseJsonLines } from '../../util/jsonl.ts';
import { readTextFile } from '../../util/bounded.ts';
import { didYouMean } from '../../util/suggest.ts';
import { firstSentence, makeTool } from '../model.ts';
import { sha256 } from '../../util/hash.ts';
import type { Case, Catalog, Dataset, Plugin } from '../types.ts';
import { assembleCatalog, checkCases, requireText, type Located } from '../validate.ts';
import { describeJson, isObject, quoted, readJsonFile } from './common.ts';

export const METATOOL_FILES = {
  catalog: 'plugin_des.json',
  singleTool: 'all_clean_data.csv',
  multiTool: 'multi_tool_query_golden.json',
  awareness: 'awareness_1040.jsonl',
} as const;

export const METATOOL_SLICES = {
  single: 'single-tool',
  ambiguous: 'single-tool-ambiguous',
  multi: 'multi-tool',
  none: 'no-tool',
} as const;

/** True if `dir` holds MetaTool's catalog file (`plugin_des.json`). */
export function isMetaToolDir(dir: string): boolean {
  return existsSync(join(dir, METATOOL_FILES.catalog));
}

function requireMetaToolDir(dir: string): void {
  if (!existsSync(dir)) throw new InputError('file not found', { file: dir });
  if (!isMetaToolDir(dir)) throw new InputError(`not a MetaTool folder: ${METATOOL_FILES.catalog} is missing`, { file: dir });
}

/** The MetaTool catalog: 199 plugin tools from `plugin_des.json` (only that file is read). */
export function loadMetaToolCatalog(dir: string): Catalog {
  requireMetaToolDir(dir);
  const file = join(dir, METATOOL_FILES.catalog);
  const value = readJsonFile(file);
  if (!isObject(value)) throw new InputError(`expected a JSON object {tool name: description} (got ${describeJson(value)})`, { file, where: '$' });
  const tools = Object.entries(value).map(([name, desc]) => {
    const where = `$[${JSON.stringify(name)}]`;
    if (name.trim() === '') throw new InputError('tool name is empty', { file, where });
    const description = requireText(desc, `tool "${name}": description`, file, where);
    const tool = makeTool({
      id: name,
      name,
      source: 'plugin',
      plugin: name,
      namespace: name,
      summary: firstSentence(description),
      description,
    });
    return { value: tool, file, where };
  });
  const plugins: Plugin[] = tools.map((t) => ({ name: t.value.name, description: t.value.description }));
  return assembleCatalog({ tools, plugins });
}

/** Load the whole MetaTool dataset (catalog and cases; see the module comment). */
export function loadMetaTool(dir: string): Dataset {
  const catalog = loadMetaToolCatalog(dir);
  const known = new Set(catalog.tools.map((t) => t.id));
  const checkTool = (name: unknown, file: string, where: string): string => {
    if (typeof name !== 'string') throw new InputError(`a tool is named by a string (got ${describeJson(name)})`, { file, where });
    if (!known.has(name)) throw new InputError(`unknown tool ${quoted(name)}${didYouMean(name, known)}`, { file, where });
    return name;
  };

  // Single-tool queries, grouped by exact query text.
  const singles = new Map<string, { labels: string[]; file: string; where: string }>();
  const csvFile = join(dir, METATOOL_FILES.singleTool);
  let rows: string[][];
  try {
    rows = parse(readTextFile(csvFile), { bom: true, skip_empty_lines: true }) as string[][];
  } catch (err) {
    if (err instanceof InputError) throw err;
    const e = err as Error & { lines?: number };
    throw new InputError(`invalid CSV: ${e.message}`, { file: csvFile, ...(e.lines !== undefined ? { where: `line ${e.lines}` } : {}) });
  }
  const header = rows[0]?.map((h) => h.trim());
  if (header?.[0] !== 'Query' || header[1] !== 'Tool' || header.length !== 2) {
    throw new InputError(`expected the header "Query,Tool" (got ${JSON.stringify(rows[0]?.join(',') ?? '')})`, { file: csvFile, where: 'row 1' });
  }
  for (let r = 1; r < rows.length; r++) {
    const where = `row ${r + 1}`;
    const [query, label] = rows[r]!;
    const request = requireText(query, 'query', csvFile, where);
    const tool = checkTool(label, csvFile, where);
    const entry = singles.get(request);
    if (entry === undefined) singles.set(request, { labels: [tool], file: csvFile, where });
    else if (!entry.labels.includes(tool)) entry.labels.push(tool);
  }

  // Awareness: negatives are no-tool cases; positives not yet seen become single-tool cases.
  const awFile = join(dir, METATOOL_FILES.awareness);
  const negatives: Array<Located<string>> = [];
  for (const { value, where } of parseJsonLines(readTextFile(awFile), awFile)) {
    const request = requireText(value.query, '"query"', awFile, where);
    if (value.label === 'negative') {
      if (value.gold_tool !== null && value.gold_tool !== undefined)
        throw new InputError('a negative row must have "gold_tool": null', { file: awFile, where });
      negatives.push({ value: request, file: awFile, where });
    } else if (value.label === 'positive') {
      const tool = checkTool(value.gold_tool, awFile, where);
      const entry = singles.get(request);
      if (entry === undefined) singles.set(request, { labels: [tool], file: awFile, where });
      else if (!entry.labels.includes(tool)) entry.labels.push(tool);
    } else {
      throw new InputError(`"label" must be "positive" or "negative" (got ${quoted(value.label)})`, { file: awFile, where });
    }
  }

  const cases: Array<Located<Case>> = [];
  let n = 0;
  for (const [request, { labels, file, where }] of singles) {
    n++;
    const ambiguous = labels.length > 1;
    const c: Case = {
      id: `single-${String(n).padStart(6, '0')}`,
      request,
      expectedTools: labels,
      ...(ambiguous ? { goldMode: 'any' as const } : {}),
      slices: [ambiguous ? METATOOL_SLICES.ambiguous : METATOOL_SLICES.single],
      split: 'test',
    };
    cases.push({ value: c, file, where });
  }

  // Two-tool queries.
  const multiFile = join(dir, METATOOL_FILES.multiTool);
  const multi = readJsonFile(multiFile);
  if (!Array.isArray(multi)) throw new InputError(`expected a JSON array of {query, tool} (got ${describeJson(multi)})`, { file: multiFile, where: '$' });
  multi.forEach((m, i) => {
    const where = `$[${i}]`;
    if (!isObject(m)) throw new InputError(`expected {query, tool} (got ${describeJson(m)})`, { file: multiFile, where });
    const request = requireText(m.query, '"query"', multiFile, `${where}.query`);
    if (!Array.isArray(m.tool) || m.tool.length === 0)
      throw new InputError(`"tool" must be a non-empty list (got ${describeJson(m.tool)})`, { file: multiFile, where: `${where}.tool` });
    const tools = [...new Set(m.tool.map((t, j) => checkTool(t, multiFile, `${where}.tool[${j}]`)))];
    const c: Case = {
      id: `multi-${String(i + 1).padStart(4, '0')}`,
      request,
      expectedTools: tools,
      goldMode: 'all',
      slices: [METATOOL_SLICES.multi],
      split: 'test',
    };
    cases.push({ value: c, file: multiFile, where });
  });

  negatives.forEach(({ value: request, file, where }, i) => {
    const c: Case = { id: `none-${String(i + 1).padStart(4, '0')}`, request, expectedTools: [], slices: [METATOOL_SLICES.none], split: 'test' };
    cases.push({ value: c, file, where });
  });

  assignSplits(cases.map((c) => c.value));
  return { name: 'metatool', catalog, cases: checkCases(cases, catalog) };
}

/** The deterministic train/test halves described in the module comment. */
function assignSplits(cases: Case[]): void {
  const key = (c: Case) => sha256(c.id);
  const byTool = new Map<string, Case[]>();
  for (const c of cases) {
    if (c.slices.includes(METATOOL_SLICES.single)) {
      const tool = c.expectedTools![0]!;
      (byTool.get(tool) ?? byTool.set(tool, []).get(tool)!).push(c);
    } else {
      c.split = parseInt(key(c).slice(0, 2), 16) % 2 === 0 ? 'train' : 'test';
    }
  }
  for (const list of byTool.values()) {
    const ordered = list.map((c) => [key(c), c] as const).sort((a, b) => (a[0] < b[0] ? -1 : 1));
    const half = Math.floor(ordered.length / 2);
    ordered.forEach(([, c], i) => (c.split = i < half ? 'train' : 'test'));
  }
}
