/**
 * `hermes`: Hermes Agent's tool-search bridge (`NousResearch/hermes-agent`), emulated from the code
 * (docs/harness-profiles.md part (b), B1–B4): `tools/tool_search.py` @016260a5 (configuration,
 * activation, bridge tools, listing budget, dispatch) and `tools/tool_search_catalog.py` @13a4e497
 * (indexed text, tokenizer, BM25, admission, listing).
 *
 * - **Deferral (B1).** Core tools stay eager; MCP tools and plugin tools (except the session-gated GUI
 *   toolsets `desktop_ui`, `project`, `setup`) are deferred, and the bridge (`tool_search`,
 *   `tool_describe`, `tool_call`) turns on as soon as one deferrable tool exists (`enabled` `on`;
 *   `auto` is an alias; `off` = everything eager, no search). Upstream also defers a curated list of
 *   its own core tools (`computer_use`, `session_search`, …); none of them exists in our catalogs,
 *   so the list is not modelled.
 * - **Retrieval (B3).** Only the deferred tools are indexed, each as upstream's `_entry_search_text`
 *   ({@link hermesSearchText}), through Backpack's {@link Bm25Retriever} with Hermes's tokenizer
 *   (`[A-Za-z0-9]+`, lowercase, Porter2, no stop words), k1 1.5, b 0.75, every query token occurrence
 *   counting, and the `'hermes'` admission (rarest-token gate + coverage floor). A query equal to a
 *   tool's name (trimmed, case-insensitive) always returns that tool first ({@link EXACT_NAME_SCORE}).
 * - **Exposure (B2, B4).** Before any search: the non-deferred tools eager, the three bridge tools,
 *   and the deferred catalog listing (full → names → groups collapsed largest first → none, within
 *   `min(4000, 5% of the context window)` tokens at chars/4) that upstream embeds in the `tool_search`
 *   description. A search returns metadata: the JSON `tool_search` answers (names, source, 500-char
 *   description, required parameters); schemas need `tool_describe`.
 *
 * **Names.** A tool's name, everywhere (listing, results, exact-name match, `tool_call`), is its
 * catalog id, the name the model calls (`mcp__github__create_issue`, `plugin__clickup__create_task`,
 * `bash`). The indexed text drops a leading `mcp__` as upstream does (it is in every MCP document);
 * upstream has no `plugin__` prefix, so ours stays in the text of plugin tools (an extra common word).
 *
 * **Scope.** Upstream rebuilds the catalog from the session's own tool definitions, so a restricted
 * session lists, counts and searches only its tools. The listing, the count N, `total_available`
 * and `available_sources` follow the caller's mask here too; the BM25 statistics (N, df, avgdl, and
 * so the gate token) are over every deferred tool, by the project's rule that a mask never changes
 * the weights of the tools it lets through.
 */
import type { Catalog, Tool } from '../catalog/types.ts';
import { Bm25Retriever, type Bm25Options, type DocumentText } from '../retrievers/bm25/index.ts';
import { ENGLISH_STOP_WORDS } from '../retrievers/bm25/tokenize.ts';
import { checkedMask, rankStable } from '../retrievers/rank.ts';
import type { Describable, Hit, Retriever, SearchContext } from '../retrievers/types.ts';
import { charCount, cutToChars } from '../catalog/unicode.ts';
import { DEFAULT_CONTEXT_WINDOW, type BeforeSearch, type Caller, type Profile, type ProfileOptions, type SearchAddition, type ToolDefinition, type CallProtocol, type QueryStyle } from './types.ts';

// ---------------------------------------------------------------------------------------------
// Upstream references and constants
// ---------------------------------------------------------------------------------------------

export const HERMES_UPSTREAM = Object.freeze({
  repository: 'NousResearch/hermes-agent',
  bridge: 'tools/tool_search.py@016260a5',
  catalog: 'tools/tool_search_catalog.py@13a4e497',
  docs: 'https://hermes-agent.nousresearch.com/docs/user-guide/features/tool-search',
});

export const TOOL_SEARCH_NAME = 'tool_search';
export const TOOL_DESCRIBE_NAME = 'tool_describe';
export const TOOL_CALL_NAME = 'tool_call';
/** `_MAX_QUERIES_PER_CALL` (tool_search.py). */
export const MAX_QUERIES_PER_CALL = 7;
/** `_MAX_DESCRIBE_NAMES_PER_CALL` (tool_search.py). */
export const MAX_DESCRIBE_NAMES_PER_CALL = 10;
/** `CHARS_PER_TOKEN` (tool_search_catalog.py): cost = ceil(chars / 4). */
export const CHARS_PER_TOKEN = 4;
/** `_short_desc` max_chars. */
export const SHORT_DESCRIPTION_CHARS = 60;
/** `_clip_description` cap for a search result's description. */
export const RESULT_DESCRIPTION_CHARS = 500;
/** A search result's `required`: at most 32 names, each cut to 64 characters. */
export const RESULT_REQUIRED_MAX = 32;
export const RESULT_REQUIRED_NAME_CHARS = 64;
/** `listing_token_budget`: the percentage leg when the context length is unknown (≤ 0 here). */
export const UNKNOWN_CONTEXT_PCT_LEG = 10_000;
/** Session-gated GUI toolsets that never defer (`_DIRECT_SURFACE_TOOLSETS`). */
export const DIRECT_SURFACE_TOOLSETS: ReadonlySet<string> = new Set(['desktop_ui', 'project', 'setup']);
/**
 * The score of an exact-name hit. Upstream uses `float("inf")`; the retriever contract requires
 * finite scores, so we use the largest finite double, above every BM25 score.
 */
export const EXACT_NAME_SCORE = Number.MAX_VALUE;

export const LISTING_HEADER = `Deferred tool catalog (call schemas via \`${TOOL_DESCRIBE_NAME}\`, invoke via \`${TOOL_CALL_NAME}\`):`;

// ---------------------------------------------------------------------------------------------
// Configuration (ToolSearchConfig.from_raw)
// ---------------------------------------------------------------------------------------------

export type TriState = 'auto' | 'on' | 'off';

/** Hermes's `tools.tool_search` settings. Numbers are clamped as upstream clamps them. */
export interface HermesOptions {
  /** `on` / `auto` (an alias today): the bridge turns on when any deferrable tool exists; `off`: never. Default `auto`. */
  enabled?: TriState;
  /** `off`: bare bridge (no listing). Default `auto`. */
  listing?: TriState;
  /** Listing budget as a percentage of the context window, 0..100. Default 5. */
  thresholdPct?: number;
  /** Listing budget cap in tokens, clamped to 200..60,000. Default 4,000. */
  listingMaxTokens?: number;
  /** Results per search query when the model gives no `limit`, clamped to 1..maxSearchLimit. Default 5. */
  searchDefaultLimit?: number;
  /** Largest `limit` a search accepts, clamped to 1..50. Default 25. */
  maxSearchLimit?: number;
  /**
   * Emulated model behaviour, not Hermes code: when a search returns nothing (upstream then answers
   * with `available_sources` and a retry hint), search once more with only the request's words
   * that the catalog knows, minus English stop words, as a model rewriting its query into keywords
   * would. Default true (the
   * `hermes` profile); `hermes-raw` turns it off to show the engine on raw requests.
   */
  retryKnownWords?: boolean;
}

export interface HermesConfig {
  enabled: TriState;
  listing: TriState;
  thresholdPct: number;
  listingMaxTokens: number;
  searchDefaultLimit: number;
  maxSearchLimit: number;
  /** Context window of the emulated model, in tokens. */
  contextWindow: number;
}

function clampedInt(value: number | undefined, fallback: number, lo: number, hi: number): number {
  const v = value === undefined || !Number.isFinite(value) ? fallback : Math.trunc(value);
  return Math.max(lo, Math.min(hi, v));
}

function triState(value: TriState | undefined, what: string): TriState {
  if (value === undefined) return 'auto';
  if (value !== 'auto' && value !== 'on' && value !== 'off') throw new RangeError(`hermes ${what} must be auto, on or off (got ${JSON.stringify(value)})`);
  return value;
}

/** The effective configuration: defaults, then `options`, clamped like `ToolSearchConfig.from_raw`. */
export function resolveHermesConfig(options: ProfileOptions & HermesOptions = {}): HermesConfig {
  const maxSearchLimit = clampedInt(options.maxSearchLimit, 25, 1, 50);
  const pct = options.thresholdPct;
  return {
    enabled: triState(options.enabled, 'enabled'),
    listing: triState(options.listing, 'listing'),
    thresholdPct: Math.max(0, Math.min(100, pct !== undefined && Number.isFinite(pct) ? pct : 5)),
    listingMaxTokens: clampedInt(options.listingMaxTokens, 4000, 200, 60_000),
    searchDefaultLimit: clampedInt(options.searchDefaultLimit, 5, 1, maxSearchLimit),
    maxSearchLimit,
    contextWindow: options.contextWindow ?? DEFAULT_CONTEXT_WINDOW,
  };
}

/** `listing_token_budget`: max(0, min(listing_max_tokens, int(ctx · pct / 100))); a context ≤ 0 counts as unknown (10,000 leg). */
export function listingTokenBudget(config: Pick<HermesConfig, 'contextWindow' | 'thresholdPct' | 'listingMaxTokens'>): number {
  const ctx = config.contextWindow;
  const pctLeg = ctx > 0 ? Math.trunc(ctx * (config.thresholdPct / 100)) : UNKNOWN_CONTEXT_PCT_LEG;
  return Math.max(0, Math.min(config.listingMaxTokens, pctLeg));
}

/** Hermes's token estimate: ceil(characters / 4), characters counted as Python does (code points). */
export function estimateTokens(text: string): number {
  return Math.ceil(charCount(text) / CHARS_PER_TOKEN);
}

// ---------------------------------------------------------------------------------------------
// Python string semantics
// ---------------------------------------------------------------------------------------------

/** Python's `str.isspace()` characters (JS `\s` minus U+FEFF, plus U+001C–U+001F and U+0085). */
const PY_WS = '\\t\\n\\v\\f\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const PY_WS_RUN = new RegExp(`[${PY_WS}]+`, 'g');
const PY_STRIP = new RegExp(`^[${PY_WS}]+|[${PY_WS}]+$`, 'g');

/** Python `" ".join(s.split())`: whitespace runs to one space, trimmed. */
export function normalizeWhitespace(s: string): string {
  return s.replace(PY_WS_RUN, ' ').replace(/^ | $/g, '');
}

/** Python `s.strip()`. */
export function pyStrip(s: string): string {
  return s.replace(PY_STRIP, '');
}

/** Python string order (code points); differs from JS `<` only between astral and U+E000–U+FFFF characters. */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x !== y) {
      if (x >= 0xd800 && y >= 0xd800) {
        x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
        y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
      }
      return x - y;
    }
  }
  return a.length - b.length;
}

/**
 * Python `json.dumps(value, ensure_ascii=False)`: separators `", "` and `": "`, keys in insertion
 * order. Strings are escaped as JSON.stringify does (the same escapes, except that lone surrogates,
 * which Python would write raw, are written as `\udXXX`).
 */
export function pyJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(pyJson).join(', ')}]`;
  return `{${Object.entries(value as Record<string, unknown>)
    .map(([k, v]) => `${JSON.stringify(k)}: ${pyJson(v)}`)
    .join(', ')}}`;
}

// ---------------------------------------------------------------------------------------------
// Sources and deferral (B1)
// ---------------------------------------------------------------------------------------------

/** The Hermes toolset of a tool: `mcp-<server>` for MCP tools, the plugin name for plugin tools, `''` for core tools. */
export function hermesToolset(tool: Tool): string {
  if (tool.source === 'mcp') return `mcp-${tool.server ?? tool.namespace}`;
  if (tool.source === 'plugin') return tool.plugin ?? tool.namespace;
  return '';
}

/** `_classify_source` kind: `mcp` for an `mcp-*` toolset, `plugin` for another, `other` for none. */
export function hermesSourceKind(toolset: string): 'mcp' | 'plugin' | 'other' {
  return toolset === '' ? 'other' : toolset.startsWith('mcp-') ? 'mcp' : 'plugin';
}

/** `_listing_group_label`: the toolset minus `mcp-`, `other` when there is none. */
export function listingGroupLabel(toolset: string): string {
  const label = toolset || 'other';
  return label.startsWith('mcp-') ? label.slice(4) : label;
}

/** `is_deferrable_tool_name` without a `defer` list: MCP tools, and plugin tools outside the GUI surfaces. */
export function isDeferrable(tool: Tool): boolean {
  if (tool.source === 'core') return false;
  const toolset = hermesToolset(tool);
  return toolset.startsWith('mcp-') || !DIRECT_SURFACE_TOOLSETS.has(toolset);
}

// ---------------------------------------------------------------------------------------------
// Indexed text and search (B3)
// ---------------------------------------------------------------------------------------------

/**
 * `_entry_search_text`: the name (the tool id) without a leading `mcp__`, `[_.:-]` → spaces; the
 * source label if it is not already a word of that; the description; the top-level parameter names.
 * Schema bodies are left out. Example: `mcp__github__create_issue` → `github  create issue  Open… title body`.
 */
export function hermesSearchText(tool: Tool): string {
  const name = tool.id.startsWith('mcp__') ? tool.id.slice(5) : tool.id;
  const nameWords = name.replace(/[_.:-]/g, ' ');
  const toolset = hermesToolset(tool);
  const label = toolset ? listingGroupLabel(toolset) : '';
  const words = normalizeWhitespace(nameWords).split(' ');
  const extra = label && !words.includes(label) ? label : '';
  const props = tool.inputSchema?.properties;
  const params = props !== null && typeof props === 'object' && !Array.isArray(props) ? Object.keys(props).join(' ') : '';
  return `${nameWords} ${extra} ${tool.description ?? ''} ${params}`;
}

/** The {@link DocumentText} of the Hermes index. */
export const HERMES_DOCUMENT: DocumentText = Object.freeze({ label: 'hermes-entry-search-text', texts: (tool: Tool) => [hermesSearchText(tool)] });

/**
 * Hermes's BM25: `[A-Za-z0-9]+` tokens lowercased and Porter2-stemmed (snowballstemmer `english`),
 * no stop words; k1 1.5, b 0.75; rarest-token gate and coverage floor. (The `fields` are unused:
 * {@link HERMES_DOCUMENT} replaces them.)
 */
export const HERMES_BM25_OPTIONS: Readonly<Bm25Options> = Object.freeze({
  params: Object.freeze({ k1: 1.5, b: 0.75 }),
  tokenizer: Object.freeze({ splitIdentifiers: 'punctuation' as const, asciiFold: false, stopWords: 'none' as const, stem: 'porter2' as const, minLength: 1 }),
  fields: Object.freeze({ name: 1, namespace: 0, summary: 0, description: 1, examples: 0, params: 1 }),
  admission: 'hermes' as const,
});

/** Positions (in `tools`) of the tools Hermes defers. */
export function deferredPositions(tools: readonly Tool[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < tools.length; i++) if (isDeferrable(tools[i]!)) out.push(i);
  return out;
}

const HAS_TOKEN = /[A-Za-z0-9]/;
const STOP_WORDS: ReadonlySet<string> = new Set(ENGLISH_STOP_WORDS);

/**
 * Hermes's `search_catalog` as a retriever over a full catalog: indexes only the deferred tools
 * (a {@link Bm25Retriever} over that sub-catalog), maps the caller's mask (full-catalog positions)
 * onto it, and adds the exact-name rule: a query equal to a deferred tool's name (the id; trimmed,
 * lowercase) returns that tool first with {@link EXACT_NAME_SCORE}, whatever the gate says.
 *
 * Ties: upstream sorts with Python's stable sort, so equal scores keep catalog order; we rank with
 * the project's one tie-break (`rankStable`: score descending, then tool id ascending).
 */
export class HermesSearcher implements Retriever, Describable {
  readonly name: string;
  private readonly bm25: Bm25Retriever;
  private built = false;
  private size = 0;
  /** sub-catalog position → full-catalog position */
  private positions = new Uint32Array(0);
  private ids: string[] = [];
  /** lowercased name → sub-catalog positions */
  private byLowerName = new Map<string, number[]>();

  private readonly retryKnownWords: boolean;
  private retries = 0;
  /** The caller mask mapped onto the deferred tools, per mask object (a policy hands out one mask per scope set). */
  private subMasks = new WeakMap<Uint8Array, Uint8Array>();

  constructor(name: string, options: { retryKnownWords?: boolean } = {}) {
    this.name = name;
    this.retryKnownWords = options.retryKnownWords === true;
    this.bm25 = new Bm25Retriever(name, HERMES_BM25_OPTIONS, HERMES_DOCUMENT);
  }

  /** Searches retried with the request's known words since the last index (see `retryKnownWords`). */
  stats(): { retries: number } {
    return { retries: this.retries };
  }

  async index(catalog: Catalog): Promise<void> {
    const positions = deferredPositions(catalog.tools);
    const tools = positions.map((p) => catalog.tools[p]!);
    await this.bm25.index({ tools, skills: [], servers: [], plugins: [] });
    this.size = catalog.tools.length;
    this.retries = 0;
    this.positions = Uint32Array.from(positions);
    this.subMasks = new WeakMap();
    this.ids = tools.map((t) => t.id);
    this.byLowerName = new Map();
    tools.forEach((t, i) => {
      const key = t.id.toLowerCase();
      const list = this.byLowerName.get(key);
      if (list) list.push(i);
      else this.byLowerName.set(key, [i]);
    });
    this.built = true;
  }

  /** Number of deferred (indexed) tools. */
  deferredCount(): number {
    return this.ids.length;
  }

  async search(request: string, context: SearchContext): Promise<Hit[]> {
    if (!this.built) throw new Error(`retriever "${this.name}": search() called before index()`);
    const allowed = checkedMask(this.name, context.allowed, this.size);
    const k = Math.floor(context.k);
    if (!(k > 0) || this.ids.length === 0 || !HAS_TOKEN.test(request)) return [];
    const sub = allowed === undefined ? undefined : this.subMask(allowed);
    const exact = (this.byLowerName.get(pyStrip(request).toLowerCase()) ?? []).filter((i) => sub === undefined || sub[i] === 1);
    let hits = await this.bm25.search(request, sub === undefined ? { k } : { k, allowed: sub });
    // The emulated model retries only an empty answer: an exact-name hit is an answer.
    if (hits.length === 0 && exact.length === 0 && this.retryKnownWords) {
      const known = this.bm25.knownWords(request).filter((w) => !STOP_WORDS.has(w.toLowerCase())).join(' ');
      if (known !== '' && known !== request) {
        this.retries++;
        hits = await this.bm25.search(known, sub === undefined ? { k } : { k, allowed: sub });
      }
    }
    if (exact.length === 0) return hits;
    const exactIds = new Set(exact.map((i) => this.ids[i]!));
    const merged = [...exact.map((i) => ({ id: this.ids[i]!, score: EXACT_NAME_SCORE })), ...hits.filter((h) => !exactIds.has(h.id))];
    return rankStable(merged).slice(0, k);
  }

  /** `allowed` (full-catalog positions) on the deferred tools, computed once per mask object. */
  private subMask(allowed: Uint8Array): Uint8Array {
    let sub = this.subMasks.get(allowed);
    if (sub === undefined) {
      sub = new Uint8Array(this.positions.length);
      for (let i = 0; i < sub.length; i++) sub[i] = allowed[this.positions[i]!] === 1 ? 1 : 0;
      this.subMasks.set(allowed, sub);
    }
    return sub;
  }

  describe(): Record<string, unknown> {
    return {
      retriever: 'hermes-tool-search',
      name: this.name,
      upstream: `${HERMES_UPSTREAM.repository} ${HERMES_UPSTREAM.catalog} search_catalog`,
      indexes: 'the deferred tools only (MCP tools; plugin tools outside desktop_ui/project/setup)',
      retryKnownWords: this.retryKnownWords
        ? 'emulated model behaviour (not Hermes code): an empty result (no BM25 hit and no exact name) is retried once with the request words the catalog knows, minus NLTK English stop words (a keyword query), as a model answering the empty-result hint would'
        : false,
      bm25: this.bm25.describe(),
      exactName: `query.strip().lower() == tool id .lower() → always returned, score ${EXACT_NAME_SCORE} (upstream +inf)`,
      ties: 'rankStable (score desc, then id asc); upstream keeps catalog order (stable Python sort)',
      statistics: 'N, df, avgdl over every deferred tool; the mask only decides what is scored (upstream: over the session tools)',
    };
  }
}

/** The Hermes search tool as a registry-style retriever (for the contract tests and direct use). */
export function createHermesSearcher(name: string, options: { retryKnownWords?: boolean } = {}): HermesSearcher {
  return new HermesSearcher(name, options);
}

// ---------------------------------------------------------------------------------------------
// Listing (B4)
// ---------------------------------------------------------------------------------------------

const SENTENCE_END = new RegExp(
  `(?<!(?<![\\p{L}\\p{N}_])e\\.g)(?<!(?<![\\p{L}\\p{N}_])i\\.e)(?<!(?<![\\p{L}\\p{N}_])etc)[.!?](?=[${PY_WS}]|$)`,
  'u',
);

/**
 * `_short_desc`: whitespace normalised, cut after the first sentence end (`.`, `!` or `?` followed by
 * whitespace or the end, not in `e.g.`/`i.e.`/`etc.`); if still over `maxChars` characters: the first
 * `maxChars`, cut back to the last space, trailing `,;: ` stripped, `…` appended.
 */
export function shortDescription(description: string, maxChars: number = SHORT_DESCRIPTION_CHARS): string {
  let text = normalizeWhitespace(description ?? '');
  const m = SENTENCE_END.exec(text);
  if (m) text = text.slice(0, m.index + 1);
  if (charCount(text) <= maxChars) return text;
  let clipped = cutToChars(text, maxChars);
  const space = clipped.lastIndexOf(' ');
  if (space >= 0) clipped = clipped.slice(0, space);
  return `${clipped.replace(/[,;: ]+$/, '')}…`;
}

/** One tool of the listing: its name (the id), short description and group label. */
export interface ListingEntry {
  name: string;
  description: string;
  label: string;
}

/** `full`, `names`, `mixed` (some groups summarised), `groups` (all summarised) or `none` (no listing). */
export type ListingForm = 'full' | 'names' | 'mixed' | 'groups' | 'none';

export interface Listing {
  /** The listing, `null` for `none`. */
  text: string | null;
  form: ListingForm;
}

type GroupMode = 'full' | 'names' | 'summary';

interface PreparedTool {
  name: string;
  short: string;
  nameLen: number;
  /** characters of `- name: short` (or `- name`) */
  lineLen: number;
}

interface PreparedGroup {
  label: string;
  labelLen: number;
  /** sorted by (name, short description) */
  tools: PreparedTool[];
}

function prepareTool(name: string, short: string): PreparedTool {
  const nameLen = charCount(name);
  return { name, short, nameLen, lineLen: 2 + nameLen + (short ? 2 + charCount(short) : 0) };
}

function compareTools(a: PreparedTool, b: PreparedTool): number {
  return compareCodePoints(a.name, b.name) || compareCodePoints(a.short, b.short);
}

const summarySuffix = (n: number) => ` (${n} tools — names not listed; discover via \`${TOOL_SEARCH_NAME}\`)`;
const headLine = (label: string, n: number) => `${label} tools (${n}):`;

function renderGroup(g: PreparedGroup, mode: GroupMode): string {
  const n = g.tools.length;
  if (mode === 'summary') return `${g.label}${summarySuffix(n)}`;
  const lines = [headLine(g.label, n)];
  if (mode === 'full') for (const t of g.tools) lines.push(t.short ? `- ${t.name}: ${t.short}` : `- ${t.name}`);
  else lines.push(g.tools.map((t) => t.name).join(', '));
  return lines.join('\n');
}

/** Characters of `renderGroup(g, mode)`, without rendering it. */
function groupLength(g: PreparedGroup, mode: GroupMode): number {
  const n = g.tools.length;
  if (mode === 'summary') return g.labelLen + charCount(summarySuffix(n));
  const head = g.labelLen + ' tools ('.length + String(n).length + '):'.length;
  let len = head;
  if (mode === 'full') for (const t of g.tools) len += 1 + t.lineLen;
  else {
    len += 1 + 2 * (n - 1);
    for (const t of g.tools) len += t.nameLen;
  }
  return len;
}

/**
 * The ladder of `build_catalog_listing_with_form` over non-empty groups sorted by label: every group
 * full; every group names-only; then groups collapsed to their summary line one at a time, largest
 * names-only rendering first (ties by label), until the listing fits (`mixed`, or `groups` once all
 * are summaries); else `none`. Fits = ceil(characters / 4) ≤ maxTokens. Lengths are computed, and
 * only the chosen listing is rendered.
 */
function ladder(groups: readonly PreparedGroup[], maxTokens: number): Listing {
  if (groups.length === 0) return { text: null, form: 'none' };
  const headerLen = charCount(LISTING_HEADER);
  const fits = (chars: number) => Math.ceil(chars / CHARS_PER_TOKEN) <= maxTokens;
  const render = (modes: readonly GroupMode[]) => [LISTING_HEADER, ...groups.map((g, i) => renderGroup(g, modes[i]!))].join('\n');
  const total = (lens: readonly number[]) => lens.reduce((s, l) => s + 1 + l, headerLen);
  for (const mode of ['full', 'names'] as const) {
    if (fits(total(groups.map((g) => groupLength(g, mode))))) return { text: render(groups.map(() => mode)), form: mode };
  }
  const namesLen = groups.map((g) => groupLength(g, 'names'));
  const modes: GroupMode[] = groups.map(() => 'names');
  let chars = total(namesLen);
  const order = groups.map((_, i) => i).sort((a, b) => namesLen[b]! - namesLen[a]! || compareCodePoints(groups[a]!.label, groups[b]!.label));
  for (let j = 0; j < order.length; j++) {
    const i = order[j]!;
    modes[i] = 'summary';
    chars += groupLength(groups[i]!, 'summary') - namesLen[i]!;
    if (fits(chars)) return { text: render(modes), form: j === order.length - 1 ? 'groups' : 'mixed' };
  }
  return { text: null, form: 'none' };
}

function prepareGroups(entries: Iterable<{ label: string; tool: PreparedTool }>): PreparedGroup[] {
  const byLabel = new Map<string, PreparedTool[]>();
  for (const { label, tool } of entries) {
    const list = byLabel.get(label);
    if (list) list.push(tool);
    else byLabel.set(label, [tool]);
  }
  return [...byLabel.entries()]
    .sort(([a], [b]) => compareCodePoints(a, b))
    .map(([label, tools]) => ({ label, labelLen: charCount(label), tools: tools.sort(compareTools) }));
}

/**
 * `build_catalog_listing_with_form`: the deferred catalog listing within `maxTokens` (chars/4), and
 * its form. Entries' descriptions are full descriptions (cut here with {@link shortDescription}).
 */
export function buildListing(entries: readonly ListingEntry[], maxTokens: number): Listing {
  return ladder(
    prepareGroups(entries.map((e) => ({ label: e.label, tool: prepareTool(e.name, shortDescription(e.description)) }))),
    maxTokens,
  );
}

/** Tier of an assembly: 0 = bridge off; 1 = a per-tool listing (full, names, mixed); 2 = groups or none. */
export function listingTier(activated: boolean, form: ListingForm): 0 | 1 | 2 {
  if (!activated) return 0;
  return form === 'full' || form === 'names' || form === 'mixed' ? 1 : 2;
}

// ---------------------------------------------------------------------------------------------
// Bridge tools (B2)
// ---------------------------------------------------------------------------------------------

/**
 * `_search_description` up to the listing: the opening for N deferred tools and, when there is a
 * listing, the framing for its form. Upstream's description is this + `"\n\n"` + the listing.
 */
export function toolSearchDescription(deferredCount: number, form: ListingForm): string {
  let desc =
    `Search ${deferredCount} additional tools that are loaded on demand. ` +
    'Takes a list of queries searched in parallel against the same ' +
    'catalog; send one query per distinct capability you need. Queries are ' +
    'keyword searches, not questions: the app or service name plus an action ' +
    'and object, no filler words (`gmail send email`, `nvidia driver status`, ' +
    "not `what's my GPU driver version?`); a word no tool contains makes the " +
    'query return nothing. Returns ' +
    'matching tool names grouped per query plus a shared map with each ' +
    "tool's description. Follow with " +
    `\`${TOOL_DESCRIBE_NAME}\` to load full parameter schemas, ` +
    `then \`${TOOL_CALL_NAME}\` to invoke. Tools listed at the top of this ` +
    'system prompt are already available and do not need to be searched.';
  if (form === 'none') return desc;
  if (form === 'groups') {
    return (
      desc +
      '\n\nThe servers below are connected and their tools ARE available ' +
      'through this bridge. For any request in these domains, search ' +
      'here FIRST — do not claim the capability is unavailable and do ' +
      'not substitute a generic tool (terminal/browser) without ' +
      'searching.'
    );
  }
  desc +=
    '\n\nEvery deferred capability is listed below. If a tool name ' +
    'appears here, do NOT claim it is unavailable — load it with ' +
    `\`${TOOL_DESCRIBE_NAME}\` (skip \`${TOOL_SEARCH_NAME}\` when you ` +
    'already see the exact name).';
  if (form === 'mixed') {
    desc += " For servers marked 'names not listed', the tools exist " + `too — find them with \`${TOOL_SEARCH_NAME}\` before ` + 'concluding anything is missing.';
  }
  return desc;
}

/** `tool_search` as defined upstream, its description without the listing (see {@link toolSearchDescription}). */
export function toolSearchDefinition(deferredCount: number, form: ListingForm): ToolDefinition {
  return {
    name: TOOL_SEARCH_NAME,
    description: toolSearchDescription(deferredCount, form),
    inputSchema: {
      type: 'object',
      properties: {
        queries: {
          type: 'array',
          items: { type: 'string' },
          description:
            "Keyword queries, one per capability: app or service name + action + object (e.g. ['github create issue', 'slack send message', 'gmail fetch emails']). Not questions or sentences: every word must appear in tool text, or the query returns nothing. Searched in parallel; results come back grouped per query. A single string is accepted and treated as one query.",
        },
        limit: { type: 'integer', description: 'Maximum number of matches per query. Defaults to 5 and is clamped to the configured maximum (25 by default).' },
      },
      required: ['queries'],
    },
  };
}

export const TOOL_DESCRIBE: ToolDefinition = Object.freeze({
  name: TOOL_DESCRIBE_NAME,
  description: `Load the full JSON schemas for tools returned by \`${TOOL_SEARCH_NAME}\`. Required before \`${TOOL_CALL_NAME}\` if a tool's parameters are unknown. Batch every schema you need into one call.`,
  inputSchema: {
    type: 'object',
    properties: {
      names: { type: 'array', items: { type: 'string' }, description: 'Exact tool names (as returned by tool_search). A single string is accepted and treated as one name.' },
    },
    required: ['names'],
  },
});

export const TOOL_CALL: ToolDefinition = Object.freeze({
  name: TOOL_CALL_NAME,
  description:
    'Invoke deferred tools. Takes `calls`, an array of {name, arguments} ' +
    '— one entry per invocation; a single call is an array of one. ' +
    'Local tools require one entry per tool_call. Only connectors__ names ' +
    'may be batched together; mixed and multi-local batches are rejected. ' +
    'Connector entries execute individually with results in input order. ' +
    `Argument shapes match each tool's schema (see \`${TOOL_DESCRIBE_NAME}\`). ` +
    'Policy, hooks, and approvals run as for directly-listed tools.',
  inputSchema: {
    type: 'object',
    properties: {
      calls: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            name: { type: 'string', description: 'Exact tool name to invoke.' },
            arguments: { type: 'object', description: 'Arguments matching the tool schema.' },
          },
          required: ['name', 'arguments'],
        },
        description: 'One local invocation, or one or more connector invocations. Never mix local and connector tools.',
      },
    },
    required: ['calls'],
  },
});

/** `_clip_description`: the first 500 characters and `…` when longer. */
export function clipDescription(text: string, cap: number = RESULT_DESCRIPTION_CHARS): string {
  return charCount(text) <= cap ? text : `${cutToChars(text, cap)}…`;
}

/** `_shared_tool_record`: what a search result says about one tool. */
export function toolRecord(tool: Tool): { source: string; source_name: string; description: string; required: string[] } {
  const toolset = hermesToolset(tool);
  const req = tool.inputSchema?.required;
  const required = (Array.isArray(req) ? req : [])
    .filter((r): r is string => typeof r === 'string')
    .map((r) => cutToChars(r, RESULT_REQUIRED_NAME_CHARS))
    .slice(0, RESULT_REQUIRED_MAX);
  return { source: hermesSourceKind(toolset), source_name: toolset, description: clipDescription(tool.description ?? ''), required };
}

export const EMPTY_RESULT_HINT =
  'This query returned no lexical matches, but the sources above ' +
  'are connected and their tools remain available. Retry ' +
  'tool_search with the service name plus a concrete action or ' +
  'object before concluding the capability is unavailable.';

/** One row of `available_sources`: a group label and how many of its tools the caller may use. */
export interface SourceCount {
  name: string;
  tool_count: number;
}

/**
 * `dispatch_tool_search` for one query: `{queries, total_available, results:[{query, matches,
 * available_sources?, hint?}], tools}` as Python's `json.dumps(…, ensure_ascii=False)` writes it.
 * `sources` = the caller's deferred tools counted by group label (`total_available` is their sum;
 * listed, sorted by name, when nothing matched).
 */
export function searchResultText(query: string, hits: readonly Tool[], sources: readonly SourceCount[]): string {
  const tools: Record<string, ReturnType<typeof toolRecord>> = {};
  for (const t of hits) if (!Object.prototype.hasOwnProperty.call(tools, t.id)) tools[t.id] = toolRecord(t);
  const group: Record<string, unknown> = { query, matches: hits.map((t) => t.id) };
  const available = sources.filter((s) => s.tool_count > 0);
  if (hits.length === 0 && available.length > 0) {
    group.available_sources = [...available].sort((a, b) => compareCodePoints(a.name, b.name)).map(({ name, tool_count }) => ({ name, tool_count }));
    group.hint = EMPTY_RESULT_HINT;
  }
  const total = available.reduce((n, s) => n + s.tool_count, 0);
  return pyJson({ queries: [query], total_available: total, results: [group], tools });
}

// ---------------------------------------------------------------------------------------------
// The profile
// ---------------------------------------------------------------------------------------------

/** What Hermes assembles for one caller (`AssemblyResult`). */
export interface HermesAssembly {
  activated: boolean;
  /** Deferred tools the caller may see (N in "Search N additional tools"). */
  deferredCount: number;
  tier: 0 | 1 | 2;
  listingForm: ListingForm;
  /** Listing budget in tokens. */
  listingBudget: number;
  /** Listing cost, ceil(chars / 4); 0 without a listing. */
  listingTokens: number;
  listing: string | null;
}

interface DeferredInfo {
  position: number;
  tool: Tool;
  label: string;
  prepared: PreparedTool;
}

export class HermesProfile implements Profile {
  readonly name: string;
  readonly searchLimit: number;
  /** tool_search, tool_describe for the tool picked, then tool_call. */
  readonly calls: CallProtocol = { search: 1, perFoundTool: 1, call: 'each' };
  readonly queryStyle: QueryStyle = 'raw';
  readonly provider = 'openai';
  readonly estimator = 'chars/4';
  readonly config: HermesConfig;
  private readonly search: HermesSearcher;
  private catalog: Catalog | undefined;
  private deferred = new Uint8Array(0);
  /** Deferred tools grouped by label (groups sorted by label, tools by (name, short description)). */
  private groups: { label: string; labelLen: number; tools: DeferredInfo[] }[] = [];
  private byId = new Map<string, Tool>();
  /** The caller's deferred tools counted by group label, per mask object (`undefined` = unrestricted). */
  private sourceCounts = new WeakMap<Uint8Array, SourceCount[]>();
  private allSources: SourceCount[] | undefined;

  constructor(name: string, options: ProfileOptions & HermesOptions = {}) {
    this.name = name;
    this.config = resolveHermesConfig(options);
    this.searchLimit = this.config.searchDefaultLimit;
    this.search = new HermesSearcher(name, { retryKnownWords: options.retryKnownWords !== false });
  }

  async index(catalog: Catalog): Promise<void> {
    await this.search.index(catalog);
    const tools = catalog.tools;
    const deferred = new Uint8Array(tools.length);
    const byLabel = new Map<string, DeferredInfo[]>();
    for (const position of deferredPositions(tools)) {
      deferred[position] = 1;
      const tool = tools[position]!;
      const label = listingGroupLabel(hermesToolset(tool));
      const info = { position, tool, label, prepared: prepareTool(tool.id, shortDescription(tool.description)) };
      const list = byLabel.get(label);
      if (list) list.push(info);
      else byLabel.set(label, [info]);
    }
    this.groups = [...byLabel.entries()]
      .sort(([a], [b]) => compareCodePoints(a, b))
      .map(([label, list]) => ({ label, labelLen: charCount(label), tools: list.sort((a, b) => compareTools(a.prepared, b.prepared)) }));
    this.deferred = deferred;
    this.byId = new Map(tools.map((t) => [t.id, t]));
    this.sourceCounts = new WeakMap();
    this.allSources = undefined;
    this.catalog = catalog;
  }

  /** `available_sources` before filtering: the caller's deferred tools per group label (computed once per mask). */
  private sources(allowed: Uint8Array | undefined): SourceCount[] {
    const cached = allowed === undefined ? this.allSources : this.sourceCounts.get(allowed);
    if (cached) return cached;
    const sources: SourceCount[] = this.groups.map((g) => {
      let n = 0;
      if (allowed) for (const t of g.tools) n += allowed[t.position] === 1 ? 1 : 0;
      else n = g.tools.length;
      return { name: g.label, tool_count: n };
    });
    if (allowed === undefined) this.allSources = sources;
    else this.sourceCounts.set(allowed, sources);
    return sources;
  }

  private tools(): readonly Tool[] {
    if (!this.catalog) throw new Error(`profile "${this.name}": used before index()`);
    return this.catalog.tools;
  }

  /** The search tool, or `null` when the bridge is off or the catalog has no deferrable tool. */
  searcher(): Retriever | null {
    this.tools();
    return this.config.enabled === 'off' || this.search.deferredCount() === 0 ? null : this.search;
  }

  private visibleDeferred(caller: Caller): DeferredInfo[][] {
    const allowed = caller.allowed;
    const out: DeferredInfo[][] = [];
    for (const g of this.groups) {
      const vis = allowed ? g.tools.filter((t) => allowed[t.position] === 1) : g.tools;
      if (vis.length) out.push(vis);
    }
    return out;
  }

  /** What Hermes assembles for this caller: activation, N, listing form, tier and text. */
  assembly(caller: Caller): HermesAssembly {
    const tools = this.tools();
    checkedMask(this.name, caller.allowed, tools.length);
    const budget = listingTokenBudget(this.config);
    const visible = this.visibleDeferred(caller);
    const deferredCount = visible.reduce((s, g) => s + g.length, 0);
    const activated = this.config.enabled !== 'off' && deferredCount > 0;
    if (!activated) return { activated, deferredCount: 0, tier: 0, listingForm: 'none', listingBudget: budget, listingTokens: 0, listing: null };
    const listing: Listing =
      this.config.listing === 'off'
        ? { text: null, form: 'none' }
        : ladder(
            visible.map((g) => ({ label: g[0]!.label, labelLen: charCount(g[0]!.label), tools: g.map((t) => t.prepared) })),
            budget,
          );
    return {
      activated,
      deferredCount,
      tier: listingTier(true, listing.form),
      listingForm: listing.form,
      listingBudget: budget,
      listingTokens: listing.text === null ? 0 : estimateTokens(listing.text),
      listing: listing.text,
    };
  }

  /**
   * The non-deferred tools the caller may use, eager; the three bridge tools; and the listing as the
   * advertisement. Upstream embeds the listing in the `tool_search` description
   * (`description + "\n\n" + listing`); here it is only in `advertisement`, so it is counted once.
   * Without a deferred tool for this caller (or with `enabled: off`) everything is eager, no bridge.
   */
  beforeSearch(caller: Caller): BeforeSearch {
    const tools = this.tools();
    const a = this.assembly(caller);
    const allowed = caller.allowed;
    const eager: string[] = [];
    for (let i = 0; i < tools.length; i++) {
      if (allowed && allowed[i] !== 1) continue;
      if (!a.activated || this.deferred[i] !== 1) eager.push(tools[i]!.id);
    }
    if (!a.activated) return { eager, metaTools: [], advertisement: '' };
    return { eager, metaTools: [toolSearchDefinition(a.deferredCount, a.listingForm), TOOL_DESCRIBE, TOOL_CALL], advertisement: a.listing ?? '' };
  }

  /**
   * A `tool_search` answer: metadata (names, source, description ≤ 500 characters, required
   * parameters); schemas need `tool_describe`. The query echoed is the request the search was given
   * (in Hermes the model writes its own keyword queries, which an offline evaluation does not know).
   * Without a bridge for the caller (`enabled: off`, or no deferred tool visible) there is no
   * `tool_search` to answer: nothing is added. Source counts are computed once per mask object.
   */
  afterSearch(hits: readonly Hit[], caller: Caller, request: string): SearchAddition {
    checkedMask(this.name, caller.allowed, this.tools().length);
    const sources = this.sources(caller.allowed);
    const found = hits.map((h) => this.byId.get(h.id)).filter((t): t is Tool => t !== undefined);
    // No bridge for this caller (off, or no deferred tool visible): there was no tool_search to answer.
    if (found.length === 0 && (this.config.enabled === 'off' || !sources.some((s) => s.tool_count > 0))) return { form: 'metadata', loaded: [], text: '' };
    // The model then calls tool_describe for the tool it picks (the top hit): one schema per search.
    const picked = found[0];
    return {
      form: 'metadata',
      loaded: found.map((t) => t.id),
      text: searchResultText(request, found, sources),
      ...(picked ? { definitions: [{ name: picked.id, description: picked.description, inputSchema: picked.inputSchema }] } : {}),
    };
  }

  describe(): Record<string, unknown> {
    const c = this.config;
    const unrestricted = this.catalog ? this.assembly({}) : undefined;
    return {
      profile: 'hermes',
      upstream: { ...HERMES_UPSTREAM },
      config: { ...c, listingBudget: listingTokenBudget(c) },
      deferral: {
        eager: 'core tools (and plugin tools of the GUI toolsets desktop_ui, project, setup)',
        deferred: 'MCP tools (toolset mcp-<server>) and plugin tools (toolset = plugin name)',
        activation: 'enabled on/auto: as soon as any deferrable tool is visible to the caller; off: never (auto is an alias of on upstream)',
        curatedDeferList: 'not modelled: its core tools (computer_use, session_search, image_generate, …) are not in our catalogs',
        ref: HERMES_UPSTREAM.bridge,
      },
      bridge: {
        tools: [TOOL_SEARCH_NAME, TOOL_DESCRIBE_NAME, TOOL_CALL_NAME],
        maxQueriesPerCall: MAX_QUERIES_PER_CALL,
        maxDescribeNames: MAX_DESCRIBE_NAMES_PER_CALL,
        searchLimit: `default ${c.searchDefaultLimit}, clamped to [1, ${c.maxSearchLimit}]`,
        ref: HERMES_UPSTREAM.bridge,
      },
      retrieval: {
        indexedText: "_entry_search_text: id without leading mcp__, [_.:-] → spaces; + source label (toolset minus mcp-) if not a word of it; + description; + top-level parameter names (no schema bodies)",
        tokenizer: '[A-Za-z0-9]+, lowercase, Porter2 (npm porter2 for snowballstemmer english), no stop words',
        bm25: { k1: 1.5, b: 0.75, idf: 'ln(1 + (N - df + 0.5) / (df + 0.5))', queryTerms: 'every occurrence counts' },
        admission: 'gate = query token of highest idf (first on ties; unknown token → nothing); from 4 answerable terms, ceil(0.5 * answerable) of them',
        exactName: `query.strip().lower() == id.lower() → admitted, score ${EXACT_NAME_SCORE} (upstream +inf)`,
        names: 'the tool id (the name the model calls) everywhere; plugin__ stays in the indexed text (upstream plugin names have no prefix)',
        ties: 'project tie-break (score desc, id asc); upstream: catalog order (stable sort)',
        statistics: 'N, df, avgdl over all deferred tools (upstream: over the session tools; a mask here never changes weights)',
        avgdl: 'mean document length (upstream also floors it at 1; differs only when the mean is below one token)',
        ref: HERMES_UPSTREAM.catalog,
      },
      listing: {
        budget: 'max(0, min(listing_max_tokens, int(ctx * threshold_pct / 100))); ctx ≤ 0 → 10,000 leg',
        cost: 'ceil(chars / 4)',
        shortDescription: 'first sentence, ≤ 60 chars cut at a space, trailing ,;: stripped, …',
        ladder: 'full → names → groups collapsed to summaries largest names-rendering first (ties by label) → none',
        tiers: '0 = off; 1 = full/names/mixed; 2 = groups/none',
        exposure: 'listing only in advertisement (upstream: tool_search description + "\\n\\n" + listing); framing sentences in the description',
        unrestricted: unrestricted ? { form: unrestricted.listingForm, tier: unrestricted.tier, tokens: unrestricted.listingTokens, deferred: unrestricted.deferredCount } : null,
        ref: HERMES_UPSTREAM.catalog,
      },
      searchResult: {
        form: 'metadata',
        text: 'json.dumps {queries, total_available, results:[{query, matches, available_sources?, hint?}], tools:{name:{source, source_name, description ≤500+…, required ≤32×≤64}}}',
        query: 'the request when the evaluation passes it, else ""',
        ref: HERMES_UPSTREAM.bridge,
      },
      outOfScope: ['remote connector tools from the Nous gateway (merged into the same BM25 pass upstream)', 'hidden declared MCP servers in the listing'],
      unverified: [
        'the "substring fallback" of the brief: not found upstream; the rarest-token gate and coverage floor are used',
        'docs claim: listing mode matched eager-loading task success at lower cost than a bare bridge (no numbers published)',
        'npm porter2 assumed equal to snowballstemmer english',
      ],
    };
  }
}

/** The `hermes` profile (see the module comment). */
export function createHermesProfile(name: string, options?: ProfileOptions & HermesOptions): HermesProfile {
  return new HermesProfile(name, options);
}
