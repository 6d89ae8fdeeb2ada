/**
 * Claude Code's `ToolSearch` engine, from third-party analyses of the bundled source
 * (`searchToolsWithKeywords` / `parseToolName` in `ToolSearchTool.ts`; **unofficial,
 * reverse-engineered**, may drift): fast paths (exact name, `select:`, `mcp__` prefix), `+term`
 * filters, and per-term keyword scoring over name parts and the description. It searches only the
 * admitted deferred tools of the caller ({@link CeilingPrefilter}).
 */
import { idRanks, topByScore } from '../../retrievers/rank.ts';
import type { Catalog } from '../../catalog/types.ts';
import { checkedMask, compareHits } from '../../retrievers/rank.ts';
import type { Describable, Hit, Retriever, SearchContext } from '../../retrievers/types.ts';
import { isDeferrable } from '../deferral.ts';
import { describeWith } from '../facts.ts';
import type { ProfileOptions } from '../types.ts';
import { cut2k } from './advertisement.ts';
import { CLAUDE_CODE_SEARCH_FACTS } from './facts.ts';
import { claudeCodeDeferral, resolveClaudeCodeOptions, type ClaudeCodeOptions, type ResolvedClaudeCodeOptions } from './config.ts';
import { CeilingPrefilter, prefilterDescription, type Admitted, type PrefilterTrace } from './prefilter.ts';

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
    ? body
        .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
        .replace(/([A-Z])([A-Z][a-z])/g, '$1 $2')
        .toLowerCase()
        .match(/[a-z0-9]+/g)
    : body
        .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
        .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
        .toLowerCase()
        .match(/[\p{L}\p{N}]+/gu);
  return spaced ? [...new Set(spaced)] : [];
}

const ASCII = /^[\x00-\x7f]*$/;

const WORD_RUN = /[a-z0-9_]+/g;
const WORD_TERM = /^[a-z0-9_]+$/;

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
    const names = select[1]!
      .split(',')
      .map((s) => s.trim().toLowerCase())
      .filter((s) => s !== '');
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
 * then the keyword scoring (per term: +10, +12 for MCP, if a name part equals it, else +5, +6 for
 * MCP, if a part contains it; +4 for a `\bterm\b` match in the search hint, +2 in the description;
 * {@link KEYWORD_WEIGHTS}) with `+term` filters, score > 0, `rankStable`, at most `k`. Every path
 * reaches only the caller's admitted deferred tools ({@link CeilingPrefilter}), plus eager tools by
 * exact name. Built on inverted maps (name part → tools, distinct parts for containment,
 * description word → tools), so a search touches only the tools its terms reach.
 */
export class ClaudeCodeToolSearch implements Retriever, Describable {
  readonly name: string;
  private readonly o: ResolvedClaudeCodeOptions;
  private catalog: Catalog | undefined;
  private n = 0;
  private ids: string[] = [];
  /** 1 = deferrable */
  private deferred = new Uint8Array(0);
  private isMcp = new Uint8Array(0);
  private idRank = new Uint32Array(0);
  /** FAST_PATH_SCORE for every tool: the score of a name-prefix match. */
  private fastScores = new Float64Array(0);
  private byId = new Map<string, number>();
  private byName = new Map<string, number[]>();
  private partTools = new Map<string, Uint32Array>();
  private partList: string[] = [];
  private containing = new Map<string, string[]>();
  private wordTools = new Map<string, Uint32Array>();
  private descLower: string[] = [];
  private deferredPositions = new Uint32Array(0);
  private readonly prefilter: CeilingPrefilter;
  // Scratch.
  private score = new Int32Array(0);
  private reqCount = new Uint16Array(0);
  private stamp = new Uint32Array(0);
  private serial = 0;
  private touched: number[] = [];
  private trace: Readonly<PrefilterTrace> = { visible: 0, applied: false, byRole: false, byNamespace: false, namespaces: [], admitted: 0 };

  constructor(name: string, options: ProfileOptions & ClaudeCodeOptions = {}) {
    this.name = name;
    this.o = resolveClaudeCodeOptions(options);
    this.prefilter = new CeilingPrefilter(this.o.ceiling, this.o.roles);
  }

  get ceiling(): number {
    return this.o.ceiling;
  }

  describe(): Record<string, unknown> {
    return describeWith(CLAUDE_CODE_SEARCH_FACTS.description, {
      name: this.name,
      fastPathScore: FAST_PATH_SCORE,
      weights: { ...KEYWORD_WEIGHTS },
      ceiling: this.o.ceiling,
      prefilter: this.prefilterDescription(),
    });
  }

  prefilterDescription(): string {
    return prefilterDescription(this.o.ceiling);
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
    const deferral = claudeCodeDeferral(this.o.alwaysLoad);
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
      if (!isDeferrable(t, deferral)) return;
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
    this.idRank = idRanks(this.ids);
    this.fastScores = new Float64Array(n).fill(FAST_PATH_SCORE);

    this.prefilter.index(catalog, this.deferredPositions);
    this.score = new Int32Array(n);
    this.reqCount = new Uint16Array(n);
    this.stamp = new Uint32Array(n);
    this.serial = 0;
    this.touched = [];
    this.trace = { visible: 0, applied: false, byRole: false, byNamespace: false, namespaces: [], admitted: 0 };
    this.catalog = catalog;
  }

  /**
   * The caller's admitted deferred tools: what the advertisement names, what a search can reach and
   * what crosses the wire (the same set; {@link CeilingPrefilter}). Request-independent.
   */
  admitted(allowed: Uint8Array | undefined, role: string | undefined): Admitted {
    if (!this.catalog) throw new Error(`retriever "${this.name}": used before index()`);
    return this.prefilter.admitted(checkedMask(this.name, allowed, this.n), role);
  }

  async search(request: string, context: SearchContext): Promise<Hit[]> {
    if (!this.catalog) throw new Error(`retriever "${this.name}": search() called before index()`);
    const allowed = checkedMask(this.name, context.allowed, this.n);
    const k = Math.floor(context.k);
    const { mask: cand, trace } = this.prefilter.admitted(allowed, context.role);
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
      if (prefixed.length) return this.topK(prefixed, this.fastScores, k);
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
    const hits = this.topK(kept, score, k);
    for (const p of touched) {
      score[p] = 0;
      reqCount[p] = 0;
    }
    touched.length = 0;
    return hits;
  }

  /** The best `k` of `positions` by (score desc, id asc), as hits. */
  private topK(positions: readonly number[], scores: ArrayLike<number>, k: number): Hit[] {
    return topByScore(scores, this.idRank, k, positions).map((p) => ({ id: this.ids[p]!, score: scores[p]! }));
  }
}
