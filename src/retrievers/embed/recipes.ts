/**
 * Index text recipes: what text of a tool an embedding retriever encodes. Named, so that a
 * results file says which one ran and two can be compared (the seed's claim "embedding the raw
 * schema hurts" is measured by running `intent` against `intent+schema`).
 *
 * `source+intent` (the registry's `embed` and `hybrid`) adds the tool's server or plugin name:
 * "restore message" exists on Discord and on Teams, and a request that names the product can only
 * be told apart by it (BM25 indexes the namespace as a field for the same reason). On the
 * generated small-7 catalog it lifts the embed retriever's recall@5 from 0.270 to 0.322 and the
 * registry's hybrid from 0.470 (below bm25's 0.472) to 0.481; on MetaTool, where every tool is its
 * own plugin of the same name, the text does not change.
 *
 * Parts are joined with newlines (whitespace to every tokenizer); empty parts, and a summary that
 * the description already starts with (MetaTool's summary is the description's first sentence),
 * are left out so that no sentence is counted twice in the mean.
 */
import type { Tool } from '../../catalog/types.ts';
import { makeTokenizer } from '../bm25/tokenize.ts';

export interface IndexRecipe {
  /** One line for `describe()` and the docs. */
  description: string;
  text(tool: Tool): string;
}

const splitWords = makeTokenizer({ splitIdentifiers: true, asciiFold: true, stopWords: 'none', stem: 'none', minLength: 1 });

/** A tool name as words: `create_issue`, `createIssue`, `issues.create` → `create issue`, `issues create`. */
export function splitName(name: string): string {
  return splitWords(name).join(' ');
}

/** The intent parts of a tool: split name (and title), summary, description, example requests. */
function intentParts(tool: Tool): string[] {
  const parts: string[] = [splitName(tool.name)];
  if (tool.title !== undefined && tool.title.trim() !== '') parts.push(tool.title);
  const summary = tool.summary.trim();
  const description = tool.description.trim();
  if (summary !== '' && !description.startsWith(summary)) parts.push(summary);
  parts.push(description, ...tool.examples);
  return parts;
}

function join(parts: readonly string[]): string {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const p of parts) {
    const t = p.trim();
    if (t === '' || seen.has(t)) continue;
    seen.add(t);
    out.push(t);
  }
  return out.join('\n');
}

/** The server (MCP tools) or plugin (plugin tools) a tool comes from, as words; '' for core tools. */
function sourceName(tool: Tool): string {
  const source = tool.server ?? tool.plugin;
  return source === undefined ? '' : splitName(source);
}

export const INDEX_RECIPES = {
  'source+intent': {
    description: 'server or plugin name (split), then the intent text: split name (and title), summary, description, example requests; not the input schema',
    text: (tool: Tool) => join([sourceName(tool), ...intentParts(tool)]),
  },
  intent: {
    description: 'split name (and title), summary, description, example requests; not the input schema',
    text: (tool: Tool) => join(intentParts(tool)),
  },
  'intent+schema': {
    description: 'the intent text plus the input schema as compact JSON text',
    text: (tool: Tool) => join([...intentParts(tool), JSON.stringify(tool.inputSchema ?? {})]),
  },
} as const satisfies Record<string, IndexRecipe>;

export type IndexRecipeName = keyof typeof INDEX_RECIPES;

export function isIndexRecipeName(name: string): name is IndexRecipeName {
  return Object.prototype.hasOwnProperty.call(INDEX_RECIPES, name);
}
