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
 * terms' postings, into a reused Float64Array with a touched-doc list to reset, followed by a
 * top-k binary heap in exactly `rankStable` order (score descending, then tool id ascending, via a
 * precomputed rank of each doc's id).
 *
 * Admission (which scored documents are returned, {@link Admission}): `'any-term'` (default) returns
 * every document sharing a query term (score > 0); `'hermes'` is Hermes Agent's rarest-token gate and
 * coverage floor (`NousResearch/hermes-agent` `tools/tool_search_catalog.py` @13a4e497). Admission
 * only filters: the scores of admitted documents are those of `'any-term'`.
 */
import { checkedMask } from '../rank.ts';
import type { Catalog, Tool } from '../../catalog/types.ts';
import type { Describable, Hit, Retriever, SearchContext } from '../types.ts';
import { checkBM25Params, idf as idfOf, termWeight, type BM25Params } from './score.ts';
import { checkTokenizerOptions, makePipeline, type TokenPipeline, type TokenizerOptions } from './tokenize.ts';

/** The indexed fields, in the order their weighted frequencies are summed. */
export const FIELD_NAMES = ['name', 'namespace', 'summary', 'description', 'examples', 'params'] as const;
export type FieldName = (typeof FIELD_NAMES)[number];

/**
 * Per-field weights (finite, ≥ 0; `0` = the field is not indexed). Each occurrence of a term in
 * field f adds w_f to the term's frequency and w_f to the document's length.
 * - `name`: the tool's `name`, then its `title` if any;
 * - `namespace`: the routing namespace (server or plugin name, `core`);
 * - `summary`, `description`: as written;
 * - `examples`: each example request;
 * - `params`: the top-level `inputSchema.properties` names (not their descriptions).
 */
export type FieldWeights = Record<FieldName, number>;

/**
 * Which documents a search may return (scores are the same either way):
 * - `'any-term'`: every document that contains at least one query term (score > 0), the textbook rule;
 * - `'hermes'`: Hermes Agent's admission (`search_catalog` in `tools/tool_search_catalog.py`):
 *   1. the **gate token** is the query token with the highest idf, the first in query order on a tie;
 *      a token no document contains has df 0 and so the highest idf of all (idf falls strictly with
 *      df), so a query with any unknown token admits nothing;
 *   2. a document must contain the gate token;
 *   3. **coverage floor**: with *answerable* = the unique query terms some document contains, a
 *      document must contain at least ceil(0.5 · answerable) of them when answerable ≥ 4, else 1.
 *   Query tokens are those the tokenizer keeps (stop words, if any, are not query tokens). Hermes's
 *   exact-name rule is not a BM25 matter: the Hermes profile adds it on top.
 */
export type Admission = 'any-term' | 'hermes';

export const ADMISSIONS: readonly Admission[] = ['any-term', 'hermes'];

/** `'hermes'` coverage floor: engages from this many answerable terms (`MIN_ANSWERABLE_TERMS_FOR_COVERAGE`). */
export const HERMES_MIN_ANSWERABLE_TERMS = 4;
/** `'hermes'` coverage floor: the share of answerable terms a document must contain (`MIN_QUERY_TERM_COVERAGE`). */
export const HERMES_MIN_TERM_COVERAGE = 0.5;

/** How many of `answerable` unique query terms a document must contain under `'hermes'` admission. */
export function hermesRequiredTerms(answerable: number): number {
  return answerable < HERMES_MIN_ANSWERABLE_TERMS ? 1 : Math.ceil(answerable * HERMES_MIN_TERM_COVERAGE);
}

export interface Bm25Options {
  params: BM25Params;
  tokenizer: TokenizerOptions;
  fields: FieldWeights;
  /** Which documents a search may return; default `'any-term'` (see {@link Admission}). */
  admission?: Admission;
}

/**
 * A document builder that replaces the fields: a harness emulation (Codex, Hermes) indexes the exact
 * text its harness builds for a tool. The texts are indexed as one field of weight 1.
 */
export interface DocumentText {
  /** Short name recorded in `describe()` (e.g. `codex-mcp-search-text`). */
  label: string;
  texts(tool: Tool): readonly string[];
}

/** The texts of one field of a tool (see {@link FieldWeights}). */
export function fieldTexts(tool: Tool, field: FieldName): readonly string[] {
  switch (field) {
    case 'name':
      return tool.title !== undefined && tool.title !== '' ? [tool.name, tool.title] : [tool.name];
    case 'namespace':
      return [tool.namespace];
    case 'summary':
      return [tool.summary];
    case 'description':
      return [tool.description];
    case 'examples':
      return tool.examples;
    case 'params': {
      const props = tool.inputSchema?.properties;
      return props !== null && typeof props === 'object' && !Array.isArray(props) ? Object.keys(props) : [];
    }
  }
}

/** Throws a `RangeError` if any option is out of range. */
export function checkBm25Options(o: Bm25Options): void {
  checkBM25Params(o.params);
  checkTokenizerOptions(o.tokenizer);
  for (const f of FIELD_NAMES) {
    const w = o.fields[f];
    if (typeof w !== 'number' || !Number.isFinite(w) || w < 0) throw new RangeError(`field weight "${f}" must be a finite number ≥ 0 (got ${w})`);
  }
  for (const f of Object.keys(o.fields)) {
    if (!(FIELD_NAMES as readonly string[]).includes(f)) throw new RangeError(`unknown field "${f}" (fields: ${FIELD_NAMES.join(', ')})`);
  }
  if (o.admission !== undefined && !ADMISSIONS.includes(o.admission)) {
    throw new RangeError(`admission must be one of ${ADMISSIONS.join(', ')} (got ${JSON.stringify(o.admission)})`);
  }
}

/** Query-term codes besides term ids: the tokenizer drops the token / no document contains it. */
const DROPPED = -1;
const UNKNOWN = -2;

/** Raw-token → term-id memo entries kept for query words not in the index (bounds memory). */
const QUERY_MEMO_LIMIT = 1 << 16;

/** Growable typed-array helpers for the build. */
function growU32(a: Uint32Array, min: number): Uint32Array {
  if (a.length >= min) return a;
  const b = new Uint32Array(Math.max(min, a.length * 2));
  b.set(a);
  return b;
}
function growF64(a: Float64Array, min: number): Float64Array {
  if (a.length >= min) return a;
  const b = new Float64Array(Math.max(min, a.length * 2));
  b.set(a);
  return b;
}
/** A copy of `a` with room for exactly `size` values (`size` ≥ `a.length`). */
function resizeU32(a: Uint32Array, size: number): Uint32Array {
  const b = new Uint32Array(size);
  b.set(a);
  return b;
}
function resizeF64(a: Float64Array, size: number): Float64Array {
  const b = new Float64Array(size);
  b.set(a);
  return b;
}

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
  private heap = new Uint32Array(0);
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
    const { fields, params } = this.options;
    const tools = catalog.tools;
    const N = tools.length;
    const { scan, term } = this.pipeline;
    const rawToTerm = new Map<string, number>();
    const termIds = new Map<string, number>();
    let V = 0;

    // Per-field counts and per-doc weighted tf, indexed by term id, with touched lists to reset.
    let fieldCount: Uint32Array = new Uint32Array(1024);
    let fieldTouched: Uint32Array = new Uint32Array(256);
    let nField = 0;
    let fieldLen = 0;
    let docTf: Float64Array = new Float64Array(1024);
    let docTouched: Uint32Array = new Uint32Array(256);
    let nDoc = 0;
    // All (doc, term, tf) pairs, doc-major.
    let pairTerm: Uint32Array = new Uint32Array(1 << 16);
    let pairTf: Float64Array = new Float64Array(1 << 16);
    let nPairs = 0;
    const docStart = new Uint32Array(N + 1);
    const dl = new Float64Array(N);
    let df: Uint32Array = new Uint32Array(1024);

    /** Term id of a raw token (creating it), or -1 if the tokenizer drops it. */
    const termIdOf = (raw: string): number => {
      let t = rawToTerm.get(raw);
      if (t === undefined) {
        const s = term(raw);
        if (s === null) t = -1;
        else {
          t = termIds.get(s);
          if (t === undefined) {
            t = V++;
            termIds.set(s, t);
            if (V > fieldCount.length) {
              fieldCount = growU32(fieldCount, V);
              docTf = growF64(docTf, V);
              df = growU32(df, V);
            }
          }
        }
        rawToTerm.set(raw, t);
      }
      return t;
    };
    const addTerm = (t: number): void => {
      if (fieldCount[t] === 0) {
        fieldTouched = growU32(fieldTouched, nField + 1);
        fieldTouched[nField++] = t;
      }
      fieldCount[t]!++;
      fieldLen++;
    };
    const onToken = (raw: string): void => {
      const t = termIdOf(raw);
      if (t >= 0) addTerm(t);
    };

    const document = this.document;
    const activeFields: readonly (FieldName | 'document')[] = document ? ['document'] : FIELD_NAMES.filter((f) => fields[f] > 0);
    for (let d = 0; d < N; d++) {
      const tool = tools[d]!;
      let len = 0;
      for (const f of activeFields) {
        const w = f === 'document' ? 1 : fields[f];
        nField = 0;
        fieldLen = 0;
        for (const text of f === 'document' ? document!.texts(tool) : fieldTexts(tool, f)) scan(text, onToken);
        for (let i = 0; i < nField; i++) {
          const t = fieldTouched[i]!;
          if (docTf[t] === 0) {
            docTouched = growU32(docTouched, nDoc + 1);
            docTouched[nDoc++] = t;
          }
          docTf[t]! += w * fieldCount[t]!;
          fieldCount[t] = 0;
        }
        len += w * fieldLen;
      }
      dl[d] = len;
      docStart[d] = nPairs;
      if (nPairs + nDoc > pairTerm.length) {
        // Grow to the projected total (pairs per document so far × N, plus 1/8), at least 1.25×: a
        // large catalog then allocates the pair arrays about once instead of doubling ~8 times. At
        // 500,000 tools the doubling allocated ~400 MB of array buffers, and every ~64 MB of them
        // starts a full GC (V8's external-memory pressure) that marks the whole heap, the caller's
        // catalog included: a cost that grows with the square of the catalog.
        const projected = Math.ceil(((nPairs + nDoc) / (d + 1)) * N * 1.125);
        const size = Math.max(nPairs + nDoc, projected, Math.ceil(pairTerm.length * 1.25));
        pairTerm = resizeU32(pairTerm, size);
        pairTf = resizeF64(pairTf, size);
      }
      for (let i = 0; i < nDoc; i++) {
        const t = docTouched[i]!;
        pairTerm[nPairs] = t;
        pairTf[nPairs++] = docTf[t]!;
        docTf[t] = 0;
        df[t]!++;
      }
      nDoc = 0;
    }
    docStart[N] = nPairs;

    let sumDl = 0;
    for (let d = 0; d < N; d++) sumDl += dl[d]!;
    const avgdl = N > 0 && sumDl > 0 ? sumDl / N : 1;

    // CSR postings: term t's postings are postDoc/postWeight[postStart[t] .. postStart[t+1]).
    const postStart = new Uint32Array(V + 1);
    for (let t = 0; t < V; t++) postStart[t + 1] = postStart[t]! + df[t]!;
    const cursor = postStart.slice(0, V);
    const postDoc = new Uint32Array(nPairs);
    const postWeight = new Float64Array(nPairs);
    const { k1, b } = params;
    for (let d = 0; d < N; d++) {
      const docLen = dl[d]!;
      for (let p = docStart[d]!; p < docStart[d + 1]!; p++) {
        const t = pairTerm[p]!;
        const at = cursor[t]!++;
        postDoc[at] = d;
        postWeight[at] = termWeight(pairTf[p]!, docLen, avgdl, k1, b);
      }
    }
    const idf = new Float64Array(V);
    for (let t = 0; t < V; t++) idf[t] = idfOf(N, df[t]!);

    // Tie-break rank: position of each doc's id in code-unit order.
    const ids = tools.map((t) => t.id);
    const order = Array.from({ length: N }, (_, i) => i).sort((x, y) => (ids[x]! < ids[y]! ? -1 : ids[x]! > ids[y]! ? 1 : x - y));
    const rank = new Uint32Array(N);
    for (let r = 0; r < N; r++) rank[order[r]!] = r;

    this.rawToTerm = rawToTerm;
    this.queryMemoSize = 0;
    this.termIds = termIds;
    this.ids = ids;
    this.n = N;
    this.avgdl = avgdl;
    this.idf = idf;
    this.postStart = postStart;
    this.postDoc = postDoc;
    this.postWeight = postWeight;
    this.rank = rank;
    this.acc = new Float64Array(N);
    this.mark = new Uint8Array(N);
    this.touched = new Uint32Array(N);
    this.heap = new Uint32Array(N);
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

  /** Tool a ranks before tool b: higher score, or equal score and smaller id (rankStable order). */
  private before(a: number, b: number): boolean {
    const sa = this.acc[a]!;
    const sb = this.acc[b]!;
    return sa > sb || (sa === sb && this.rank[a]! < this.rank[b]!);
  }

  /** Restore the heap (worst at the root) after its root was replaced. */
  private siftDown(size: number): void {
    const heap = this.heap;
    const x = heap[0]!;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= size) break;
      const r = l + 1;
      // The worse child (the one that ranks later).
      const c = r < size && this.before(heap[l]!, heap[r]!) ? r : l;
      if (!this.before(x, heap[c]!)) break; // x ranks after its worse child: done
      heap[i] = heap[c]!;
      i = c;
    }
    heap[i] = x;
  }

  /** The best `k` touched docs (0 < k ≤ nTouched) in rankStable order, via a size-k heap with the worst at the root. */
  private topK(k: number): Hit[] {
    const { acc, heap, touched, ids } = this;
    let size = 0;
    // Once the heap is full, a tool scoring below its worst cannot enter: one comparison, no call.
    let worst = -Infinity;
    for (let j = 0; j < this.nTouched; j++) {
      const d = touched[j]!;
      if (acc[d]! < worst) continue;
      if (size < k) {
        // Sift up: every parent ranks after its children.
        let i = size++;
        while (i > 0) {
          const parent = (i - 1) >> 1;
          if (!this.before(heap[parent]!, d)) break;
          heap[i] = heap[parent]!;
          i = parent;
        }
        heap[i] = d;
        if (size === k) worst = acc[heap[0]!]!;
      } else if (this.before(d, heap[0]!)) {
        heap[0] = d;
        this.siftDown(size);
        worst = acc[heap[0]!]!;
      }
    }
    // Pop worst first, filling the result from the back.
    const out = new Array<Hit>(size);
    while (size > 0) {
      const d = heap[0]!;
      out[size - 1] = { id: ids[d]!, score: acc[d]! };
      heap[0] = heap[--size]!;
      if (size > 1) this.siftDown(size);
    }
    return out;
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
