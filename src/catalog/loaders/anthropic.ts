/**
 * Anthropic tool definitions as a catalog.
 *
 * The file is a JSON array `[{"name","description","input_schema"}]`, or an object holding one in
 * `tools`: `{"tools":[…]}`, which includes a whole Messages API request body
 * `{"model","max_tokens","messages","tools"}` (the other fields are ignored). `input_schema` is
 * required (the API requires it) and must be a JSON Schema of an object (older drafts are brought
 * to 2020-12 with a warning, see `schema-drafts.ts`); a `null` description counts as absent.
 *
 * Entries with a `type` other than `"custom"` are Anthropic's server and client tools
 * (`web_search_20250305`, `bash_20250124`, `text_editor_…`, `computer_…`, `mcp_toolset`…): they
 * have no schema to index and are skipped with one warning naming their types. A file with no
 * custom tool at all is an error. `cache_control` and other extra fields are ignored.
 *
 * Options as for OpenAI: none → core tools; `server` / `namespace` → MCP tools of that server.
 */
import { InputError } from '../../util/errors.ts';
import type { Catalog, Server, Tool } from '../types.ts';
import { assembleCatalog, readInputSchema, requireText, type Located } from '../validate.ts';
import {
  absentIfNull,
  describeJson,
  isAnthropicDefinedType,
  isObject,
  providerPlacement,
  providerServers,
  providerTool,
  providerToolArray,
  readJsonFile,
  toolListOf,
  type LoadOptions,
} from './common.ts';
import { LoadNotes } from './load-notes.ts';

/**
 * True if `value` is a non-empty array of Anthropic tools, or an object (a request body) holding
 * one in `tools`: every entry has an `input_schema` or an Anthropic-defined `type`, and none is an
 * OpenAI function or has an MCP `inputSchema`.
 */
export function isAnthropicToolsShape(value: unknown): boolean {
  const list = toolListOf(value);
  return (
    list !== undefined &&
    list.length > 0 &&
    list.every((t) => isObject(t) && t.inputSchema === undefined && t.type !== 'function' && (absentIfNull(t.input_schema) !== undefined || isAnthropicDefinedType(t.type)))
  );
}

/** Parse Anthropic tool definitions already read from `file`; skipped server/client tools are noted in `notes`. */
export function anthropicTools(value: unknown, file: string, opts: LoadOptions = {}, notes: LoadNotes = new LoadNotes()): { tools: Array<Located<Tool>>; servers: Server[] } {
  const placement = providerPlacement(opts, file);
  const { list, path } = providerToolArray(value, file, 'Anthropic');
  const tools: Array<Located<Tool>> = [];
  list.forEach((raw, i) => {
    const where = `${path}[${i}]`;
    if (!isObject(raw)) throw new InputError(`tool must be a JSON object (got ${describeJson(raw)})`, { file, where });
    const type = absentIfNull(raw.type);
    if (type !== undefined && type !== 'custom') {
      if (typeof type !== 'string') throw new InputError(`tool "type" must be a string (got ${describeJson(type)})`, { file, where: `${where}.type` });
      notes.noteSkipped('Anthropic', type);
      return;
    }
    const name = requireText(raw.name, 'tool "name"', file, `${where}.name`);
    const description = absentIfNull(raw.description);
    if (description !== undefined && typeof description !== 'string') {
      throw new InputError(`tool "${name}": "description" must be a string (got ${describeJson(description)})`, { file, where: `${where}.description` });
    }
    if (absentIfNull(raw.input_schema) === undefined) {
      throw new InputError(`tool "${name}" has no "input_schema" (the Anthropic API requires one; use {"type":"object"} for no arguments)`, { file, where: `${where}.input_schema` });
    }
    const { schema, forms } = readInputSchema(raw.input_schema, file, `${where}.input_schema`);
    const tool = providerTool({ name, description: (description as string | undefined) ?? '', inputSchema: schema }, placement);
    notes.noteSchemaForms(tool.id, `${where}.input_schema`, forms);
    tools.push({ value: tool, file, where });
  });
  if (tools.length === 0) {
    const skipped = notes.skippedSummary('Anthropic');
    throw new InputError(`no custom tool to index${skipped !== undefined ? ` (${skipped})` : ''}: only tools with an "input_schema" have a schema`, { file, where: path });
  }
  return { tools, servers: providerServers(placement) };
}

/** Load an Anthropic tools file or request body (see the module comment for the accepted forms and options). */
export function loadAnthropicTools(file: string, opts: LoadOptions = {}): Catalog {
  const notes = new LoadNotes();
  const catalog = assembleCatalog(anthropicTools(readJsonFile(file), file, opts, notes));
  notes.report(opts.onWarning);
  return catalog;
}
