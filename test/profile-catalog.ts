/** A small hand catalog for the profile tests. */
import { makeTool } from '../src/catalog/model.ts';
import type { Catalog, JsonSchema, Tool } from '../src/catalog/types.ts';

/** `tools` and MCP servers given as `name: [description, instructions]`, in order; no skills. */
export function catalogWith(tools: Tool[], servers: Record<string, readonly [string, string]> = {}, plugins: Catalog['plugins'] = []): Catalog {
  return {
    tools,
    skills: [],
    servers: Object.entries(servers).map(([name, [description, instructions]]) => ({ name, source: 'mcp' as const, description, instructions })),
    plugins,
  };
}

/** The pinned core tool `finish`. */
export const finishTool = makeTool({ source: 'core', name: 'finish', summary: 'Finish the task.', description: 'Finish the task.', pinned: true });

/** GitHub's `create_issue` (scope `github:write`), with the input schema given. */
export function createIssueTool(inputSchema: JsonSchema): Tool {
  return makeTool({
    source: 'mcp',
    server: 'github',
    name: 'create_issue',
    summary: 'Open an issue.',
    description: 'Open an issue in a repository.',
    scopes: ['github:write'],
    inputSchema,
  });
}

/** Slack's `post_message` (scope `slack:write`), with no input schema. */
export const postMessageTool = makeTool({
  source: 'mcp',
  server: 'slack',
  name: 'post_message',
  summary: 'Post a message.',
  description: 'Post a message to a channel.',
  scopes: ['slack:write'],
});
