/**
 * A fielded BM25 retriever over a catalog's tools, built for 50,000-tool catalogs.
 *
 * Model (BM25F-style weighted term frequency, Codex/Lucene idf):
 *   tf(t, d)  = Σ_f w_f · tf_f(t, d)        summed over fields in the order of {@link FIELD_NAMES}
 *   dl(d)     = Σ_f w_f · len_f(d)          len_f = the field's token count after the tokenizer
 *   avgdl     = mean dl over the catalog (1 if the catalog is empty or every document is)
 *   score(q,d)= Σ over every query token occurrence t, in query order, of idf(N, df(t)) · termWeight(tf, dl, avgdl, k1, b)
 * N, df and avgdl are statistics of the **whole indexed catalog**, not of the `allowed` subset: the
 * mask decides which tools are scored and returned, never the weights of the others.
 *
 * Layout: CSR postings (term → a slice of `postDoc`/`postWeight`, doc ids ascending, weights
 * `termWeight(...)` precomputed), so a search is only `acc[doc] += idf · weight` over the query
 * terms' postings, into a reused Float64Array with a touched-doc list to reset, followed by
 * `topByScore` (rank.ts) over the touched docs, in exactly `rankStable` order (score descending,
 * then tool id ascending, via a precomputed rank of each doc's id). The build is in `postings.ts`,
 * the options in `options.ts`.
 *
 * Admission (which scored documents are returned, {@link Admission}): `'any-term'` (default) returns
 * every document sharing a query term (score > 0); `'hermes'` is Hermes Agent's rarest-token gate and
 * coverage floor (`NousResearch/hermes-agent` `tools/tool_search_catalog.py` @13a4e497). Admission
 * only filters: the scores of admitted documents are those of `'any-term'`.
 */
import { checkedMask, idRanks, topByScore } from '../rank.ts';
import type { Catalog } from '../../catalog/types.ts';
import type { Describable, Hit, Retriever, SearchContext } from '../types.ts';
import { checkBm25Options, hermesRequiredTerms, type Admission, type Bm25Options, type DocumentText } from './options.ts';
import { buildPostings } from './postings.ts';
import { idf as idfOf } from './score.ts';
import { makePipeline, type TokenPipeline } from './tokenize.ts';

// The options and the build live in their own modules; importers read them from here.
export {
  ADMISSIONS,
  checkBm25Options,
  FIELD_NAMES,
  fieldTexts,
  HERMES_MIN_ANSWERABLE_TERMS,
  HERMES_MIN_TERM_COVERAGE,
  hermesRequiredTerms,
  type Admission,
  type Bm25Options,
  type DocumentText,
  type FieldName,
  type FieldWeights,
} from './options.ts';

/** Query-term codes besides term ids: the tokenizer drops the token / no document contains it. */
const DROPPED = -1;
const UNKNOWN = -2;

/** Raw-token → term-id memo entries kept for query words not in the index (bounds memory). */
const QUERY_MEMO_LIMIT = 1 << 16;

export class Bm25Retriever implements Retriever, Describable {
  readonly name: string;
  private readonly options: Bm25Options;
  private readonly pipeline: TokenPipeline;

  // Index (set by `index`).
  private built = false;
  private ids: string[] = [];
  private n = 0;
  private avgdl = 1;
  /** Raw token (as `scan` gives it) → term id, {@link DROPPED} if the tokenizer drops it, {@link UNKNOWN} if no document has it. */
  private rawToTerm = new Map<string, number>();
  private queryMemoSize = 0;
  private termIds = new Map<string, number>();
  private idf = new Float64Array(0);
  private postStart = new Uint32Array(1);
  private postDoc = new Uint32Array(0);
  private postWeight = new Float64Array(0);
  /** rank[d] = position of tool d's id in code-unit order (the tie-break). */
  private rank = new Uint32Array(0);

  // Search scratch, reused.
  private acc = new Float64Array(0);
  private mark = new Uint8Array(0);
  private touched = new Uint32Array(0);
  private nTouched = 0;
  private allowed: Uint8Array | undefined = undefined;
  private readonly onQueryToken: (raw: string) => void;
  private readonly document: DocumentText | undefined;
  private readonly admission: Admission;
  // `'hermes'` admission scratch: the query's terms in order, and per doc the distinct answerable terms it contains.
  private queryTerms: number[] = [];
  private cover = new Uint32Array(0);
  private readonly onHermesQueryToken: (raw: string) => void;

  constructor(name: string, options: Bm25Options, document?: DocumentText) {
    checkBm25Options(options);
    this.name = name;
    this.options = structuredClone(options);
    this.document = document;
    this.pipeline = makePipeline(this.options.tokenizer);
    this.admission = this.options.admission ?? 'any-term';
    this.onQueryToken = (raw) => this.accumulate(this.queryTerm(raw));
    this.onHermesQueryToken = (raw) => {
      const t = this.queryTerm(raw);
      if (t !== DROPPED) this.queryTerms.push(t);
    };
  }

  describe(): Record<string, unknown> {
    const o = this.options;
    return {
      retriever: 'bm25',
      name: this.name,
      params: { ...o.params },
      tokenizer: { ...o.tokenizer },
      ...(this.document ? { document: this.document.label } : { fields: { ...o.fields } }),
      idf: 'ln(1 + (N - df + 0.5) / (df + 0.5)), N and df over the whole catalog',
      tf: 'sum over fields of weight * count',
      queryTerms: 'every occurrence counts',
      ...(this.admission === 'hermes'
        ? {
            admission: 'hermes',
            returns:
              'documents containing the gate token (the query token of highest idf, first in query order; a token no document has admits nothing) and, from 4 answerable (df > 0) unique query terms, at least ceil(0.5 * answerable) of them; rankStable order',
          }
        : { returns: 'score > 0 only, rankStable order' }),
    };
  }

  async index(catalog: Catalog): Promise<void> {
    const built = buildPostings(catalog.tools, this.pipeline, this.options, this.document);
    const N = catalog.tools.length;
    this.rawToTerm = built.rawToTerm;
    this.queryMemoSize = 0;
    this.termIds = built.termIds;
    this.ids = catalog.tools.map((t) => t.id);
    this.n = N;
    this.avgdl = built.avgdl;
    this.idf = built.idf;
    this.postStart = built.postStart;
    this.postDoc = built.postDoc;
    this.postWeight = built.postWeight;
    this.rank = idRanks(this.ids);
    this.acc = new Float64Array(N);
    this.mark = new Uint8Array(N);
    this.touched = new Uint32Array(N);
    this.cover = this.admission === 'hermes' ? new Uint32Array(N) : new Uint32Array(0);
    this.nTouched = 0;
    this.built = true;
  }

  /** Statistics of the built index (for reports and tests). */
  stats(): { tools: number; terms: number; postings: number; avgdl: number } {
    return { tools: this.n, terms: this.idf.length, postings: this.postDoc.length, avgdl: this.avgdl };
  }

  async search(request: string, context: SearchContext): Promise<Hit[]> {
    if (!this.built) throw new Error(`retriever "${this.name}": search() called before index()`);
    const allowed = checkedMask(this.name, context.allowed, this.n);
    const k = Math.floor(context.k);
    if (!(k > 0)) return [];
    this.allowed = allowed;
    this.nTouched = 0;
    try {
      if (this.admission === 'hermes') this.accumulateHermes(request);
      else this.pipeline.scan(request, this.onQueryToken);
      return this.topK(Math.min(k, this.nTouched));
    } finally {
      this.reset();
      this.allowed = undefined;
      this.queryTerms.length = 0;
    }
  }

  /** Every allowed tool's score by position (see `DenseScoring`): `returned` marks the tools `search` would return. */
  async denseScores(request: string, context: Omit<SearchContext, 'k'>): Promise<{ scores: Float64Array; returned: Uint8Array }> {
    if (!this.built) throw new Error(`retriever "${this.name}": denseScores() called before index()`);
    const allowed = checkedMask(this.name, context.allowed, this.n);
    this.allowed = allowed;
    this.nTouched = 0;
    const scores = new Float64Array(this.n);
    const returned = new Uint8Array(this.n);
    try {
      if (this.admission === 'hermes') this.accumulateHermes(request);
      else this.pipeline.scan(request, this.onQueryToken);
      for (let j = 0; j < this.nTouched; j++) {
        const d = this.touched[j]!;
        scores[d] = this.acc[d]!;
        returned[d] = 1;
      }
      return { scores, returned };
    } finally {
      this.reset();
      this.allowed = undefined;
      this.queryTerms.length = 0;
    }
  }

  /** The raw words of `text`, in order, whose term some indexed document contains (the words a search can match). */
  knownWords(text: string): string[] {
    if (!this.built) throw new Error(`retriever "${this.name}": knownWords() called before index()`);
    const out: string[] = [];
    this.pipeline.scan(text, (raw) => {
      if (this.queryTerm(raw) >= 0) out.push(raw);
    });
    return out;
  }

  /** Term id of a raw query token, {@link DROPPED} if the tokenizer drops it, {@link UNKNOWN} if the index does not have it. */
  private queryTerm(raw: string): number {
    let t = this.rawToTerm.get(raw);
    if (t === undefined) {
      const s = this.pipeline.term(raw);
      t = s === null ? DROPPED : (this.termIds.get(s) ?? UNKNOWN);
      if (this.queryMemoSize < QUERY_MEMO_LIMIT) {
        this.queryMemoSize++;
        this.rawToTerm.set(raw, t);
      }
    }
    return t;
  }

  /** acc[d] += idf(t) · weight(t, d) for every allowed doc d in t's postings. */
  private accumulate(t: number): void {
    if (t < 0) return;
    const { acc, mark, touched, postDoc, postWeight, allowed } = this;
    const w = this.idf[t]!;
    const end = this.postStart[t + 1]!;
    let nTouched = this.nTouched;
    // Two loops, so the unrestricted caller (most requests) pays no mask test per posting.
    if (allowed === undefined) {
      for (let p = this.postStart[t]!; p < end; p++) {
        const d = postDoc[p]!;
        if (mark[d] === 0) {
          mark[d] = 1;
          touched[nTouched++] = d;
        }
        acc[d]! += w * postWeight[p]!;
      }
    } else {
      for (let p = this.postStart[t]!; p < end; p++) {
        const d = postDoc[p]!;
        if (allowed[d] !== 1) continue;
        if (mark[d] === 0) {
          mark[d] = 1;
          touched[nTouched++] = d;
        }
        acc[d]! += w * postWeight[p]!;
      }
    }
    this.nTouched = nTouched;
  }

  /** idf of a query term code (an unknown term has df 0). */
  private queryIdf(t: number): number {
    return t >= 0 ? this.idf[t]! : idfOf(this.n, 0);
  }

  /**
   * `'hermes'` admission: touch only the allowed documents that contain the gate token, accumulate
   * every query token occurrence (in query order, as `'any-term'` does) into them, count the distinct
   * answerable terms each contains, then keep in the touched list only those meeting the coverage
   * floor (the others are reset at once).
   */
  private accumulateHermes(request: string): void {
    const q = this.queryTerms;
    this.pipeline.scan(request, this.onHermesQueryToken);
    if (q.length === 0) return;
    // Gate: highest idf, first in query order on a tie (strict >).
    let gate = q[0]!;
    let gateIdf = this.queryIdf(gate);
    for (let i = 1; i < q.length; i++) {
      const w = this.queryIdf(q[i]!);
      if (w > gateIdf) {
        gate = q[i]!;
        gateIdf = w;
      }
    }
    if (gate < 0) return; // no document has the gate token: nothing is admitted
    let answerable = 0;
    for (let i = 0; i < q.length; i++) if (q[i]! >= 0 && q.indexOf(q[i]!) === i) answerable++;
    const required = hermesRequiredTerms(answerable);

    const { acc, mark, touched, cover, postDoc, postWeight, postStart, allowed } = this;
    let nTouched = 0;
    for (let p = postStart[gate]!, end = postStart[gate + 1]!; p < end; p++) {
      const d = postDoc[p]!;
      if (allowed !== undefined && allowed[d] !== 1) continue;
      mark[d] = 1;
      touched[nTouched++] = d;
    }
    this.nTouched = nTouched;
    if (nTouched === 0) return;
    for (let i = 0; i < q.length; i++) {
      const t = q[i]!;
      if (t < 0) continue;
      const first = q.indexOf(t) === i;
      const w = this.idf[t]!;
      for (let p = postStart[t]!, end = postStart[t + 1]!; p < end; p++) {
        const d = postDoc[p]!;
        if (mark[d] === 0) continue;
        acc[d]! += w * postWeight[p]!;
        if (first) cover[d]!++;
      }
    }
    // Coverage floor: compact the touched list.
    let kept = 0;
    for (let j = 0; j < nTouched; j++) {
      const d = touched[j]!;
      if (cover[d]! >= required) touched[kept++] = d;
      else {
        acc[d] = 0;
        mark[d] = 0;
        cover[d] = 0;
      }
    }
    this.nTouched = kept;
  }

  /** The best `k` touched docs in rankStable order. */
  private topK(k: number): Hit[] {
    const { acc, ids } = this;
    return topByScore(acc, this.rank, k, this.touched.subarray(0, this.nTouched)).map((d) => ({ id: ids[d]!, score: acc[d]! }));
  }

  private reset(): void {
    const { acc, mark, touched, cover } = this;
    const hermes = this.admission === 'hermes';
    for (let j = 0; j < this.nTouched; j++) {
      const d = touched[j]!;
      acc[d] = 0;
      mark[d] = 0;
      if (hermes) cover[d] = 0;
    }
    this.nTouched = 0;
  }
}
