/**
 * `claude-code`: an emulation of Claude Code's client-side tool search (`ToolSearch`), from
 * /work/shared/docs/harness-profiles.md §(c) C1. Sources: the official page
 * `code.claude.com/docs/en/agent-sdk/tool-search` (activation values, deferral, `max_results` 5,
 * 10,000-tool limit, 2 KB cuts), translated mirrors of the `code.claude.com` MCP page, settings-schema mirrors; the keyword scoring comes from third-party analyses of Claude Code's bundled source
 * (`searchToolsWithKeywords` / `parseToolName` in `ToolSearchTool.ts`) and is **unofficial**.
 *
 * Activation (`ENABLE_TOOL_SEARCH`, option `toolSearch`):
 *   - `'on'` (default; the documented behaviour when the variable is unset): deferrable tools are deferred.
 *     History: around v2.1.7 (Jan 2026) the default was `auto` at 10% [dated from third-party posts];
 *     `claude-code-auto` (`{auto: 10}`) emulates that release.
 *   - `{auto: N}`: on iff the deferrable definitions' tokens ≥ N% of the context window, else
 *     everything loads up front (`searcher()` is `null`). Upstream's token counter is unknown:
 *     **pinned** to Σ ceil(chars / 4) over the JSON of each deferrable definition
 *     `{name, description, input_schema}` (description cut at 2 KB), chars = Unicode code points.
 *   - `'off'`: everything eager.
 * Deferrable = MCP and plugin tools, minus `alwaysLoad` (our catalogs carry no such flag: option
 * `alwaysLoad` lists namespaces or tool ids). Core tools always load and are not counted.
 *
 * The 10,000-tool ceiling: a request carries at most `ceiling` deferred definitions. When the
 * deferrable tools the caller may see exceed it, a **Backpack-pinned** prefilter (upstream has
 * none; the API would refuse the request) keeps (1) the tools the caller's role sees (the role
 * map's one visibility rule: its namespaces and tool patterns, plus `always`), then, if still too
 * many, (2) whole namespaces (the role's part of each) in the order a BM25 over namespace
 * documents ranks them for the request (the namespace router's documents and options;
 * unmatched namespaces follow by name), stopping at the first one that would overflow. Only the
 * admitted tools are searched (and could be `select:`ed).
 *
 * Exposure: eager = core + alwaysLoad tools; one meta tool `ToolSearch`; the advertisement is the
 * `<available-deferred-tools>` block (one id per line) plus the MCP server instructions (cut at 2 KB).
 * A search returns `tool_reference` blocks; the referenced definitions (descriptions cut at 2 KB,
 * {@link loadedDefinition}) travel in the next request.
 */
import { roleMask, type RoleMap } from '../catalog/roles.ts';
import type { Catalog, Tool } from '../catalog/types.ts';
import { Bm25Retriever } from '../retrievers/bm25/index.ts';
import { NAMESPACE_DEFAULT_OPTIONS, namespaceDocuments, type NamespaceGroup } from '../retrievers/namespace.ts';
import { checkedMask, compareHits } from '../retrievers/rank.ts';
import type { Describable, Hit, Retriever, SearchContext } from '../retrievers/types.ts';
import { charCount, cutToBytes } from '../catalog/unicode.ts';
import { DEFAULT_CONTEXT_WINDOW, type BeforeSearch, type Caller, type Profile, type ProfileOptions, type SearchAddition, type ToolDefinition, type CallProtocol, type QueryStyle } from './types.ts';

// ─── Constants ───────────────────────────────────────────────────────────────────────────────────

/** `ENABLE_TOOL_SEARCH`: on, off, or `auto:N` (on iff deferrable tokens ≥ N% of the window). */
export type ToolSearchMode = 'on' | 'off' | { auto: number };

/** The pinned values, with the doc's sources in {@link ClaudeCodeProfile.describe}. */
export const CLAUDE_CODE_DEFAULTS = Object.freeze({
  /** unset `ENABLE_TOOL_SEARCH` = on (official docs) */
  toolSearch: 'on' as ToolSearchMode,
  /** `auto` without N (official docs) */
  autoPercent: 10,
  /** `max_results` default (official docs: "up to five") */
  maxResults: 5,
  /** tools per request (official docs) */
  ceiling: 10_000,
  /** tool descriptions and server instructions are cut at 2 KB each (official docs); UTF-8 bytes here */
  cutBytes: 2048,
});

/** Per-term weights of the keyword scoring (reverse-engineered, **unofficial**). */
export const KEYWORD_WEIGHTS = Object.freeze({
  /** a name part equals the term */
  partExact: 10,
  partExactMcp: 12,
  /** otherwise: a name part contains the term */
  partContains: 5,
  partContainsMcp: 6,
  /** word-boundary match in the curated `searchHint` (none in our catalogs: never fires) */
  searchHint: 4,
  /** word-boundary match in the (lowercased) description */
  description: 2,
});
export type KeywordWeights = typeof KEYWORD_WEIGHTS;

/** Scores of the fast paths (they bypass the keyword scoring). */
export const FAST_PATH_SCORE = 1;

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

export interface ClaudeCodeOptions {
  /** `ENABLE_TOOL_SEARCH`. Default `'on'`. */
  toolSearch?: ToolSearchMode;
  /** Namespaces or tool ids that always load (server `alwaysLoad` / `_meta["anthropic/alwaysLoad"]`). Default none. */
  alwaysLoad?: readonly string[];
  /** Deferred definitions one request may carry. Default 10,000. */
  ceiling?: number;
  /** `max_results` default, the profile's `searchLimit`. Default 5. */
  maxResults?: number;
}

// ─── Pure text pieces ────────────────────────────────────────────────────────────────────────────

/**
 * The searchable parts of a tool id: the `mcp__` prefix dropped (`plugin__` is kept, so `plugin`
 * is a part, as in Claude Code's `mcp__plugin_…` names), camelCase split (`aB` → `a B`, `a1B` →
 * `a1 B`, `ABc` → `A Bc`), lowercased, then maximal runs of letters and digits — so `__`, `_`, `-`
 * and every other character separate parts. Distinct, in first-appearance order.
 * `mcp__github__createPullRequest` → `github, create, pull, request`.
 */
export function nameParts(id: string): string[] {
  const body = id.startsWith('mcp__') ? id.slice(5) : id;
  // The ASCII expressions give the same parts as the Unicode ones on ASCII ids, faster.
  const spaced = ASCII.test(body)
    ? body.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/([A-Z])([A-Z][a-z])/g, '$1 $2').toLowerCase().match(/[a-z0-9]+/g)
    : body.replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2').replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2').toLowerCase().match(/[\p{L}\p{N}]+/gu);
  return spaced ? [...new Set(spaced)] : [];
}

const ASCII = /^[\x00-\x7f]*$/;

const WORD_RUN = /[a-z0-9_]+/g;
const WORD_TERM = /^[a-z0-9_]+$/;

/** The distinct maximal `\w` runs (`[a-z0-9_]`) of an already lowercased text: what `\bterm\b` can match whole. */
export function descriptionWords(lowered: string): string[] {
  return [...new Set(lowered.match(WORD_RUN) ?? [])];
}

/** `\bterm\b` (term escaped, no flags), the word-boundary test of the scoring. */
export function termPattern(term: string): RegExp {
  return new RegExp(`\\b${term.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')}\\b`);
}

/** A parsed `ToolSearch` query. */
export type ParsedQuery =
  | { kind: 'empty' }
  /** `select:A,B`: names lowercased and trimmed, empty ones dropped, order kept */
  | { kind: 'select'; names: string[] }
  /**
   * anything else: `text` = the trimmed lowercased query (for the exact-name and `mcp__` prefix
   * fast paths); `terms` = the scoring terms (required ones first, `+` removed, then the others,
   * duplicates kept); `required` = the `+term`s (a lone `+` is an ordinary term).
   */
  | { kind: 'keywords'; text: string; terms: string[]; required: string[] };

/** Trim; `select:` (case-insensitive) → names; else lowercase, split on whitespace, drop empty terms. */
export function parseQuery(query: string): ParsedQuery {
  const trimmed = query.trim();
  if (trimmed === '') return { kind: 'empty' };
  const select = /^select:(.+)$/is.exec(trimmed);
  if (select) {
    const names = select[1]!.split(',').map((s) => s.trim().toLowerCase()).filter((s) => s !== '');
    if (names.length) return { kind: 'select', names };
  }
  const text = trimmed.toLowerCase();
  const required: string[] = [];
  const optional: string[] = [];
  for (const term of text.split(/\s+/)) {
    if (term === '') continue;
    if (term.startsWith('+') && term.length > 1) required.push(term.slice(1));
    else optional.push(term);
  }
  return { kind: 'keywords', text, terms: [...required, ...optional], required };
}

/** One tool as the keyword scoring sees it. */
export interface ScoringTool {
  /** {@link nameParts} of its id */
  parts: readonly string[];
  /** MCP weights: every non-core tool (plugin tools reach Claude Code through plugin MCP servers) */
  isMcp: boolean;
  /** lowercased description (the one the harness holds: cut at 2 KB) */
  description: string;
  /** lowercased curated `searchHint`; our catalogs have none */
  searchHint?: string;
}

/** True if the term is in the name: some part contains it (or equals it). What `+term` requires. */
export function nameHasTerm(parts: readonly string[], term: string): boolean {
  return parts.some((p) => p.includes(term));
}

/**
 * The keyword score of one tool (the reference kernel; the searcher computes the same sum from
 * inverted maps). Per term: +10 (+12 MCP) if a name part equals it, else +5 (+6 MCP) if a part
 * contains it; +4 if `\bterm\b` matches the search hint; +2 if it matches the description.
 * Duplicate terms count twice, as upstream iterates the term list.
 */
export function keywordScore(tool: ScoringTool, terms: readonly string[], w: KeywordWeights = KEYWORD_WEIGHTS): number {
  let score = 0;
  for (const term of terms) {
    if (tool.parts.includes(term)) score += tool.isMcp ? w.partExactMcp : w.partExact;
    else if (nameHasTerm(tool.parts, term)) score += tool.isMcp ? w.partContainsMcp : w.partContains;
    const pattern = termPattern(term);
    if (tool.searchHint && pattern.test(tool.searchHint)) score += w.searchHint;
    if (pattern.test(tool.description)) score += w.description;
  }
  return score;
}

// ─── Exposure pieces ─────────────────────────────────────────────────────────────────────────────

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

/** The `<available-deferred-tools>` block, one id per line; `''` for none. */
export function deferredToolsBlock(ids: readonly string[]): string {
  return ids.length ? `<available-deferred-tools>\n${ids.join('\n')}\n</available-deferred-tools>` : '';
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

/**
 * Whole namespaces admitted in the given order while the running total stays ≤ `ceiling`,
 * stopping at the first that would overflow (namespaces with no tools are skipped).
 */
export function admitNamespaces(ordered: ReadonlyArray<{ name: string; count: number }>, ceiling: number): string[] {
  const out: string[] = [];
  let total = 0;
  for (const { name, count } of ordered) {
    if (count === 0) continue;
    if (total + count > ceiling) break;
    total += count;
    out.push(name);
  }
  return out;
}

// ─── Options ─────────────────────────────────────────────────────────────────────────────────────

interface Resolved {
  toolSearch: ToolSearchMode;
  alwaysLoad: string[];
  ceiling: number;
  maxResults: number;
  contextWindow: number;
  roles: RoleMap | undefined;
}

function resolve(options: ProfileOptions & ClaudeCodeOptions): Resolved {
  const mode = options.toolSearch ?? CLAUDE_CODE_DEFAULTS.toolSearch;
  if (mode !== 'on' && mode !== 'off') {
    const n = (mode as { auto?: unknown })?.auto;
    if (typeof n !== 'number' || !Number.isFinite(n) || n < 0 || n > 100) throw new RangeError(`claude-code toolSearch must be 'on', 'off' or {auto: N} with 0 ≤ N ≤ 100 (got ${JSON.stringify(mode)})`);
  }
  const ceiling = options.ceiling ?? CLAUDE_CODE_DEFAULTS.ceiling;
  if (!(Number.isInteger(ceiling) && ceiling >= 1)) throw new RangeError(`claude-code ceiling must be an integer ≥ 1 (got ${ceiling})`);
  const maxResults = options.maxResults ?? CLAUDE_CODE_DEFAULTS.maxResults;
  if (!(Number.isInteger(maxResults) && maxResults >= 1)) throw new RangeError(`claude-code maxResults must be an integer ≥ 1 (got ${maxResults})`);
  const contextWindow = options.contextWindow ?? DEFAULT_CONTEXT_WINDOW;
  if (!(Number.isFinite(contextWindow) && contextWindow > 0)) throw new RangeError(`contextWindow must be a positive number (got ${contextWindow})`);
  return {
    toolSearch: typeof mode === 'string' ? mode : { auto: mode.auto },
    alwaysLoad: [...(options.alwaysLoad ?? [])],
    ceiling,
    maxResults,
    contextWindow,
    roles: options.roles,
  };
}

/** Whether a tool is deferrable: not core, and neither its namespace nor its id is in `alwaysLoad`. */
export function isDeferrable(tool: Tool, alwaysLoad: ReadonlySet<string>): boolean {
  return tool.source !== 'core' && !alwaysLoad.has(tool.namespace) && !alwaysLoad.has(tool.id);
}

// ─── The searcher ────────────────────────────────────────────────────────────────────────────────

/** What the ceiling prefilter did on the last search. */
export interface PrefilterTrace {
  /** deferrable tools the caller may see */
  visible: number;
  /** `visible` > ceiling */
  applied: boolean;
  /** the role step kept only the tools the caller's role sees (and `always`) */
  byRole: boolean;
  /** the namespace step ran; `namespaces` are the admitted ones in admission order */
  byNamespace: boolean;
  namespaces: string[];
  /** deferred tools the search could see */
  admitted: number;
}

const EMPTY_U32 = new Uint32Array(0);
const PART_CACHE_LIMIT = 4096;

function toU32Map(m: Map<string, number[]>): Map<string, Uint32Array> {
  const out = new Map<string, Uint32Array>();
  for (const [k, v] of m) out.set(k, Uint32Array.from(v));
  return out;
}

/**
 * Claude Code's `ToolSearch` as a retriever over the deferred tools: fast paths (exact id or name →
 * that tool; `select:A,B` → those, in the given order; `mcp__…` prefix → the tools under it),
 * then the keyword scoring ({@link keywordScore}) with `+term` filters, score > 0, `rankStable`,
 * at most `k`. Built on inverted maps (name part → tools, distinct parts for containment,
 * description word → tools), so a search touches only the tools its terms reach.
 */
export class ClaudeCodeToolSearch implements Retriever, Describable {
  readonly name: string;
  private readonly o: Resolved;
  private catalog: Catalog | undefined;
  private n = 0;
  private ids: string[] = [];
  /** 1 = deferrable */
  private deferred = new Uint8Array(0);
  private isMcp = new Uint8Array(0);
  private idRank = new Uint32Array(0);
  private byId = new Map<string, number>();
  private byName = new Map<string, number[]>();
  private partTools = new Map<string, Uint32Array>();
  private partList: string[] = [];
  private containing = new Map<string, string[]>();
  private wordTools = new Map<string, Uint32Array>();
  private descLower: string[] = [];
  private deferredPositions = new Uint32Array(0);
  // Namespaces of the deferrable tools.
  private groups: NamespaceGroup[] = [];
  private groupOfTool = new Int32Array(0);
  private groupIndex = new Map<string, number>();
  private nsBm25: Bm25Retriever;
  private visibleCache = new WeakMap<Uint8Array, { counts: Uint32Array; total: number; mask: Uint8Array }>();
  private allVisible: { counts: Uint32Array; total: number; mask: Uint8Array } | undefined;
  // What each role sees (null: a role the map does not know), and the role step per caller mask and role.
  private roleMasks = new Map<string, Uint8Array | null>();
  private roleStepCache = new WeakMap<object, Map<string, { counts: Uint32Array; total: number; mask: Uint8Array }>>();
  private readonly noMask = {};
  // Scratch.
  private score = new Int32Array(0);
  private reqCount = new Uint16Array(0);
  private stamp = new Uint32Array(0);
  private serial = 0;
  private touched: number[] = [];
  private trace: PrefilterTrace = { visible: 0, applied: false, byRole: false, byNamespace: false, namespaces: [], admitted: 0 };

  constructor(name: string, options: ProfileOptions & ClaudeCodeOptions = {}) {
    this.name = name;
    this.o = resolve(options);
    this.nsBm25 = new Bm25Retriever(`${name}:namespaces`, NAMESPACE_DEFAULT_OPTIONS.namespaces);
  }

  get ceiling(): number {
    return this.o.ceiling;
  }

  describe(): Record<string, unknown> {
    return {
      retriever: 'claude-code-tool-search',
      name: this.name,
      source: 'reverse-engineered searchToolsWithKeywords (Claude Code ToolSearchTool.ts) [unofficial; may drift]',
      searched: 'deferred tools only (MCP and plugin tools not in alwaysLoad), under the caller mask and the ceiling prefilter',
      fastPaths: [
        'exact: the trimmed query equals a tool id (else a tool name; several same-named tools: all of them), case-insensitive; deferred first, then eager tools → only those',
        'select:A,B — each name resolved like exact; order kept (score = found - index)',
        'mcp__ prefix (query longer than 5): deferred tools whose id starts with it',
      ],
      fastPathScore: FAST_PATH_SCORE,
      terms: 'query lowercased, split on whitespace, empty dropped; +term (length > 1) is required in the name (a name part contains it); scoring terms = required then optional, duplicates kept',
      nameParts: 'id without mcp__ (plugin__ kept), camelCase split, lowercased, maximal letter/digit runs (__, _, - and other characters separate); upstream splits MCP names on __ and _ only',
      weights: { ...KEYWORD_WEIGHTS },
      searchHint: 'none in our catalogs: +4 never fires',
      description: 'the description cut at 2 KB (UTF-8), lowercased; match = /\\bterm\\b/ (JS, ASCII \\w)',
      fullNameFallback:
        "upstream +3 when the space-joined name contains the term and the running score is 0: omitted (unreachable upstream for whitespace-free terms; with this finer split a term spanning a camelCase or '-' boundary, e.g. 'createissue', scores 0 by name here)",
      requiredTerms: 'name only (the prompt\'s wording); one reimplementation also accepts a description or hint match [unverified]',
      returns: 'score > 0, rankStable (score desc, id asc), at most k; no max_results cap (one reimplementation caps at 20 [unverified])',
      ceiling: this.o.ceiling,
      prefilter: this.prefilterDescription(),
    };
  }

  prefilterDescription(): string {
    return (
      `Backpack-pinned: when the deferrable tools the caller may see exceed ${this.o.ceiling}, keep the tools the caller's role sees (its namespaces and tool patterns, plus roles.always; if the role map knows the role); ` +
      'if still over, rank namespaces (the role\'s part of each) by BM25 over namespace documents (the namespace router\'s documents and options, over deferrable tools) for the request, unmatched ones after by name, ' +
      'and admit whole namespaces in that order, stopping at the first that would overflow'
    );
  }

  /** What the ceiling prefilter did on the last search. */
  lastPrefilter(): PrefilterTrace {
    return { ...this.trace, namespaces: [...this.trace.namespaces] };
  }

  async index(catalog: Catalog): Promise<void> {
    if (catalog === this.catalog) return;
    this.catalog = undefined;
    const tools = catalog.tools;
    const n = tools.length;
    const always = new Set(this.o.alwaysLoad);
    this.n = n;
    this.ids = tools.map((t) => t.id);
    this.deferred = new Uint8Array(n);
    this.isMcp = new Uint8Array(n);
    this.byId = new Map();
    this.byName = new Map();
    const partTools = new Map<string, number[]>();
    const wordTools = new Map<string, number[]>();
    this.descLower = new Array<string>(n).fill('');
    const deferredPositions: number[] = [];
    tools.forEach((t, p) => {
      const idKey = t.id.toLowerCase();
      if (!this.byId.has(idKey)) this.byId.set(idKey, p);
      const nameKey = t.name.toLowerCase();
      const same = this.byName.get(nameKey);
      if (same) same.push(p);
      else this.byName.set(nameKey, [p]);
      if (!isDeferrable(t, always)) return;
      this.deferred[p] = 1;
      deferredPositions.push(p);
      this.isMcp[p] = t.source !== 'core' ? 1 : 0;
      for (const part of nameParts(t.id)) {
        const l = partTools.get(part);
        if (l) l.push(p);
        else partTools.set(part, [p]);
      }
      const desc = cut2k(t.description).toLowerCase();
      this.descLower[p] = desc;
      for (const w of desc.match(WORD_RUN) ?? []) {
        const l = wordTools.get(w);
        if (!l) wordTools.set(w, [p]);
        else if (l[l.length - 1] !== p) l.push(p); // distinct tools per word
      }
    });
    this.deferredPositions = Uint32Array.from(deferredPositions);
    this.partTools = toU32Map(partTools);
    this.partList = [...partTools.keys()];
    this.containing = new Map();
    this.wordTools = toU32Map(wordTools);
    const order = this.ids.map((_, i) => i).sort((a, b) => (this.ids[a]! < this.ids[b]! ? -1 : this.ids[a]! > this.ids[b]! ? 1 : 0));
    this.idRank = new Uint32Array(n);
    order.forEach((p, r) => (this.idRank[p] = r));

    // Namespaces of the deferrable tools, and their BM25 documents.
    const groups = new Map<string, number[]>();
    for (const p of deferredPositions) {
      const ns = tools[p]!.namespace;
      const g = groups.get(ns);
      if (g) g.push(p);
      else groups.set(ns, [p]);
    }
    this.groups = [...groups].map(([name, positions]) => ({ name, positions }));
    this.groupIndex = new Map(this.groups.map((g, j) => [g.name, j]));
    this.groupOfTool = new Int32Array(n).fill(-1);
    this.groups.forEach((g, j) => g.positions.forEach((p) => (this.groupOfTool[p] = j)));
    await this.nsBm25.index({ tools: namespaceDocuments(catalog, this.groups), skills: [], servers: [], plugins: [] });

    this.visibleCache = new WeakMap();
    this.allVisible = undefined;
    this.roleMasks = new Map();
    this.roleStepCache = new WeakMap();
    this.score = new Int32Array(n);
    this.reqCount = new Uint16Array(n);
    this.stamp = new Uint32Array(n);
    this.serial = 0;
    this.touched = [];
    this.trace = { visible: 0, applied: false, byRole: false, byNamespace: false, namespaces: [], admitted: 0 };
    this.catalog = catalog;
  }

  /** Deferrable tools the mask lets through: per-namespace counts, total, and the mask itself (cached per mask object). */
  private visible(allowed: Uint8Array | undefined): { counts: Uint32Array; total: number; mask: Uint8Array } {
    const cached = allowed ? this.visibleCache.get(allowed) : this.allVisible;
    if (cached) return cached;
    const counts = new Uint32Array(this.groups.length);
    const mask = new Uint8Array(this.n);
    let total = 0;
    for (const p of this.deferredPositions) {
      if (allowed && allowed[p] !== 1) continue;
      mask[p] = 1;
      counts[this.groupOfTool[p]!]!++;
      total++;
    }
    const v = { counts, total, mask };
    if (allowed) this.visibleCache.set(allowed, v);
    else this.allVisible = v;
    return v;
  }

  /** Request-independent part of the prefilter: the tools the caller's role sees (`always` included), when the role map knows the role. */
  private roleVisible(role: string | undefined): Uint8Array | undefined {
    const roles = this.o.roles;
    if (role === undefined || !roles || !this.catalog) return undefined;
    let m = this.roleMasks.get(role);
    if (m === undefined) {
      m = roleMask(roles, role, this.catalog.tools) ?? null;
      this.roleMasks.set(role, m);
    }
    return m ?? undefined;
  }

  /**
   * The deferred tools a request may reach: mask ∩ deferrable ∩ the ceiling prefilter, whose
   * namespace step ranks namespaces for `request` by the namespace BM25.
   */
  async admitted(allowed: Uint8Array | undefined, role: string | undefined, request: string): Promise<{ mask: Uint8Array; trace: PrefilterTrace }> {
    const step = this.roleStep(allowed, role);
    if (step.total <= this.o.ceiling) return this.finish(step, undefined);
    const nsAllowed = Uint8Array.from(step.counts, (c) => (c > 0 ? 1 : 0));
    const ranking = await this.nsBm25.search(request, { k: Math.max(1, this.groups.length), allowed: nsAllowed });
    const ordered = ranking.map((h) => this.groupIndex.get(h.id)!);
    const seen = new Set(ordered);
    const rest = this.groups.map((_, j) => j).filter((j) => !seen.has(j) && step.counts[j]! > 0);
    rest.sort((a, b) => compareHits({ id: this.groups[a]!.name, score: 0 }, { id: this.groups[b]!.name, score: 0 }));
    return this.finish(step, [...ordered, ...rest]);
  }

  /**
   * The deferred tools the advertisement names (before any request): the same prefilter, with the
   * namespace step taking namespaces in catalog order (there is no request to rank them by).
   */
  advertised(allowed: Uint8Array | undefined, role: string | undefined): { mask: Uint8Array; trace: PrefilterTrace } {
    if (!this.catalog) throw new Error(`retriever "${this.name}": used before index()`);
    checkedMask(this.name, allowed, this.n);
    const step = this.roleStep(allowed, role);
    return this.finish(step, step.total <= this.o.ceiling ? undefined : this.groups.map((_, j) => j));
  }

  /** Visible deferrable tools per namespace (and their mask), after the role step when the ceiling is exceeded. */
  private roleStep(allowed: Uint8Array | undefined, role: string | undefined) {
    const v = this.visible(allowed);
    const trace: PrefilterTrace = { visible: v.total, applied: v.total > this.o.ceiling, byRole: false, byNamespace: false, namespaces: [], admitted: v.total };
    const sees = trace.applied ? this.roleVisible(role) : undefined;
    if (!sees) return { v, trace, counts: Uint32Array.from(v.counts), total: v.total, mask: v.mask };
    trace.byRole = true;
    const key = allowed ?? this.noMask;
    let perRole = this.roleStepCache.get(key);
    if (!perRole) {
      perRole = new Map();
      this.roleStepCache.set(key, perRole);
    }
    let step = perRole.get(role!);
    if (!step) {
      const counts = new Uint32Array(this.groups.length);
      const mask = new Uint8Array(this.n);
      let total = 0;
      for (const p of this.deferredPositions) {
        if (v.mask[p] !== 1 || sees[p] !== 1) continue;
        mask[p] = 1;
        counts[this.groupOfTool[p]!]!++;
        total++;
      }
      step = { counts, total, mask };
      perRole.set(role!, step);
    }
    return { v, trace, counts: Uint32Array.from(step.counts), total: step.total, mask: step.mask };
  }

  /** The admitted mask: the role step's tools, or (`ordered` given) whole namespaces of it in that order up to the ceiling. */
  private finish(step: ReturnType<ClaudeCodeToolSearch['roleStep']>, ordered: number[] | undefined): { mask: Uint8Array; trace: PrefilterTrace } {
    const { v, trace, counts, mask: stepMask } = step;
    if (!trace.applied) return { mask: v.mask, trace };
    let keep: number[];
    if (ordered === undefined) keep = this.groups.map((_, j) => j).filter((j) => counts[j]! > 0);
    else {
      trace.byNamespace = true;
      trace.namespaces = admitNamespaces(ordered.map((j) => ({ name: this.groups[j]!.name, count: counts[j]! })), this.o.ceiling);
      keep = trace.namespaces.map((nm) => this.groupIndex.get(nm)!);
    }
    const mask = new Uint8Array(this.n);
    let total = 0;
    for (const j of keep) {
      for (const p of this.groups[j]!.positions) if (stepMask[p] === 1) mask[p] = 1;
      total += counts[j]!;
    }
    trace.admitted = total;
    return { mask, trace };
  }

  async search(request: string, context: SearchContext): Promise<Hit[]> {
    if (!this.catalog) throw new Error(`retriever "${this.name}": search() called before index()`);
    const allowed = checkedMask(this.name, context.allowed, this.n);
    const k = Math.floor(context.k);
    const { mask: cand, trace } = await this.admitted(allowed, context.role, request);
    this.trace = trace;
    if (!(k > 0)) return [];
    const eagerOk = (p: number): boolean => this.deferred[p] === 0 && (allowed === undefined || allowed[p] === 1);
    const q = parseQuery(request);
    if (q.kind === 'empty') return [];
    if (q.kind === 'select') {
      const found: number[] = [];
      for (const nm of q.names) for (const p of this.resolveName(nm, cand, eagerOk)) if (!found.includes(p)) found.push(p);
      return this.fastHits(found.slice(0, k), true);
    }
    const exact = this.resolveName(q.text, cand, eagerOk);
    if (exact.length) return this.fastHits(exact.slice(0, k), false);
    if (q.text.startsWith('mcp__') && q.text.length > 5) {
      const prefixed: number[] = [];
      for (const p of this.deferredPositions) if (cand[p] === 1 && this.ids[p]!.toLowerCase().startsWith(q.text)) prefixed.push(p);
      if (prefixed.length) return this.topK(prefixed, () => FAST_PATH_SCORE, k);
    }
    return this.keywords(q.terms, q.required, cand, k);
  }

  /** Exact id, else exact name (all same-named tools): deferred (admitted) first, then eager tools the caller may see. */
  private resolveName(lowered: string, cand: Uint8Array, eagerOk: (p: number) => boolean): number[] {
    const byId = this.byId.get(lowered);
    if (byId !== undefined && (cand[byId] === 1 || eagerOk(byId))) return [byId];
    const named = this.byName.get(lowered) ?? [];
    const deferred = named.filter((p) => cand[p] === 1);
    if (deferred.length) return deferred;
    return named.filter(eagerOk);
  }

  private fastHits(positions: readonly number[], keepOrder: boolean): Hit[] {
    const hits = positions.map((p, i) => ({ id: this.ids[p]!, score: keepOrder ? positions.length - i : FAST_PATH_SCORE }));
    return hits.sort(compareHits);
  }

  /** Distinct name parts strictly containing `term` (cached). */
  private partsContaining(term: string): string[] {
    let parts = this.containing.get(term);
    if (!parts) {
      parts = this.partList.filter((p) => p !== term && p.includes(term));
      if (this.containing.size >= PART_CACHE_LIMIT) this.containing.clear();
      this.containing.set(term, parts);
    }
    return parts;
  }

  /** Positions (deferrable) whose description matches `\bterm\b`. */
  private descriptionMatches(term: string, cand: Uint8Array): Iterable<number> {
    if (WORD_TERM.test(term)) return this.wordTools.get(term) ?? EMPTY_U32;
    // A term with other characters: every maximal \w run of it must be a description word; verify with the regex.
    const runs = term.match(WORD_RUN);
    let base: ArrayLike<number> = this.deferredPositions;
    if (runs) {
      for (const r of runs) {
        const l = this.wordTools.get(r) ?? EMPTY_U32;
        if (l.length < base.length) base = l;
      }
    }
    const pattern = termPattern(term);
    const out: number[] = [];
    for (let i = 0; i < base.length; i++) {
      const p = base[i]!;
      if (cand[p] === 1 && pattern.test(this.descLower[p]!)) out.push(p);
    }
    return out;
  }

  private keywords(terms: readonly string[], required: readonly string[], cand: Uint8Array, k: number): Hit[] {
    if (!terms.length) return [];
    const w = KEYWORD_WEIGHTS;
    const { score, stamp, touched, isMcp, reqCount } = this;
    const add = (p: number, s: number) => {
      if (score[p] === 0) touched.push(p);
      score[p]! += s;
    };
    terms.forEach((term, i) => {
      const isRequired = i < required.length;
      const s = ++this.serial;
      for (const p of this.partTools.get(term) ?? EMPTY_U32) {
        if (cand[p] !== 1) continue;
        add(p, isMcp[p] ? w.partExactMcp : w.partExact);
        stamp[p] = s;
        if (isRequired) reqCount[p]!++;
      }
      for (const part of this.partsContaining(term)) {
        for (const p of this.partTools.get(part)!) {
          if (cand[p] !== 1 || stamp[p] === s) continue;
          add(p, isMcp[p] ? w.partContainsMcp : w.partContains);
          stamp[p] = s;
          if (isRequired) reqCount[p]!++;
        }
      }
      // searchHint: none in our catalogs (w.searchHint never fires).
      for (const p of this.descriptionMatches(term, cand)) if (cand[p] === 1) add(p, w.description);
    });
    const kept: number[] = [];
    for (const p of touched) if (reqCount[p] === required.length && score[p]! > 0) kept.push(p);
    const hits = this.topK(kept, (p) => score[p]!, k);
    for (const p of touched) {
      score[p] = 0;
      reqCount[p] = 0;
    }
    touched.length = 0;
    return hits;
  }

  /** The best `k` positions by (score desc, id asc), as hits. */
  private topK(positions: readonly number[], scoreOf: (p: number) => number, k: number): Hit[] {
    const { idRank } = this;
    const better = (a: number, b: number) => {
      const sa = scoreOf(a);
      const sb = scoreOf(b);
      return sa !== sb ? sa > sb : idRank[a]! < idRank[b]!;
    };
    const best: number[] = [];
    for (const p of positions) {
      if (best.length === k && !better(p, best[k - 1]!)) continue;
      let i = best.length === k ? k - 1 : best.length;
      if (best.length < k) best.push(p);
      while (i > 0 && better(p, best[i - 1]!)) {
        best[i] = best[i - 1]!;
        i--;
      }
      best[i] = p;
    }
    return best.map((p) => ({ id: this.ids[p]!, score: scoreOf(p) }));
  }
}

/** The `ToolSearch` retriever alone (the profile builds one). */
export function createClaudeCodeToolSearch(name: string, options: ProfileOptions & ClaudeCodeOptions = {}): ClaudeCodeToolSearch {
  return new ClaudeCodeToolSearch(name, options);
}

// ─── The profile ─────────────────────────────────────────────────────────────────────────────────

export class ClaudeCodeProfile implements Profile {
  readonly name: string;
  readonly searchLimit: number;
  /** ToolSearch returns references the provider expands: search, then the exact call. */
  readonly calls: CallProtocol = { search: 1, perFoundTool: 0, call: 'each' };
  readonly queryStyle: QueryStyle = 'raw';
  private readonly o: Resolved;
  private readonly search: ClaudeCodeToolSearch;
  private catalog: Catalog | undefined;
  private deferrable = new Uint8Array(0);
  private deferrableCount = 0;
  /** computed at index time in `auto` mode, else on the first `describe()` (not needed to decide) */
  private deferrableTokens: number | undefined;
  private active = false;

  constructor(name: string, options: ProfileOptions & ClaudeCodeOptions = {}) {
    this.name = name;
    this.o = resolve(options);
    this.searchLimit = this.o.maxResults;
    this.search = new ClaudeCodeToolSearch(name, options);
  }

  async index(catalog: Catalog): Promise<void> {
    const always = new Set(this.o.alwaysLoad);
    this.toolById = new Map();
    this.deferrable = new Uint8Array(catalog.tools.length);
    let count = 0;
    catalog.tools.forEach((t, p) => {
      if (!isDeferrable(t, always)) return;
      this.deferrable[p] = 1;
      count++;
    });
    this.deferrableCount = count;
    this.catalog = catalog;
    this.deferrableTokens = undefined;
    this.active = typeof this.o.toolSearch === 'object' ? toolSearchActive(this.o.toolSearch, this.tokens(), this.o.contextWindow) : this.o.toolSearch === 'on';
    if (this.active) await this.search.index(catalog);
  }

  private toolById = new Map<string, Tool>();

  private tools(): readonly Tool[] {
    if (!this.catalog) throw new Error(`profile "${this.name}": used before index()`);
    return this.catalog.tools;
  }

  /** The pinned token estimate of the deferrable definitions ({@link definitionTokens} summed). */
  private tokens(): number {
    if (this.deferrableTokens === undefined) {
      let tokens = 0;
      this.tools().forEach((t, p) => {
        if (this.deferrable[p] === 1) tokens += definitionTokens(t);
      });
      this.deferrableTokens = tokens;
    }
    return this.deferrableTokens;
  }

  searcher(): Retriever | null {
    this.tools();
    return this.active ? this.search : null;
  }

  /** Tool search is on for the indexed catalog. */
  isActive(): boolean {
    return this.active;
  }

  beforeSearch(caller: Caller): BeforeSearch {
    const tools = this.tools();
    const { allowed } = caller;
    const ok = (p: number) => allowed === undefined || allowed[p] === 1;
    const eager: string[] = [];
    const listed: string[] = [];
    const seen = new Set<string>();
    // Above the ceiling: the role step, then whole namespaces in catalog order (no request yet).
    const listedMask = this.active ? this.search.advertised(allowed, caller.role).mask : undefined;
    tools.forEach((t, p) => {
      if (!ok(p)) return;
      if (!this.active || this.deferrable[p] === 0) eager.push(t.id);
      else if (listedMask![p] === 1) listed.push(t.id);
      else return;
      if (t.server !== undefined) seen.add(t.server);
    });
    const servers = this.catalog!.servers.filter((s) => seen.has(s.name));
    const advertisement = [deferredToolsBlock(listed), serverInstructionsBlock(servers)].filter((s) => s !== '').join('\n\n');
    return { eager, metaTools: this.active ? [TOOL_SEARCH_TOOL] : [], advertisement };
  }

  /** `tool_reference` blocks for the hits; with tool search off there is no `ToolSearch`, and an empty search adds nothing. */
  afterSearch(hits: readonly Hit[], _caller?: Caller): SearchAddition {
    const ids = hits.map((h) => h.id);
    if (!this.active && ids.length === 0) return { form: 'references', loaded: [], text: '' };
    if (this.toolById.size === 0) this.toolById = new Map(this.tools().map((t) => [t.id, t]));
    const defs = ids.map((id) => this.toolById.get(id)).filter((t): t is Tool => t !== undefined).map(loadedDefinition);
    return { form: 'references', loaded: ids, text: toolReferenceText(ids), definitions: defs };
  }

  describe(): Record<string, unknown> {
    const o = this.o;
    return {
      profile: 'claude-code',
      name: this.name,
      harness: "Claude Code, client-side ToolSearch (harness-profiles.md §(c) C1)",
      sources: [
        'code.claude.com/docs/en/agent-sdk/tool-search (official; verbatim mirror)',
        'translated mirrors of code.claude.com/docs/*/mcp; settings-schema mirrors',
        'third-party analyses of the bundled ToolSearchTool.ts (scoring) [unofficial, reverse-engineered]',
      ],
      activation: {
        toolSearch: typeof o.toolSearch === 'string' ? o.toolSearch : { auto: o.toolSearch.auto },
        default: "'on' (ENABLE_TOOL_SEARCH unset; official). History: auto at 10% was the default around v2.1.7, Jan 2026 [dated from third-party posts]",
        auto: 'on iff deferrable tokens ≥ N% of the context window, else everything eager',
        tokenCounter: 'Backpack-pinned (upstream unknown): sum over deferrable tools of ceil(code points of JSON {name, description cut at 2 KB, input_schema} / 4)',
        contextWindow: o.contextWindow,
        deferrableTools: this.deferrableCount,
        deferrableTokens: this.catalog ? this.tokens() : null,
        thresholdTokens: typeof o.toolSearch === 'object' ? (o.toolSearch.auto * o.contextWindow) / 100 : null,
        active: this.active,
        fallbacksNotModelled: 'old Vertex models, non-first-party ANTHROPIC_BASE_URL, Foundry, CLAUDE_CODE_DISABLE_EXPERIMENTAL_BETAS',
      },
      deferral: {
        deferrable: 'MCP and plugin tools not in alwaysLoad (official)',
        eager: 'core tools (always load, not counted) + alwaysLoad',
        alwaysLoad: [...o.alwaysLoad],
        alwaysLoadNote: 'our catalogs carry no alwaysLoad flag: option lists namespaces or tool ids',
      },
      search: {
        tool: TOOL_SEARCH_NAME,
        input: '{query, max_results?}',
        maxResults: o.maxResults,
        form: 'tool_reference blocks (the API expands them into definitions)',
        retriever: this.search.describe(),
      },
      ceiling: {
        tools: o.ceiling,
        source: 'official: up to 10,000 tools',
        prefilter: this.search.prefilterDescription(),
        advertisement: 'before any request: the role step, then whole namespaces in catalog order while ≤ ceiling (no request to rank by); tools beyond are not named',
        roles: o.roles ? Object.keys(o.roles.roles).length : 0,
      },
      exposure: {
        eager: 'core + alwaysLoad tools the caller may see (catalog order); everything the caller may see when tool search is off',
        metaTools: [TOOL_SEARCH_NAME],
        advertisement: '<available-deferred-tools> block, one id per line, catalog order (older releases; newer ones send system-reminder deltas), then "# MCP Server Instructions" (wording [unverified]) for servers with a tool the model sees, each cut at 2 KB (UTF-8, character boundary)',
        afterSearch: 'loaded = hit ids; text = the tool_reference blocks as JSON ("No matching deferred tools found" on a miss); the loaded definitions travel in the request with descriptions cut at 2 KB (loadedDefinition)',
        cutBytes: CLAUDE_CODE_DEFAULTS.cutBytes,
        persistence: 'referenced tools stay loaded until compaction removes the turn (official; not modelled per turn here)',
      },
    };
  }
}

/** The `claude-code` profile (register `{toolSearch: {auto: 10}}` as `claude-code-auto`). */
export function createClaudeCodeProfile(name: string, options: ProfileOptions & ClaudeCodeOptions = {}): ClaudeCodeProfile {
  return new ClaudeCodeProfile(name, options);
}
