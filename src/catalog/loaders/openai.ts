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
import type { Catalog } from '../types.ts';
import { readInputSchema } from '../validate.ts';
import { absentIfNull, describeJson, isAnthropicDefinedType, isObject, type LoadOptions } from './common.ts';
import { isProviderToolList, loadProviderTools, providerNameAndDescription, type ProviderEntryReader } from './provider-tools.ts';

/**
 * True if `value` is a non-empty array of OpenAI tools, or an object (a request body) holding one
 * in `tools`: every entry has a string `type` that is not one of Anthropic's, and none has an
 * Anthropic `input_schema` or an MCP `inputSchema`.
 */
export function isOpenAiToolsShape(value: unknown): boolean {
  return isProviderToolList(
    value,
    (t) => typeof t.type === 'string' && !isAnthropicDefinedType(t.type) && t.input_schema === undefined && t.inputSchema === undefined,
  );
}

/** One entry of an OpenAI tool list: a tool to index, or the type of one to skip. */
const openAiEntry: ProviderEntryReader = (raw, file, where) => {
  if (typeof raw.type !== 'string') {
    throw new InputError(`tool "type" must be a string such as "function" (got ${describeJson(raw.type)})`, { file, where: `${where}.type` });
  }
  if (raw.type !== 'function') return raw.type;
  const nested = absentIfNull(raw.function) !== undefined;
  if (nested && !isObject(raw.function))
    throw new InputError(`"function" must be an object (got ${describeJson(raw.function)})`, { file, where: `${where}.function` });
  const fn = (nested ? raw.function : raw) as Record<string, unknown>;
  const at = nested ? `${where}.function` : where;
  const { name, description } = providerNameAndDescription(fn, file, at);
  const parameters = absentIfNull(fn.parameters);
  const { schema, forms } = readInputSchema(parameters === undefined ? { ...EMPTY_INPUT_SCHEMA, properties: {} } : parameters, file, `${at}.parameters`);
  return { name, description, inputSchema: schema, schemaWhere: `${at}.parameters`, forms };
};

/** Load an OpenAI tools file or request body (see the module comment for the accepted forms and options). */
export function loadOpenAiTools(file: string, opts: LoadOptions = {}): Catalog {
  return loadProviderTools('OpenAI', openAiEntry, file, opts);
}
