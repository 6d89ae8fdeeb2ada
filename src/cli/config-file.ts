/**
 * `backpack.config.json` / `.yaml` / `.yml`: the flags of any command, kept in a file
 * (docs/config.md). Driven by commander's own option metadata, so every option of every command
 * (including ones added later) can be set from the file, through the option's own parser:
 * a value from the file is validated exactly as the same value on the command line.
 *
 * Precedence: command line > file > defaults. Paths in the file are relative to the file's folder.
 * Positional arguments (report's results folder, inspect's dataset, merge's folders) are not read
 * from the file: commander checks them before any hook could supply them.
 */
import { type Command, CommanderError, type Option } from 'commander';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, extname, isAbsolute, join, relative, resolve } from 'node:path';
import { isMap, isScalar, LineCounter, parseDocument, type Document, type Node } from 'yaml';
import { checkTextFile, MAX_CONFIG_BYTES, yamlErrorMessage, yamlValue } from '../util/bounded.ts';
import { InputError, isInputError } from '../util/errors.ts';
import { parseJson } from '../util/jsonl.ts';
import { didYouMean } from '../util/suggest.ts';

/** The names looked for in the working folder, in this order (two of them at once is an error). */
export const CONFIG_FILE_NAMES = ['backpack.config.json', 'backpack.config.yaml', 'backpack.config.yml'] as const;

/** Top-level keys that are not a command's section: the extensions (`extensions.ts` reads them before the commands are built). */
export const EXTENSION_CONFIG_KEYS: readonly string[] = ['plugins', 'httpRetrievers'];

/** The JSON Schema of the config file's extension keys (`configSchema` adds them to the file's schema). */
export const EXTENSION_CONFIG_SCHEMA = {
  plugins: {
    description: 'plugins to load (docs/own-strategy.md): files (relative to this file) or package names; --plugin adds to them',
    type: ['array', 'null'],
    items: { type: 'string' },
  },
  httpRetrievers: {
    description:
      'retrieval services as retrievers (docs/own-strategy.md), by retriever name: a URL, or { url, indexUrl, headers, timeoutSeconds, concurrency, retries }',
    type: ['object', 'null'],
    additionalProperties: {
      anyOf: [
        { type: 'string' },
        {
          type: 'object',
          required: ['url'],
          additionalProperties: false,
          properties: {
            url: { type: 'string' },
            indexUrl: { type: 'string' },
            headers: { type: 'object', additionalProperties: { type: 'string' } },
            timeoutSeconds: { type: 'number', exclusiveMinimum: 0 },
            concurrency: { type: 'integer', minimum: 1 },
            retries: { type: 'integer', minimum: 0 },
          },
        },
      ],
    },
  },
} as const;

/** Where the JSON Schema of the file is, relative to the package root (written by `npm run docs:gen`). */
export const CONFIG_SCHEMA_PATH = 'schemas/backpack.config.schema.json';

interface Io {
  err(s: string): void;
}

/** A value read from the file for one option, already through the option's parser. */
interface FileValue {
  key: string;
  value: unknown;
  mandatory: boolean;
}

/** A loaded, validated config file: per command name, the values it sets. */
export interface ConfigFile {
  /** The file as errors and messages name it. */
  path: string;
  values: Map<string, FileValue[]>;
}

/** How an option takes its value in the file. */
type OptionShape = 'boolean' | 'value' | 'list';

function shapeOf(opt: Option): OptionShape {
  if (opt.negate || opt.isBoolean()) return 'boolean';
  return opt.variadic || isListPlaceholder(placeholder(opt)) ? 'list' : 'value';
}

/** `<list>` of `--k <list>`, `x|auto[:T]|name=x,…` of `--floor …`; '' for a boolean flag. */
function placeholder(opt: Option): string {
  return /[<[](.*)[>\]]\s*$/.exec(opt.flags)?.[1] ?? '';
}

function isListPlaceholder(p: string): boolean {
  return /\blist\b|,/.test(p);
}

const PATH_WORDS = new Set(['dir', 'file', 'path', 'csv', 'folder', 'dirs', 'files']);

/**
 * Whether an option's value is a path, from its placeholder: `always` (`<dir>`, `<file>`,
 * `<csv>`), `maybe` (`<dir|name>`, `<split|file>`, `<id|dir>`: resolved only when that path
 * exists), or `never`.
 */
export function pathKind(opt: Option): 'always' | 'maybe' | 'never' {
  const words = placeholder(opt)
    .split('|')
    .map((w) => w.replace(/\.\.\.$/, '').trim());
  const paths = words.filter((w) => PATH_WORDS.has(w)).length;
  if (paths === 0) return 'never';
  return paths === words.length ? 'always' : 'maybe';
}

/**
 * The commands the file has a section for, by section name: each command of the program, and for
 * a command with subcommands (`history add`, `history show`) each subcommand instead, named by
 * its path (`"history add"`).
 */
export function configCommands(program: Command): Map<string, Command> {
  const out = new Map<string, Command>();
  const walk = (cmd: Command, prefix: string): void => {
    const name = prefix + cmd.name();
    if (cmd.commands.length) for (const sub of cmd.commands) walk(sub, `${name} `);
    else out.set(name, cmd);
  };
  for (const cmd of program.commands) walk(cmd, '');
  return out;
}

/** The section name of a command below the root: its names from the root's subcommand down, space-separated. */
function sectionOf(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** The options of a command the file may set, by attribute name (a `--x` / `--no-x` pair is one key). */
export function fileOptions(cmd: Command): Map<string, Option[]> {
  const out = new Map<string, Option[]>();
  for (const opt of cmd.options) {
    if (opt.hidden) continue;
    const key = opt.attributeName();
    out.set(key, [...(out.get(key) ?? []), opt]);
  }
  return out;
}

/** The file in `cwd` named like a config file; an error when two are there. */
export function findConfigFile(cwd: string): string | undefined {
  const found = CONFIG_FILE_NAMES.filter((name) => existsSync(join(cwd, name)));
  if (found.length > 1) throw new InputError(`two config files: ${found.join(' and ')}; keep one, or choose with --config-file PATH`, { file: cwd });
  return found.length ? join(cwd, found[0]!) : undefined;
}

/** `$.eval.retrievers`, `$.eval["calibrate-on"]`. */
function jsonPath(segments: readonly string[]): string {
  return `$${segments.map((s) => (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(s) ? `.${s}` : `[${JSON.stringify(s)}]`)).join('')}`;
}

/** Parse the file's text (JSON for `.json`, YAML otherwise); the YAML document is kept to point errors at lines. */
function parseText(path: string, text: string): { data: unknown; doc: Document | undefined; lc: LineCounter } {
  const lc = new LineCounter();
  if (extname(path).toLowerCase() === '.json') {
    const data = parseJson(text, path);
    // JSON.parse keeps the last of duplicate keys; the file is refused instead, as a YAML one is.
    const located = parseDocument(text, { lineCounter: lc, uniqueKeys: false, prettyErrors: false, logLevel: 'error' });
    const doc = located.errors.length ? undefined : located;
    const dup = doc ? duplicateKey(doc.contents, [], lc) : undefined;
    if (dup)
      throw new InputError(`duplicate key "${dup.segments[dup.segments.length - 1]}" (a key may be given once)`, {
        file: path,
        where: `${dup.line !== undefined ? `line ${dup.line} ` : ''}(${jsonPath(dup.segments)})`,
      });
    return { data, doc, lc };
  }
  const doc = parseDocument(text, { lineCounter: lc, uniqueKeys: true, prettyErrors: false, logLevel: 'error' });
  const err = doc.errors[0];
  if (err) throw new InputError(yamlErrorMessage(err.message), { file: path, where: `line ${lc.linePos(err.pos[0]).line}` });
  return { data: yamlValue(doc, path), doc, lc };
}

/** The first key given twice in one object (depth first, in file order): its path and the line of its second occurrence. */
function duplicateKey(node: unknown, segments: readonly string[], lc?: LineCounter): { segments: string[]; line: number | undefined } | undefined {
  if (!isMap(node)) return undefined;
  const seen = new Set<string>();
  for (const pair of node.items) {
    if (!isScalar(pair.key)) continue;
    const key = String(pair.key.value);
    if (seen.has(key)) {
      const range = (pair.key as Node).range;
      return { segments: [...segments, key], line: range && lc ? lc.linePos(range[0]).line : undefined };
    }
    seen.add(key);
    const inner = duplicateKey(pair.value, [...segments, key], lc);
    if (inner) return inner;
  }
  return undefined;
}

/** `line 4 ($.eval.retreivers)`: the line of the key at `segments`, when the document has it. */
function locate(doc: Document | undefined, lc: LineCounter, segments: readonly string[]): string {
  let line: number | undefined;
  if (doc && segments.length) {
    const parent = segments.length > 1 ? doc.getIn(segments.slice(0, -1), true) : doc.contents;
    if (isMap(parent)) {
      const pair = parent.items.find((p) => isScalar(p.key) && String(p.key.value) === segments[segments.length - 1]);
      const range = (pair?.key as Node | undefined)?.range;
      if (range) line = lc.linePos(range[0]).line;
    }
  }
  return line !== undefined ? `line ${line} (${jsonPath(segments)})` : jsonPath(segments);
}

function isPlainObject(x: unknown): x is Record<string, unknown> {
  return x !== null && typeof x === 'object' && !Array.isArray(x);
}

const describeType = (x: unknown): string =>
  x === null
    ? 'null'
    : Array.isArray(x)
      ? 'an array'
      : typeof x === 'object'
        ? 'an object'
        : typeof x === 'number' && !Number.isFinite(x)
          ? 'a number too large to read'
          : `a ${typeof x}`;

/**
 * Read and validate a config file against the program's commands: every section a command, every
 * key one of its options, every value of the right type and accepted by the option's parser.
 */
export function loadConfigFile(file: string, program: Command, label: string = file): ConfigFile {
  const path = label;
  let text: string;
  try {
    // A config file is a few lines: one of megabytes is not one (and would be slow to parse as YAML).
    checkTextFile(file, MAX_CONFIG_BYTES, 'config file');
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if (isInputError(err)) throw new InputError(err.message === 'file not found' ? 'cannot read the config file: no such file' : err.template, { file: path });
    throw new InputError(`cannot read the config file: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}`, {
      file: path,
    });
  }
  const { data, doc, lc } = parseText(path, text.replace(/^\uFEFF/, ''));
  const values = new Map<string, FileValue[]>();
  if (data === null || data === undefined) return { path, values };
  if (!isPlainObject(data))
    throw new InputError(`a config file is a mapping of command names (eval, run, report, …) to their options, not ${describeType(data)}`, { file: path });
  const dir = dirname(resolve(file));
  const commands = configCommands(program);
  for (const [section, body] of Object.entries(data)) {
    if (EXTENSION_CONFIG_KEYS.includes(section)) continue; // read by extensions.ts before the commands were built
    if (section === '$schema') {
      if (typeof body !== 'string')
        throw new InputError(`$schema must be a string, not ${describeType(body)}`, { file: path, where: locate(doc, lc, [section]) });
      continue;
    }
    const cmd = commands.get(section);
    if (!cmd) throw new InputError(`unknown command "${section}"${didYouMean(section, commands.keys())}`, { file: path, where: locate(doc, lc, [section]) });
    if (body === null) continue;
    if (!isPlainObject(body))
      throw new InputError(`the options of ${section} must be an object of option names to values, not ${describeType(body)}`, {
        file: path,
        where: locate(doc, lc, [section]),
      });
    const options = fileOptions(cmd);
    const out: FileValue[] = [];
    for (const [key, raw] of Object.entries(body)) {
      const where = locate(doc, lc, [section, key]);
      const opts = options.get(key);
      if (!opts) {
        const hint =
          didYouMean(key, options.keys()) ||
          (key.startsWith('-') || key.includes('-') ? ` (keys are the options' camelCase names: ${[...options.keys()].join(', ')})` : '');
        throw new InputError(`unknown option "${key}" of ${section}${hint}`, { file: path, where });
      }
      if (raw === null) continue; // null = not set
      const value = fileValue(opts, raw, dir, (message) => new InputError(message, { file: path, where }));
      out.push({ key, value, mandatory: opts.some((o) => o.mandatory) });
    }
    values.set(section, out);
  }
  return { path, values };
}

/** One option's value from the file, checked for type, resolved if a path, and through the option's parser. */
function fileValue(opts: Option[], raw: unknown, dir: string, fail: (message: string) => InputError): unknown {
  const opt = opts.find((o) => !o.negate) ?? opts[0]!;
  const flag = opt.flags;
  const shape = shapeOf(opt);
  if (shape === 'boolean') {
    if (typeof raw !== 'boolean') throw fail(`${flag} is a switch: give true or false, not ${describeType(raw)}`);
    return raw;
  }
  if (opt.optional && typeof raw === 'boolean') return raw ? (opt.presetArg ?? true) : undefined;
  const scalar = (x: unknown): x is string | number => typeof x === 'string' || (typeof x === 'number' && Number.isFinite(x));
  let texts: string[];
  if (scalar(raw)) texts = [String(raw)];
  else if (shape === 'list' && Array.isArray(raw) && raw.every(scalar)) texts = raw.map(String);
  else
    throw fail(
      `${flag} takes ${shape === 'list' ? 'a comma-separated string or an array of strings and numbers' : 'a string or a number'}, not ${describeType(raw)}`,
    );
  const kind = pathKind(opt);
  const asPath = (t: string): string => {
    if (kind === 'never' || t === '' || isAbsolute(t)) return t;
    const p = resolve(dir, t);
    return kind === 'always' || existsSync(p) ? p : t;
  };
  texts = texts.map(asPath);
  const parse = (t: string, previous: unknown): unknown => {
    if (!opt.parseArg) return t;
    try {
      return opt.parseArg(t, previous);
    } catch (err) {
      // A parser rejects with commander's InvalidArgumentError, or with an InputError of its own.
      // `--floor: "x" is not a number` reads `--floor <…>: "x" is not a number` (the flag once).
      if (err instanceof CommanderError || isInputError(err))
        throw fail(
          `${flag}: ${(isInputError(err) ? err.text('cli') : err.message).replace(/^error: /, '').replace(`${opt.long}: `, (m, at: number) => (at === 0 ? '' : m))}`,
        );
      throw err;
    }
  };
  if (opt.variadic) return texts.reduce<unknown>((prev, t) => (opt.parseArg ? parse(t, prev) : [...((prev as string[] | undefined) ?? []), t]), undefined);
  return parse(texts.join(','), opt.defaultValue);
}

/** A path as the user would type it: relative when inside the working folder. */
function shown(p: string, cwd: string): string {
  const rel = relative(cwd, p);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : p;
}

/**
 * Add `--config-file PATH` / `--no-config-file` to the program (given before or after the
 * command) and the hooks that apply the file: values of required options before the command
 * parses its arguments (so they count as given), the others just before the action, each only
 * where the command line gave nothing.
 */
export function useConfigFile(program: Command, io: Io, cwd: () => string = () => process.cwd()): void {
  program.option('--config-file <path>', `read options from this file (default: ${CONFIG_FILE_NAMES.join(', ')} in the working folder; see docs/config.md)`);
  program.option('--no-config-file', 'ignore any config file in the working folder');
  let config: ConfigFile | undefined;
  let discovered = false;
  program.hook('preSubcommand', (root, sub) => {
    const given = root.getOptionValue('configFile') as string | false | undefined;
    config = undefined;
    if (given === false) return;
    const path = given !== undefined ? resolve(cwd(), given) : findConfigFile(cwd());
    discovered = given === undefined;
    if (path === undefined) return;
    // Errors name the file as the user would: as typed, or by its name in the working folder.
    config = loadConfigFile(path, root, given ?? shown(path, cwd()));
    // mandatory values of the subcommand, or of its own subcommands (whichever of them runs)
    for (const [section, cmd] of configCommands(root)) {
      if (cmd !== sub && cmd.parent !== sub) continue;
      for (const v of config.values.get(section) ?? []) if (v.mandatory) cmd.setOptionValueWithSource(v.key, v.value, 'config');
    }
  });
  program.hook('preAction', (_root, action) => {
    if (!config) return;
    for (const v of config.values.get(sectionOf(action)) ?? []) {
      const source = action.getOptionValueSource(v.key);
      if (source === undefined || source === 'default') action.setOptionValueWithSource(v.key, v.value, 'config');
    }
    if (discovered && action.getOptionValue('quiet') !== true) io.err(`using ${config.path}\n`);
  });
}

/** The JSON Schema of the config file, from the program's commands and options (docs/config.md). */
export function configSchema(program: Command): Record<string, unknown> {
  const sections: Record<string, unknown> = {};
  for (const [name, cmd] of configCommands(program)) {
    const properties: Record<string, unknown> = {};
    for (const [key, opts] of fileOptions(cmd)) {
      const opt = opts.find((o) => !o.negate) ?? opts[0]!;
      const flags = opts.map((o) => o.flags).join(' / ');
      const path = pathKind(opt);
      const description = `${flags}: ${opt.description}${path === 'always' ? " (a path, relative to this file's folder)" : path === 'maybe' ? " (a path, relative to this file's folder, when that path exists)" : ''}`;
      const shape = shapeOf(opt);
      // null = not set; an option with an optional argument also takes true (the flag alone) and false (not given).
      const scalarTypes = ['string', 'number', ...(opt.optional ? ['boolean'] : []), 'null'];
      properties[key] =
        shape === 'boolean'
          ? { description, type: ['boolean', 'null'] }
          : shape === 'list'
            ? { description, anyOf: [{ type: scalarTypes }, { type: 'array', items: { type: ['string', 'number'] } }] }
            : opt.argChoices
              ? { description, enum: [...opt.argChoices, null] }
              : { description, type: scalarTypes };
    }
    sections[name] = { description: cmd.description(), type: ['object', 'null'], properties, additionalProperties: false };
  }
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $comment: "generated by `npm run docs:gen` from the commands' options; do not edit by hand",
    title: 'backpack.config.json',
    description:
      "Options of backpack commands, by command (docs/config.md). Keys are the options' camelCase names; the command line overrides the file, the file overrides the defaults; paths are relative to the file's folder.",
    type: 'object',
    properties: { $schema: { type: 'string' }, ...EXTENSION_CONFIG_SCHEMA, ...sections },
    additionalProperties: false,
  };
}
