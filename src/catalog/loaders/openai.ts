/**
 * OpenAI tool definitions as a catalog.
 *
 * The file is a JSON array of function tools, in the Chat Completions form
 * `{"type":"function","function":{"name","description","parameters"}}` or the flat Responses-API
 * form `{"type":"function","name","description","parameters"}` (the two may be mixed); `{"tools":[…]}`
 * is accepted too. `parameters` is optional (no arguments: an empty object schema); when given it
 * must be a valid JSON Schema of an object. Tools of any other `type` (built-in tools such as
 * `web_search`) are an error, not silently dropped.
 *
 * Without options the tools are core tools (id = name). With `server` or `namespace` they become
 * MCP tools of that server: ids `mcp__<server>__<name>`, plus a `Server` entry.
 */
import { InputError } from '../errors.ts';
import { EMPTY_INPUT_SCHEMA } from '../model.ts';
import type { Catalog, JsonSchema, Server, Tool } from '../types.ts';
import { assembleCatalog, checkInputSchema, requireText, type Located } from '../validate.ts';
import { describeJson, isObject, providerPlacement, providerServers, providerTool, providerToolArray, readJsonFile, type LoadOptions } from './common.ts';

/** True if `value` is a non-empty array whose every entry is `{"type":"function", …}`. */
export function isOpenAiToolsShape(value: unknown): boolean {
  return Array.isArray(value) && value.length > 0 && value.every((t) => isObject(t) && t.type === 'function');
}

/** Parse OpenAI tool definitions already read from `file`. */
export function openAiTools(value: unknown, file: string, opts: LoadOptions = {}): { tools: Array<Located<Tool>>; servers: Server[] } {
  const placement = providerPlacement(opts, file);
  const { list, path } = providerToolArray(value, file, 'OpenAI function');
  const tools = list.map((raw, i): Located<Tool> => {
    const where = `${path}[${i}]`;
    if (!isObject(raw)) throw new InputError(`tool must be a JSON object (got ${describeJson(raw)})`, { file, where });
    if (raw.type !== 'function') {
      throw new InputError(`tool type ${JSON.stringify(raw.type ?? null)} is not supported: only {"type":"function"} tools can be indexed`, { file, where: `${where}.type` });
    }
    const nested = raw.function !== undefined;
    if (nested && !isObject(raw.function)) throw new InputError(`"function" must be an object (got ${describeJson(raw.function)})`, { file, where: `${where}.function` });
    const fn = (nested ? raw.function : raw) as Record<string, unknown>;
    const at = nested ? `${where}.function` : where;
    const name = requireText(fn.name, 'tool "name"', file, `${at}.name`);
    if (fn.description !== undefined && typeof fn.description !== 'string') {
      throw new InputError(`tool "${name}": "description" must be a string (got ${describeJson(fn.description)})`, { file, where: `${at}.description` });
    }
    const inputSchema = fn.parameters === undefined ? { ...EMPTY_INPUT_SCHEMA, properties: {} } : fn.parameters;
    checkInputSchema(inputSchema, file, `${at}.parameters`);
    const tool = providerTool({ name, description: (fn.description as string | undefined) ?? '', inputSchema: inputSchema as JsonSchema }, placement);
    return { value: tool, file, where };
  });
  return { tools, servers: providerServers(placement) };
}

/** Load an OpenAI tools file (see the module comment for the accepted forms and options). */
export function loadOpenAiTools(file: string, opts: LoadOptions = {}): Catalog {
  return assembleCatalog(openAiTools(readJsonFile(file), file, opts));
}
