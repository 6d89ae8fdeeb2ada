/**
 * Codex's `tool_search`: which tools are searchable, the text each is indexed by, and the BM25
 * engine over them (`openai/codex` `codex-rs/core/src/tools/handlers/tool_search.rs` @01b752dc,
 * `codex-rs/core/src/tools/handlers/mcp.rs` @1dfb3660; the `bm25` crate v2.3.2, `Michael-JB/bm25`).
 */
import type { Catalog, Tool } from '../../catalog/types.ts';
import { Bm25Retriever, type Bm25Options, type DocumentText } from '../../retrievers/bm25/index.ts';
import { checkedMask } from '../../retrievers/rank.ts';
import type { Describable, Hit, Retriever, SearchContext } from '../../retrievers/types.ts';
import { isDeferrable } from '../deferral.ts';
import { describeWith } from '../facts.ts';
import { compareCodePoints } from '../../util/py-strings.ts';
import { CODEX_SEARCH_FACTS, CODEX_SEARCH_TEXT_LABEL } from './facts.ts';

/** `TOOL_SEARCH_TOOL_NAME` (`codex-rs/tools/src/tool_discovery.rs` @c209bfab). */
export const TOOL_SEARCH_TOOL_NAME = 'tool_search';
/** `TOOL_SEARCH_DEFAULT_LIMIT` (same file): hits one search returns when the model gives no `limit`. */
export const TOOL_SEARCH_DEFAULT_LIMIT = 8;

/**
 * The `bm25` crate v2.3.2 as Codex builds it (`SearchEngineBuilder::with_documents(Language::English, …)`):
 * k1 1.2, b 0.75, idf `ln(1 + (N − n + 0.5)/(n + 0.5))`, every query token occurrence counts; its
 * `DefaultTokenizer`: deunicode (approximated by NFKD folding), lowercase, UAX#29 words, the 179
 * NLTK English stop words, Snowball English (Porter2). One field of weight 1 (the search text).
 */
export const CODEX_BM25_OPTIONS: Readonly<Bm25Options> = freeze({
  params: { k1: 1.2, b: 0.75 },
  tokenizer: { splitIdentifiers: false, asciiFold: true, stopWords: 'english', stem: 'porter2', minLength: 1, segmenter: 'uax29' },
  fields: { name: 0, namespace: 0, summary: 0, description: 0, examples: 0, params: 0 },
});

function freeze(o: Bm25Options): Readonly<Bm25Options> {
  Object.freeze(o.params);
  Object.freeze(o.tokenizer);
  Object.freeze(o.fields);
  return Object.freeze(o);
}

export { CODEX_SEARCH_TEXT_LABEL } from './facts.ts';

/** `server_name` of a tool: its MCP server, else its plugin (whose MCP server it would be), else its namespace. */
export function serverNameOf(tool: Tool): string {
  return tool.server ?? tool.plugin ?? tool.namespace;
}

/**
 * The Responses-API namespace a deferred tool is loaded under (`callable_namespace`, `mcp__<server>`
 * in current upstream tests, `mcp__<server>__` in older ones). Tools of an MCP server (including one
 * a plugin ships) → `mcp__<server>`; plugin tools without a server → `plugin__<plugin>` (our
 * catalog's id prefix: upstream would name the plugin's MCP server instead, and a plugin named like
 * an MCP server must not merge with it). **[joiner unverified]**
 */
export function codexNamespaceOf(tool: Tool): string {
  if (tool.server !== undefined && tool.server !== '') return `mcp__${tool.server}`;
  if (tool.source === 'plugin') return `plugin__${tool.plugin ?? tool.namespace}`;
  return `mcp__${tool.namespace}`;
}

/**
 * `namespace_description` of a tool (the MCP server's `instructions`): the catalog's server record
 * named `tool.server` — its `instructions`, or its `description` when those are empty. A plugin tool
 * with no server record takes its plugin's description (the nearest thing our catalogs have to the
 * instructions of the plugin's MCP server). `''` when there is none.
 */
export function namespaceDescriptionOf(tool: Tool, catalog: Pick<Catalog, 'servers' | 'plugins'>): string {
  if (tool.server !== undefined) {
    const server = catalog.servers.find((s) => s.name === tool.server);
    if (server) return server.instructions.trim() !== '' ? server.instructions : server.description;
  }
  if (tool.source === 'plugin') {
    const server = catalog.servers.find((s) => s.plugin !== undefined && s.plugin === tool.plugin && s.source === 'plugin');
    if (server) return server.instructions.trim() !== '' ? server.instructions : server.description;
    const plugin = catalog.plugins.find((p) => p.name === (tool.plugin ?? tool.namespace));
    if (plugin) return plugin.description;
  }
  return '';
}

/**
 * A name with every run of underscores turned into one space, trimmed: `mcp__k8s__get_rollout_history`
 * → `mcp k8s get rollout history`. Under UAX#29 an underscore joins letters into one word, so without
 * this `get_rollout_history` is a single token and the query "rollout history" cannot reach it by name.
 */
export function underscoresToSpaces(name: string): string {
  return name.replace(/_+/g, ' ').trim();
}

/**
 * The search text of a deferred tool: `build_mcp_search_text` (`codex-rs/core/src/tools/handlers/mcp.rs`
 * @1dfb3660) with its names also split on underscores, as Codex's generic builder
 * `default_tool_search_text` (`codex-rs/tools/src/tool_search.rs` @24e666a8) does ("the full tool
 * name, the name with `_` → space"), so that `get_rollout_history` matches "rollout history". The
 * parts, joined by single spaces:
 * 1. the flattened fully qualified name (`flat_tool_name`): our tool id, `mcp__server__tool`
 *    **[joiner unverified]**, then the same with underscores as spaces ({@link underscoresToSpaces});
 * 2. the tool's `name` (upstream's `callable_name` and raw MCP `tool.name`, the same string in our
 *    catalogs), then the same with underscores as spaces;
 * 3. `server_name` ({@link serverNameOf});
 * 4. the title, 5. the description (each trimmed, left out when empty);
 * 6. `connector_name`: none in our catalogs, left out;
 * 7. `namespace_description` ({@link namespaceDescriptionOf}, trimmed, left out when empty);
 * 8. `plugin_display_names`: the tool's plugin, if any;
 * 9. the top-level `inputSchema.properties` keys, sorted.
 * Nested schema and parameter descriptions are not included (the MCP builder leaves them out). The
 * raw names stay, so an exact identifier (`create_issue`, one UAX#29 word) still matches.
 */
export function codexSearchText(tool: Tool, namespaceDescription: string): string {
  const parts = [tool.id, underscoresToSpaces(tool.id), tool.name, underscoresToSpaces(tool.name), serverNameOf(tool)];
  for (const p of [tool.title, tool.description, namespaceDescription, tool.plugin]) {
    const t = p?.trim();
    if (t) parts.push(t);
  }
  const props = tool.inputSchema?.properties;
  if (props !== null && typeof props === 'object' && !Array.isArray(props)) {
    parts.push(...Object.keys(props).sort(compareCodePoints));
  }
  return parts.join(' ');
}

/**
 * Codex's `tool_search` as a retriever over a full catalog: BM25 ({@link CODEX_BM25_OPTIONS}) over
 * the deferrable tools only, so N, df and avgdl are statistics of the deferred corpus, as in Codex,
 * whose index holds only the deferred tools. The caller's `allowed` mask (positions in the full
 * catalog) is mapped to the deferred sub-catalog; hits are full-catalog ids, at most
 * `min(k, limit)`.
 *
 * Ties: upstream returns equal scores in random order (candidates pass through a `HashSet` with a
 * per-process `RandomState`); we break them with the project's one tie-break instead
 * (`rankStable`: score descending, then tool id ascending). Scores are float64 (the crate: f32).
 */
export class CodexToolSearch implements Retriever, Describable {
  readonly name: string;
  readonly limit: number;
  private readonly inner: Bm25Retriever;
  private built = false;
  /** Each indexed tool's `namespace_description`, filled by `index` before the BM25 index is built. */
  private nsDescription = new Map<Tool, string>();
  /** subPosition[i] = position of full-catalog tool i in the sub-catalog, −1 when not indexed. */
  private subPosition = new Int32Array(0);
  private subSize = 0;
  private fullSize = 0;
  /** The caller mask mapped onto the sub-catalog, per mask object (a policy hands out one mask per scope set). */
  private subMasks = new WeakMap<Uint8Array, Uint8Array>();
  private readonly keep: (tool: Tool) => boolean;

  /** `keep` picks the searchable tools (default: the shared deferral split, {@link isDeferrable}, without exceptions). */
  constructor(name: string, limit: number = TOOL_SEARCH_DEFAULT_LIMIT, keep: (tool: Tool) => boolean = (tool) => isDeferrable(tool)) {
    if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError(`tool_search limit must be a whole number ≥ 1 (got ${limit})`);
    this.name = name;
    this.limit = limit;
    this.keep = keep;
    const document: DocumentText = {
      label: CODEX_SEARCH_TEXT_LABEL,
      texts: (tool) => [codexSearchText(tool, this.nsDescription.get(tool) ?? '')],
    };
    this.inner = new Bm25Retriever(name, CODEX_BM25_OPTIONS, document);
  }

  async index(catalog: Catalog): Promise<void> {
    const tools = catalog.tools;
    const subPosition = new Int32Array(tools.length).fill(-1);
    const sub: Tool[] = [];
    const nsDescription = new Map<Tool, string>();
    const cache = new Map<string, string>();
    tools.forEach((t, i) => {
      if (!this.keep(t)) return;
      subPosition[i] = sub.length;
      sub.push(t);
      const key = `${t.source}\0${t.server ?? ''}\0${t.plugin ?? ''}\0${t.namespace}`;
      let d = cache.get(key);
      if (d === undefined) cache.set(key, (d = namespaceDescriptionOf(t, catalog)));
      nsDescription.set(t, d);
    });
    this.built = false;
    this.nsDescription = nsDescription;
    await this.inner.index({ tools: sub, skills: [], servers: catalog.servers, plugins: catalog.plugins });
    this.nsDescription = new Map();
    this.subPosition = subPosition;
    this.subSize = sub.length;
    this.fullSize = tools.length;
    this.subMasks = new WeakMap();
    this.built = true;
  }

  async search(request: string, context: SearchContext): Promise<Hit[]> {
    if (!this.built) throw new Error(`retriever "${this.name}": search() called before index()`);
    const allowed = checkedMask(this.name, context.allowed, this.fullSize);
    const k = Math.min(Math.floor(context.k), this.limit);
    if (!(k > 0)) return [];
    let subAllowed: Uint8Array | undefined;
    if (allowed !== undefined) {
      // O(catalog) once per mask object, not per request.
      subAllowed = this.subMasks.get(allowed);
      if (subAllowed === undefined) {
        subAllowed = new Uint8Array(this.subSize);
        const pos = this.subPosition;
        for (let i = 0; i < pos.length; i++) if (pos[i]! >= 0 && allowed[i] === 1) subAllowed[pos[i]!] = 1;
        this.subMasks.set(allowed, subAllowed);
      }
    }
    // Codex trims the query (an empty one is an error to the model; here it finds nothing).
    return this.inner.search(request.trim(), { ...context, k, allowed: subAllowed });
  }

  /** Statistics of the deferred index (tools, terms, postings, avgdl). */
  stats(): { tools: number; terms: number; postings: number; avgdl: number } {
    return this.inner.stats();
  }

  describe(): Record<string, unknown> {
    return describeWith(CODEX_SEARCH_FACTS.description, { name: this.name, limit: this.limit, bm25: this.inner.describe() });
  }
}
