/**
 * Reading and writing the regression file. YAML (`.yaml`, `.yml`) or JSON (`.json`), chosen by
 * extension; validated against {@link REGRESSION_SCHEMA} with ajv, then every figure key is parsed
 * (metric ids through `parseMetricId`). Errors are `InputError`s naming the file, the line and the
 * JSON path (`gate.yaml: line 7 ($.strategies.bm25.figures.top1): must be number`).
 *
 * Writing (`bless`) stores figures at full precision (a double survives JSON and YAML exactly, so
 * the same run gates with delta 0) and keeps what a person wrote: a YAML file is edited through the `yaml`
 * package's Document API, so comments, key order, flow style and tolerances survive, and only the
 * blessed values (and the tolerances bless writes, one flow map a line) change; a JSON file keeps
 * its key order (JSON has no comments).
 */
import { existsSync } from 'node:fs';
import { extname } from 'node:path';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { ajvClass } from '../util/ajv.ts';
import { Document, isMap, isScalar, LineCounter, parseDocument, type Node } from 'yaml';
import { checkNesting, checkConfigSize, MAX_TEXT_BYTES, MAX_CONFIG_BYTES, readTextFile, yamlErrorMessage, yamlValue } from '../util/bounded.ts';
import { InputError } from '../util/errors.ts';
import { didYouMean } from '../util/suggest.ts';
import { parseFigure, type Figure } from './figures.ts';
import { REGRESSION_SCHEMA, REGRESSION_SCHEMA_VERSION, type RegressionSpec, type StrategyExpectation, type Tolerance } from './schema.ts';

export type RegressionFormat = 'yaml' | 'json';

export interface LoadedRegression {
  /** The path as given. */
  path: string;
  format: RegressionFormat;
  spec: RegressionSpec;
  /** Parsed figure keys per strategy, in file order. */
  figures: Map<string, Figure[]>;
  /** Things the file says that the gate ignores (a tolerance on scopeLeakCount). */
  warnings: string[];
  /** The YAML document (YAML files only), for edits that keep comments. */
  doc?: Document;
}

let compiled: ValidateFunction | undefined;
/** The regression file's validator, compiled on first use. */
function validator(): ValidateFunction {
  compiled ??= new (ajvClass())({ allErrors: false, verbose: true, strict: true }).compile(REGRESSION_SCHEMA);
  return compiled;
}

/** The format of a regression file, from its extension. */
export function formatOf(path: string): RegressionFormat {
  const ext = extname(path).toLowerCase();
  if (ext === '.yaml' || ext === '.yml') return 'yaml';
  if (ext === '.json') return 'json';
  throw new InputError('a regression file must end in .yaml, .yml or .json', { file: path });
}

/** `$.strategies.bm25.figures["recall@5"]`. */
export function jsonPath(segments: readonly string[]): string {
  return `$${segments.map((s) => (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(s) ? `.${s}` : `[${JSON.stringify(s)}]`)).join('')}`;
}

/** 1-based line of the node at `segments` (or of the key `key` inside it), if the document has it. */
function lineOf(doc: Document | undefined, lc: LineCounter | undefined, segments: readonly string[], key?: string): number | undefined {
  if (!doc || !lc) return undefined;
  let node: unknown = segments.length ? doc.getIn(segments, true) : doc.contents;
  for (let depth = segments.length; node === undefined && depth > 0; depth--) node = doc.getIn(segments.slice(0, depth - 1), true);
  if (key !== undefined && isMap(node)) {
    const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === key);
    if (pair && isScalar(pair.key) && pair.key.range) return lc.linePos(pair.key.range[0]).line;
  }
  const range = (node as Node | undefined)?.range;
  return range ? lc.linePos(range[0]).line : undefined;
}

function where(line: number | undefined, segments: readonly string[]): string {
  return line !== undefined ? `line ${line} (${jsonPath(segments)})` : jsonPath(segments);
}

function schemaMessage(e: ErrorObject): { message: string; key?: string } {
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'additionalProperties': {
      const key = String(p.additionalProperty);
      const allowed = Object.keys((e.parentSchema as { properties?: Record<string, unknown> } | undefined)?.properties ?? {});
      return { key, message: `unknown field "${key}"${didYouMean(key, allowed)}${allowed.length ? ` (fields here: ${allowed.join(', ')})` : ''}` };
    }
    case 'required':
      return { message: `missing required field "${String(p.missingProperty)}"` };
    case 'const':
      return { message: `must be ${JSON.stringify(p.allowedValue)}` };
    case 'enum':
      return { message: `must be one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}` };
    case 'pattern':
      return { message: 'must be a sha256: 64 lowercase hexadecimal digits' };
    case 'minProperties':
      return { message: 'must not be empty' };
    default:
      return { message: e.message ?? 'does not match the schema' };
  }
}

function segmentsOf(instancePath: string): string[] {
  return instancePath === ''
    ? []
    : instancePath
        .slice(1)
        .split('/')
        .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** Parse and check the text of a regression file. */
export function parseRegression(text: string, path: string, format: RegressionFormat = formatOf(path)): LoadedRegression {
  const lc = new LineCounter();
  let data: unknown;
  let doc: Document | undefined;
  if (format === 'json') {
    try {
      data = JSON.parse(text);
    } catch (err) {
      const msg = (err as Error).message;
      const pos = /position (\d+)/.exec(msg);
      const line = pos ? text.slice(0, Number(pos[1])).split('\n').length : undefined;
      throw new InputError(`invalid JSON: ${msg}`, { file: path, ...(line !== undefined ? { where: `line ${line}` } : {}) });
    }
    checkNesting(data, path);
    // The YAML parser reads JSON too: only to point errors at lines (a file this small is cheap to parse twice).
    if (Buffer.byteLength(text, 'utf8') <= MAX_CONFIG_BYTES) {
      const located = parseDocument(text, { lineCounter: lc, logLevel: 'error' });
      if (!located.errors.length) doc = located;
    }
  } else {
    checkConfigSize(text, path);
    doc = parseDocument(text, { lineCounter: lc, uniqueKeys: true, prettyErrors: false, logLevel: 'error' });
    const err = doc.errors[0];
    if (err) throw new InputError(yamlErrorMessage(err.message), { file: path, where: `line ${lc.linePos(err.pos[0]).line}` });
    data = yamlValue(doc, path);
  }
  if (data !== null && typeof data === 'object' && !Array.isArray(data)) {
    const v = (data as { schemaVersion?: unknown }).schemaVersion;
    if (typeof v === 'number' && v > REGRESSION_SCHEMA_VERSION) {
      throw new InputError(`schemaVersion ${v} is newer than this Backpack reads (${REGRESSION_SCHEMA_VERSION}): upgrade Backpack`, {
        file: path,
        where: where(lineOf(doc, lc, ['schemaVersion']), ['schemaVersion']),
      });
    }
  }
  const validate = validator();
  if (!validate(data)) {
    const e = validate.errors![0]!;
    const segs = segmentsOf(e.instancePath);
    const { message, key } = schemaMessage(e);
    const at = key !== undefined ? [...segs, key] : segs;
    throw new InputError(message, { file: path, where: where(lineOf(doc, lc, segs, key), at) });
  }
  const spec = data as unknown as RegressionSpec;
  const figures = new Map<string, Figure[]>();
  const warnings: string[] = [];
  for (const [name, s] of Object.entries(spec.strategies)) {
    const list: Figure[] = [];
    for (const key of Object.keys(s.figures)) {
      const segs = ['strategies', name, 'figures'];
      try {
        list.push(parseFigure(key));
      } catch (err) {
        throw new InputError((err as Error).message, { file: path, where: where(lineOf(doc, lc, segs, key), [...segs, key]) });
      }
    }
    for (const key of Object.keys(s.tolerance ?? {})) {
      const segs = ['strategies', name, 'tolerance'];
      if (!Object.prototype.hasOwnProperty.call(s.figures, key)) {
        throw new InputError(`a tolerance for "${key}", which is not among the figures of ${name}${didYouMean(key, Object.keys(s.figures))}`, {
          file: path,
          where: where(lineOf(doc, lc, segs, key), [...segs, key]),
        });
      }
      if (key === 'scopeLeakCount')
        warnings.push(`${path}: ${where(lineOf(doc, lc, segs, key), [...segs, key])}: scopeLeakCount tolerates nothing; this tolerance is ignored`);
    }
    figures.set(name, list);
  }
  return { path, format, spec, figures, warnings, ...(format === 'yaml' && doc ? { doc } : {}) };
}

/** Read and check a regression file. */
export function readRegressionFile(path: string): LoadedRegression {
  const format = formatOf(path);
  if (!existsSync(path)) throw new InputError('no such regression file (write one with backpack bless)', { file: path });
  return parseRegression(readTextFile(path, format === 'yaml' ? MAX_CONFIG_BYTES : MAX_TEXT_BYTES, 'regression file'), path, format);
}

export interface BlessUpdate {
  dataset: { name: string; catalogSha256: string; casesSha256?: string };
  /** Strategy → figure key → value (in the order to write new keys). */
  strategies: Record<string, Record<string, number>>;
  /** Strategy → figure key → tolerance to write (replacing the file's for that figure). */
  tolerances?: Record<string, Record<string, Tolerance>>;
  /** Strategy → where it came from (not built in), written as its `origin`; a strategy not listed has its origin removed. */
  origins?: Record<string, StrategyExpectation['origin']>;
}

const HEADER = [
  ' Expected figures for `backpack gate` (format: docs/gate.md).',
  ' Values are written by `backpack bless --reason …`; tolerances, comments and the rest are yours to edit.',
].join('\n');

/** Set a value at `path`, keeping the node (and its comments) when there is one. */
function setValue(doc: Document, path: readonly string[], value: string | number): void {
  const node = doc.getIn(path, true);
  if (isScalar(node)) node.value = value;
  else doc.setIn(path, value);
}

/**
 * The text of the regression file after a bless: `existing` (as loaded) with the dataset and the
 * given figures written in, or a new file when `existing` is undefined.
 */
export function blessedText(existing: LoadedRegression | undefined, path: string, update: BlessUpdate): string {
  const format = existing?.format ?? formatOf(path);
  if (format === 'yaml') {
    let doc = existing?.doc;
    if (!doc) {
      const spec = existing ? structuredClone(existing.spec) : { schemaVersion: REGRESSION_SCHEMA_VERSION, dataset: { ...update.dataset }, strategies: {} };
      doc = new Document(spec);
      if (!existing) doc.commentBefore = HEADER;
    }
    setValue(doc, ['dataset', 'name'], update.dataset.name);
    setValue(doc, ['dataset', 'catalogSha256'], update.dataset.catalogSha256);
    if (update.dataset.casesSha256 !== undefined) setValue(doc, ['dataset', 'casesSha256'], update.dataset.casesSha256);
    for (const [name, figs] of Object.entries(update.strategies)) {
      for (const [key, v] of Object.entries(figs)) setValue(doc, ['strategies', name, 'figures', key], v);
    }
    for (const name of Object.keys(update.strategies)) {
      const origin = update.origins?.[name];
      if (origin) doc.setIn(['strategies', name, 'origin'], doc.createNode({ ...origin }));
      else if (doc.hasIn(['strategies', name, 'origin'])) doc.deleteIn(['strategies', name, 'origin']);
    }
    // One tolerance a line, in flow style: `top1: { abs: 0.005 }`.
    for (const [name, tols] of Object.entries(update.tolerances ?? {})) {
      for (const [key, t] of Object.entries(tols)) doc.setIn(['strategies', name, 'tolerance', key], doc.createNode({ ...t }, { flow: true }));
    }
    return doc.toString();
  }
  const spec: RegressionSpec = existing
    ? structuredClone(existing.spec)
    : { schemaVersion: REGRESSION_SCHEMA_VERSION, dataset: { ...update.dataset }, strategies: {} };
  spec.dataset = {
    ...spec.dataset,
    name: update.dataset.name,
    catalogSha256: update.dataset.catalogSha256,
    ...(update.dataset.casesSha256 !== undefined ? { casesSha256: update.dataset.casesSha256 } : {}),
  };
  for (const [name, figs] of Object.entries(update.strategies)) {
    const s = (spec.strategies[name] ??= { figures: {} });
    for (const [key, v] of Object.entries(figs)) s.figures[key] = v;
    const origin = update.origins?.[name];
    if (origin) s.origin = { ...origin };
    else delete s.origin;
  }
  for (const [name, tols] of Object.entries(update.tolerances ?? {})) {
    const s = spec.strategies[name]!;
    for (const [key, t] of Object.entries(tols)) (s.tolerance ??= {})[key] = { ...t };
  }
  return `${JSON.stringify(spec, null, 2)}\n`;
}
