/**
 * What Claude Code puts in front of the model around `ToolSearch` (official docs,
 * `code.claude.com/docs/en/agent-sdk/tool-search`; the tool's wording from third-party analyses of
 * the bundled `ToolSearchTool.ts`, unofficial): the `ToolSearch` definition, the
 * `<available-deferred-tools>` names, the MCP server instructions (cut at 2 KB), the
 * `tool_reference` result, the definitions a reference expands into, and the pinned token estimate
 * that decides `auto:N`.
 */
import type { Tool } from '../../catalog/types.ts';
import { charCount, cutToBytes } from '../../util/unicode.ts';
import { DEFAULT_CONTEXT_WINDOW, type ToolDefinition } from '../types.ts';
import { CLAUDE_CODE_DEFAULTS, type ToolSearchMode } from './config.ts';

export const TOOL_SEARCH_NAME = 'ToolSearch';

/** The meta tool (description abridged from the reverse-engineered prompt; parameter texts as reported). */
export const TOOL_SEARCH_TOOL: ToolDefinition = {
  name: TOOL_SEARCH_NAME,
  description:
    'Fetches full schema definitions for deferred tools so they can be called. Deferred tools are listed by name in <available-deferred-tools>; until fetched only the name is known and the tool cannot be called.\n' +
    'Query forms:\n' +
    '- "select:mcp__server__toolA,mcp__server__toolB" — fetch these exact tools by name\n' +
    '- "theme components" — keyword search, up to max_results best matches\n' +
    '- "+chakra theme" — require "chakra" in the name, rank by remaining terms',
  inputSchema: {
    type: 'object',
    properties: {
      query: { type: 'string', description: 'Query to find deferred tools. Use "select:<tool_name>" for direct selection, or keywords to search.' },
      max_results: { type: 'number', description: 'Maximum number of results to return (default: 5)', default: 5 },
    },
    required: ['query'],
    additionalProperties: false,
  },
};

/** `s` cut at `maxBytes` UTF-8 bytes on a character boundary (fast when it obviously fits). */
export function cut2k(s: string, maxBytes: number = CLAUDE_CODE_DEFAULTS.cutBytes): string {
  return s.length * 3 <= maxBytes ? s : cutToBytes(s, maxBytes);
}

/** A tool's definition as it travels in the request once loaded: its id, its description cut at 2 KB, its schema. */
export function loadedDefinition(tool: Tool): ToolDefinition {
  return { name: tool.id, description: cut2k(tool.description), inputSchema: tool.inputSchema };
}

/** Pinned token estimate of one definition: ceil(code points of `JSON.stringify({name, description, input_schema})` / 4). */
export function definitionTokens(tool: Tool): number {
  const d = loadedDefinition(tool);
  return Math.ceil(charCount(JSON.stringify({ name: d.name, description: d.description, input_schema: d.inputSchema })) / 4);
}

/** Whether tool search is on for a catalog whose deferrable definitions weigh `deferrableTokens`. */
export function toolSearchActive(mode: ToolSearchMode, deferrableTokens: number, contextWindow: number = DEFAULT_CONTEXT_WINDOW): boolean {
  if (mode === 'on') return true;
  if (mode === 'off') return false;
  return deferrableTokens * 100 >= mode.auto * contextWindow;
}

export const DEFERRED_TOOLS_OPEN = '<available-deferred-tools>';
export const DEFERRED_TOOLS_CLOSE = '</available-deferred-tools>';

/** The `<available-deferred-tools>` block, one id per line; `''` for none. */
export function deferredToolsBlock(ids: readonly string[]): string {
  return ids.length ? `${DEFERRED_TOOLS_OPEN}\n${ids.join('\n')}\n${DEFERRED_TOOLS_CLOSE}` : '';
}

/** Claude Code's system-prompt section of MCP server instructions (wording [unverified]), each cut at 2 KB; `''` for none. */
export function serverInstructionsBlock(servers: ReadonlyArray<{ name: string; instructions: string }>): string {
  const parts = servers.filter((s) => s.instructions.trim() !== '').map((s) => `## ${s.name}\n${cut2k(s.instructions)}`);
  if (!parts.length) return '';
  return `# MCP Server Instructions\n\nThe following MCP servers have provided instructions for how to use their tools and resources:\n\n${parts.join('\n\n')}`;
}

/** The `ToolSearch` result as the model reads it: the `tool_reference` blocks (JSON), or upstream's miss text. */
export function toolReferenceText(ids: readonly string[]): string {
  if (!ids.length) return 'No matching deferred tools found';
  return JSON.stringify(ids.map((id) => ({ type: 'tool_reference', tool_name: id })));
}
