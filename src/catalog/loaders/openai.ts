/**
 * OpenAI tool definitions as a catalog.
 *
 * The file is a JSON array of tools, or an object holding one in `tools`: `{"tools":[…]}`, which
 * includes a whole request body (Chat Completions `{"model","messages","tools"}` or Responses
 * `{"model","input","tools"}`; the other fields are ignored). Function tools come in the Chat
 * Completions form `{"type":"function","function":{"name","description","parameters"}}` or the flat
 * Responses form `{"type":"function","name","description","parameters"}` (the two may be mixed).
 * `parameters` and `description` are optional (`null` counts as absent; no parameters: an empty
 * object schema); given parameters must be a JSON Schema of an object (older drafts are brought to
 * 2020-12 with a warning, see `schema-drafts.ts`).
 *
 * Tools of any other `type` (built-in tools such as `web_search`, `file_search`,
 * `code_interpreter`, `mcp`, `custom`…) have no schema to index: they are skipped with one warning
 * naming their types. A file with no function tool at all is an error.
 *
 * Without options the tools are core tools (id = name). With `server` or `namespace` they become
 * MCP tools of that server: ids `mcp__<server>__<name>`, plus a `Server` entry.
 */
import { InputError } from '../../util/errors.ts';
import { EMPTY_INPUT_SCHEMA } from '../model.ts';
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
 * True if `value` is a non-empty array of OpenAI tools, or an object (a request body) holding one
 * in `tools`: every entry has a string `type` that is not one of Anthropic's, and none has an
 * Anthropic `input_schema` or an MCP `inputSchema`.
 */
export function isOpenAiToolsShape(value: unknown): boolean {
  const list = toolListOf(value);
  return (
    list !== undefined &&
    list.length > 0 &&
    list.every((t) => isObject(t) && typeof t.type === 'string' && !isAnthropicDefinedType(t.type) && t.input_schema === undefined && t.inputSchema === undefined)
  );
}

/** Parse OpenAI tool definitions already read from `file`; skipped built-in tools are noted in `notes`. */
export function openAiTools(value: unknown, file: string, opts: LoadOptions = {}, notes: LoadNotes = new LoadNotes()): { tools: Array<Located<Tool>>; servers: Server[] } {
  const placement = providerPlacement(opts, file);
  const { list, path } = providerToolArray(value, file, 'OpenAI function');
  const tools: Array<Located<Tool>> = [];
  list.forEach((raw, i) => {
    const where = `${path}[${i}]`;
    if (!isObject(raw)) throw new InputError(`tool must be a JSON object (got ${describeJson(raw)})`, { file, where });
    if (typeof raw.type !== 'string') {
      throw new InputError(`tool "type" must be a string such as "function" (got ${describeJson(raw.type)})`, { file, where: `${where}.type` });
    }
    if (raw.type !== 'function') {
      notes.noteSkipped('OpenAI', raw.type);
      return;
    }
    const nested = absentIfNull(raw.function) !== undefined;
    if (nested && !isObject(raw.function)) throw new InputError(`"function" must be an object (got ${describeJson(raw.function)})`, { file, where: `${where}.function` });
    const fn = (nested ? raw.function : raw) as Record<string, unknown>;
    const at = nested ? `${where}.function` : where;
    const name = requireText(fn.name, 'tool "name"', file, `${at}.name`);
    const description = absentIfNull(fn.description);
    if (description !== undefined && typeof description !== 'string') {
      throw new InputError(`tool "${name}": "description" must be a string (got ${describeJson(description)})`, { file, where: `${at}.description` });
    }
    const parameters = absentIfNull(fn.parameters);
    const { schema, forms } = readInputSchema(parameters === undefined ? { ...EMPTY_INPUT_SCHEMA, properties: {} } : parameters, file, `${at}.parameters`);
    const tool = providerTool({ name, description: (description as string | undefined) ?? '', inputSchema: schema }, placement);
    notes.noteSchemaForms(tool.id, `${at}.parameters`, forms);
    tools.push({ value: tool, file, where });
  });
  if (tools.length === 0) {
    const skipped = notes.skippedSummary('OpenAI');
    throw new InputError(`no function tool to index${skipped !== undefined ? ` (${skipped})` : ''}: only {"type":"function"} tools have a schema`, { file, where: path });
  }
  return { tools, servers: providerServers(placement) };
}

/** Load an OpenAI tools file or request body (see the module comment for the accepted forms and options). */
export function loadOpenAiTools(file: string, opts: LoadOptions = {}): Catalog {
  const notes = new LoadNotes();
  const catalog = assembleCatalog(openAiTools(readJsonFile(file), file, opts, notes));
  notes.report(opts.onWarning);
  return catalog;
}
