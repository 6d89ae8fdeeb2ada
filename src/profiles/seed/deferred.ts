/**
 * `deferred`: the seed's deferred schemas — load the name, not the whole shape. Before any search
 * the model sees pinned tools in full, a compact one-line catalog (`- id: summary`) of every other
 * tool the caller may use, and two meta tools: `search_tools` (Backpack's BM25, 5 results with
 * their one-line summaries) and `load_tool_schema` (one tool's full definition). "Not found" and
 * "not permitted" are answered with the same words ({@link DeferredProfile.loadToolSchema}), so a
 * caller cannot probe for tools outside its scopes.
 */
import type { Catalog, Tool } from '../../catalog/types.ts';
import { createBm25 } from '../../retrievers/bm25/presets.ts';
import type { Hit, Retriever } from '../../retrievers/types.ts';
import { describeWith } from '../facts.ts';
import { allowedIds, stringArgument, toolDefinition } from '../text.ts';
import { DEFERRED_FACTS } from './facts.ts';
import { listedPositions, withListing } from '../catalog-listing.ts';
import type { BeforeSearch, Caller, Profile, SearchAddition, ToolDefinition, CallProtocol, QueryStyle } from '../types.ts';

/** How many tools one search_tools call returns. */
export const DEFERRED_SEARCH_LIMIT = 5;

/** The meta tool that searches the catalog: names and one-line summaries. */
export const SEARCH_TOOLS: ToolDefinition = {
  name: 'search_tools',
  description:
    'Search the tool catalog by what you want to do. Returns up to 5 tool names with one-line summaries; load a tool with load_tool_schema before calling it.',
  inputSchema: stringArgument('query', 'What you want to do, in words.'),
};

/** The meta tool that loads one tool's full definition (the schema the deferred catalog leaves out). */
export const LOAD_TOOL_SCHEMA: ToolDefinition = {
  name: 'load_tool_schema',
  description: 'Load the full definition (input schema) of one tool from the catalog by its exact name.',
  inputSchema: stringArgument('name', 'The exact tool name from the catalog or a search result.'),
};

/** The one answer for a tool that does not exist and for a tool the caller may not use. */
export function unavailableAnswer(name: string): string {
  return `No tool named "${name}" is available.`;
}

/** A load_tool_schema answer: the definition, or the one sentence for not found and not permitted. */
export type SchemaAnswer = { found: true; definition: ToolDefinition } | { found: false; answer: string };

/**
 * What the seed's profiles with a search and `load_tool_schema` share: the searcher, the catalog's
 * tools by id with their positions, and what `load_tool_schema` answers.
 */
export abstract class SchemaLoadingProfile {
  readonly name: string;
  protected readonly search: Retriever;
  protected catalog: Catalog | undefined;
  protected byId = new Map<string, { tool: Tool; position: number }>();

  constructor(name: string, search: Retriever) {
    this.name = name;
    this.search = search;
  }

  async index(catalog: Catalog): Promise<void> {
    await this.search.index(catalog);
    this.catalog = catalog;
    this.byId = new Map(catalog.tools.map((t, i) => [t.id, { tool: t, position: i }]));
  }

  searcher(): Retriever {
    return this.search;
  }

  /** Beyond the caller's scopes, whether the caller sees the tool at this position (a role gate); default yes. */
  protected sees(_position: number, _caller: Caller): boolean {
    return true;
  }

  /**
   * What `load_tool_schema(name)` answers: the definition of a tool the caller may use, and the
   * same sentence for a name that does not exist and for one outside the caller's scopes (or
   * what it {@link sees}).
   */
  loadToolSchema(name: string, caller: Caller): SchemaAnswer {
    if (!this.catalog) throw new Error(`profile "${this.name}": used before index()`);
    const entry = this.byId.get(name);
    if (!entry || (caller.allowed && caller.allowed[entry.position] !== 1) || !this.sees(entry.position, caller))
      return { found: false, answer: unavailableAnswer(name) };
    return { found: true, definition: toolDefinition(entry.tool) };
  }
}

export class DeferredProfile extends SchemaLoadingProfile implements Profile {
  readonly searchLimit = DEFERRED_SEARCH_LIMIT;
  /** search_tools, then load_tool_schema for the tool picked, then the call. */
  readonly calls: CallProtocol = { search: 1, perFoundTool: 1, call: 'each' };
  /** The model writes the search_tools query. */
  readonly queryStyle: QueryStyle = 'keywords';

  constructor(name: string, search: Retriever = createBm25('bm25')) {
    super(name, search);
  }

  /** Each catalog tool's line of the advertisement, rendered once per catalog (by position). */
  private lines: { tools: readonly Tool[]; pieces: string[]; pinned: Uint8Array } | undefined;

  private tools(): readonly Tool[] {
    if (!this.catalog) throw new Error(`profile "${this.name}": used before index()`);
    return this.catalog.tools;
  }

  beforeSearch(caller: Caller): BeforeSearch {
    const tools = this.tools();
    const allowed = caller.allowed;
    const eager = allowedIds(tools, allowed, (t) => t.pinned);
    const b = { eager, metaTools: [SEARCH_TOOLS, LOAD_TOOL_SCHEMA] };
    // `- id: summary` for each non-pinned tool the caller may use, under a heading (none: no text)
    if (this.lines?.tools !== tools)
      this.lines = { tools, pieces: tools.map((t) => `- ${t.id}: ${t.summary}`), pinned: Uint8Array.from(tools, (t) => (t.pinned ? 1 : 0)) };
    const positions = listedPositions(allowed, this.lines.pinned);
    if (!positions.length) return { ...b, advertisement: '' };
    return withListing(b, { head: 'Tool catalog (load a schema with load_tool_schema before calling):\n', positions, pieces: this.lines.pieces, tail: '' });
  }

  afterSearch(hits: readonly Hit[]): SearchAddition {
    const lines = hits.map((h) => `- ${h.id}: ${this.byId.get(h.id)?.tool.summary ?? ''}`);
    // The model then loads the schema of the tool it picks (the top hit): one definition per search.
    const picked = hits[0] ? this.byId.get(hits[0].id)?.tool : undefined;
    return {
      form: 'metadata',
      loaded: hits.map((h) => h.id),
      text: lines.length ? lines.join('\n') : 'No matching tools.',
      ...(picked ? { definitions: [toolDefinition(picked)] } : {}),
    };
  }

  describe(): Record<string, unknown> {
    return describeWith(DEFERRED_FACTS.description, { search: { retriever: this.search.name, limit: DEFERRED_SEARCH_LIMIT } });
  }
}
