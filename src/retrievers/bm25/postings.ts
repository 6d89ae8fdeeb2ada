/**
 * The BM25 index build (see `index.ts` for the model): every tool's fields tokenised once, the
 * weighted term frequencies summed per document, then CSR postings (term → a slice of
 * `postDoc`/`postWeight`, doc ids ascending, weights `termWeight(...)` precomputed) and each
 * term's idf over the whole catalog.
 */
import type { Tool } from '../../catalog/types.ts';
import { FIELD_NAMES, fieldTexts, type Bm25Options, type DocumentText, type FieldName } from './options.ts';
import { idf as idfOf, termWeight } from './score.ts';
import type { TokenPipeline } from './tokenize.ts';

/** A built index: the vocabulary, the postings and the statistics a search needs. */
export interface Postings {
  /** Raw token (as `scan` gives it) → term id, or −1 if the tokenizer drops it (every token seen in the catalog). */
  rawToTerm: Map<string, number>;
  /** Term (after the tokenizer) → term id. */
  termIds: Map<string, number>;
  avgdl: number;
  /** idf of each term id, over the whole catalog. */
  idf: Float64Array<ArrayBuffer>;
  /** Term t's postings are postDoc/postWeight[postStart[t] .. postStart[t + 1]). */
  postStart: Uint32Array<ArrayBuffer>;
  postDoc: Uint32Array<ArrayBuffer>;
  postWeight: Float64Array<ArrayBuffer>;
}

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

/**
 * Index `tools` with `pipeline`: their `options.fields` (or the texts of `document`, one field of
 * weight 1) with `options.params`.
 */
export function buildPostings(tools: readonly Tool[], pipeline: TokenPipeline, options: Bm25Options, document: DocumentText | undefined): Postings {
  const { fields, params } = options;
  const N = tools.length;
  const { scan, term } = pipeline;
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

  return { rawToTerm, termIds, avgdl, idf, postStart, postDoc, postWeight };
}
