/**
 * Helpers the exposure models share: a tool's definition as a provider receives it, and the tools
 * a caller's mask lets through. (Byte and character budgets: `../util/unicode.ts`.)
 */
import type { JsonSchema, Tool } from '../catalog/types.ts';
import type { ToolDefinition } from './types.ts';

/** A catalog tool as a definition in front of the model: its id (the name the model calls), description and input schema. */
export function toolDefinition(tool: Tool): ToolDefinition {
  return { name: tool.id, description: tool.description, inputSchema: tool.inputSchema };
}

/** The input schema of a meta tool that takes one required string argument, `name`, and nothing else. */
export function stringArgument(name: string, description: string): JsonSchema {
  return { type: 'object', properties: { [name]: { type: 'string', description } }, required: [name], additionalProperties: false };
}

/** The ids of the tools `allowed` lets through (all when undefined), in catalog order, optionally filtered. */
export function allowedIds(tools: readonly Tool[], allowed: Uint8Array | undefined, keep: (t: Tool) => boolean = () => true): string[] {
  const out: string[] = [];
  for (let i = 0; i < tools.length; i++) {
    if (allowed && allowed[i] !== 1) continue;
    const t = tools[i]!;
    if (keep(t)) out.push(t.id);
  }
  return out;
}
