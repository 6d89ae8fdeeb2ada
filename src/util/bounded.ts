/**
 * Bounded reading: the limits every input is read within, so that a hostile or broken file is an
 * `InputError` (exit 2) with a message saying what is wrong, never a crash.
 *
 *  - Nesting: at most {@link MAX_NESTING} levels of arrays and objects in a JSON value (and in a
 *    YAML document). `JSON.parse` itself reads any depth, but what runs on the value afterwards
 *    recurses (JSON Schema normalisation and the meta-schema check of tool input schemas, canonical
 *    JSON for content hashes, `JSON.stringify`, `structuredClone`) and overflows the stack between
 *    1,000 and 5,000 levels. Real input is far shallower: the deepest tool record of the 50,000-tool
 *    monster dataset is 10 levels deep, the real MCP listings under fixtures/ at most 15.
 *  - Size: a text file is at most {@link MAX_TEXT_BYTES} (500 MB). Above ~512 MB a file cannot
 *    even be held as one JavaScript string; the largest real input, the monster dataset's
 *    corpus.jsonl, is 67 MB. What a person writes (a config file, expected figures, an mcpServers
 *    configuration, a SKILL.md's YAML front matter) is at most {@link MAX_CONFIG_BYTES} (4 MB): no
 *    real one is over a few kB, and their parsers (YAML keeps a node per token, JSON with comments
 *    a character array) take many times the text's size.
 *  - YAML aliases: at most {@link MAX_YAML_ALIASES} expansions (the `yaml` package's
 *    `maxAliasCount`), far above any real file, far below a "billion laughs".
 */
import { readFileSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { Document } from 'yaml';
import { InputError } from './errors.ts';

/** Levels of arrays and objects a JSON or YAML value may nest. */
export const MAX_NESTING = 256;
/** Bytes of a text file Backpack reads. */
export const MAX_TEXT_BYTES = 500 * 1024 * 1024;
/** Bytes of a file a person writes: a config file, expected figures, an mcpServers configuration, YAML front matter. */
export const MAX_CONFIG_BYTES = 4 * 1024 * 1024;
/** Alias expansions a YAML document may make (the `yaml` package's default is also 100). */
export const MAX_YAML_ALIASES = 100;

/** `12.3 MB`, `600 MB`. */
export function megabytes(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return `${mb >= 100 ? Math.round(mb) : mb.toFixed(1)} MB`;
}

/** `$`, `$.a`, `$[3]`, `$["a b"]`, shortened in the middle when long. */
function pathText(segments: ReadonlyArray<string | number>): string {
  const seg = (s: string | number) => (typeof s === 'number' ? `[${s}]` : /^[A-Za-z_$][\w$]*$/.test(s) ? `.${s}` : `[${JSON.stringify(s)}]`);
  if (segments.length <= 8) return `$${segments.map(seg).join('')}`;
  return `$${segments.slice(0, 4).map(seg).join('')}…${segments.slice(-2).map(seg).join('')}`;
}

/**
 * True when `node` (at depth `depth`) holds an array or object more than `max` levels deep. The
 * recursion stops at the limit, so it never goes deeper than `max` frames: safe on any input.
 */
function exceeds(node: object, depth: number, max: number): boolean {
  if (depth > max) return true;
  if (Array.isArray(node)) {
    for (const x of node) if (x !== null && typeof x === 'object' && exceeds(x as object, depth + 1, max)) return true;
  } else {
    for (const k in node) {
      const x = (node as Record<string, unknown>)[k];
      if (x !== null && typeof x === 'object' && exceeds(x, depth + 1, max)) return true;
    }
  }
  return false;
}

/** The path of the first array or object past the limit (called once `exceeds` said there is one). */
function firstTooDeep(node: object, depth: number, max: number, path: Array<string | number>): Array<string | number> | undefined {
  if (depth > max) return path;
  const entries: Array<[string | number, unknown]> = Array.isArray(node) ? node.map((x, i) => [i, x]) : Object.entries(node);
  for (const [k, x] of entries) {
    if (x === null || typeof x !== 'object') continue;
    path.push(k);
    const found = firstTooDeep(x, depth + 1, max, path);
    if (found) return found;
    path.pop();
  }
  return undefined;
}

/**
 * Where `value` nests deeper than `max` levels of arrays and objects (the JSON path of the first
 * value past the limit), or undefined when it does not. Its recursion is bounded by `max`.
 */
export function tooDeep(value: unknown, max = MAX_NESTING): string | undefined {
  if (value === null || typeof value !== 'object' || !exceeds(value, 1, max)) return undefined;
  return pathText(firstTooDeep(value, 1, max, []) ?? []);
}

/** Throw an `InputError` at `file`/`where` when `value` nests deeper than {@link MAX_NESTING}. */
export function checkNesting(value: unknown, file: string, where?: string): void {
  // Each level takes at least one character: a value parsed from a short text cannot be too deep.
  const at = tooDeep(value);
  if (at !== undefined) {
    throw new InputError(`arrays and objects nested more than ${MAX_NESTING} levels deep (at ${at}); Backpack reads at most ${MAX_NESTING} levels`, {
      file,
      ...(where !== undefined ? { where } : {}),
    });
  }
}

/**
 * False when JSON `text` cannot nest deeper than `max`: it has at most `max` opening brackets
 * (`[`, `{`, counted inside strings too). Counting them is a fraction of the cost of walking the
 * parsed value, and settles it for nearly every real file and line.
 */
export function mayNestPast(text: string, max = MAX_NESTING): boolean {
  if (text.length <= max) return false;
  let n = 0;
  for (const bracket of ['{', '[']) {
    for (let i = text.indexOf(bracket); i >= 0; i = text.indexOf(bracket, i + 1)) if (++n > max) return true;
  }
  return false;
}

/** Check the value parsed from JSON `text` (see {@link checkNesting}), walking it only when the text could nest that deep. */
export function checkJsonNesting(text: string, value: unknown, file: string, where?: string): void {
  if (mayNestPast(text)) checkNesting(value, file, where);
}

/** Throw unless `file` is a readable file of at most `max` bytes; returns its size. */
export function checkTextFile(file: string, max = MAX_TEXT_BYTES, what = 'text file'): number {
  let size: number;
  try {
    const st = statSync(file);
    if (st.isDirectory()) throw new InputError(`is a folder, not a ${what}`, { file });
    // reading a FIFO waits for a writer that may never come; a device may never end
    if (!st.isFile()) throw new InputError(`is not a regular file (a FIFO, socket or device), not a ${what}: Backpack reads files`, { file });
    size = st.size;
  } catch (err) {
    if (err instanceof InputError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    throw new InputError(code === 'ENOENT' ? 'file not found' : `cannot read file (${code ?? (err as Error).message})`, { file });
  }
  if (size > max)
    throw new InputError(`is ${megabytes(size)} (${size.toLocaleString('en-US')} bytes), more than the ${megabytes(max)} Backpack reads in a ${what}`, {
      file,
    });
  return size;
}

/** Read `file` as UTF-8 text (a byte-order mark removed) within the size limit; every failure an `InputError` naming it. */
export function readTextFile(file: string, max = MAX_TEXT_BYTES, what = 'text file'): string {
  checkTextFile(file, max, what);
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new InputError(code === 'ENOENT' ? 'file not found' : `cannot read file (${code ?? (err as Error).message})`, { file });
  }
  return decodeText(bytes, file);
}

/**
 * A file's bytes as UTF-8 text, a byte-order mark removed. Invalid UTF-8 is replaced with U+FFFD,
 * never silently: within `withTextWarnings` one warning per file says how many sequences were
 * replaced and on which line the first is.
 */
export function decodeText(bytes: Buffer, file: string): string {
  const text = bytes.toString('utf8');
  if (textWarning !== null && text.includes('\uFFFD')) warnReplaced(file, bytes, text, textWarning);
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Where `decodeText` says that it replaced invalid UTF-8 (see `withTextWarnings`); null: nowhere. */
let textWarning: ((message: string) => void) | null = null;
/** The folder the files of the current load are named relative to (a dataset folder), or null. */
let textBase: string | null = null;

/**
 * Run `body` (a synchronous load) with `warn` receiving one warning per file in which invalid
 * UTF-8 byte sequences were replaced with U+FFFD: a replaced byte changes a tool's text, so it is
 * never silent. Files are named relative to `base` (a dataset folder) when inside it, else to the
 * working folder when inside it, so that the warnings recorded in results do not depend on where
 * the data sits.
 */
export function withTextWarnings<T>(warn: ((message: string) => void) | undefined, body: () => T, base?: string): T {
  if (warn === undefined) return body();
  const outer = { warn: textWarning, base: textBase };
  textWarning = warn;
  textBase = base === undefined ? null : resolve(base);
  try {
    return body();
  } finally {
    textWarning = outer.warn;
    textBase = outer.base;
  }
}

function displayName(file: string): string {
  const abs = resolve(file);
  for (const base of [textBase, process.cwd()]) {
    if (base === null) continue;
    const rel = relative(base, abs);
    if (rel && !rel.startsWith('..') && !isAbsolute(rel)) return rel.split(sep).join('/');
  }
  return abs;
}

/** Warn when `text` holds U+FFFD characters that the bytes did not encode (EF BF BD): invalid UTF-8 replaced. */
function warnReplaced(file: string, bytes: Buffer, text: string, warn: (message: string) => void): void {
  let decoded = 0;
  for (let i = text.indexOf('\uFFFD'); i >= 0; i = text.indexOf('\uFFFD', i + 1)) decoded++;
  let encoded = 0;
  for (let i = bytes.indexOf(REPLACEMENT_BYTES); i >= 0; i = bytes.indexOf(REPLACEMENT_BYTES, i + 3)) encoded++;
  const replaced = decoded - encoded;
  if (replaced <= 0) return;
  warn(
    `${displayName(file)}: ${replaced} invalid UTF-8 byte sequence${replaced === 1 ? ' was' : 's were'} replaced with U+FFFD (first on line ${lineOfFirstInvalid(bytes)})`,
  );
}

const REPLACEMENT_BYTES = Buffer.from([0xef, 0xbf, 0xbd]);

/**
 * 1-based line of the first invalid UTF-8 sequence in `bytes`, in one pass: a line feed is never
 * part of a multi-byte sequence, so each line that holds a byte ≥ 0x80 is checked on its own.
 */
function lineOfFirstInvalid(bytes: Buffer): number {
  const strict = new TextDecoder('utf-8', { fatal: true });
  let line = 1;
  for (let start = 0; start < bytes.length; line++) {
    const nl = bytes.indexOf(10, start);
    const end = nl < 0 ? bytes.length : nl;
    const slice = bytes.subarray(start, end);
    if (slice.some((b) => b >= 0x80)) {
      try {
        strict.decode(slice);
      } catch {
        return line;
      }
    }
    start = end + 1;
  }
  return line;
}

/** Throw unless a YAML text (`what`) is within {@link MAX_CONFIG_BYTES}. */
export function checkConfigSize(text: string, file: string, where?: string, what = 'YAML'): void {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > MAX_CONFIG_BYTES)
    throw new InputError(
      `${megabytes(bytes)} of ${what} (${bytes.toLocaleString('en-US')} bytes), more than the ${megabytes(MAX_CONFIG_BYTES)} Backpack reads`,
      { file, ...(where !== undefined ? { where } : {}) },
    );
}

const TOO_DEEP = `nested more than ${MAX_NESTING} levels deep; Backpack reads at most ${MAX_NESTING} levels of mappings and sequences`;

/**
 * A parsed YAML document's value, with aliases capped at {@link MAX_YAML_ALIASES} expansions and
 * nesting at {@link MAX_NESTING}; an `InputError` at `file`/`where` otherwise (`label`: what the
 * YAML is, for the message: `YAML`, `YAML in front matter`).
 */
export function yamlValue(doc: Document, file: string, where?: string, label = 'YAML'): unknown {
  const at = where !== undefined ? { where } : {};
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_YAML_ALIASES });
  } catch (err) {
    if (err instanceof ReferenceError && /alias/i.test(err.message)) {
      throw new InputError(
        `invalid ${label}: its aliases (*name) expand to more than ${MAX_YAML_ALIASES} copies, as in a "billion laughs" attack; write the values out instead`,
        { file, ...at },
      );
    }
    if (err instanceof RangeError) throw new InputError(`invalid ${label}: ${TOO_DEEP}`, { file, ...at });
    throw new InputError(`invalid ${label}: ${(err as Error).message}`, { file, ...at });
  }
  if (tooDeep(value) !== undefined) throw new InputError(`invalid ${label}: ${TOO_DEEP}`, { file, ...at });
  return value;
}

/** A YAML parse error as a message: the parser's own first line, or what a too-deep document means. */
export function yamlErrorMessage(message: string, label = 'YAML'): string {
  const first = message.split('\n')[0]!;
  if (/Maximum call stack size exceeded/.test(first)) return `invalid ${label}: ${TOO_DEEP}`;
  return `invalid ${label}: ${first}`;
}
