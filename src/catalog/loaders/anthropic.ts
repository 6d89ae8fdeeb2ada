/**
 * Anthropic tool definitions as a catalog.
 *
 * The file is a JSON array `[{"name","description","input_schema"}]` or `{"tools":[…]}` (the
 * Messages API request field). `input_schema` is required (the API requires it) and must be a
 * valid JSON Schema of an object. Entries with a `type` other than `"custom"` are Anthropic's
 * server/client tools (`web_search_20250305`, `bash_20250124`, …) and are an error, not silently
 * dropped. `cache_control` and other extra fields are ignored.
 *
 * Options as for OpenAI: none → core tools; `server` / `namespace` → MCP tools of that server.
 */
import { InputError } from '../errors.ts';
import type { Catalog, JsonSchema, Server, Tool } from '../types.ts';
import { assembleCatalog, checkInputSchema, requireText, type Located } from '../validate.ts';
import { describeJson, isObject, providerPlacement, providerServers, providerTool, providerToolArray, readJsonFile, type LoadOptions } from './common.ts';

/** True if `value` is a non-empty array of `{input_schema}` objects, or `{"tools":[…]}` of them. */
export function isAnthropicToolsShape(value: unknown): boolean {
  const list = Array.isArray(value) ? value : isObject(value) && Array.isArray(value.tools) ? value.tools : undefined;
  return list !== undefined && list.length > 0 && list.every((t) => isObject(t) && t.input_schema !== undefined && t.inputSchema === undefined);
}

/** Parse Anthropic tool definitions already read from `file`. */
export function anthropicTools(value: unknown, file: string, opts: LoadOptions = {}): { tools: Array<Located<Tool>>; servers: Server[] } {
  const placement = providerPlacement(opts, file);
  const { list, path } = providerToolArray(value, file, 'Anthropic');
  const tools = list.map((raw, i): Located<Tool> => {
    const where = `${path}[${i}]`;
    if (!isObject(raw)) throw new InputError(`tool must be a JSON object (got ${describeJson(raw)})`, { file, where });
    if (raw.type !== undefined && raw.type !== 'custom') {
      throw new InputError(`tool type ${JSON.stringify(raw.type)} is an Anthropic-defined tool, not a custom tool: it cannot be indexed`, { file, where: `${where}.type` });
    }
    const name = requireText(raw.name, 'tool "name"', file, `${where}.name`);
    if (raw.description !== undefined && typeof raw.description !== 'string') {
      throw new InputError(`tool "${name}": "description" must be a string (got ${describeJson(raw.description)})`, { file, where: `${where}.description` });
    }
    if (raw.input_schema === undefined) {
      throw new InputError(`tool "${name}" has no "input_schema" (the Anthropic API requires one; use {"type":"object"} for no arguments)`, { file, where: `${where}.input_schema` });
    }
    checkInputSchema(raw.input_schema, file, `${where}.input_schema`);
    const tool = providerTool({ name, description: (raw.description as string | undefined) ?? '', inputSchema: raw.input_schema as JsonSchema }, placement);
    return { value: tool, file, where };
  });
  return { tools, servers: providerServers(placement) };
}

/** Load an Anthropic tools file (see the module comment for the accepted forms and options). */
export function loadAnthropicTools(file: string, opts: LoadOptions = {}): Catalog {
  return assembleCatalog(anthropicTools(readJsonFile(file), file, opts));
}
