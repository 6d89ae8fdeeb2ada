/**
 * Token accounting on a profile's exposure model: what the model receives before any search and
 * what each search adds, counted on the provider's serialization with a real tokenizer (o200k_base)
 * and, where the harness has one, with its own estimator.
 *
 * A block of catalog definitions (eager, or loaded by a search) is counted as the sum of its
 * definitions' counts (each tool counted once per catalog, then summed per caller or search): on the monster catalog that sum is within 0.5% of
 * counting the whole JSON array (Anthropic: 387,794 vs 387,794 tokens for 2,000 tools; OpenAI:
 * 399,792 vs 397,796), and it makes 50,000 eager tools cost one pass over the catalog instead of
 * one per caller.
 */
import type { Catalog } from '../catalog/types.ts';
import type { BeforeSearch, SearchAddition } from '../profiles/types.ts';
import { listingLength, listingText, type CatalogListing } from '../profiles/catalog-listing.ts';
import { countTokens, type TokenCounterName } from '../tokens/count.ts';
import { serializeTool, serializeTools, type Definition, type Provider } from '../tokens/serialize.ts';
import { forEachLine, LineMemo } from '../util/line-cache.ts';

/** Texts longer than this are counted line by line (see {@link TokenMeter.text}). */
export const LINE_SUMMED_CHARS = 20_000;
/** Distinct lines a per-line cache keeps before it starts again (bounded memory on any catalog). */
export const LINE_CACHE_LIMIT = 1 << 20;

export class TokenMeter {
  private readonly perTool: Int32Array;
  private readonly position = new Map<string, number>();

  constructor(
    private readonly catalog: Catalog,
    readonly provider: Provider,
    readonly counter: TokenCounterName,
  ) {
    this.perTool = new Int32Array(catalog.tools.length).fill(-1);
    catalog.tools.forEach((t, i) => this.position.set(t.id, i));
  }

  /** Tokens of one catalog tool's definition (counted once). */
  toolTokens(id: string): number {
    const i = this.position.get(id);
    if (i === undefined) throw new Error(`no tool "${id}" in the catalog`);
    return this.toolTokensAt(i);
  }

  /** Tokens of definitions that are not (or not exactly) catalog tools: meta tools, cut descriptions. */
  definitionsTokens(defs: readonly Definition[]): number {
    return defs.length ? countTokens(serializeTools(defs, this.provider), this.counter) : 0;
  }

  /** Whether `id` is a pinned catalog tool (always in front of the model). */
  isPinned(id: string): boolean {
    const i = this.position.get(id);
    return i !== undefined && this.catalog.tools[i]!.pinned;
  }

  /** Per-line counts of long texts (advertisements rebuilt for each caller share most lines). */
  private readonly lineCounts = new LineMemo<number>(LINE_CACHE_LIMIT);

  /**
   * Tokens of a text. A long one (over {@link LINE_SUMMED_CHARS} characters: a catalog listing
   * rebuilt for every caller) is counted as the sum of its lines, each with its newline, each line
   * counted once per run: on the monster catalog that sum equals the whole-text count for the
   * deferred catalog (1,138,903 tokens), Codex's fragment and the namespace list, and is 0.014%
   * above it for Claude Code's names block (94,106 vs 94,093).
   */
  text(text: string): number {
    if (text.length <= LINE_SUMMED_CHARS) return countTokens(text, this.counter);
    return this.linesOf(text);
  }

  /** The sum of a text's line counts, each line with its newline (each distinct line counted once per run). */
  private linesOf(text: string): number {
    let sum = 0;
    const count = (l: string): number => countTokens(l, this.counter);
    forEachLine(text, (line) => {
      sum += this.lineCounts.of(line, count);
    });
    return sum;
  }

  /** Per-piece counts of listings, by their pieces array (a profile renders its pieces once). */
  private readonly pieceCounts = new WeakMap<readonly string[], Int32Array>();

  /**
   * Tokens of a listing advertisement: `text(listingText(l))` exactly. A long one is the sum of its
   * lines, and its lines are the head's, each piece's (with the newline that follows it) and the
   * tail's, since the head ends at a line end: so each piece is counted once per run, not once per
   * caller.
   */
  listing(l: CatalogListing): number {
    if (listingLength(l) <= LINE_SUMMED_CHARS || (l.head !== '' && !l.head.endsWith('\n'))) return this.text(listingText(l));
    let counts = this.pieceCounts.get(l.pieces);
    if (!counts) {
      counts = new Int32Array(l.pieces.length).fill(-1);
      this.pieceCounts.set(l.pieces, counts);
    }
    let sum = this.linesOf(l.head) + this.linesOf(l.tail);
    for (const p of l.positions) {
      let n = counts[p]!;
      if (n < 0) {
        n = 0;
        forEachLine(`${l.pieces[p]}\n`, (line) => {
          n += countTokens(line, this.counter);
        });
        counts[p] = n;
      }
      sum += n;
    }
    return sum;
  }

  /** Tokens of one catalog tool by its position (counted once). */
  toolTokensAt(i: number): number {
    let n = this.perTool[i]!;
    if (n < 0) {
      const t = this.catalog.tools[i]!;
      n = countTokens(serializeTool({ name: t.id, description: t.description, inputSchema: t.inputSchema }, this.provider), this.counter);
      this.perTool[i] = n;
    }
    return n;
  }

  /**
   * Before any search: eager definitions + meta tools + advertisement. `eagerMask` (by catalog
   * position), when the caller has it, spares a lookup per eager id.
   */
  before(b: BeforeSearch, eagerMask?: Uint8Array): { eager: number; metaTools: number; advertisement: number; total: number } {
    let eager = 0;
    if (eagerMask) {
      for (let i = 0; i < eagerMask.length; i++) if (eagerMask[i] === 1) eager += this.toolTokensAt(i);
    } else for (const id of b.eager) eager += this.toolTokens(id);
    const metaTools = this.definitionsTokens(b.metaTools);
    const advertisement = b.listing ? this.listing(b.listing) : this.text(b.advertisement);
    return { eager, metaTools, advertisement, total: eager + metaTools + advertisement };
  }

  /**
   * What one search adds: its result text plus the definitions it puts into the request. A
   * definition that is a catalog tool as it stands (its id, description and schema) is counted
   * from the per-tool cache, as eager blocks are (a namespace expansion loads hundreds per search);
   * the others (cut descriptions, meta tools) are serialized and counted together.
   */
  search(a: SearchAddition): number {
    let tokens = this.text(a.text);
    const others: Definition[] = [];
    for (const d of a.definitions ?? []) {
      const i = this.position.get(d.name);
      const t = i === undefined ? undefined : this.catalog.tools[i]!;
      if (t && t.description === d.description && t.inputSchema === d.inputSchema) tokens += this.toolTokensAt(i!);
      else others.push(d);
    }
    return tokens + this.definitionsTokens(others);
  }
}

/** Ranked tools a retriever's turn puts in front of the model (the session figures' exposed set). */
export const RETRIEVER_TURN_SET = 5;

/**
 * A retriever's turn in tokens: `search` = the top {@link RETRIEVER_TURN_SET} of `ranked`; `before` =
 * the caller's pinned tools outside that top, each once. `pinned` may name any tools: only the
 * catalog's pinned ones count (so the caller's whole pinned set can be passed as the policy's
 * appended list plus the case's ranked tools, whatever mode ranked them).
 */
export function retrieverTokens(meter: TokenMeter): (ranked: readonly string[], pinned: readonly string[]) => { before: number; search: number } {
  return (ranked, pinned) => {
    const top = ranked.slice(0, RETRIEVER_TURN_SET);
    const counted = new Set(top);
    let before = 0;
    for (const id of pinned) {
      if (counted.has(id) || !meter.isPinned(id)) continue;
      counted.add(id);
      before += meter.toolTokens(id);
    }
    return { before, search: top.reduce((a, id) => a + meter.toolTokens(id), 0) };
  };
}
