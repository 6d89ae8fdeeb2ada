/**
 * The fixed list of malformed-input kinds: every input file Backpack reads × every mutation that
 * fits its format (truncation, invalid JSON/YAML/CSV/TSV, wrong top-level types, 10,000-level
 * nesting, YAML alias bombs, huge strings and files, BOMs, CRLF, invalid UTF-8, NUL bytes, duplicate
 * keys, `__proto__`, a folder where a file is expected, a missing file) and, field by field, every
 * wrong type (missing, null, number, string, array, object, 10,000-level nesting); plus bad flag
 * values. Each kind names the file it breaks and the command line that reads it.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { stringify as yamlStringify, parse as yamlParse } from 'yaml';
import { CASE_FIELDS } from '../../src/catalog/loaders/cases.ts';
import { FIXTURES, UNSET_VAR, type Bases } from './bases.ts';

export interface Kind {
  /** `category: mutation`, unique. */
  name: string;
  /** The input (file type and the command that reads it). */
  category: string;
  /** Write the case's inputs into `dir` (empty, existing); returns the argv. */
  build(dir: string, b: Bases): string[];
  /** Exit codes the command documents as a verdict on good input (gate and diff: 100). */
  verdicts?: readonly number[];
}

/** Nesting depth of the deep kinds (the issue's 10,000 levels). */
export const DEEP = 10_000;
/** Length of the huge strings (4 MB: far beyond any real field, cheap enough to write per case). */
export const HUGE = 4 * 1024 * 1024;
/** Size the huge-file kinds report (a sparse file: nothing is written). */
export const HUGE_FILE = 600 * 1024 * 1024;

const DIRECTORY = Symbol('directory');
const MISSING = Symbol('missing');
const SPARSE = Symbol('sparse');
type Content = string | Buffer | typeof DIRECTORY | typeof MISSING | typeof SPARSE;
type Mutation = (text: string) => Content;

export function put(file: string, content: Content): void {
  rmSync(file, { recursive: true, force: true });
  if (content === MISSING) return;
  mkdirSync(dirname(file), { recursive: true });
  if (content === DIRECTORY) mkdirSync(file);
  else if (content === SPARSE) {
    writeFileSync(file, '');
    truncateSync(file, HUGE_FILE);
  } else writeFileSync(file, content);
}

const deepArray = (n = DEEP) => `${'['.repeat(n)}${']'.repeat(n)}`;
const deepObject = (n = DEEP) => `${'{"a":'.repeat(n)}{}${'}'.repeat(n)}`;
/** Stands for a 10,000-level value in a field edit: serialisers overflow on the real thing, so it is put into the text afterwards. */
const DEEP_TOKEN = '__fuzz_deep_value__';

/** Bytes of `text` with invalid UTF-8 inserted inside the first string value (or at the start). */
function invalidUtf8(text: string): Buffer {
  const i = text.indexOf('"') + 1;
  return Buffer.concat([Buffer.from(text.slice(0, i)), Buffer.from([0xff, 0xfe, 0xc3, 0x28]), Buffer.from(text.slice(i))]);
}

/** `text` with `insert` placed inside the first string value. */
function inFirstString(text: string, insert: string): string {
  const i = text.indexOf('"') + 1;
  return i > 0 ? text.slice(0, i) + insert + text.slice(i) : insert + text;
}

/** `text` with the first string value replaced by a huge one. */
function hugeFirstString(text: string): string {
  const m = /"(?:[^"\\]|\\.)*"\s*:\s*"((?:[^"\\]|\\.)*)"/.exec(text);
  if (!m) return `${text}\n${'x'.repeat(HUGE)}`;
  const at = m.index + m[0].length - m[1]!.length - 1;
  return text.slice(0, at) + 'x'.repeat(HUGE) + text.slice(at + m[1]!.length);
}

/** `text` (a JSON object) with `"key": value` inserted right after its first `{`. */
function afterFirstBrace(text: string, member: string): string {
  const i = text.indexOf('{');
  return i < 0 ? text : `${text.slice(0, i + 1)}${member},${text.slice(i + 1)}`;
}

/** The first key of the JSON object text, given again with null at the end (JSON.parse keeps the last). */
function duplicateKey(text: string): string {
  const m = /\{\s*("(?:[^"\\]|\\.)*")\s*:/.exec(text);
  const end = text.lastIndexOf('}');
  if (!m || end < 0) return text;
  return `${text.slice(0, end)}, ${m[1]}: null${text.slice(end)}`;
}

/** Mutations of any text file's encoding (every text format takes them). */
const ENCODINGS: Record<string, Mutation> = {
  BOM: (t) => `\uFEFF${t}`,
  CRLF: (t) => t.replace(/\n/g, '\r\n'),
};

/** The file is not there to read as it should be: a folder, missing, or too large. */
const NOT_A_READABLE_FILE: Record<string, Mutation> = {
  'a folder instead': () => DIRECTORY,
  missing: () => MISSING,
  [`${HUGE_FILE / 1024 / 1024} MB file`]: () => SPARSE,
};

const JSON_MUTATIONS: Record<string, Mutation> = {
  empty: () => '',
  whitespace: () => '  \n\t \n',
  truncated: (t) => t.slice(0, Math.floor(t.length / 2)),
  'not JSON': () => 'this is not JSON\n',
  'trailing garbage': (t) => `${t}\n}}]`,
  'top-level null': () => 'null\n',
  'top-level number': () => '42\n',
  'top-level string': () => '"text"\n',
  'top-level true': () => 'true\n',
  'empty array': () => '[]\n',
  'empty object': () => '{}\n',
  'array of nulls': () => '[null, null]\n',
  [`${DEEP}-level arrays`]: () => deepArray(),
  [`${DEEP}-level objects`]: () => deepObject(),
  'huge string': hugeFirstString,
  ...ENCODINGS,
  'invalid UTF-8': invalidUtf8,
  'NUL byte in a string': (t) => inFirstString(t, '\u0000'),
  'escaped lone surrogate': (t) => inFirstString(t, '\\ud800'),
  'duplicate key': duplicateKey,
  '__proto__ key': (t) => afterFirstBrace(t, '"__proto__": {"polluted": true}'),
  'number 1e400': (t) => t.replace(/(:\s*)(\d+(?:\.\d+)?)/, '$11e400'),
  ...NOT_A_READABLE_FILE,
};

const JSONL_MUTATIONS: Record<string, Mutation> = {
  empty: () => '',
  'blank lines only': () => '\n  \n\t\n',
  'last line truncated': (t) => {
    const lines = t.trimEnd().split('\n');
    const last = lines.pop()!;
    return `${[...lines, last.slice(0, Math.floor(last.length / 2))].join('\n')}\n`;
  },
  'a line not JSON': (t) => `${t}this is not JSON\n`,
  'an array line': (t) => `${t}[1, 2]\n`,
  'a number line': (t) => `${t}42\n`,
  'a null line': (t) => `${t}null\n`,
  'a string line': (t) => `${t}"text"\n`,
  'an empty object line': (t) => `${t}{}\n`,
  [`a ${DEEP}-level array line`]: (t) => `${t}${deepArray()}\n`,
  [`a ${DEEP}-level object line`]: (t) => `${t}${deepObject()}\n`,
  [`a ${DEEP}-level field`]: (t) => afterFirstBrace(t, `"deep": ${deepArray()}`),
  'huge string': hugeFirstString,
  ...ENCODINGS,
  'invalid UTF-8': invalidUtf8,
  'NUL byte in a string': (t) => inFirstString(t, '\u0000'),
  'first line repeated': (t) => `${t.split('\n')[0]}\n${t}`,
  'duplicate key': (t) => {
    const [first, ...rest] = t.split('\n');
    return [duplicateKey(first!), ...rest].join('\n');
  },
  '__proto__ key': (t) => afterFirstBrace(t, '"__proto__": {"polluted": true}'),
  ...NOT_A_READABLE_FILE,
};

const aliasBomb = (key = 'x'): string => {
  const lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (let i = 1; i < 9; i++) {
    const prev = String.fromCharCode(97 + i - 1);
    const cur = String.fromCharCode(97 + i);
    lines.push(`${cur}: &${cur} [${Array(9).fill(`*${prev}`).join(',')}]`);
  }
  lines.push(`${key}: *i`);
  return `${lines.join('\n')}\n`;
};
const deepBlock = (n = DEEP) => {
  let s = '';
  for (let i = 0; i < n; i++) s += `${' '.repeat(i)}- \n`;
  return `${s}${' '.repeat(n)}x\n`;
};

const YAML_MUTATIONS: Record<string, Mutation> = {
  empty: () => '',
  whitespace: () => '  \n\n',
  'comment only': () => '# nothing here\n',
  truncated: (t) => t.slice(0, Math.floor(t.length / 2)),
  'not YAML': () => 'key: [unclosed\n  - : :\n\t"\n',
  'tab indentation': (t) => t.replace(/^ {2}/gm, '\t'),
  'alias bomb': () => aliasBomb(),
  'alias bomb in a value': (t) => `${t}\n${aliasBomb('bomb')}`,
  [`${DEEP}-level flow sequences`]: () => `x: ${deepArray()}\n`,
  [`${DEEP}-level block sequences`]: () => deepBlock(),
  'duplicate key': (t) => `${t}\n${t.split('\n').find((l) => /^[A-Za-z$]/.test(l)) ?? 'x: 1'}\n`,
  'top-level scalar': () => '42\n',
  'top-level list': () => '- a\n- b\n',
  'unknown tag': (t) => `${t}\nextra: !!js/function "function () {}"\n`,
  'binary tag': () => 'x: !!binary aGVsbG8=\n',
  'merge key': (t) => `base: &b {k: 1}\n${t}\nmerged:\n  <<: *b\n`,
  'two documents': (t) => `${t}\n---\n${t}`,
  'huge string': (t) => `${t}\nhuge: "${'x'.repeat(HUGE)}"\n`,
  ...ENCODINGS,
  'invalid UTF-8': (t) => Buffer.concat([Buffer.from('# '), Buffer.from([0xff, 0xfe]), Buffer.from(`\n${t}`)]),
  'NUL byte': (t) => `${t}\nx: "a\u0000b"\n`,
  ...NOT_A_READABLE_FILE,
};

const TSV_MUTATIONS: Record<string, Mutation> = {
  empty: () => '',
  'header only': () => 'query-id\tcorpus-id\tscore\n',
  'two columns': (t) => `${t}q000001\tbash\n`,
  'one column': (t) => `${t}q000001\n`,
  'four columns': (t) => `${t}q000001\tbash\t1\textra\n`,
  'spaces instead of tabs': (t) => `${t}q000001 bash 1\n`,
  'score not a number': (t) => `${t}q000001\tbash\tone\n`,
  'score NaN': (t) => `${t}q000001\tbash\tNaN\n`,
  'score Infinity': (t) => `${t}q000001\tbash\tInfinity\n`,
  'score negative': (t) => `${t}q000001\tbash\t-1\n`,
  'unknown query id': (t) => `${t}nope-query\tbash\t1\n`,
  'unknown corpus id': (t) =>
    `${t
      .split('\n')
      .slice(0, 2)
      .join('\n')
      .replace(/\t[^\t]+\t1$/, '\tno_such_tool\t1')}\n`,
  '__proto__ query id': (t) => `${t}__proto__\tbash\t1\n`,
  'empty ids': (t) => `${t}\t\t1\n`,
  'huge line': (t) => `${t}${'x'.repeat(HUGE)}\tbash\t1\n`,
  ...ENCODINGS,
  'invalid UTF-8': (t) => Buffer.concat([Buffer.from(t), Buffer.from([0xff, 0xfe, 0x09, 0x62, 0x09, 0x31, 0x0a])]),
  'NUL byte': (t) => `${t}q\u0000\tbash\t1\n`,
  'a folder instead': () => DIRECTORY,
};

const CSV_MUTATIONS: Record<string, Mutation> = {
  empty: () => '',
  'header only': (t) => `${t.split('\n')[0]}\n`,
  'unknown column': (t) =>
    t
      .split('\n')
      .map((r, i) => (r === '' ? r : `${r},${i === 0 ? 'bogus' : 'x'}`))
      .join('\n'),
  'no header': (t) => t.split('\n').slice(1).join('\n'),
  'duplicate column': (t) => {
    const [h, ...rest] = t.split('\n');
    const first = h!.split(',')[0];
    return [`${h},${first}`, ...rest.map((r) => (r === '' ? r : `${r},x`))].join('\n');
  },
  'unclosed quote': (t) => `${t}"never closed,\n`,
  'ragged row': (t) => `${t}a,b,c,d,e,f,g,h,i,j,k,l,m,n,o\n`,
  'short row': (t) => `${t}only-one-cell\n`,
  'quote inside an unquoted cell': (t) => `${t}ab"c,d\n`,
  'formula cell': (t) => t.replace(/\n([^,\n]*),/, '\n=cmd|"/c calc"!A1,'),
  'huge cell': (t) => `${t}"${'x'.repeat(HUGE)}",x\n`,
  ...ENCODINGS,
  'invalid UTF-8': (t) => Buffer.concat([Buffer.from(t), Buffer.from([0xff, 0xfe, 0x2c, 0x78, 0x0a])]),
  'NUL byte': (t) => `${t}a\u0000b,x\n`,
  'a folder instead': () => DIRECTORY,
  missing: () => MISSING,
};

const MD_MUTATIONS: Record<string, Mutation> = {
  empty: () => '',
  'no front matter': () => '# A skill\n\nJust markdown.\n',
  'unclosed front matter': () => '---\nname: x\ndescription: y\n',
  'empty front matter': () => '---\n---\nbody\n',
  'front matter not YAML': () => '---\nname: [unclosed\n  - : :\n---\nbody\n',
  'front matter a list': () => '---\n- a\n- b\n---\nbody\n',
  'front matter a scalar': () => '---\n42\n---\nbody\n',
  'alias bomb': () => `---\n${aliasBomb('name')}description: boom\n---\nbody\n`,
  'alias bomb in metadata': () => `---\nname: bomb\ndescription: boom\nmetadata:\n${aliasBomb('category').replace(/^/gm, '  ').trimEnd()}\n---\nbody\n`,
  [`${DEEP}-level flow sequences`]: () => `---\nname: deep\ndescription: d\nmetadata: ${deepArray()}\n---\nbody\n`,
  [`${DEEP}-level block sequences`]: () => `---\nname: deep\ndescription: d\nmetadata:\n${deepBlock().replace(/^/gm, '  ').trimEnd()}\n---\nbody\n`,
  'duplicate key': (t) => t.replace(/^---\n/, '---\nname: first\n'),
  'unknown tag': (t) => t.replace(/^---\n/, '---\nextra: !!js/function "function () {}"\n'),
  'huge body': (t) => `${t}\n${'word '.repeat(HUGE / 5)}\n`,
  'huge front matter': (t) => t.replace(/^---\n/, `---\nhuge: "${'x'.repeat(HUGE)}"\n`),
  ...ENCODINGS,
  'invalid UTF-8': (t) =>
    Buffer.concat([Buffer.from(t.slice(0, 4)), Buffer.from('description_x: "'), Buffer.from([0xff, 0xfe]), Buffer.from('"\n'), Buffer.from(t.slice(4))]),
  'NUL byte': (t) => t.replace(/^---\n/, '---\nextra: "a\u0000b"\n'),
  'a folder instead': () => DIRECTORY,
  [`${HUGE_FILE / 1024 / 1024} MB file`]: () => SPARSE,
};

const BINARY_MUTATIONS: Record<string, (bytes: Buffer) => Content> = {
  empty: () => '',
  truncated: (b) => b.subarray(0, Math.floor(b.length / 2)),
  'first bytes only': (b) => b.subarray(0, 64),
  garbage: () => Buffer.from('this is not a protocol buffer at all \u0000\u0001\u0002'),
  'a folder instead': () => DIRECTORY,
  missing: () => MISSING,
};

/** The wrong values a field gets, by name; a value of the field's own type is skipped. */
const FIELD_VALUES: Record<string, () => unknown> = {
  missing: () => MISSING,
  null: () => null,
  number: () => 12345,
  string: () => 'wrong',
  array: () => ['wrong'],
  object: () => ({ wrong: true }),
  [`${DEEP}-level`]: () => DEEP_TOKEN,
};

const typeName = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

export type PathSeg = string | number;

function getAt(value: unknown, path: readonly PathSeg[]): unknown {
  let v = value;
  for (const s of path) v = v === null || typeof v !== 'object' ? undefined : (v as Record<string, unknown>)[s as string];
  return v;
}

function setAt(value: unknown, path: readonly PathSeg[], to: unknown): void {
  let v = value as Record<string, unknown>;
  for (const s of path.slice(0, -1)) v = v[s as string] as Record<string, unknown>;
  const last = path[path.length - 1]!;
  if (to === MISSING) {
    if (Array.isArray(v)) v.splice(last as number, 1);
    else delete v[last as string];
  } else v[last as string] = to;
}

export type Format = 'json' | 'jsonl' | 'yaml' | 'tsv' | 'csv' | 'md' | 'binary';

export interface Target {
  category: string;
  format: Format;
  /** Copy the inputs into `dir`; the file the kinds break, and the command line. */
  prepare(dir: string, b: Bases): { file: string; argv: string[] };
  /** Fields to break: JSON paths into the file's value (JSONL: into the record `line` picks). */
  fields?: PathSeg[][];
  /** JSONL: the record the field kinds break (index among the non-blank lines). */
  line?: (records: Array<Record<string, unknown>>) => number;
  /** Only these generic mutations (default: all for the format). */
  only?: readonly string[];
  /** Leave these generic mutations out. */
  skip?: readonly string[];
  /** Only these field values. */
  values?: readonly string[];
  /** The string that stands for a wrong string value (default "wrong"). */
  text?: string;
  verdicts?: readonly number[];
  /** In the fixed list run by `npm test` (the full sweep, `npm run fuzz`, takes everything): fewer of the slow kinds. */
  fast?: { only?: readonly string[]; skip?: readonly string[]; fields?: PathSeg[][]; values?: readonly string[] };
  /** The slow kinds (`HEAVY`) the fixed list keeps for this target. */
  heavy?: readonly string[];
}

/** The slow kinds (megabytes written, or read): in the fixed list only for the targets that name them in `heavy`. */
const HEAVY = ['huge string', 'huge line', 'huge cell', 'huge body', 'huge front matter', `${HUGE_FILE / 1024 / 1024} MB file`];
const SPARSE_KIND = `${HUGE_FILE / 1024 / 1024} MB file`;

/**
 * The field values of the fixed list: a missing field, a value of another type (a number, or a
 * string for a number) and 10,000 levels of nesting. (null reads as missing nearly everywhere; the
 * full sweep gives every field null, a number, a string, an array and an object too.)
 */
const FAST_VALUES = ['missing', 'wrong type', `${DEEP}-level`];

const copy = (from: string, to: string): string => {
  cpSync(from, to, { recursive: true, verbatimSymlinks: true });
  return to;
};

/** A copy of the dataset in `dir`: without its manifest (so every file is parsed and checked), unless `keepManifest`. */
function datasetCopy(dir: string, b: Bases, keepManifest = false): string {
  const ds = copy(b.dataset, join(dir, 'ds'));
  if (!keepManifest) rmSync(join(ds, 'manifest.json'));
  return ds;
}

function datasetTarget(name: string, fields: PathSeg[][], opts: Partial<Target> = {}, via: 'inspect' | 'eval' = 'inspect'): Target {
  return {
    category: `dataset ${name} (${via})`,
    format: name.endsWith('.jsonl') ? 'jsonl' : name.endsWith('.tsv') ? 'tsv' : 'json',
    prepare: (dir, b) => {
      const ds = datasetCopy(dir, b, name === 'manifest.json');
      const argv =
        via === 'inspect'
          ? ['inspect', ds]
          : ['eval', '--dataset', ds, '--retrievers', 'bm25', '--profiles', 'role-gating', '--out', join(dir, 'out'), '--quiet'];
      return { file: join(ds, name), argv };
    },
    fields,
    ...opts,
  };
}

const report = (res: string, dir: string) => ['report', res, '--format', 'md', '--out', join(dir, 'rep')];

/** The bases that are one file or folder. */
type BaseCopy = { [K in keyof Bases]: Bases[K] extends string ? K : never }[keyof Bases];

/** Breaks a copy of one of the base files, `name` in the case's folder; the command (`argv`) reads the copy, `file`. */
const inFileCopy =
  (base: BaseCopy, name: string, argv: (file: string, dir: string, b: Bases) => string[]): Target['prepare'] =>
  (dir, b) => {
    const file = copy(b[base], join(dir, name));
    return { file, argv: argv(file, dir, b) };
  };

/** Breaks `path` in a copy of one of the base folders, `name` in the case's folder; the command (`argv`) reads the copy, `folder`. */
const inFolderCopy =
  (base: BaseCopy, name: string, path: string[], argv: (folder: string, dir: string, b: Bases) => string[]): Target['prepare'] =>
  (dir, b) => {
    const folder = copy(b[base], join(dir, name));
    return { file: join(folder, ...path), argv: argv(folder, dir, b) };
  };

/** Breaks `path` in a copy of the results folder; the command (`argv`) reads the copy, `res`. */
const inResults = (path: string[], argv: (res: string, dir: string, b: Bases) => string[]): Target['prepare'] => inFolderCopy('results', 'res', path, argv);

/** Breaks `path` in a copy of the first of two shard folders, which `merge` then reads. */
const inFirstShard =
  (path: string[]): Target['prepare'] =>
  (dir, b) => {
    const s1 = copy(b.shards[0], join(dir, 's1'));
    const s2 = copy(b.shards[1], join(dir, 's2'));
    return { file: join(s1, ...path), argv: ['merge', s1, s2, '--out', join(dir, 'merged')] };
  };

/** Breaks `path` in a copy of the static model folder, which `eval --retrievers embed --model` reads. */
const inModel =
  (path: string[]): Target['prepare'] =>
  (dir, b) => {
    const model = copy(b.model, join(dir, 'model'));
    return {
      file: join(model, ...path),
      argv: ['eval', '--catalog', b.evalCatalog, '--cases', b.evalCases, '--retrievers', 'embed', '--model', model, '--out', join(dir, 'out'), '--quiet'],
    };
  };

const RESULT_FIELDS: PathSeg[][] = [
  ['schemaVersion'],
  ['backpack'],
  ['backpack', 'version'],
  ['dataset'],
  ['dataset', 'name'],
  ['dataset', 'source'],
  ['dataset', 'source', 'kind'],
  ['dataset', 'source', 'ref'],
  ['dataset', 'catalogSha256'],
  ['dataset', 'tools'],
  ['dataset', 'cases'],
  ['config'],
  ['config', 'retrievers'],
  ['config', 'profiles'],
  ['config', 'ks'],
  ['config', 'ks', 0],
  ['config', 'depth'],
  ['config', 'floors'],
  ['config', 'traces'],
  ['config', 'cache'],
  ['configHash'],
  ['shard'],
  ['retrievers'],
  ['retrievers', 'bm25'],
  ['retrievers', 'bm25', 'metrics'],
  ['retrievers', 'bm25', 'metrics', 'overall'],
  ['retrievers', 'bm25', 'metrics', 'overall', 'top1'],
  ['retrievers', 'bm25', 'metrics', 'slices'],
  ['retrievers', 'bm25', 'metrics', 'namespaces'],
  ['retrievers', 'bm25', 'latency'],
  ['retrievers', 'bm25', 'config'],
  ['retrievers', 'bm25', 'neverSurfaced'],
  ['retrievers', 'bm25', 'abstention'],
  ['retrievers', 'bm25', 'recallAtFalsePositiveRate'],
  ['retrievers', 'bm25', 'sessions'],
  ['profiles'],
  ['profiles', 'deferred'],
  ['profiles', 'deferred', 'tokens'],
  ['profiles', 'deferred', 'tokens', 'perCase'],
  ['profiles', 'deferred', 'exposure'],
  ['profiles', 'deferred', 'calls'],
  ['profiles', 'deferred', 'metrics'],
  ['tokenTable'],
  ['skills'],
  ['timings'],
  ['timings', 'startedAt'],
];

/** The first detail line with a non-empty ranking. */
const ranked = (rs: Array<Record<string, unknown>>) =>
  Math.max(
    0,
    rs.findIndex((r) => Array.isArray(r.ranked) && r.ranked.length > 0),
  );

const DETAIL_FIELDS: PathSeg[][] = [['caseId'], ['ranked'], ['ranked', 0], ['ranked', 0, 1], ['pinned'], ['leaks'], ['ms']];

/** Breaks a copy of one transcript fixture (under fixtures/transcripts/, its name kept), which `import` then reads alone. */
function transcriptTarget(name: string, rel: string, format: 'json' | 'jsonl', opts: Partial<Target>): Target {
  return {
    category: `transcript ${name} (import)`,
    format,
    prepare: (dir) => {
      const file = copy(join(FIXTURES, 'transcripts', rel), join(dir, basename(rel)));
      return { file, argv: ['import', file, '--out', join(dir, 'out'), '--quiet'] };
    },
    ...opts,
  };
}

/** The JSONL mutations of the fixed list for a transcript (the full sweep takes all). */
const TRANSCRIPT_FAST_JSONL = [
  'empty',
  'last line truncated',
  'a line not JSON',
  'an array line',
  'an empty object line',
  `a ${DEEP}-level object line`,
  `a ${DEEP}-level field`,
  'invalid UTF-8',
  'NUL byte in a string',
  'first line repeated',
  '__proto__ key',
  'a folder instead',
];

export const TARGETS: Target[] = [
  // The dataset folder, read by inspect (every file) and eval.
  datasetTarget(
    'corpus.jsonl',
    [
      '_id',
      'title',
      'text',
      'name',
      'source',
      'server',
      'namespace',
      'summary',
      'description',
      'inputSchema',
      ['inputSchema', 'type'],
      ['inputSchema', 'properties'],
      ['inputSchema', 'required'],
      'examples',
      'scopes',
      'pinned',
      'annotations',
      'hash',
    ].map((f) => (Array.isArray(f) ? f : [f])),
    {
      line: (rs) =>
        Math.max(
          0,
          rs.findIndex((r) => r.source === 'mcp' && r.annotations !== undefined),
        ),
      heavy: ['huge string'],
    },
  ),
  datasetTarget(
    'skills.jsonl',
    ['_id', 'name', 'description', 'text', 'whenToUse', 'category', 'body', 'locator', 'disableModelInvocation'].map((f) => [f]),
  ),
  datasetTarget(
    'servers.jsonl',
    ['name', 'source', 'description', 'instructions'].map((f) => [f]),
  ),
  datasetTarget(
    'plugins.jsonl',
    ['name', 'description'].map((f) => [f]),
  ),
  datasetTarget(
    'queries.jsonl',
    // A query record carries the case fields, with `_id` and `text` for `id` and `request`, and `expected`.
    ['_id', 'text', 'expected', ...CASE_FIELDS.filter((f) => f !== 'id' && f !== 'request')].map((f) => [f]),
    {
      line: (rs) =>
        Math.max(
          0,
          rs.findIndex((r) => Array.isArray(r.expectedTools) && (r.expectedTools as unknown[]).length > 0 && typeof r.role === 'string'),
        ),
    },
  ),
  datasetTarget('qrels/test.tsv', []),
  datasetTarget('skill-qrels/test.tsv', []),
  datasetTarget('roles.json', [
    ['schemaVersion'],
    ['always'],
    ['always', 0],
    ['alwaysTools'],
    ['alwaysTools', 0],
    ['roles'],
    ['roles', 'sre'],
    ['roles', 'sre', 'namespaces'],
    ['roles', 'sre', 'tools'],
    ['roles', 'sre', 'tools', 0],
    ['roles', 'sre', 'description'],
  ]),
  datasetTarget('realism.json', [
    ['schemaVersion'],
    ['retriever'],
    ['k'],
    ['overall'],
    ['overall', 'bm25RecallAt5'],
    ['overall', 'cases'],
    ['slices'],
    ['fillers'],
    ['fillers', 'top5'],
    ['fillers', 'top'],
    ['placeholders'],
    ['noTool'],
    ['noTool', 'cases'],
  ]),
  datasetTarget('manifest.json', [
    ['schemaVersion'],
    ['name'],
    ['generator'],
    ['seed'],
    ['preset'],
    ['params'],
    ['counts'],
    ['counts', 'tools'],
    ['slices'],
    ['splits'],
    ['catalogSha256'],
    ['files'],
    ['files', 'corpus.jsonl'],
    ['files', 'corpus.jsonl', 'sha256'],
    ['files', 'corpus.jsonl', 'bytes'],
  ]),
  // The same files where eval reads them (roles for gating, every case scored).
  datasetTarget(
    'corpus.jsonl',
    [['inputSchema'], ['namespace'], ['pinned'], ['server']],
    { only: [`a ${DEEP}-level field`, 'huge string', 'first line repeated', '__proto__ key'], values: ['null', 'number', 'array', 'object'] },
    'eval',
  ),
  datasetTarget(
    'queries.jsonl',
    [['role'], ['callerScopes'], ['sessionId'], ['turn'], ['hardNegatives'], ['slices']],
    { only: ['first line repeated', '__proto__ key', 'huge string'], values: ['null', 'number', 'string', 'array', 'object'] },
    'eval',
  ),
  datasetTarget(
    'roles.json',
    [['always'], ['roles', 'sre', 'namespaces'], ['roles', 'sre', 'tools', 0], ['alwaysTools', 0]],
    { only: ['__proto__ key', 'duplicate key'], values: ['null', 'string', 'array', 'object'] },
    'eval',
  ),

  // Catalog files of every format, read by inspect --catalog.
  {
    category: 'catalog mcp-tools-list',
    heavy: ['huge string', SPARSE_KIND],
    format: 'json',
    prepare: inFileCopy('toolsList', 'github.json', (file) => ['inspect', '--catalog', file]),
    fields: [
      ['result'],
      ['result', 'tools'],
      ['result', 'tools', 0],
      ['result', 'tools', 0, 'name'],
      ['result', 'tools', 0, 'title'],
      ['result', 'tools', 0, 'description'],
      ['result', 'tools', 0, 'inputSchema'],
      ['result', 'tools', 0, 'inputSchema', 'type'],
      ['result', 'tools', 0, 'inputSchema', 'properties'],
      ['result', 'tools', 0, 'inputSchema', 'properties', 'query'],
      ['result', 'tools', 0, 'inputSchema', 'required'],
      ['result', 'tools', 0, 'annotations'],
      ['result', 'nextCursor'],
      ['result', 'description'],
      ['jsonrpc'],
      ['id'],
    ],
  },
  {
    category: 'catalog mcp-bundle',
    format: 'json',
    prepare: inFileCopy('bundle', 'bundle.json', (file) => ['inspect', '--catalog', file]),
    fields: [
      ['servers'],
      ['servers', 0],
      ['servers', 0, 'name'],
      ['servers', 0, 'description'],
      ['servers', 0, 'instructions'],
      ['servers', 0, 'tools'],
      ['servers', 0, 'pages'],
      ['servers', 0, 'nextCursor'],
      ['servers', 0, 'tools', 0, 'name'],
      ['servers', 0, 'tools', 0, 'inputSchema'],
      ['servers', 0, 'tools', 0, 'inputSchema', 'properties'],
    ],
  },
  {
    category: 'catalog mcp-folder',
    format: 'json',
    prepare: inFolderCopy('mcpFolder', 'mcp', ['github.json'], (folder) => ['inspect', '--catalog', folder]),
    fields: [['tools'], ['tools', 0], ['tools', 0, 'name'], ['tools', 0, 'inputSchema']],
    skip: ['missing'],
  },
  {
    category: 'catalog openai',
    format: 'json',
    prepare: inFileCopy('openai', 'openai.json', (file) => ['inspect', '--catalog', file, '--format', 'openai']),
    fields: [
      [0],
      [0, 'type'],
      [0, 'function'],
      [0, 'function', 'name'],
      [0, 'function', 'description'],
      [0, 'function', 'parameters'],
      [0, 'function', 'strict'],
      [1, 'name'],
      [1, 'parameters'],
    ],
  },
  {
    category: 'catalog anthropic',
    format: 'json',
    prepare: inFileCopy('anthropic', 'anthropic.json', (file) => ['inspect', '--catalog', file, '--format', 'anthropic']),
    fields: [[0], [0, 'name'], [0, 'description'], [0, 'input_schema'], [0, 'input_schema', 'properties'], [0, 'type']],
  },
  {
    category: 'catalog snapshot bundle',
    format: 'json',
    prepare: inFileCopy('snapshotBundle', 'snapshot.json', (file) => ['inspect', '--catalog', file]),
    fields: [
      ['snapshot'],
      ['snapshot', 'config'],
      ['snapshot', 'servers'],
      ['snapshot', 'failed'],
      ['servers', 0, 'snapshot'],
      ['servers', 0, 'snapshot', 'serverInfo'],
      ['servers', 0, 'prompts'],
    ],
    only: ['truncated', `${DEEP}-level objects`, 'duplicate key', '__proto__ key'],
  },
  {
    category: 'catalog skills-folder SKILL.md',
    heavy: ['huge body', 'huge front matter', SPARSE_KIND],
    format: 'md',
    prepare: inFolderCopy('skills', 'skills', ['writing', 'commit-message', 'SKILL.md'], (folder) => ['inspect', '--catalog', folder]),
    fields: [['name'], ['description'], ['when_to_use'], ['disable-model-invocation'], ['category'], ['metadata'], ['metadata', 'category']],
  },
  {
    category: 'catalog metatool plugin_des.json',
    format: 'json',
    prepare: inFolderCopy('metatool', 'metatool', ['plugin_des.json'], (folder) => ['inspect', '--catalog', folder, '--format', 'metatool']),
    fields: [['WeatherTool'], ['']],
  },
  {
    category: 'dataset metatool all_clean_data.csv',
    format: 'csv',
    prepare: inFolderCopy('metatool', 'metatool', ['all_clean_data.csv'], (folder) => ['inspect', folder]),
  },
  {
    category: 'dataset metatool multi_tool_query_golden.json',
    format: 'json',
    prepare: inFolderCopy('metatool', 'metatool', ['multi_tool_query_golden.json'], (folder) => ['inspect', folder]),
    fields: [[0], [0, 'query'], [0, 'tool'], [0, 'tool', 0]],
    only: ['truncated', 'top-level null', 'empty object', `${DEEP}-level arrays`, 'missing', 'a folder instead'],
  },
  {
    category: 'dataset metatool awareness_1040.jsonl',
    format: 'jsonl',
    prepare: inFolderCopy('metatool', 'metatool', ['awareness_1040.jsonl'], (folder) => ['inspect', folder]),
    fields: [['query'], ['label'], ['gold_tool']],
    only: ['empty', 'a line not JSON', 'an array line', `a ${DEEP}-level field`, 'missing', 'a folder instead'],
  },
  {
    category: 'mcpServers configuration (snapshot)',
    heavy: [SPARSE_KIND],
    format: 'json',
    prepare: inFileCopy('mcpConfig', 'mcp.json', (file, dir) => ['snapshot', '--config', file, '--out', join(dir, 'bundle.json'), '--timeout', '5', '--quiet']),
    fields: [
      ['mcpServers'],
      ['mcpServers', 'srv'],
      ['mcpServers', 'srv', 'command'],
      ['mcpServers', 'srv', 'args'],
      ['mcpServers', 'srv', 'args', 0],
      ['mcpServers', 'srv', 'env'],
      ['mcpServers', 'srv', 'env', 'TOKEN'],
      ['mcpServers', 'srv', 'cwd'],
      ['mcpServers', 'srv', 'type'],
      ['mcpServers', 'srv', 'url'],
      ['mcpServers', 'srv', 'headers'],
      ['mcpServers', 'srv', 'disabled'],
    ],
    text: `\${${UNSET_VAR}}`,
    // the configuration may be JSON with comments: strip the first line's comment before editing fields
  },
  {
    category: 'mcpServers configuration (eval --catalog)',
    format: 'json',
    prepare: inFileCopy('mcpConfig', 'mcp.json', (file, dir, b) => ['eval', '--catalog', file, '--cases', b.evalCases, '--out', join(dir, 'out'), '--quiet']),
    only: ['truncated', 'not JSON', `${DEEP}-level objects`, 'top-level null', 'empty object', 'duplicate key'],
  },

  // Labelled cases, read by inspect --catalog … --cases.
  {
    category: 'cases .jsonl',
    heavy: [SPARSE_KIND],
    format: 'jsonl',
    prepare: inFileCopy('casesJsonl', 'cases.jsonl', (file, _dir, b) => ['inspect', '--catalog', b.mcpFolder, '--skills', b.skills, '--cases', file]),
    fields: [
      ['id'],
      ['request'],
      ['expectedTools'],
      ['expectedTools', 0],
      ['goldMode'],
      ['expectedSkill'],
      ['callerScopes'],
      ['role'],
      ['slices'],
      ['sessionId'],
      ['turn'],
      ['hardNegatives'],
      ['split'],
      ['unknownField'],
    ],
    line: (rs) =>
      Math.max(
        0,
        rs.findIndex((r) => r.id === 'j-turn'),
      ),
  },
  {
    category: 'cases .csv',
    heavy: ['huge cell'],
    format: 'csv',
    prepare: inFileCopy('casesCsv', 'cases.csv', (file, _dir, b) => ['inspect', '--catalog', b.mcpFolder, '--skills', b.skills, '--cases', file]),
  },
  {
    category: 'cases .json',
    format: 'json',
    prepare: inFileCopy('casesJson', 'cases.json', (file, _dir, b) => ['inspect', '--catalog', b.mcpFolder, '--cases', file]),
    fields: [[0], [0, 'id'], [0, 'request'], [0, 'expectedTools'], [0, 'turn'], [0, 'split']],
  },
  {
    category: 'cases .jsonl (eval)',
    format: 'jsonl',
    prepare: inFileCopy('evalCases', 'cases.jsonl', (file, dir, b) => [
      'eval',
      '--catalog',
      b.evalCatalog,
      '--cases',
      file,
      '--out',
      join(dir, 'out'),
      '--quiet',
    ]),
    only: ['empty', 'first line repeated', 'an empty object line', `a ${DEEP}-level field`, 'huge string'],
    fields: [['expectedTools'], ['split'], ['turn']],
    values: ['null', 'number', 'object'],
  },
  {
    category: 'agent traces .csv (eval --traces)',
    format: 'csv',
    prepare: inFileCopy('traces', 'traces.csv', (file, dir, b) => [
      'eval',
      '--catalog',
      b.evalCatalog,
      '--cases',
      b.evalCases,
      '--traces',
      file,
      '--out',
      join(dir, 'out'),
      '--quiet',
    ]),
    skip: ['huge cell'],
  },

  // The config file, read before any command.
  {
    category: 'config file .yaml',
    heavy: ['huge string', SPARSE_KIND],
    format: 'yaml',
    prepare: inFileCopy('configYaml', 'backpack.config.yaml', (file) => ['--config-file', file, 'list']),
    fields: [
      ['eval'],
      ['eval', 'k'],
      ['eval', 'k', 0],
      ['eval', 'retrievers'],
      ['eval', 'workers'],
      ['report'],
      ['report', 'format'],
      ['inspect', 'json'],
      ['$schema'],
    ],
  },
  {
    category: 'config file .json',
    format: 'json',
    prepare: inFileCopy('configJson', 'backpack.config.json', (file) => ['--config-file', file, 'list']),
    fields: [['eval'], ['eval', 'k'], ['eval', 'workers'], ['report', 'format']],
  },

  // Expected figures, read by gate.
  {
    category: 'expected figures .yaml (gate)',
    heavy: [SPARSE_KIND],
    format: 'yaml',
    prepare: inFileCopy('gateYaml', 'gate.yaml', (file, dir, b) => [
      'gate',
      '--expect',
      file,
      '--results',
      b.results,
      '--junit',
      join(dir, 'junit.xml'),
      '--markdown',
      join(dir, 'gate.md'),
    ]),
    fields: [
      ['schemaVersion'],
      ['dataset'],
      ['dataset', 'name'],
      ['dataset', 'catalogSha256'],
      ['dataset', 'casesSha256'],
      ['strategies'],
      ['strategies', 'bm25'],
      ['strategies', 'bm25', 'figures'],
      ['strategies', 'bm25', 'figures', 'top1'],
      ['strategies', 'bm25', 'tolerance'],
      ['defaults'],
      ['significance'],
      ['baseline'],
    ],
    verdicts: [100],
  },
  {
    category: 'expected figures .json (gate)',
    heavy: ['huge string'],
    format: 'json',
    prepare: inFileCopy('gateJson', 'gate.json', (file, _dir, b) => ['gate', '--expect', file, '--results', b.results]),
    fields: [
      ['strategies', 'bm25', 'figures'],
      ['strategies', 'bm25', 'figures', 'top1'],
      ['dataset', 'catalogSha256'],
    ],
    verdicts: [100],
  },

  // Results folders, read by report, gate and merge.
  {
    category: 'results.json (report)',
    heavy: ['huge string', SPARSE_KIND],
    format: 'json',
    prepare: inResults(['results.json'], report),
    fields: RESULT_FIELDS,
  },
  {
    category: 'results.json (gate)',
    format: 'json',
    prepare: inResults(['results.json'], (res, _dir, b) => ['gate', '--expect', b.gateYaml, '--results', res]),
    fields: [
      ['dataset'],
      ['dataset', 'catalogSha256'],
      ['config', 'ks'],
      ['retrievers'],
      ['retrievers', 'bm25'],
      ['retrievers', 'bm25', 'metrics'],
      ['retrievers', 'bm25', 'metrics', 'overall'],
      ['retrievers', 'bm25', 'metrics', 'overall', 'top1'],
      ['profiles', 'deferred', 'tokens'],
      ['timings'],
    ],
    only: ['truncated', 'top-level null', 'empty object', `${DEEP}-level objects`, '__proto__ key', 'a folder instead', 'missing'],
    verdicts: [100],
  },
  {
    category: 'results.json (merge)',
    format: 'json',
    prepare: inFirstShard(['results.json']),
    fields: [
      ['shard'],
      ['shard', 'index'],
      ['shard', 'count'],
      ['configHash'],
      ['config'],
      ['config', 'retrievers'],
      ['config', 'ks'],
      ['dataset', 'source'],
      ['retrievers', 'bm25'],
      ['retrievers', 'bm25', 'latency'],
      ['retrievers', 'bm25', 'config'],
      ['timings', 'startedAt'],
    ],
    only: ['truncated', 'top-level null', 'empty object', `${DEEP}-level objects`, '__proto__ key', 'a folder instead', 'missing'],
  },
  {
    category: 'results.json (bless)',
    format: 'json',
    prepare: inResults(['results.json'], (res, dir) => ['bless', '--results', res, '--expect', join(dir, 'expected.yaml'), '--reason', 'fuzz']),
    fields: [
      ['retrievers', 'bm25', 'metrics', 'overall'],
      ['dataset', 'name'],
      ['profiles', 'deferred', 'tokens'],
    ],
    only: ['empty object', `${DEEP}-level objects`],
  },
  {
    category: 'details/bm25.jsonl (report)',
    heavy: ['huge string'],
    format: 'jsonl',
    prepare: inResults(['details', 'bm25.jsonl'], report),
    fields: DETAIL_FIELDS,
    line: ranked,
    skip: [`${HUGE_FILE / 1024 / 1024} MB file`],
  },
  {
    category: 'details/deferred.jsonl (report)',
    format: 'jsonl',
    prepare: inResults(['details', 'deferred.jsonl'], report),
    fields: [...DETAIL_FIELDS, ['eager'], ['exposure'], ['exposure', 'beforeTokens'], ['exposure', 'calls']],
    line: ranked,
    only: ['empty', 'an empty object line', 'first line repeated', 'missing'],
  },
  {
    category: 'details/bm25.jsonl (gate --baseline)',
    format: 'jsonl',
    prepare: inResults(['details', 'bm25.jsonl'], (res, _dir, b) => ['gate', '--expect', b.gateYaml, '--results', b.results, '--baseline', res]),
    fields: [['caseId'], ['ranked'], ['ranked', 0]],
    only: ['empty', 'an empty object line', 'first line repeated', 'missing', 'a folder instead'],
    verdicts: [100],
  },
  {
    category: 'details/bm25.jsonl (merge)',
    format: 'jsonl',
    prepare: inFirstShard(['details', 'bm25.jsonl']),
    fields: [['caseId'], ['ranked'], ['ms'], ['pinned']],
    only: ['empty', 'an empty object line', 'first line repeated', 'missing'],
  },
  {
    category: 'cases.jsonl (merge)',
    format: 'jsonl',
    prepare: inFirstShard(['cases.jsonl']),
    fields: [['id'], ['request'], ['expectedTools'], ['slices']],
    only: ['empty', 'an empty object line', 'first line repeated', 'missing', 'truncated', 'a folder instead'],
  },
  {
    category: 'tools.jsonl (merge)',
    format: 'jsonl',
    prepare: inFirstShard(['tools.jsonl']),
    fields: [['id'], ['namespace'], ['pinned'], ['summary']],
    only: ['empty', 'an empty object line', 'first line repeated', 'missing', 'truncated'],
  },
  {
    category: 'shard-positions.json (merge)',
    format: 'json',
    prepare: inFirstShard(['shard-positions.json']),
    fields: [['inputCases'], ['positions'], ['positions', 0]],
    only: ['truncated', 'not JSON', 'top-level null', 'empty object', `${DEEP}-level arrays`, 'duplicate key', 'missing', 'a folder instead'],
  },
  {
    category: 'catalog-snapshot.json (merge)',
    format: 'json',
    prepare: (dir, b) => {
      const shards = b.snapShards.map((s, i) => {
        const to = copy(s, join(dir, `s${i + 1}`));
        // the recorded catalog is gone: merge reads the copy kept in each shard's folder
        const r = JSON.parse(readFileSync(join(to, 'results.json'), 'utf8')) as { dataset: { source: { catalog: string } } };
        const base = r.dataset.source.catalog;
        r.dataset.source.catalog = join(dir, 'gone', 'catalog-snapshot.json');
        put(join(to, 'results.json'), JSON.stringify(r, null, 2));
        cpSync(base, join(to, 'catalog-snapshot.json'));
        return to;
      });
      return { file: join(shards[0]!, 'catalog-snapshot.json'), argv: ['merge', shards[0]!, shards[1]!, '--out', join(dir, 'merged')] };
    },
    fields: [['snapshot'], ['servers'], ['servers', 0, 'snapshot'], ['servers', 0, 'tools']],
    only: ['truncated', 'not JSON', 'top-level null', `${DEEP}-level arrays`, `${DEEP}-level objects`, 'duplicate key', 'missing', 'a folder instead'],
  },

  // The static embedding model, read by eval --retrievers embed --model DIR.
  ...['config.json', 'tokenizer.json', 'tokenizer_config.json'].map(
    (name): Target => ({
      category: `static model ${name} (eval --model)`,
      format: 'json',
      prepare: inModel([name]),
      fields:
        name === 'config.json'
          ? [['hidden_size'], ['vocab_size'], ['type_vocab_size'], ['num_hidden_layers'], ['model_type'], ['transformers.js_config', 'dtype']]
          : name === 'tokenizer_config.json'
            ? [['model_max_length'], ['do_lower_case'], ['unk_token']]
            : [['model'], ['model', 'vocab'], ['normalizer'], ['pre_tokenizer'], ['added_tokens']],
      values: ['missing', 'null', 'number', 'string', 'array', `${DEEP}-level`],
      only: ['empty', 'truncated', 'not JSON', 'top-level null', 'empty object', `${DEEP}-level objects`, 'a folder instead', 'missing'],
      // each case loads a model (70 ms): the fixed list takes a few
      fast: {
        only: name === 'config.json' ? ['truncated', 'a folder instead'] : ['truncated'],
        fields: name === 'config.json' ? [['hidden_size']] : name === 'tokenizer.json' ? [['model']] : [],
        values: ['null', 'wrong type'],
      },
    }),
  ),
  {
    category: 'static model onnx/model_quantized.onnx (eval --model)',
    format: 'binary',
    prepare: inModel(['onnx', 'model_quantized.onnx']),
    fast: { only: ['truncated'] },
  },

  // Registry diff of two catalogs.
  {
    category: 'catalog mcp-bundle (diff --new)',
    format: 'json',
    prepare: inFileCopy('bundle', 'new.json', (file, _dir, b) => ['diff', '--old', b.bundle, '--new', file, '--cases', b.evalCases]),
    fields: [
      ['servers', 0, 'tools', 0, 'inputSchema'],
      ['servers', 0, 'tools', 0, 'description'],
      ['servers', 0, 'name'],
    ],
    only: ['truncated', `${DEEP}-level objects`, 'huge string', 'duplicate key', 'top-level null'],
    verdicts: [100],
  },

  // Agent transcripts, read by import (one small real file each, detected by its content).
  transcriptTarget('claude-code session', 'claude-code/-home-marco-projects-spotter/d6e0bada-1959-4eec-a9d2-0bfade768d8f.jsonl', 'jsonl', {
    // the first typed request (the file opens with a file-history snapshot)
    line: (rs) =>
      Math.max(
        0,
        rs.findIndex((r) => r.type === 'user' && typeof (r.message as { content?: unknown } | undefined)?.content === 'string'),
      ),
    fields: [['type'], ['message'], ['message', 'role'], ['message', 'content'], ['sessionId'], ['timestamp'], ['uuid'], ['isSidechain']],
    fast: { only: TRANSCRIPT_FAST_JSONL, fields: [['type'], ['message'], ['message', 'content'], ['sessionId']] },
  }),
  transcriptTarget('codex rollout', 'codex/sessions/2026/02/23/rollout-2026-02-23T20-34-25-019c8bfe-ec25-79e0-97d7-bda6a9c575ff.jsonl', 'jsonl', {
    // the session meta, which detection reads
    fields: [['type'], ['payload'], ['payload', 'id'], ['payload', 'cwd'], ['timestamp']],
    fast: { only: TRANSCRIPT_FAST_JSONL, fields: [['type'], ['payload'], ['payload', 'id']] },
  }),
  transcriptTarget('api log', 'api-logs/handwritten.openai-chat.jsonl', 'jsonl', {
    fields: [
      ['request'],
      ['response'],
      ['request', 'body'],
      ['request', 'body', 'messages'],
      ['request', 'body', 'messages', 1, 'content'],
      ['request', 'body', 'tools'],
      ['request', 'body', 'tools', 0, 'function'],
      ['response', 'body', 'choices'],
      ['timestamp'],
    ],
    fast: { only: TRANSCRIPT_FAST_JSONL, fields: [['request'], ['response'], ['request', 'body', 'messages'], ['request', 'body', 'tools']] },
  }),
  transcriptTarget('otel json', 'otel/genai-interlingua.openllmetry.otlp.json', 'json', {
    fields: [
      ['resourceSpans'],
      ['resourceSpans', 0],
      ['resourceSpans', 0, 'scopeSpans'],
      ['resourceSpans', 0, 'scopeSpans', 0, 'spans'],
      ['resourceSpans', 0, 'scopeSpans', 0, 'spans', 0],
      ['resourceSpans', 0, 'scopeSpans', 0, 'spans', 0, 'traceId'],
      ['resourceSpans', 0, 'scopeSpans', 0, 'spans', 0, 'startTimeUnixNano'],
      ['resourceSpans', 0, 'scopeSpans', 0, 'spans', 0, 'attributes'],
      // gen_ai.request.max_tokens, an int attribute
      ['resourceSpans', 0, 'scopeSpans', 0, 'spans', 0, 'attributes', 4, 'value', 'intValue'],
    ],
    fast: {
      only: [
        'empty',
        'truncated',
        'not JSON',
        'top-level null',
        'empty array',
        'empty object',
        `${DEEP}-level arrays`,
        `${DEEP}-level objects`,
        'invalid UTF-8',
        'duplicate key',
        '__proto__ key',
        'number 1e400',
        'a folder instead',
      ],
      fields: [
        ['resourceSpans'],
        ['resourceSpans', 0, 'scopeSpans', 0, 'spans'],
        ['resourceSpans', 0, 'scopeSpans', 0, 'spans', 0, 'startTimeUnixNano'],
        ['resourceSpans', 0, 'scopeSpans', 0, 'spans', 0, 'attributes'],
        ['resourceSpans', 0, 'scopeSpans', 0, 'spans', 0, 'attributes', 4, 'value', 'intValue'],
      ],
    },
  }),

  // A dataset import wrote (its manifest removed, so every file is parsed), read by audit.
  {
    category: 'dataset from import queries.jsonl (audit)',
    format: 'jsonl',
    prepare: (dir, b) => {
      const ds = copy(b.imported, join(dir, 'ds'));
      rmSync(join(ds, 'manifest.json'));
      return { file: join(ds, 'queries.jsonl'), argv: ['audit', '--dataset', ds] };
    },
    line: (rs) =>
      Math.max(
        0,
        rs.findIndex((r) => Array.isArray(r.calls) && (r.calls as unknown[]).length > 1),
      ),
    fields: [['_id'], ['text'], ['expected'], ['expectedTools'], ['calls'], ['calls', 0], ['sessionId'], ['turn'], ['split'], ['slices'], ['goldMode']],
    fast: {
      only: ['empty', 'a line not JSON', 'an empty object line', `a ${DEEP}-level field`, 'first line repeated', '__proto__ key', 'missing'],
      fields: [['expectedTools'], ['calls'], ['calls', 0], ['sessionId'], ['turn']],
    },
  },
  {
    category: 'dataset from import corpus.jsonl (audit --json)',
    format: 'jsonl',
    prepare: (dir, b) => {
      const ds = copy(b.imported, join(dir, 'ds'));
      rmSync(join(ds, 'manifest.json'));
      return { file: join(ds, 'corpus.jsonl'), argv: ['audit', '--dataset', ds, '--json'] };
    },
    line: (rs) =>
      Math.max(
        0,
        rs.findIndex((r) => typeof r.server === 'string' && r.inputSchema !== undefined),
      ),
    fields: [['_id'], ['name'], ['server'], ['namespace'], ['inputSchema'], ['description']],
    only: ['empty', 'an empty object line', `a ${DEEP}-level field`, 'first line repeated', '__proto__ key', 'missing'],
    fast: { fields: [['_id'], ['inputSchema'], ['namespace']] },
  },
];

/**
 * A stdio MCP server (no SDK) whose answers are hostile, for `snapshot` and `eval --catalog CONFIG`:
 * `node server.mjs <mode>`, modes `deep-schema` (an inputSchema 10,000 levels deep), `deep-info`
 * (serverInfo with a 10,000-level field), `deep-tools` (tools itself 10,000 arrays deep).
 */
const HOSTILE_SERVER = `import { createInterface } from 'node:readline';
const mode = process.argv[2];
const deep = '['.repeat(${DEEP}) + ']'.repeat(${DEEP});
const send = (s) => process.stdout.write(s + '\\n');
createInterface({ input: process.stdin }).on('line', (line) => {
  let m;
  try { m = JSON.parse(line); } catch { return; }
  const id = JSON.stringify(m.id);
  if (m.method === 'initialize') {
    const info = mode === 'deep-info' ? '{"name":"hostile","version":"1","extra":' + deep + '}' : '{"name":"hostile","version":"1"}';
    return send('{"jsonrpc":"2.0","id":' + id + ',"result":{"protocolVersion":' + JSON.stringify(m.params.protocolVersion) + ',"capabilities":{"tools":{}},"serverInfo":' + info + '}}');
  }
  if (m.method === 'tools/list') {
    const tools = mode === 'deep-tools' ? deep : '[{"name":"a","description":"A.","inputSchema":{"type":"object","properties":{"x":' + (mode === 'deep-schema' ? deep : '{"type":"string"}') + '}}}]';
    return send('{"jsonrpc":"2.0","id":' + id + ',"result":{"tools":' + tools + '}}');
  }
  if (m.id !== undefined) send('{"jsonrpc":"2.0","id":' + id + ',"error":{"code":-32601,"message":"Method not found"}}');
});
`;

function hostileServerKinds(): Kind[] {
  const setup = (dir: string, mode: string) => {
    writeFileSync(join(dir, 'server.mjs'), HOSTILE_SERVER);
    const config = join(dir, 'mcp.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { hostile: { command: process.execPath, args: [join(dir, 'server.mjs'), mode] } } }));
    return config;
  };
  // snapshot exits 1 when every server failed and 3 when some did (its documented verdicts); eval --catalog CONFIG exits 1 when one failed.
  return ['deep-schema', 'deep-info', 'deep-tools'].flatMap((mode): Kind[] => [
    {
      name: `live MCP server (snapshot): ${mode}`,
      category: 'live MCP server (snapshot)',
      verdicts: [1, 3],
      build: (dir) => ['snapshot', '--config', setup(dir, mode), '--out', join(dir, 'bundle.json'), '--timeout', '20', '--quiet'],
    },
    {
      name: `live MCP server (eval --catalog): ${mode}`,
      category: 'live MCP server (eval --catalog)',
      verdicts: [1],
      build: (dir, b) => ['eval', '--catalog', setup(dir, mode), '--cases', b.evalCases, '--out', join(dir, 'out'), '--quiet'],
    },
  ]);
}

/**
 * Transcripts whose 10,000 levels of nesting are where the line-by-line depth check does not look:
 * inside JSON text a field holds (an API log's body, an OTel attribute, an SSE event) and in a whole
 * JSON document (the Codex TypeScript CLI's rollout).
 */
function transcriptDeepKinds(): Kind[] {
  const src = (rel: string) => readFileSync(join(FIXTURES, 'transcripts', rel), 'utf8');
  /** JSON text of `v` with the placeholder replaced by `raw`. */
  const withRaw = (v: unknown, raw: string) => JSON.stringify(v).split(`"${DEEP_TOKEN}"`).join(raw);
  type Exchange = { request: { body: { messages: Array<{ content: unknown }>; tools?: Array<{ function: { parameters: unknown } }> } }; response: unknown };
  /** The API log with each line's request body given as JSON text, after `edit` (which may put the placeholder in). */
  const apiLog = (dir: string, edit: (r: Exchange, i: number) => string | undefined): string[] => {
    const file = join(dir, 'handwritten.openai-chat.jsonl');
    const lines = src('api-logs/handwritten.openai-chat.jsonl')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l, i) => {
        const r = JSON.parse(l) as Exchange;
        const body = edit(r, i) ?? JSON.stringify(r.request.body);
        return JSON.stringify({ ...r, request: { ...r.request, body } });
      });
    put(file, `${lines.join('\n')}\n`);
    return ['import', file, '--out', join(dir, 'out'), '--quiet'];
  };
  const otelFile = 'otel/genai-interlingua.openllmetry.otlp.json';
  type Otlp = { resourceSpans: Array<{ scopeSpans: Array<{ spans: Array<{ attributes: Array<{ key: string; value: Record<string, unknown> }> }> }> }> };
  /** The OTel document with each attribute named `key` (a string holding JSON) given to `edit`. */
  const otel = (dir: string, key: string, edit: (json: unknown) => string): string[] => {
    const v = JSON.parse(src(otelFile)) as Otlp;
    for (const rs of v.resourceSpans)
      for (const ss of rs.scopeSpans)
        for (const sp of ss.spans) for (const a of sp.attributes) if (a.key === key) a.value = { stringValue: edit(JSON.parse(a.value.stringValue as string)) };
    const file = join(dir, basename(otelFile));
    put(file, JSON.stringify(v, null, 2));
    return ['import', file, '--out', join(dir, 'out'), '--quiet'];
  };
  const api = 'transcript api log (import)';
  const ot = 'transcript otel json (import)';
  const kind = (category: string, mutation: string, build: Kind['build']): Kind => ({ name: `${category}: ${mutation}`, category, build });
  return [
    kind(api, `body as JSON text with a ${DEEP}-level tool schema`, (dir) =>
      apiLog(dir, (r) => {
        for (const t of r.request.body.tools ?? []) t.function.parameters = DEEP_TOKEN;
        return withRaw(r.request.body, deepObject());
      }),
    ),
    kind(api, `body as JSON text with ${DEEP}-level message content`, (dir) =>
      apiLog(dir, (r) => {
        for (const m of r.request.body.messages) m.content = DEEP_TOKEN;
        return withRaw(r.request.body, deepArray());
      }),
    ),
    kind(api, `SSE response with a ${DEEP}-level event`, (dir) =>
      apiLog(dir, (r) => {
        r.response = { status_code: 200, body: `data: ${deepObject()}\n\ndata: [DONE]\n` };
        return undefined;
      }),
    ),
    kind(ot, `tool definitions attribute with a ${DEEP}-level schema`, (dir) =>
      otel(dir, 'gen_ai.tool.definitions', (defs) => {
        for (const d of defs as Array<{ function?: { parameters?: unknown }; parameters?: unknown }>) {
          if (d.function) d.function.parameters = DEEP_TOKEN;
          else d.parameters = DEEP_TOKEN;
        }
        return withRaw(defs, deepObject());
      }),
    ),
    kind(ot, `input messages attribute with ${DEEP}-level JSON`, (dir) => otel(dir, 'gen_ai.input.messages', () => deepArray())),
    kind('transcript codex rollout .json (import)', `a ${DEEP}-level item`, (dir) => {
      // the TypeScript CLI's layout: one document {"session":{…},"items":[…]}
      const file = join(dir, 'rollout-2025-08-01T12-00-00-0198b1c2-aaaa-7bbb-8ccc-123456789abd.json');
      const doc = {
        session: { id: '0198b1c2-aaaa-7bbb-8ccc-123456789abd', timestamp: '2025-08-01T12:00:00Z' },
        items: [
          { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'list the failing tests' }] },
          { type: 'function_call', name: 'shell', arguments: '{}', call_id: 'c1' },
          { type: 'message', role: 'user', content: DEEP_TOKEN },
          { type: 'function_call', name: DEEP_TOKEN, arguments: DEEP_TOKEN, call_id: 'c2' },
          DEEP_TOKEN,
        ],
      };
      put(file, withRaw(doc, deepArray()));
      return ['import', file, '--out', join(dir, 'out'), '--quiet'];
    }),
  ];
}

/** Bad flag values and command lines: each is a kind of its own. */
function flagKinds(): Kind[] {
  const k = (name: string, argv: (dir: string, b: Bases) => string[], verdicts?: readonly number[]): Kind => ({
    name: `flags: ${name}`,
    category: 'flags',
    build: argv,
    ...(verdicts ? { verdicts } : {}),
  });
  const ev = (dir: string, b: Bases, ...more: string[]) => ['eval', '--dataset', b.dataset, '--out', join(dir, 'out'), '--quiet', ...more];
  /** One kind per bad value of an `eval` flag, each named by it: `eval --k ""`. */
  const badEval = (flag: string, values: string[]): Kind[] => values.map((v) => k(`eval ${flag} ${v === '' ? '""' : v}`, (d, b) => ev(d, b, flag, v)));
  /** A copy of a small Claude Code session in the case folder, for the import kinds. */
  const claudeSession = (dir: string) =>
    copy(
      join(FIXTURES, 'transcripts', 'claude-code', '-home-marco-projects-spotter', 'd6e0bada-1959-4eec-a9d2-0bfade768d8f.jsonl'),
      join(dir, 'session.jsonl'),
    );
  const imp = (dir: string, ...more: string[]) => ['import', claudeSession(dir), '--out', join(dir, 'out'), '--quiet', ...more];
  /** One kind per bad value of an `import` flag: `import --sample 0`. */
  const badImport = (flag: string, values: string[]): Kind[] => values.map((v) => k(`import ${flag} ${v === '' ? '""' : v}`, (d) => imp(d, flag, v)));
  return [
    k('unknown command', () => ['frobnicate']),
    k('unknown option', () => ['list', '--bogus']),
    k('--config-file missing', (dir) => ['--config-file', join(dir, 'nope.yaml'), 'list']),
    k('--config-file a folder', (dir) => ['--config-file', dir, 'list']),
    ...badEval('--k', ['0', 'abc', '1001', '']),
    ...badEval('--workers', ['0', '1e3']),
    ...badEval('--shard', ['3/2', '0/0', 'x']),
    ...badEval('--floor', ['abc', 'bm25=']),
    k('eval --floor auto:2', (d, b) => ev(d, b, '--floor', 'auto:2', '--calibrate-on', 'train')),
    ...badEval('--floor', ['nope=1']),
    k('eval --context-window 0', (d, b) => ev(d, b, '--profiles', 'deferred', '--context-window', '0')),
    ...badEval('--cache-write-ratio', ['-1']),
    ...badEval('--cache-read-ratio', ['NaN']),
    ...badEval('--retrievers', ['nope', '']),
    ...badEval('--profiles', ['nope']),
    ...badEval('--query-style', ['nope']),
    ...badEval('--split', ['nope']),
    k('eval --calibrate-on nope', (d, b) => ev(d, b, '--split', 'test', '--calibrate-on', 'nope')),
    k('eval --calibrate-on a missing file', (d, b) => ev(d, b, '--calibrate-on', join(d, 'nope.jsonl'))),
    k('eval --examples-per-tool 0', (d, b) => ev(d, b, '--examples-from', 'train', '--split', 'test', '--examples-per-tool', '0')),
    k('eval --model a missing folder', (d, b) => ev(d, b, '--retrievers', 'embed', '--model', join(d, 'nope'))),
    k('eval --model a folder without config.json', (d, b) => {
      mkdirSync(join(d, 'empty-model'));
      return ev(d, b, '--retrievers', 'embed', '--model', join(d, 'empty-model'));
    }),
    k('eval --roles a missing file', (d, b) => ev(d, b, '--roles', join(d, 'nope.json'))),
    k('eval --traces a missing file', (d, b) => ev(d, b, '--traces', join(d, 'nope.csv'))),
    k('eval --catalog without --cases', (d, b) => ['eval', '--catalog', b.bundle, '--out', join(d, 'out')]),
    k('eval --catalog --format nope', (d, b) => ['eval', '--catalog', b.bundle, '--cases', b.evalCases, '--format', 'nope', '--out', join(d, 'out')]),
    k('eval --catalog --format openai on a bundle', (d, b) => [
      'eval',
      '--catalog',
      b.bundle,
      '--cases',
      b.evalCases,
      '--format',
      'openai',
      '--out',
      join(d, 'out'),
    ]),
    k('eval --dataset a file', (d, b) => ev(d, b).map((a) => (a === b.dataset ? b.bundle : a))),
    k('eval --out a file', (d, b) => {
      writeFileSync(join(d, 'file'), 'x');
      return ['eval', '--dataset', b.dataset, '--out', join(d, 'file'), '--quiet'];
    }),
    k('eval --out a folder of someone else', (d, b) => {
      mkdirSync(join(d, 'mine'));
      writeFileSync(join(d, 'mine', 'thesis.tex'), 'x');
      return ['eval', '--dataset', b.dataset, '--out', join(d, 'mine'), '--quiet'];
    }),
    k('generate --preset nope', (d) => ['generate', '--preset', 'nope', '--out', join(d, 'g')]),
    k('generate --seed -1', (d) => ['generate', '--seed', '-1', '--out', join(d, 'g')]),
    k('generate --tools 1', (d) => ['generate', '--preset', 'tiny', '--tools', '1', '--out', join(d, 'g')]),
    k('generate --tools 99999999999999999999', (d) => ['generate', '--preset', 'tiny', '--tools', '99999999999999999999', '--out', join(d, 'g')]),
    k('generate --cases 0', (d) => ['generate', '--preset', 'tiny', '--cases', '0', '--out', join(d, 'g')]),
    k('generate --skills 1e9', (d) => ['generate', '--preset', 'tiny', '--skills', '1e9', '--out', join(d, 'g')]),
    k('generate --skills 999999', (d) => ['generate', '--preset', 'tiny', '--skills', '999999', '--out', join(d, 'g')]),
    k('run --seed abc', () => ['run', '--seed', 'abc']),
    k('run --calibrate-on test --split test', (d) => [
      'run',
      '--preset',
      'tiny',
      '--out',
      join(d, 'ds'),
      '--results',
      join(d, 'res'),
      '--calibrate-on',
      'test',
      '--split',
      'test',
    ]),
    k('report --format nope', (d, b) => ['report', b.results, '--format', 'nope', '--out', join(d, 'rep')]),
    k('report --out a file', (d, b) => {
      writeFileSync(join(d, 'file'), 'x');
      return ['report', b.results, '--out', join(d, 'file'), '--format', 'md'];
    }),
    k('report on a missing folder', (d) => ['report', join(d, 'nope'), '--out', join(d, 'rep')]),
    k('report on a file', (d, b) => ['report', b.gateYaml, '--out', join(d, 'rep')]),
    k('report on a dataset folder', (d, b) => ['report', b.dataset, '--out', join(d, 'rep')]),
    k('gate --expect .txt', (d, b) => {
      writeFileSync(join(d, 'x.txt'), 'x');
      return ['gate', '--expect', join(d, 'x.txt'), '--results', b.results];
    }),
    k('gate --expect missing', (d, b) => ['gate', '--expect', join(d, 'nope.yaml'), '--results', b.results]),
    k('gate --results missing', (d, b) => ['gate', '--expect', b.gateYaml, '--results', join(d, 'nope')]),
    k('gate --baseline missing', (d, b) => ['gate', '--expect', b.gateYaml, '--results', b.results, '--baseline', join(d, 'nope')]),
    k(
      'gate --junit into a missing folder',
      (d, b) => ['gate', '--expect', b.gateYaml, '--results', b.results, '--junit', join(d, 'no', 'such', 'j.xml')],
      [100],
    ),
    k('gate --markdown a folder', (d, b) => ['gate', '--expect', b.gateYaml, '--results', b.results, '--markdown', d], [100]),
    k('bless without --reason', (d, b) => ['bless', '--results', b.results, '--expect', join(d, 'e.yaml')]),
    k('bless --reason ""', (d, b) => ['bless', '--results', b.results, '--expect', join(d, 'e.yaml'), '--reason', '']),
    k('bless --reason two lines', (d, b) => ['bless', '--results', b.results, '--expect', join(d, 'e.yaml'), '--reason', 'a\nb']),
    k('bless --tolerance bad', (d, b) => ['bless', '--results', b.results, '--expect', join(d, 'e.yaml'), '--reason', 'x', '--tolerance', 'top1=lots']),
    k('bless --strategies nope', (d, b) => ['bless', '--results', b.results, '--expect', join(d, 'e.yaml'), '--reason', 'x', '--strategies', 'nope']),
    k('bless --expect .txt', (d, b) => ['bless', '--results', b.results, '--expect', join(d, 'e.txt'), '--reason', 'x']),
    k('merge one unsharded folder', (d, b) => ['merge', b.results, '--out', join(d, 'merged')]),
    k('merge the same shard twice', (d, b) => ['merge', b.shards[0], b.shards[0], '--out', join(d, 'merged')]),
    k('merge a missing folder', (d, b) => ['merge', b.shards[0], join(d, 'nope'), '--out', join(d, 'merged')]),
    k('merge --traces missing', (d, b) => ['merge', b.shards[0], b.shards[1], '--out', join(d, 'merged'), '--traces', join(d, 'nope.csv')]),
    k('merge --dataset missing', (d, b) => ['merge', b.shards[0], b.shards[1], '--out', join(d, 'merged'), '--dataset', join(d, 'nope')]),
    k('diff --k 0', (_d, b) => ['diff', '--old', b.bundle, '--new', b.bundle, '--cases', b.evalCases, '--k', '0']),
    k('diff --threshold -1', (_d, b) => ['diff', '--old', b.bundle, '--new', b.bundle, '--cases', b.evalCases, '--threshold', '-1']),
    k('diff --similarity 2', (_d, b) => ['diff', '--old', b.bundle, '--new', b.bundle, '--cases', b.evalCases, '--similarity', '2']),
    k('diff --old missing', (d, b) => ['diff', '--old', join(d, 'nope.json'), '--new', b.bundle, '--cases', b.evalCases]),
    k('diff --retriever nope', (_d, b) => ['diff', '--old', b.bundle, '--new', b.bundle, '--cases', b.evalCases, '--retriever', 'nope']),
    k('snapshot --timeout 0', (d, b) => ['snapshot', '--config', b.mcpConfig, '--out', join(d, 'b.json'), '--timeout', '0']),
    k('snapshot --out a folder', (d, b) => ['snapshot', '--config', b.mcpConfig, '--out', d]),
    k('snapshot --out the config', (d, b) => {
      const f = copy(b.mcpConfig, join(d, 'mcp.json'));
      return ['snapshot', '--config', f, '--out', f];
    }),
    k('snapshot --server nope', (d, b) => ['snapshot', '--config', b.mcpConfig, '--out', join(d, 'b.json'), '--server', 'nope']),
    k('inspect both a dataset and --catalog', (_d, b) => ['inspect', b.dataset, '--catalog', b.bundle]),
    k('inspect --format nope', (_d, b) => ['inspect', '--catalog', b.bundle, '--format', 'nope']),
    k('inspect --server "bad name!"', (_d, b) => ['inspect', '--catalog', b.toolsList, '--server', 'bad name!']),
    k('inspect --catalog an empty folder', (d) => {
      mkdirSync(join(d, 'empty'));
      return ['inspect', '--catalog', join(d, 'empty')];
    }),
    k('inspect --catalog a binary file', (d) => {
      writeFileSync(join(d, 'x.bin'), Buffer.from([0, 1, 2, 255, 254]));
      return ['inspect', '--catalog', join(d, 'x.bin')];
    }),
    ...badImport('--tools', ['(']),
    ...badImport('--since', ['yesterday', '2026-13-45']),
    k('import --until before --since', (d) => imp(d, '--since', '2026-02-01', '--until', '2026-01-01')),
    ...badImport('--sample', ['0', '-1', 'abc']),
    ...badImport('--test-share', ['0', '1', 'abc', '']),
    ...badImport('--redact', ['', '(', 'x*']),
    ...badImport('--from', ['nope']),
    k('import --from codex on a Claude Code session', (d) => imp(d, '--from', 'codex')),
    k('import --format without --catalog', (d) => imp(d, '--format', 'openai')),
    k('import --catalog a missing file', (d) => imp(d, '--catalog', join(d, 'nope.json'))),
    k('import a missing source', (d) => ['import', join(d, 'nope.jsonl'), '--out', join(d, 'out'), '--quiet']),
    k('import a FIFO', (d) => {
      const fifo = join(d, 'session.jsonl');
      execFileSync('mkfifo', [fifo]);
      return ['import', fifo, '--out', join(d, 'out'), '--quiet'];
    }),
    k('import a folder with a FIFO in it', (d) => {
      mkdirSync(join(d, 'src'));
      execFileSync('mkfifo', [join(d, 'src', 'session.jsonl')]);
      return ['import', join(d, 'src'), '--out', join(d, 'out'), '--quiet'];
    }),
    k('import a folder with no transcript', (d) => {
      mkdirSync(join(d, 'src'));
      writeFileSync(join(d, 'src', 'notes.txt'), 'not a transcript\n');
      writeFileSync(join(d, 'src', 'other.json'), '{"a": 1}\n');
      return ['import', join(d, 'src'), '--out', join(d, 'out'), '--quiet'];
    }),
    k('import a file in no transcript format', (d, b) => ['import', copy(b.bundle, join(d, 'bundle.json')), '--out', join(d, 'out'), '--quiet']),
    k('import --out a folder of someone else', (d) => {
      mkdirSync(join(d, 'mine'));
      writeFileSync(join(d, 'mine', 'thesis.tex'), 'x');
      return ['import', claudeSession(d), '--out', join(d, 'mine'), '--quiet'];
    }),
    k('import --out a file', (d) => {
      writeFileSync(join(d, 'file'), 'x');
      return ['import', claudeSession(d), '--out', join(d, 'file'), '--quiet'];
    }),
    k('import --out the source itself', (d) => {
      const file = claudeSession(d);
      return ['import', file, '--out', file, '--quiet'];
    }),
    k('audit --dataset a missing folder', (d) => ['audit', '--dataset', join(d, 'nope')]),
    k('audit --dataset a file', (_d, b) => ['audit', '--dataset', b.bundle]),
    k('audit --top abc', (_d, b) => ['audit', '--dataset', b.imported, '--top', 'abc']),
    k('audit --top -1', (_d, b) => ['audit', '--dataset', b.imported, '--top', '-1']),
    k('audit --split nope', (_d, b) => ['audit', '--dataset', b.imported, '--split', 'nope']),
  ];
}

function formatMutations(format: Format): Record<string, Mutation> {
  switch (format) {
    case 'json':
      return JSON_MUTATIONS;
    case 'jsonl':
      return JSONL_MUTATIONS;
    case 'yaml':
      return YAML_MUTATIONS;
    case 'tsv':
      return TSV_MUTATIONS;
    case 'csv':
      return CSV_MUTATIONS;
    case 'md':
      return MD_MUTATIONS;
    case 'binary':
      return {};
  }
}

/** The text of a JSON file that may carry comments on whole lines (the mcpServers configuration). */
const withoutLineComments = (text: string) => text.replace(/^\s*\/\/.*$/gm, '');

/** Edit the value of the file `format` holds (for Markdown: the front matter). */
function editValue(format: Format, text: string, edit: (value: unknown) => void, line: Target['line']): string {
  switch (format) {
    case 'json': {
      const v = JSON.parse(withoutLineComments(text)) as unknown;
      edit(v);
      return `${JSON.stringify(v, null, 2)}\n`;
    }
    case 'jsonl': {
      const lines = text.split('\n');
      const records = lines.filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as Record<string, unknown>);
      const i = line ? line(records) : 0;
      const rec = records[i]!;
      edit(rec);
      let n = -1;
      return lines.map((l) => (l.trim() === '' ? l : ++n === i ? JSON.stringify(rec) : l)).join('\n');
    }
    case 'yaml': {
      const v = yamlParse(text) as unknown;
      edit(v);
      return yamlStringify(v);
    }
    case 'md': {
      const m = /^---\n([\s\S]*?)\n---\n/.exec(text)!;
      const v = (yamlParse(m[1]!) ?? {}) as unknown;
      edit(v);
      return `---\n${yamlStringify(v)}---\n${text.slice(m[0].length)}`;
    }
    default:
      throw new Error(`no field edits for ${format}`);
  }
}

/** Set the field at `path` of the value `file` holds (a target's format) to `value` (undefined: remove it). */
export function editField(t: Target, file: string, path: readonly PathSeg[], value: unknown): void {
  const text = readFileSync(file, 'utf8');
  put(
    file,
    editValue(t.format, text, (v) => setAt(v, path, value === undefined ? MISSING : value), t.line),
  );
}

/** `n` levels of nested arrays (`[[…]]`) or objects (`{"a":{…}}`), as JSON text (also YAML flow text). */
export function nestedText(n: number, kind: 'array' | 'object'): string {
  return kind === 'array' ? deepArray(n) : deepObject(n);
}

/** Set the field at `path` to the raw JSON text `raw` (nesting no serialiser would write). */
export function editFieldRaw(t: Target, file: string, path: readonly PathSeg[], raw: string): void {
  const text = readFileSync(file, 'utf8');
  const edited = editValue(t.format, text, (v) => setAt(v, path, DEEP_TOKEN), t.line);
  const quoted = t.format === 'json' || t.format === 'jsonl' ? `"${DEEP_TOKEN}"` : DEEP_TOKEN;
  put(file, edited.split(quoted).join(raw));
}

/** The edited text with the placeholder of a deep value replaced by 10,000 nested arrays (flow style in YAML). */
function withDeepValue(format: Format, text: string): string {
  if (!text.includes(DEEP_TOKEN)) return text;
  const quoted = format === 'json' || format === 'jsonl' ? `"${DEEP_TOKEN}"` : DEEP_TOKEN;
  return text.split(quoted).join(deepArray());
}

/**
 * Inputs whose files are each well formed but contradict each other, and outputs that point where
 * no command may write (issue 34): a results folder whose figures, details and case records
 * disagree; a dataset whose tool was edited and its manifest entry patched to match; `--out` at
 * the root or over a command's own input. Each must end in exit 2, nothing written.
 */
function contradictionKinds(): Kind[] {
  const results = (name: string, edit: (dir: string) => void, argv: (r: string, dir: string, b: Bases) => string[]): Kind => ({
    name: `results folder (contradictions): ${name}`,
    category: 'results folder (contradictions)',
    build: (dir, b) => {
      const r = copy(b.results, join(dir, 'results'));
      edit(r);
      return argv(r, dir, b);
    },
  });
  const report = (r: string, dir: string) => ['report', r, '--out', join(dir, 'report'), '--format', 'md'];
  const gate = (r: string, _dir: string, b: Bases) => ['gate', '--results', r, '--expect', b.gateYaml];
  const lines = (file: string) => readFileSync(file, 'utf8').trimEnd().split('\n');
  const cut = (file: string, n: number) => writeFileSync(file, `${lines(file).slice(0, -n).join('\n')}\n`);
  const editResults = (r: string, f: (v: Record<string, Record<string, Record<string, Record<string, Record<string, unknown>>>>>) => void) => {
    const file = join(r, 'results.json');
    const v = JSON.parse(readFileSync(file, 'utf8'));
    f(v);
    writeFileSync(file, JSON.stringify(v));
  };
  const swap = (r: string) => {
    const a = join(r, 'details', 'bm25.jsonl');
    const d = join(r, 'details', 'deferred.jsonl');
    const text = readFileSync(a);
    writeFileSync(a, readFileSync(d));
    writeFileSync(d, text);
  };
  const kinds: Kind[] = [];
  for (const [name, via] of [
    ['report', report],
    ['gate', gate],
  ] as const) {
    kinds.push(
      results(`${name}: top1 = 7`, (r) => editResults(r, (v) => (v.retrievers!.bm25!.metrics!.overall!.top1 = 7)), via),
      results(`${name}: the details of two strategies swapped`, swap, via),
      results(`${name}: a strategy's details cut by one case`, (r) => cut(join(r, 'details', 'bm25.jsonl'), 1), via),
      results(`${name}: cases.jsonl cut by one case`, (r) => cut(join(r, 'cases.jsonl'), 1), via),
    );
  }
  kinds.push({
    name: 'dataset (contradictions): a description edited, its manifest entry patched to match',
    category: 'dataset (contradictions)',
    build: (dir, b) => {
      const d = copy(b.dataset, join(dir, 'dataset'));
      const corpus = join(d, 'corpus.jsonl');
      const l = lines(corpus);
      l[0] = JSON.stringify({ ...JSON.parse(l[0]!), description: 'edited by hand' });
      writeFileSync(corpus, `${l.join('\n')}\n`);
      const manifest = JSON.parse(readFileSync(join(d, 'manifest.json'), 'utf8'));
      const bytes = readFileSync(corpus);
      manifest.files['corpus.jsonl'] = { sha256: createHash('sha256').update(bytes).digest('hex'), bytes: bytes.length };
      writeFileSync(join(d, 'manifest.json'), JSON.stringify(manifest));
      return ['eval', '--dataset', d, '--retrievers', 'bm25', '--out', join(dir, 'out'), '--quiet'];
    },
  });
  kinds.push(
    { name: 'output path: report --out /', category: 'output path', build: (_dir, b) => ['report', b.results, '--out', '/', '--format', 'md'] },
    {
      name: 'output path: merge --out one of its shards',
      category: 'output path',
      build: (dir, b) => {
        const s1 = copy(b.shards[0], join(dir, 's1'));
        const s2 = copy(b.shards[1], join(dir, 's2'));
        return ['merge', s1, s2, '--out', s1];
      },
    },
  );
  return kinds;
}

/** Every kind of the fixed list, in a fixed order. */
export function allKinds(opts: { full?: boolean } = {}): Kind[] {
  const full = opts.full === true;
  const kinds: Kind[] = [];
  for (const t of TARGETS) {
    const add = (mutation: string, apply: (file: string) => void) => {
      kinds.push({
        name: `${t.category}: ${mutation}`,
        category: t.category,
        build: (dir, b) => {
          const { file, argv } = t.prepare(dir, b);
          apply(file);
          return argv;
        },
        ...(t.verdicts ? { verdicts: t.verdicts } : {}),
      });
    };
    const fast = full ? undefined : t.fast;
    if (t.format === 'binary') {
      for (const [name, m] of Object.entries(BINARY_MUTATIONS))
        if (!fast?.only || fast.only.includes(name)) add(name, (file) => put(file, m(readFileSync(file))));
    }
    for (const [name, m] of Object.entries(formatMutations(t.format))) {
      if (t.only && !t.only.includes(name)) continue;
      if (t.skip?.includes(name)) continue;
      if (fast?.only && !fast.only.includes(name)) continue;
      if (!full && (fast?.skip ?? []).includes(name)) continue;
      if (!full && HEAVY.includes(name) && !(t.heavy ?? []).includes(name)) continue;
      add(name, (file) => put(file, m(readFileSync(file, 'utf8'))));
    }
    const values = full ? Object.keys(FIELD_VALUES) : (fast?.values ?? FAST_VALUES);
    for (const path of fast?.fields ?? t.fields ?? []) {
      for (const vname of values) {
        if (full && t.values && !t.values.includes(vname)) continue;
        const label = `${path.map(String).join('.') || '(empty key)'} ${vname === 'missing' ? 'missing' : `= ${vname}`}`;
        add(label, (file) => {
          const text = readFileSync(file, 'utf8');
          const edit = (v: unknown) => {
            const own = getAt(v, path);
            const wrongText = t.text ?? 'wrong';
            if (vname === 'wrong type') setAt(v, path, typeof own === 'number' ? wrongText : 12345);
            else if (vname === 'missing' || vname === `${DEEP}-level`) setAt(v, path, FIELD_VALUES[vname]!());
            else if (typeName(own) === typeName(FIELD_VALUES[vname]!())) {
              // a value of the field's own type: the empty one instead ("", [], {}, -1)
              setAt(v, path, typeof own === 'string' ? '' : Array.isArray(own) ? [] : typeof own === 'number' ? -1 : {});
            } else setAt(v, path, vname === 'string' ? wrongText : FIELD_VALUES[vname]!());
          };
          put(file, withDeepValue(t.format, editValue(t.format, text, edit, t.line)));
        });
      }
    }
  }
  kinds.push(...transcriptDeepKinds(), ...hostileServerKinds(), ...flagKinds(), ...contradictionKinds());
  const seen = new Set<string>();
  for (const k of kinds) {
    if (seen.has(k.name)) throw new Error(`fuzz kind listed twice: ${k.name}`);
    seen.add(k.name);
  }
  return kinds;
}

/** The category label of the file a kind breaks, for summaries: `dataset corpus.jsonl (inspect)` → `dataset`. */
export function group(category: string): string {
  return category.split(' ')[0]!;
}
