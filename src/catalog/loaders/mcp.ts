/**
 * MCP `tools/list` results as catalogs.
 *
 * Three shapes are read:
 *  - one server's file: `{"tools":[…]}` or the whole JSON-RPC response
 *    `{"jsonrpc":"2.0","id":…,"result":{"tools":[…]}}`. The server is named by the `server` option,
 *    else by the file name (`github.json`, `github.tools.json` → `github`). Optional top-level (or
 *    `result`-level) `description` / `instructions` strings describe the server;
 *  - a folder of such files, one server per `*.json` file, read in file-name order;
 *  - a bundle `{"servers":[{"name", "description"?, "instructions"?, "tools":[…]}]}`.
 *
 * Each MCP tool `{name, title?, description?, inputSchema, annotations?}` becomes a `Tool` with id
 * `mcp__<server>__<name>`, so a name that repeats across servers (`search`, `read_file`) stays two
 * tools. The summary is the first sentence of the description. `inputSchema` is required (MCP
 * requires it) and must be a valid JSON Schema of an object. Annotations are kept as given; scopes
 * are left empty (nothing in MCP data says which scopes a tool needs). Other tool fields
 * (`outputSchema`, `icons`, `_meta`) are ignored.
 *
 * Server names go through `normaliseServerName`: spaces and dots become `_`, anything else outside
 * `[A-Za-z0-9_-]` is an error.
 */
import { readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { InputError } from '../errors.ts';
import { firstSentence, makeTool } from '../model.ts';
import type { Catalog, JsonSchema, Server, Tool } from '../types.ts';
import { assembleCatalog, checkInputSchema, requireText, type Located } from '../validate.ts';
import { describeJson, isDirectory, isObject, normaliseServerName, readJsonFile, requireExists } from './common.ts';

export interface McpFileOptions {
  /** Server name; default: the file name without `.json` (and without a `.tools` suffix). */
  server?: string;
}

/** A parsed server: its `Server` entry and its located tools. */
export interface McpServerPart {
  server: Server;
  tools: Array<Located<Tool>>;
}

/** The server name a file stands for: `github.json` / `github.tools.json` → `github`. */
export function serverNameFromFile(file: string): string {
  return basename(file).replace(/\.json$/i, '').replace(/\.tools$/i, '');
}

/** True if `value` looks like one server's `tools/list` result (or its JSON-RPC response). */
export function isMcpToolsListShape(value: unknown): boolean {
  if (!isObject(value)) return false;
  if (Array.isArray(value.tools)) return true;
  return isObject(value.result) && Array.isArray(value.result.tools);
}

/** True if `value` looks like a bundle `{"servers":[…]}`. */
export function isMcpBundleShape(value: unknown): boolean {
  return isObject(value) && Array.isArray(value.servers);
}

/**
 * MCP tool objects (`list`, found at JSON path `path`) as located tools of `server`. Every problem
 * is an `InputError` at `file` and the JSON path of the offending value.
 */
export function mcpTools(list: unknown, server: string, file: string, path: string): Array<Located<Tool>> {
  if (!Array.isArray(list)) throw new InputError(`"tools" must be an array (got ${describeJson(list)})`, { file, where: path });
  return list.map((raw, i) => {
    const where = `${path}[${i}]`;
    return { value: mcpTool(raw, server, file, where), file, where };
  });
}

function mcpTool(raw: unknown, server: string, file: string, where: string): Tool {
  if (!isObject(raw)) throw new InputError(`tool must be a JSON object (got ${describeJson(raw)})`, { file, where });
  const name = requireText(raw.name, 'tool "name"', file, `${where}.name`);
  const description = optionalString(raw.description, `tool "${name}": "description"`, file, `${where}.description`);
  if (raw.inputSchema === undefined) {
    throw new InputError(`tool "${name}" has no "inputSchema" (MCP requires one; use {"type":"object"} for no arguments)`, { file, where: `${where}.inputSchema` });
  }
  checkInputSchema(raw.inputSchema, file, `${where}.inputSchema`);
  const annotations = raw.annotations;
  if (annotations !== undefined && !isObject(annotations)) {
    throw new InputError(`tool "${name}": "annotations" must be an object (got ${describeJson(annotations)})`, { file, where: `${where}.annotations` });
  }
  const title = typeof raw.title === 'string' && raw.title.trim() !== '' ? raw.title : typeof annotations?.title === 'string' ? annotations.title : undefined;
  return makeTool({
    name,
    source: 'mcp',
    server,
    ...(title !== undefined ? { title } : {}),
    summary: description.trim() !== '' ? firstSentence(description) : (title ?? name),
    description,
    inputSchema: raw.inputSchema as JsonSchema,
    ...(annotations !== undefined ? { annotations } : {}),
  });
}

function optionalString(v: unknown, what: string, file: string, where: string): string {
  if (v === undefined || v === null) return '';
  if (typeof v !== 'string') throw new InputError(`${what} must be a string (got ${describeJson(v)})`, { file, where });
  return v;
}

/** Parse one server's `tools/list` JSON value (already read from `file`). */
export function mcpToolsListPart(value: unknown, file: string, opts: McpFileOptions = {}): McpServerPart {
  if (!isMcpToolsListShape(value)) {
    throw new InputError('not an MCP tools/list result: expected {"tools":[…]} or a JSON-RPC response {"result":{"tools":[…]}}', { file, where: '$' });
  }
  const top = value as Record<string, unknown>;
  const inResult = !Array.isArray(top.tools);
  const holder = (inResult ? top.result : top) as Record<string, unknown>;
  const base = inResult ? '$.result' : '$';
  const name = opts.server !== undefined
    ? normaliseServerName(opts.server, file, 'option "server"')
    : normaliseServerName(serverNameFromFile(file), file, 'file name');
  const server: Server = {
    name,
    source: 'mcp',
    description: optionalString(holder.description ?? top.description, '"description"', file, `${base}.description`),
    instructions: optionalString(holder.instructions ?? top.instructions, '"instructions"', file, `${base}.instructions`),
  };
  return { server, tools: mcpTools(holder.tools, name, file, `${base}.tools`) };
}

/** Load one server's `tools/list` file. */
export function loadMcpToolsList(file: string, opts: McpFileOptions = {}): Catalog {
  const part = mcpToolsListPart(readJsonFile(file), file, opts);
  return assembleCatalog({ tools: part.tools, servers: [part.server] });
}

/** Load a folder of `tools/list` files, one server per `*.json` file, in file-name order. */
export function loadMcpFolder(dir: string): Catalog {
  requireExists(dir);
  if (!isDirectory(dir)) throw new InputError('expected a folder of MCP tools/list files', { file: dir });
  const names = readdirSync(dir).filter((n) => n.toLowerCase().endsWith('.json')).sort();
  if (names.length === 0) throw new InputError('no *.json files in this folder (expected one MCP tools/list file per server)', { file: dir });
  const parts = names.map((n) => {
    const file = join(dir, n);
    return { file, part: mcpToolsListPart(readJsonFile(file), file) };
  });
  const seen = new Map<string, string>();
  for (const { file, part } of parts) {
    const first = seen.get(part.server.name);
    if (first !== undefined) throw new InputError(`server "${part.server.name}" is defined twice (first by ${first})`, { file, where: 'file name' });
    seen.set(part.server.name, file);
  }
  return assembleCatalog({ tools: parts.flatMap((p) => p.part.tools), servers: parts.map((p) => p.part.server) });
}

/** Parse a bundle value `{"servers":[…]}` read from `file`. */
export function mcpBundleParts(value: unknown, file: string): McpServerPart[] {
  if (!isMcpBundleShape(value)) throw new InputError('not an MCP bundle: expected {"servers":[{"name", "tools":[…]}, …]}', { file, where: '$' });
  const list = (value as { servers: unknown[] }).servers;
  const seen = new Map<string, string>();
  return list.map((raw, i) => {
    const where = `$.servers[${i}]`;
    if (!isObject(raw)) throw new InputError(`server must be a JSON object (got ${describeJson(raw)})`, { file, where });
    const name = normaliseServerName(raw.name, file, `${where}.name`);
    const first = seen.get(name);
    if (first !== undefined) throw new InputError(`duplicate server name "${name}" (first at ${first})`, { file, where: `${where}.name` });
    seen.set(name, `${where}.name`);
    const server: Server = {
      name,
      source: 'mcp',
      description: optionalString(raw.description, `server "${name}": "description"`, file, `${where}.description`),
      instructions: optionalString(raw.instructions, `server "${name}": "instructions"`, file, `${where}.instructions`),
    };
    return { server, tools: mcpTools(raw.tools, name, file, `${where}.tools`) };
  });
}

/** Load a multi-server bundle `{"servers":[{"name", "description"?, "instructions"?, "tools":[…]}]}`. */
export function loadMcpBundle(file: string): Catalog {
  const parts = mcpBundleParts(readJsonFile(file), file);
  return assembleCatalog({ tools: parts.flatMap((p) => p.tools), servers: parts.map((p) => p.server) });
}
