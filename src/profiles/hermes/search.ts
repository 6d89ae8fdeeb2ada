/**
 * Hermes's `search_catalog` (`NousResearch/hermes-agent` `tools/tool_search_catalog.py` @13a4e497):
 * the indexed text of a deferred tool (`_entry_search_text`), its BM25 (tokenizer `[A-Za-z0-9]+`,
 * lowercase, Porter2, no stop words; k1 1.5, b 0.75; rarest-token gate and coverage floor) and the
 * exact-name rule, as a retriever over a full catalog.
 */
import { topK } from '../../retrievers/rank.ts';
import type { Catalog, Tool } from '../../catalog/types.ts';
import { Bm25Retriever, type Bm25Options, type DocumentText } from '../../retrievers/bm25/index.ts';
import { ENGLISH_STOP_WORDS } from '../../retrievers/bm25/tokenize.ts';
import { checkedMask } from '../../retrievers/rank.ts';
import type { Describable, Hit, Retriever, SearchContext } from '../../retrievers/types.ts';
import { deferrablePositions } from '../deferral.ts';
import { EXACT_NAME_SCORE, HERMES_DEFERRAL, hermesToolset, listingGroupLabel } from './config.ts';
import { describeWith } from '../facts.ts';
import { HERMES_SEARCH_FACTS, HERMES_VARIANTS } from './facts.ts';
import { normalizeWhitespace, pyStrip } from '../../util/py-strings.ts';

export { EXACT_NAME_SCORE } from './config.ts';

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

const HAS_TOKEN = /[A-Za-z0-9]/;
const NO_MASK = {};
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
  /** Queries whose first search found nothing and were retried, per caller mask object ({@link NO_MASK}: unrestricted). */
  private retriedQueries = new WeakMap<object, Set<string>>();
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

  /**
   * Whether a search of `query` under this mask (the same mask object) was retried since the last
   * index: its first query found nothing and the emulated model searched again. The outcome is a
   * function of the query and the mask, so it holds for any later search of the same pair.
   */
  wasRetried(query: string, allowed: Uint8Array | undefined): boolean {
    return this.retriedQueries.get(allowed ?? NO_MASK)?.has(query) === true;
  }

  async index(catalog: Catalog): Promise<void> {
    const positions = deferrablePositions(catalog.tools, HERMES_DEFERRAL);
    const tools = positions.map((p) => catalog.tools[p]!);
    await this.bm25.index({ tools, skills: [], servers: [], plugins: [] });
    this.size = catalog.tools.length;
    this.retries = 0;
    this.retriedQueries = new WeakMap();
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
      const known = this.bm25
        .knownWords(request)
        .filter((w) => !STOP_WORDS.has(w.toLowerCase()))
        .join(' ');
      if (known !== '' && known !== request) {
        this.retries++;
        const key = allowed ?? NO_MASK;
        let retried = this.retriedQueries.get(key);
        if (!retried) this.retriedQueries.set(key, (retried = new Set()));
        retried.add(request);
        hits = await this.bm25.search(known, sub === undefined ? { k } : { k, allowed: sub });
      }
    }
    if (exact.length === 0) return hits;
    const exactIds = new Set(exact.map((i) => this.ids[i]!));
    const merged = [...exact.map((i) => ({ id: this.ids[i]!, score: EXACT_NAME_SCORE })), ...hits.filter((h) => !exactIds.has(h.id))];
    return topK(merged, k);
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
    return describeWith(HERMES_SEARCH_FACTS.description, {
      name: this.name,
      retryKnownWords: this.retryKnownWords ? HERMES_VARIANTS.searcherRetry : false,
      bm25: this.bm25.describe(),
    });
  }
}
