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
import type { Catalog } from '../types.ts';
import { readInputSchema } from '../validate.ts';
import { absentIfNull, describeJson, isAnthropicDefinedType, type LoadOptions } from './common.ts';
import { isProviderToolList, loadProviderTools, providerNameAndDescription, type ProviderEntryReader } from './provider-tools.ts';

/**
 * True if `value` is a non-empty array of Anthropic tools, or an object (a request body) holding
 * one in `tools`: every entry has an `input_schema` or an Anthropic-defined `type`, and none is an
 * OpenAI function or has an MCP `inputSchema`.
 */
export function isAnthropicToolsShape(value: unknown): boolean {
  return isProviderToolList(
    value,
    (t) => t.inputSchema === undefined && t.type !== 'function' && (absentIfNull(t.input_schema) !== undefined || isAnthropicDefinedType(t.type)),
  );
}

/** One entry of an Anthropic tool list: a tool to index, or the type of one to skip. */
const anthropicEntry: ProviderEntryReader = (raw, file, where) => {
  const type = absentIfNull(raw.type);
  if (type !== undefined && type !== 'custom') {
    if (typeof type !== 'string') throw new InputError(`tool "type" must be a string (got ${describeJson(type)})`, { file, where: `${where}.type` });
    return type;
  }
  const { name, description } = providerNameAndDescription(raw, file, where);
  if (absentIfNull(raw.input_schema) === undefined) {
    throw new InputError(`tool "${name}" has no "input_schema" (the Anthropic API requires one; use {"type":"object"} for no arguments)`, {
      file,
      where: `${where}.input_schema`,
    });
  }
  const { schema, forms } = readInputSchema(raw.input_schema, file, `${where}.input_schema`);
  return { name, description, inputSchema: schema, schemaWhere: `${where}.input_schema`, forms };
};

/** Load an Anthropic tools file or request body (see the module comment for the accepted forms and options). */
export function loadAnthropicTools(file: string, opts: LoadOptions = {}): Catalog {
  return loadProviderTools('Anthropic', anthropicEntry, file, opts);
}
