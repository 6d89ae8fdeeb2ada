/**
 * The harnesses' own (core) tools, for catalogs of datasets imported from their transcripts: a
 * transcript records the calls, not the definitions the harness sent. `data/core-tools.json` holds
 * each tool's name, parameter names and types (facts read from the sources it names) and a
 * one-line description in Backpack's own words. Tools the harness lists as shipped are `default`;
 * the others (older names, tools behind a setting) join a catalog only when a transcript called
 * them. A `meta` tool is the harness's own tool search: called to find tools, never itself the
 * tool a request needs, so it is never gold.
 */
import data from './data/core-tools.json' with { type: 'json' };
import { firstSentence, makeTool } from '../catalog/model.ts';
import type { JsonSchema, Tool } from '../catalog/types.ts';
import type { Harness } from './types.ts';

interface CoreToolData {
  name: string;
  default: boolean;
  meta?: boolean;
  description: string;
  params: Record<string, string>;
  required: string[];
}

const TYPES: Record<string, JsonSchema> = {
  string: { type: 'string' },
  number: { type: 'number' },
  boolean: { type: 'boolean' },
  object: { type: 'object' },
  'string[]': { type: 'array', items: { type: 'string' } },
  'object[]': { type: 'array', items: { type: 'object' } },
};

/** A parameter table (`name?` optional) as a JSON Schema object. */
function schemaOf(t: CoreToolData): JsonSchema {
  const properties = Object.fromEntries(Object.entries(t.params).map(([k, type]) => [k.replace(/\?$/, ''), TYPES[type] ?? {}]));
  return { type: 'object', properties, ...(t.required.length ? { required: t.required } : {}) };
}

const HARNESS_TOOLS = data as unknown as Record<Harness, { source: string; tools: CoreToolData[] }>;

/** The harnesses whose core tools Backpack ships. */
export const HARNESSES = Object.keys(HARNESS_TOOLS).filter((k) => !k.startsWith('$')) as Harness[];

/** Where a harness's core-tool facts come from (for the manifest's provenance). */
export function coreToolSource(harness: Harness): string {
  return HARNESS_TOOLS[harness].source;
}

/** A harness's core tools: those it lists as shipped, and those of `called` it has under another setting or an older name. */
export function coreTools(harness: Harness, called: ReadonlySet<string>): Tool[] {
  return HARNESS_TOOLS[harness].tools
    .filter((t) => t.default || called.has(t.name))
    .map((t) =>
      makeTool({ name: t.name, source: 'core', summary: firstSentence(t.description), description: t.description, inputSchema: schemaOf(t), standIn: true }),
    );
}

/** The harnesses' search tools (`ToolSearch`, `tool_search`): never gold. */
export const META_TOOLS: ReadonlySet<string> = new Set(
  Object.entries(HARNESS_TOOLS).flatMap(([k, h]) => (k.startsWith('$') ? [] : h.tools.filter((t) => t.meta).map((t) => t.name))),
);
