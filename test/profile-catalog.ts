/** A small hand catalog for the profile tests. */
import type { Catalog, Tool } from '../src/catalog/types.ts';

/** `tools` and MCP servers given as `name: [description, instructions]`, in order; no skills. */
export function catalogWith(tools: Tool[], servers: Record<string, readonly [string, string]> = {}, plugins: Catalog['plugins'] = []): Catalog {
  return {
    tools,
    skills: [],
    servers: Object.entries(servers).map(([name, [description, instructions]]) => ({ name, source: 'mcp' as const, description, instructions })),
    plugins,
  };
}
