/**
 * Small helpers the catalog loaders share: reading a JSON file with located errors, checking
 * server names, describing JSON values in messages.
 */
import { existsSync, statSync } from 'node:fs';
import { InputError } from '../../util/errors.ts';
import { parseJson } from '../../util/jsonl.ts';
import { readTextFile } from '../../util/bounded.ts';
import { firstSentence, makeTool } from '../model.ts';
import type { JsonSchema, Server, Tool } from '../types.ts';
import type { WarningSink } from './load-notes.ts';

/** Options every catalog loader that can place tools under a server accepts. */
export interface LoadOptions {
  /** MCP server the tools belong to (ids become `mcp__<server>__<tool>`). */
  server?: string;
  /** Routing namespace; for the OpenAI/Anthropic loaders it also names the server (see there). */
  namespace?: string;
  /**
   * Receives the loader's warnings (older JSON Schema forms normalised, built-in tools skipped),
   * one short line each, no `warning:` prefix. Without it, warnings go nowhere.
   */
  onWarning?: WarningSink;
}

/** `undefined` for JSON `null`: every optional field a loader reads treats null as absent (Python clients write it). */
export function absentIfNull(v: unknown): unknown {
  return v === null ? undefined : v;
}

/** Read and parse a JSON file: `file not found` / `invalid JSON` as `InputError`s naming the file. */
export function readJsonFile(file: string): unknown {
  return parseJson(readTextFile(file), file);
}

/** A plain JSON object (not an array, not null). */
export function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** `an array`, `a string`, `null`… for "must be X (got Y)" messages. */
export function describeJson(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return 'an object';
  return `a ${typeof v}`;
}

/** A value as a message quotes it: its JSON, cut to 60 characters (`nothing` for undefined). */
export function quoted(v: unknown): string {
  if (v === undefined) return 'nothing';
  const text = JSON.stringify(v) ?? String(v);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

export const SERVER_NAME_PATTERN = /^[A-Za-z0-9_-]+$/;

/**
 * A server name fit for tool ids (`mcp__<server>__<tool>`). Runs of spaces and dots become one
 * `_` (`"My Server"` → `My_Server`, `"acme.tools"` → `acme_tools`), surrounding space is dropped;
 * anything else outside `[A-Za-z0-9_-]`, an empty name, or a `__` inside the name (it would make
 * the id ambiguous) is an `InputError` at `file`/`where`.
 */
export function normaliseServerName(raw: unknown, file: string, where: string): string {
  if (typeof raw !== 'string') throw new InputError(`server name must be a string (got ${describeJson(raw)})`, { file, where });
  const name = raw.trim().replace(/[\s.]+/g, '_');
  if (name === '') throw new InputError('server name is empty', { file, where });
  if (!SERVER_NAME_PATTERN.test(name)) {
    throw new InputError(`server name "${raw}" is not valid for tool ids: use letters, digits, "_" and "-" only`, { file, where });
  }
  if (name.includes('__')) {
    throw new InputError(`server name "${raw}" contains "__", which would make tool ids "mcp__<server>__<tool>" ambiguous`, { file, where });
  }
  return name;
}

export function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

export function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** Throw `file not found` unless `path` exists. */
export function requireExists(path: string): void {
  if (!existsSync(path)) throw new InputError('file not found', { file: path });
}

/** Where provider-format tools (OpenAI, Anthropic) go: core tools, or one server's tools. */
export interface ProviderPlacement {
  /** Set when the tools become MCP tools of this server. */
  server?: string;
  namespace?: string;
}

/**
 * The placement the `server` / `namespace` options ask for: either option turns the tools into
 * MCP tools of that server (`server` wins for the name, `namespace` for the routing namespace);
 * neither leaves them core tools.
 */
export function providerPlacement(opts: LoadOptions, file: string): ProviderPlacement {
  const raw = opts.server ?? opts.namespace;
  if (raw === undefined) return {};
  const server = normaliseServerName(raw, file, opts.server !== undefined ? 'option "server"' : 'option "namespace"');
  return { server, namespace: opts.namespace ?? server };
}

/** Build a tool from a provider definition, placed as core or as a server's tool. */
export function providerTool(def: { name: string; description: string; inputSchema: JsonSchema }, placement: ProviderPlacement): Tool {
  const summary = def.description.trim() !== '' ? firstSentence(def.description) : def.name;
  if (placement.server !== undefined) {
    return makeTool({
      name: def.name,
      source: 'mcp',
      server: placement.server,
      namespace: placement.namespace ?? placement.server,
      summary,
      description: def.description,
      inputSchema: def.inputSchema,
    });
  }
  return makeTool({ name: def.name, source: 'core', summary, description: def.description, inputSchema: def.inputSchema });
}

/** The `Server` entry for provider tools placed under a server (none for core tools). */
export function providerServers(placement: ProviderPlacement): Server[] {
  return placement.server === undefined ? [] : [{ name: placement.server, source: 'mcp', description: '', instructions: '' }];
}

/** The tool list of a provider value: the array itself, or `tools` of an object such as a request body. */
export function toolListOf(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  return isObject(value) && Array.isArray(value.tools) ? value.tools : undefined;
}

/**
 * True for the `type` of an Anthropic-defined (server or client) tool: a name with a date version
 * (`web_search_20250305`, `bash_20250124`, `text_editor_20250728`, `computer_20250124`…) or
 * `mcp_toolset`.
 */
export function isAnthropicDefinedType(type: unknown): boolean {
  return typeof type === 'string' && (/^[a-z][a-z0-9_]*_\d{8}$/.test(type) || type === 'mcp_toolset');
}

/** The tool array of a provider file: the top-level array, or `tools` of `{"tools":[…]}`. */
export function providerToolArray(value: unknown, file: string, what: string): { list: unknown[]; path: string } {
  if (Array.isArray(value)) return { list: value, path: '$' };
  if (isObject(value) && Array.isArray(value.tools)) return { list: value.tools, path: '$.tools' };
  throw new InputError(`expected a JSON array of ${what} tools (or {"tools":[…]}), got ${describeJson(value)}`, { file, where: '$' });
}
