/**
 * MCP `tools/list` results as catalogs.
 *
 * Three shapes are read:
 *  - one server's file: `{"tools":[…]}`, the whole JSON-RPC response
 *    `{"jsonrpc":"2.0","id":…,"result":{"tools":[…]}}`, or a JSON array of every page of one
 *    listing (results or responses) in order, each page but the last with a `nextCursor`. A single
 *    page with a `nextCursor` is refused: it is not the whole listing. The server is named by the
 *    `server` option, else by the file name (`github.json`, `github.tools.json` → `github`).
 *    Optional top-level (or `result`-level) `description` / `instructions` strings describe it;
 *  - a folder of such files, one server per `*.json` file, read in file-name order;
 *  - a bundle `{"servers":[{"name", "description"?, "instructions"?, "tools":[…]}]}`, where a
 *    server may give `"pages":[…]` (its whole listing, as for one file) instead of `tools`.
 *
 * Each MCP tool `{name, title?, description?, inputSchema, annotations?}` becomes a `Tool` with id
 * `mcp__<server>__<name>`, so a name that repeats across servers (`search`, `read_file`) stays two
 * tools. The summary is the first sentence of the description. `inputSchema` is required (MCP
 * requires it) and must be a JSON Schema of an object; older drafts are kept in the 2020-12 form,
 * with one warning per catalog (see `schema-drafts.ts`). Annotations are kept without their null
 * hints; scopes are left empty (nothing in MCP data says which scopes a tool needs). Other tool
 * fields (`outputSchema`, `icons`, `_meta`) are ignored. `null` for any optional field, at tool,
 * page or server level, means absent: a Python client writes every field.
 *
 * Server names go through `normaliseServerName`: spaces and dots become `_`, anything else outside
 * `[A-Za-z0-9_-]` is an error.
 */
import { readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { InputError } from '../../util/errors.ts';
import { firstSentence, makeTool } from '../model.ts';
import type { Catalog, Server, Tool } from '../types.ts';
import { assembleCatalog, readInputSchema, requireText, type Located } from '../validate.ts';
import { absentIfNull, describeJson, isDirectory, isFile, isObject, normaliseServerName, readJsonFile, requireExists } from './common.ts';
import { LoadNotes, type WarningSink } from './load-notes.ts';

export interface McpFileOptions {
  /** Server name; default: the file name without `.json` (and without a `.tools` suffix). */
  server?: string;
  /** Receives the warnings (see `LoadOptions.onWarning`). */
  onWarning?: WarningSink;
}

/** A parsed server: its `Server` entry and its located tools. */
export interface McpServerPart {
  server: Server;
  tools: Array<Located<Tool>>;
}

/** The server name a file stands for: `github.json` / `github.tools.json` → `github`. */
export function serverNameFromFile(file: string): string {
  return basename(file)
    .replace(/\.json$/i, '')
    .replace(/\.tools$/i, '');
}

/** True for one `tools/list` page: `{"tools":[…]}` or a JSON-RPC response `{"result":{"tools":[…]}}`. */
function isToolsListPage(value: unknown): boolean {
  if (!isObject(value)) return false;
  if (isProviderRequestBody(value)) return false;
  if (Array.isArray(value.tools)) return true;
  return isObject(value.result) && Array.isArray(value.result.tools);
}

/** A provider API request body (`{"model", "messages"|"input", …}`): its `tools` are never an MCP listing. */
function isProviderRequestBody(value: Record<string, unknown>): boolean {
  return typeof value.model === 'string' && (value.messages !== undefined || value.input !== undefined);
}

/**
 * True if `value` looks like one server's `tools/list` result (or its JSON-RPC response), or a
 * non-empty JSON array of such pages.
 */
export function isMcpToolsListShape(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0 && value.every(isToolsListPage);
  return isToolsListPage(value);
}

/** True if `value` looks like a bundle `{"servers":[…]}`. */
export function isMcpBundleShape(value: unknown): boolean {
  return isObject(value) && Array.isArray(value.servers);
}

/**
 * MCP tool objects (`list`, found at JSON path `path`) as located tools of `server`. Every problem
 * is an `InputError` at `file` and the JSON path of the offending value. Input schemas in older
 * JSON Schema drafts are kept in the 2020-12 form and noted in `notes`.
 */
export function mcpTools(list: unknown, server: string, file: string, path: string, notes: LoadNotes = new LoadNotes()): Array<Located<Tool>> {
  if (!Array.isArray(list)) throw new InputError(`"tools" must be an array (got ${describeJson(list)})`, { file, where: path });
  return list.map((raw, i) => {
    const where = `${path}[${i}]`;
    return { value: mcpTool(raw, server, file, where, notes), file, where };
  });
}

function mcpTool(raw: unknown, server: string, file: string, where: string, notes: LoadNotes): Tool {
  if (!isObject(raw)) throw new InputError(`tool must be a JSON object (got ${describeJson(raw)})`, { file, where });
  const name = requireText(raw.name, 'tool "name"', file, `${where}.name`);
  const description = optionalString(raw.description, `tool "${name}": "description"`, file, `${where}.description`);
  if (absentIfNull(raw.inputSchema) === undefined) {
    throw new InputError(`tool "${name}" has no "inputSchema" (MCP requires one; use {"type":"object"} for no arguments)`, {
      file,
      where: `${where}.inputSchema`,
    });
  }
  const { schema: inputSchema, forms } = readInputSchema(raw.inputSchema, file, `${where}.inputSchema`);
  const annotations = annotationsOf(raw.annotations, name, file, `${where}.annotations`);
  const title = typeof raw.title === 'string' && raw.title.trim() !== '' ? raw.title : typeof annotations?.title === 'string' ? annotations.title : undefined;
  const tool = makeTool({
    name,
    source: 'mcp',
    server,
    ...(title !== undefined ? { title } : {}),
    summary: description.trim() !== '' ? firstSentence(description) : (title ?? name),
    description,
    inputSchema,
    ...(annotations !== undefined ? { annotations } : {}),
  });
  notes.noteSchemaForms(tool.id, `${where}.inputSchema`, forms);
  return tool;
}

/**
 * MCP tool annotations as kept: `null` (or absent) → none; an object → its fields without the
 * null ones (a Python client writes every hint, as null when the server gave none).
 */
function annotationsOf(raw: unknown, tool: string, file: string, where: string): Record<string, unknown> | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!isObject(raw)) throw new InputError(`tool "${tool}": "annotations" must be an object (got ${describeJson(raw)})`, { file, where });
  return Object.values(raw).includes(null) ? Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== null)) : raw;
}

function optionalString(v: unknown, what: string, file: string, where: string): string {
  if (v === undefined || v === null) return '';
  if (typeof v !== 'string') throw new InputError(`${what} must be a string (got ${describeJson(v)})`, { file, where });
  return v;
}

/** The holder of `tools` in a page, and its JSON path. */
function pageHolder(page: unknown, base: string): { holder: Record<string, unknown>; at: string } | undefined {
  if (!isToolsListPage(page)) return undefined;
  const p = page as Record<string, unknown>;
  return Array.isArray(p.tools) ? { holder: p, at: base } : { holder: p.result as Record<string, unknown>, at: `${base}.result` };
}

/** `nextCursor` of a page holder: a non-empty string, or `undefined` (absent, null or ""). */
function cursorOf(holder: Record<string, unknown>, file: string, at: string): string | undefined {
  const c = absentIfNull(holder.nextCursor);
  if (c === undefined || c === '') return undefined;
  if (typeof c !== 'string') throw new InputError(`"nextCursor" must be a string (got ${describeJson(c)})`, { file, where: `${at}.nextCursor` });
  return c;
}

function onePageError(cursor: string, file: string, where: string): InputError {
  return new InputError(
    `this tools/list result is one page of several: it has "nextCursor": ${JSON.stringify(cursor)}, so the server has more tools. ` +
      'Take every page with `backpack snapshot` (it pages through servers), or give a JSON array of all the pages in order, the last without nextCursor',
    { file, where },
  );
}

/**
 * The tools of a whole listing: one page without `nextCursor`, or an array of pages (each
 * `{"tools":[…],"nextCursor"}` or its JSON-RPC response) chained by cursors, read in order.
 */
function listingTools(value: unknown, base: string, server: string, file: string, notes: LoadNotes): Array<Located<Tool>> {
  if (!Array.isArray(value)) {
    const page = pageHolder(value, base)!;
    const cursor = cursorOf(page.holder, file, page.at);
    if (cursor !== undefined) throw onePageError(cursor, file, `${page.at}.nextCursor`);
    return mcpTools(page.holder.tools, server, file, `${page.at}.tools`, notes);
  }
  if (value.length === 0) throw new InputError('no tools/list page in this array', { file, where: base });
  return value.flatMap((raw, i) => {
    const page = pageHolder(raw, `${base}[${i}]`);
    if (page === undefined)
      throw new InputError(`expected a tools/list page {"tools":[…],"nextCursor"?} or its JSON-RPC response (got ${describeJson(raw)})`, {
        file,
        where: `${base}[${i}]`,
      });
    const cursor = cursorOf(page.holder, file, page.at);
    const last = i === value.length - 1;
    if (last && cursor !== undefined) throw onePageError(cursor, file, `${page.at}.nextCursor`);
    if (!last && cursor === undefined) {
      throw new InputError(
        `page ${i + 1} of ${value.length} has no "nextCursor", yet pages follow it: the pages of one listing end with the only page without a cursor`,
        { file, where: page.at },
      );
    }
    return mcpTools(page.holder.tools, server, file, `${page.at}.tools`, notes);
  });
}

/** Parse one server's `tools/list` JSON value (already read from `file`): one page, or an array of all its pages. */
export function mcpToolsListPart(value: unknown, file: string, opts: McpFileOptions = {}, notes: LoadNotes = new LoadNotes()): McpServerPart {
  if (!isMcpToolsListShape(value)) {
    throw new InputError('not an MCP tools/list result: expected {"tools":[…]}, a JSON-RPC response {"result":{"tools":[…]}}, or a JSON array of such pages', {
      file,
      where: '$',
    });
  }
  const first = pageHolder(Array.isArray(value) ? value[0] : value, Array.isArray(value) ? '$[0]' : '$')!;
  const top = (Array.isArray(value) ? value[0] : value) as Record<string, unknown>;
  const name =
    opts.server !== undefined ? normaliseServerName(opts.server, file, 'option "server"') : normaliseServerName(serverNameFromFile(file), file, 'file name');
  const server: Server = {
    name,
    source: 'mcp',
    description: optionalString(first.holder.description ?? top.description, '"description"', file, `${first.at}.description`),
    instructions: optionalString(first.holder.instructions ?? top.instructions, '"instructions"', file, `${first.at}.instructions`),
  };
  return { server, tools: listingTools(value, '$', name, file, notes) };
}

/** Load one server's `tools/list` file (one page, or a JSON array of all its pages). */
export function loadMcpToolsList(file: string, opts: McpFileOptions = {}): Catalog {
  const notes = new LoadNotes();
  const part = mcpToolsListPart(readJsonFile(file), file, opts, notes);
  const catalog = assembleCatalog({ tools: part.tools, servers: [part.server] });
  notes.report(opts.onWarning);
  return catalog;
}

/** Load a folder of `tools/list` files, one server per `*.json` file, in file-name order. */
export function loadMcpFolder(dir: string, opts: { onWarning?: WarningSink } = {}): Catalog {
  requireExists(dir);
  if (!isDirectory(dir)) throw new InputError('expected a folder of MCP tools/list files', { file: dir });
  const all = readdirSync(dir)
    .filter((n) => n.toLowerCase().endsWith('.json'))
    .sort();
  // a FIFO, socket or device is skipped, never opened (reading a FIFO waits for a writer); said once
  const notRegular = all.filter((n) => !isFile(join(dir, n)) && !isDirectory(join(dir, n)));
  if (notRegular.length)
    opts.onWarning?.(
      `${notRegular.length} ${notRegular.length === 1 ? 'entry' : 'entries'} of ${dir.split(/[\\/]/).pop()} named *.json ${notRegular.length === 1 ? 'is' : 'are'} not a regular file (a FIFO, socket or device) and ${notRegular.length === 1 ? 'was' : 'were'} skipped: ${notRegular.slice(0, 3).join(', ')}${notRegular.length > 3 ? ', …' : ''}`,
    );
  const names = all.filter((n) => !notRegular.includes(n));
  if (names.length === 0) throw new InputError('no *.json files in this folder (expected one MCP tools/list file per server)', { file: dir });
  const notes = new LoadNotes();
  const parts = names.map((n) => {
    const file = join(dir, n);
    return { file, part: mcpToolsListPart(readJsonFile(file), file, {}, notes) };
  });
  const seen = new Map<string, string>();
  for (const { file, part } of parts) {
    const first = seen.get(part.server.name);
    if (first !== undefined) throw new InputError(`server "${part.server.name}" is defined twice (first by ${first})`, { file, where: 'file name' });
    seen.set(part.server.name, file);
  }
  const catalog = assembleCatalog({ tools: parts.flatMap((p) => p.part.tools), servers: parts.map((p) => p.part.server) });
  notes.report(opts.onWarning);
  return catalog;
}

/**
 * Parse a bundle value `{"servers":[…]}` read from `file`. A server entry gives its tools as
 * `tools` (one whole listing: a non-null `nextCursor` beside it is refused) or as `pages` (every
 * tools/list page in order, as for a tools/list file); not both.
 */
export function mcpBundleParts(value: unknown, file: string, notes: LoadNotes = new LoadNotes()): McpServerPart[] {
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
    return { server, tools: bundleServerTools(raw, name, file, where, notes) };
  });
}

function bundleServerTools(raw: Record<string, unknown>, name: string, file: string, where: string, notes: LoadNotes): Array<Located<Tool>> {
  const pages = absentIfNull(raw.pages);
  if (pages === undefined) {
    const cursor = cursorOf(raw, file, where);
    if (cursor !== undefined) throw onePageError(cursor, file, `${where}.nextCursor`);
    return mcpTools(raw.tools, name, file, `${where}.tools`, notes);
  }
  if (absentIfNull(raw.tools) !== undefined) throw new InputError(`server "${name}" has both "tools" and "pages": give one`, { file, where: `${where}.pages` });
  if (absentIfNull(raw.nextCursor) !== undefined)
    throw new InputError(`server "${name}": "nextCursor" goes in its pages, not beside "pages"`, { file, where: `${where}.nextCursor` });
  if (!Array.isArray(pages))
    throw new InputError(`server "${name}": "pages" must be an array of tools/list pages (got ${describeJson(pages)})`, { file, where: `${where}.pages` });
  return listingTools(pages, `${where}.pages`, name, file, notes);
}

/** Load a multi-server bundle `{"servers":[{"name", "description"?, "instructions"?, "tools":[…]}]}`. */
export function loadMcpBundle(file: string, opts: { onWarning?: WarningSink } = {}): Catalog {
  const notes = new LoadNotes();
  const parts = mcpBundleParts(readJsonFile(file), file, notes);
  const catalog = assembleCatalog({ tools: parts.flatMap((p) => p.tools), servers: parts.map((p) => p.server) });
  notes.report(opts.onWarning);
  return catalog;
}
