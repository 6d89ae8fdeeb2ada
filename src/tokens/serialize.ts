/**
 * Tool definitions serialized the way providers receive them, so that tokens are counted on what
 * is actually sent:
 * - OpenAI (Chat Completions / Responses function tools):
 *   `{"type":"function","function":{"name":…,"description":…,"parameters":{…}}}`;
 * - Anthropic (Messages API tools): `{"name":…,"description":…,"input_schema":{…}}`.
 * A block is the JSON array of the definitions (compact JSON, key order as above, schemas as
 * given), which is what the request body carries.
 */

/** The parts of a tool definition a provider receives (a catalog tool, or a harness's meta tool). */
export interface Definition {
  name: string;
  description: string;
  inputSchema: { [key: string]: unknown };
}

export type Provider = 'openai' | 'anthropic';

export const PROVIDERS: readonly Provider[] = ['openai', 'anthropic'];

/** One definition as the provider's JSON object. */
export function providerTool(d: Definition, provider: Provider): object {
  return provider === 'openai'
    ? { type: 'function', function: { name: d.name, description: d.description, parameters: d.inputSchema } }
    : { name: d.name, description: d.description, input_schema: d.inputSchema };
}

/** One definition as compact JSON. */
export function serializeTool(d: Definition, provider: Provider): string {
  return JSON.stringify(providerTool(d, provider));
}

/** A block of definitions as the request's `tools` array (compact JSON; `[]` when empty). */
export function serializeTools(defs: readonly Definition[], provider: Provider): string {
  return `[${defs.map((d) => serializeTool(d, provider)).join(',')}]`;
}
