/**
 * The command line's extensions: `--plugin FILE|PACKAGE` and `--http-retriever NAME=URL` (both
 * repeatable, before or after the command), and the config file's top-level `plugins` and
 * `httpRetrievers`. They are read from the arguments before the commands are built, because the
 * names they register are what `--retrievers`, `--profiles`, `--format` and `list` accept.
 *
 * Config file (docs/config.md, docs/own-strategy.md):
 * ```yaml
 * plugins: [./plugins/keyword-boost.mjs, backpack-plugin-acme]   # paths relative to the file
 * httpRetrievers:
 *   acme-search: http://127.0.0.1:8080/search                     # or, in full:
 *   acme-search-v2:
 *     url: https://search.internal/v2/search
 *     indexUrl: https://search.internal/v2/index                    # the catalog is POSTed here once
 *     headers: { Authorization: "Bearer ${ACME_TOKEN}" }          # read from the environment
 *     timeoutSeconds: 30
 *     concurrency: 4
 *     retries: 3
 * ```
 * Flags add to what the file gives; a name given twice is an error.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { isMap, parseDocument } from 'yaml';
import { reportFormats, writeReportFile, type ReportJob } from '../report/formats.ts';
import { HTTP_RETRIEVER_DEFAULTS, type HttpRetrieverSpec } from '../retrievers/http/http-retriever.ts';
import { activateExtensions, type ActiveExtensions, registrars } from '../plugins/activate.ts';
import type { WorkerSetup } from '../eval/parallel.ts';
import type { PluginRecord } from '../retrievers/origins.ts';
import type { Registrar } from '../plugins/load.ts';
import { checkTextFile, MAX_CONFIG_BYTES, yamlValue } from '../util/bounded.ts';
import { InputError } from '../util/errors.ts';
import { findConfigFile } from './config-file.ts';

/** What the arguments and the config file ask to switch on. */
export interface ExtensionArgs {
  plugins: string[];
  http: HttpRetrieverSpec[];
}

/** The value of `--name V` / `--name=V` occurrences in `argv` (before a `--`). */
function flagValues(argv: readonly string[], name: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') break;
    if (a === name) {
      const v = argv[i + 1];
      if (v === undefined || v.startsWith('--')) throw new InputError(`${name} needs a value`);
      out.push(v);
      i++;
    } else if (a.startsWith(`${name}=`)) out.push(a.slice(name.length + 1));
  }
  return out;
}

/** `NAME=URL` of `--http-retriever`. */
export function parseHttpRetrieverFlag(text: string): HttpRetrieverSpec {
  const eq = text.indexOf('=');
  if (eq <= 0) throw new InputError(`--http-retriever ${JSON.stringify(text)}: give NAME=URL (e.g. acme-search=http://127.0.0.1:8080/search)`);
  return httpSpec(text.slice(0, eq).trim(), text.slice(eq + 1).trim(), (m) => new InputError(`--http-retriever ${text.slice(0, eq)}: ${m}`));
}

function checkHttpUrl(url: unknown, fail: (m: string) => InputError, what = 'url'): string {
  if (typeof url !== 'string') throw fail(`${what} must be a string`);
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw fail(`${what} ${JSON.stringify(url)} is not a URL`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw fail(`${what} must be http:// or https:// (got ${u.protocol})`);
  return url;
}

function httpSpec(name: string, body: unknown, fail: (m: string) => InputError): HttpRetrieverSpec {
  if (typeof body === 'string') return { name, url: checkHttpUrl(body, fail), ...HTTP_RETRIEVER_DEFAULTS };
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw fail('give a URL, or an object with url (and indexUrl, headers, timeoutSeconds, concurrency, retries)');
  const o = body as Record<string, unknown>;
  const known = ['url', 'indexUrl', 'headers', 'timeoutSeconds', 'concurrency', 'retries'];
  for (const k of Object.keys(o)) if (!known.includes(k)) throw fail(`unknown key "${k}" (keys: ${known.join(', ')})`);
  /** A number ≥ `min` (a whole one unless `fraction`), or the default when absent. */
  const count = (k: string, min: number, dflt: number, fraction = false): number => {
    const v = o[k];
    if (v === undefined || v === null) return dflt;
    if (typeof v !== 'number' || !Number.isFinite(v) || v < min || (!fraction && !Number.isInteger(v)))
      throw fail(`${k} must be ${fraction ? 'a number >' : 'a whole number ≥'} ${min}`);
    return v;
  };
  let headers: Record<string, string> | undefined;
  if (o.headers !== undefined && o.headers !== null) {
    if (typeof o.headers !== 'object' || Array.isArray(o.headers)) throw fail('headers must be an object of header names to strings');
    headers = {};
    for (const [h, v] of Object.entries(o.headers as Record<string, unknown>)) {
      if (typeof v !== 'string') throw fail(`header ${h} must be a string (use \${VAR} for a value from the environment)`);
      headers[h] = v;
    }
  }
  const timeoutSeconds = count('timeoutSeconds', 0, HTTP_RETRIEVER_DEFAULTS.timeoutSeconds, true);
  if (timeoutSeconds <= 0) throw fail('timeoutSeconds must be a number > 0');
  return {
    name,
    url: checkHttpUrl(o.url, fail),
    ...(o.indexUrl !== undefined && o.indexUrl !== null ? { indexUrl: checkHttpUrl(o.indexUrl, fail, 'indexUrl') } : {}),
    ...(headers ? { headers } : {}),
    timeoutSeconds,
    concurrency: count('concurrency', 1, HTTP_RETRIEVER_DEFAULTS.concurrency),
    retries: count('retries', 0, HTTP_RETRIEVER_DEFAULTS.retries),
  };
}

/** The config file the command will read (`--config-file`, `--no-config-file`, or the one in `cwd`), if any. */
function configPath(argv: readonly string[], cwd: string): string | undefined {
  if (argv.includes('--no-config-file')) return undefined;
  const given = flagValues(argv, '--config-file');
  if (given.length) return resolve(cwd, given[given.length - 1]!);
  return findConfigFile(cwd);
}

/** The config file's `plugins` and `httpRetrievers` (the rest of the file is read by `config-file.ts`). */
export function extensionsOfConfig(file: string): ExtensionArgs {
  if (!existsSync(file)) return { plugins: [], http: [] }; // the config reader reports it
  checkTextFile(file, MAX_CONFIG_BYTES, 'config file');
  const doc = parseDocument(readFileSync(file, 'utf8').replace(/^\uFEFF/, ''), { prettyErrors: false, logLevel: 'error' });
  if (doc.errors.length || !isMap(doc.contents)) return { plugins: [], http: [] }; // the config reader reports it
  let data: Record<string, unknown>;
  try {
    // with the config reader's limits (aliases, depth): a file it refuses, it reports
    data = yamlValue(doc, file) as Record<string, unknown>;
  } catch {
    return { plugins: [], http: [] };
  }
  const dir = dirname(resolve(file));
  const fail = (where: string) => (m: string) => new InputError(m, { file, where });
  const plugins: string[] = [];
  const list = data.plugins;
  if (list !== undefined && list !== null) {
    if (!Array.isArray(list) || !list.every((p) => typeof p === 'string'))
      throw fail('$.plugins')('plugins must be an array of plugin files (relative to this file) or package names');
    for (const p of list as string[]) {
      // a path (relative to the config file's folder) when it is one there; a package name otherwise
      const local = isAbsolute(p) ? p : resolve(dir, p);
      plugins.push(p.startsWith('.') || isAbsolute(p) || existsSync(local) ? local : p);
    }
  }
  const http: HttpRetrieverSpec[] = [];
  const services = data.httpRetrievers;
  if (services !== undefined && services !== null) {
    if (typeof services !== 'object' || Array.isArray(services))
      throw fail('$.httpRetrievers')('httpRetrievers must be an object of retriever names to a URL or { url, … }');
    for (const [name, body] of Object.entries(services as Record<string, unknown>)) http.push(httpSpec(name, body, fail(`$.httpRetrievers.${name}`)));
  }
  return { plugins, http };
}

/** The extensions asked for by `argv` and the config file it reads. */
export function extensionArgs(argv: readonly string[], cwd: string = process.cwd()): ExtensionArgs {
  const file = configPath(argv, cwd);
  const fromFile = file !== undefined ? extensionsOfConfig(file) : { plugins: [], http: [] };
  const http = [...fromFile.http, ...flagValues(argv, '--http-retriever').map(parseHttpRetrieverFlag)];
  const names = new Set<string>();
  for (const h of http) {
    if (names.has(h.name)) throw new InputError(`--http-retriever ${h.name} is given twice`);
    names.add(h.name);
  }
  return { plugins: [...fromFile.plugins, ...flagValues(argv, '--plugin')], http };
}

/** Report formats a plugin registers: `{ description, file, render(results) }`, written as one file of the report folder. */
const REPORT_REGISTRAR: Registrar = {
  label: 'report format',
  strategy: false,
  register: (name, entry) => {
    const e = entry as { description?: unknown; file?: unknown; render?: unknown } | null;
    if (e === null || typeof e !== 'object' || typeof e.description !== 'string' || typeof e.file !== 'string' || typeof e.render !== 'function')
      throw new Error('a report format is { description: string, file: string, render(results): string }');
    const file = e.file;
    if (!/^[\w][\w.-]*$/.test(file) || file === '.backpack-report') throw new Error(`file "${file}" must be a plain file name`);
    const taken = reportFormats.entries().find(([, f]) => f.files.includes(file));
    if (taken) throw new Error(`file "${file}" is written by the ${taken[0]} format`);
    const render = e.render as (results: unknown) => unknown;
    reportFormats.register(name, {
      description: e.description,
      files: [file],
      write: (job: ReportJob) => {
        const text = render(job.run.results);
        if (typeof text !== 'string') throw new InputError(`report format ${name}: render() returned ${typeof text}, not a string`);
        return writeReportFile(job, file, text);
      },
    });
  },
  unregister: (name) => reportFormats.unregister(name),
};

/** The extensions this command line switched on (worker threads and results need them). */
let active: ActiveExtensions | undefined;

/**
 * Switch on what `argv` asks for, for this command; returns how to switch them off again (a
 * process that runs the command line again, as the tests do, starts without them).
 */
export async function activateFromArgs(argv: readonly string[], cwd: string = process.cwd()): Promise<() => void> {
  const args = extensionArgs(argv, cwd);
  if (!args.plugins.length && !args.http.length) return () => {};
  const on = await activateExtensions(args, registrars(REPORT_REGISTRAR), cwd);
  active = on;
  return () => {
    if (active === on) active = undefined;
    on.dispose();
  };
}

/**
 * What an evaluation's worker threads run first: the active extensions, set up again in each
 * (`plugins/worker-setup.ts`); undefined when none are active.
 */
export function workerSetting(): { workerSetup?: WorkerSetup } {
  if (active === undefined) return {};
  // from the TypeScript sources (tests, a clone without a build) the .ts module, from dist/ the compiled one
  const file = import.meta.url.endsWith('.ts') ? '../plugins/worker-setup.ts' : '../plugins/worker-setup.js';
  return { workerSetup: { module: new URL(file, import.meta.url).href, data: active.spec } };
}

/** The active plugins, for the run's configuration (`config.plugins`). */
export function pluginSettings(): { plugins?: PluginRecord[] } {
  return active?.records.length ? { plugins: active.records } : {};
}
