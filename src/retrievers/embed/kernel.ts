/**
 * Exact top-k over every vector of an index: the scoring kernel and the selection.
 *
 * Plain JavaScript dot products run at ~1.5 ns per multiply-add (V8 does not vectorise), i.e.
 * ~7.5 ms per query for 50,000 tools × 100 dims, 40× the cost of encoding the query with the
 * static model. So the dot products run in a tiny WebAssembly module using 128-bit SIMD, written
 * below as bytes (no toolchain, no dependency): ~0.9 ms for 50,000 × 100 float32 (bounded by
 * memory bandwidth: 22 MB read per query), ~0.4 ms int8. A JavaScript fallback (no WebAssembly
 * SIMD, or an index past wasm32's 4 GiB) gives bit-identical scores:
 *
 * - `float32` vectors, rows padded with zeros to a multiple of 16 floats: value x of a row goes to
 *   accumulator u = ⌊x/4⌋ mod 4, lane l = x mod 4, each step a float32 multiply then a float32 add
 *   (four independent f32x4 chains); then (acc0 + acc1) + (acc2 + acc3) lane-wise, then
 *   ((l0 + l1) + l2) + l3, all in float32. The fallback reproduces this with `Math.fround` (exact:
 *   a float32 product or sum computed in float64 and rounded once to float32 is the float32 result).
 * - `int8` vectors, rows padded to a multiple of 16 bytes: each row quantised symmetrically to int8
 *   (scale = max|v|/127), the query to int16 (its scale chosen so no int32 sum can overflow); the
 *   integer dot product is exact, rows are ranked by float32(dot · rowScale), and the reported
 *   score is that times queryScale (a common positive factor, so it cannot change the order).
 *
 * The `allowed` mask is applied inside the kernel: a row outside it is never multiplied, and never
 * selected. Selection is `topByScore` (rank.ts), in `rankStable` order via a precomputed rank of
 * each id. With the wasm kernel, a SIMD pass first bounds each block of 16 rows' allowed scores,
 * and the selection passes over blocks whose bound is below its heap's floor (for 50,000 random
 * rows and k = 10, most of the 3,125 blocks: ~20 µs instead of ~150 µs); int8 scores are
 * converted there too.
 *
 * `prepareBatch` scores a batch of queries known ahead (an evaluation's next requests) with kernels
 * that read each row once per block of up to 64 queries and score it against all of them while it
 * is in cache, computing each score exactly as the single-query kernel does: a single query streams
 * the whole index from memory (bounded by memory bandwidth at 384 dims), a batch is bounded by
 * arithmetic instead (50,000 × 384 float32: ~1.7 ms per query against ~6 ms alone, on the machine
 * where it was written; 50,560 × 100: ~0.45 ms against ~1.1 ms on a loaded 2-core VM). From each
 * query's kept scores, `searchPrepared` and `scoreAllPrepared` give exactly what `search` and
 * `scoreAll` give; `searchBatch` is both steps at once. `bench/dense.bench.ts` measures the single
 * and batched paths against the memory bandwidth. The module itself is in `kernel-wasm.ts`.
 */
import { topByScore } from '../rank.ts';
import { compiled, type KernelExports, SELECT_BLOCK } from './kernel-wasm.ts';

// The module's builder, for the tests that read it from here.
export { kernelWasm, SELECT_BLOCK } from './kernel-wasm.ts';

export type VectorType = 'float32' | 'int8';

// ---------------------------------------------------------------------------------------------
// The index.
// ---------------------------------------------------------------------------------------------

const align16 = (n: number) => (n + 15) & ~15;
const align64 = (n: number) => (n + 63) & ~63;
/** Queries scored together by `prepareBatch` (each row read once per block)… */
export const BATCH_BLOCK = 64;
/** …fewer if their scores (4 bytes per row each) would take more than this. */
const BATCH_OUT_BYTES = 64 * 2 ** 20;

/** Largest |int16 query value| such that Σ |q|·127 over `dims` fits in int32. */
export function queryInt16Max(dims: number): number {
  return Math.min(32767, Math.floor(0x7fffffff / (127 * Math.max(1, dims))));
}

/**
 * One query's score against every vector, from `VectorIndex.prepareBatch`: `keys[i]` is the score
 * the selection ranks row i by (float32: the dot product; int8: float32(dot · rowScale)), and a
 * reported score is `keys[i] · factor` (int8: the query scale; float32: 1).
 */
export interface PreparedQuery {
  readonly keys: Float32Array;
  readonly factor: number;
}

export interface TopHit {
  /** Position of the vector (the tool's catalog position). */
  index: number;
  score: number;
}

/**
 * `n` vectors of `dims` values with exact top-k search. `rank[i]` is vector i's position in the
 * tie-break order (its id's position in code-unit order).
 */
export class VectorIndex {
  readonly n: number;
  readonly dims: number;
  readonly type: VectorType;
  /** `wasm-simd` or `js`. */
  readonly kernel: 'wasm-simd' | 'js';
  private readonly rank: Uint32Array;
  private readonly stride: number; // bytes per stored row
  private readonly lanes: number; // values per stored row (dims padded)
  // Memory: [mask n][query][rows n × stride][out n × 4][row scales n × 4][scores n × 4][block
  // maxima ⌊n / 16⌋ × 4] (the last three for the wasm selection: scales and scores int8 only), then
  // (wasm, grown by the first batch) [batch mask n][batchSize queries][batchSize × out n × 4].
  private mem: Uint8Array;
  private readonly maskOff: number;
  private readonly queryOff: number;
  private readonly rowsOff: number;
  private readonly outOff: number;
  private readonly scalesOff: number;
  private readonly scoresOff: number;
  private readonly blockMaxOff: number;
  private readonly queryBytes: number;
  /** Offset of the batch region (wasm only); its room is allocated by the first `prepareBatch`. */
  private readonly batchOff: number;
  private batchReady = false;
  /** Queries per block of `prepareBatch`: BATCH_BLOCK, or fewer for a very large index. */
  private readonly batchSize: number;
  private readonly exports: KernelExports | null;
  private readonly rowScales: Float32Array; // int8 only
  private readonly scratch: Float32Array;
  /** The mask region currently holds all ones (the no-mask case), so it need not be rewritten. */
  private maskAllOnes = false;

  /** `vectors` = n × dims row-major. `useWasm: false` forces the JavaScript kernel (tests). */
  constructor(vectors: Float32Array, dims: number, rank: Uint32Array, type: VectorType = 'float32', useWasm = true) {
    if (!Number.isInteger(dims) || dims <= 0 || vectors.length % dims !== 0)
      throw new RangeError(`${vectors.length} values are not whole vectors of ${dims} dims`);
    const n = vectors.length / dims;
    if (rank.length !== n) throw new RangeError(`rank has ${rank.length} entries for ${n} vectors`);
    this.n = n;
    this.dims = dims;
    this.type = type;
    this.rank = rank;
    this.stride = type === 'float32' ? align64(dims * 4) : align16(dims);
    this.lanes = type === 'float32' ? this.stride / 4 : this.stride;
    const queryBytes = type === 'float32' ? this.stride : 2 * this.stride;
    this.maskOff = 0;
    this.queryOff = align16(n);
    this.rowsOff = this.queryOff + queryBytes;
    this.outOff = this.rowsOff + n * this.stride;
    this.scalesOff = this.outOff + 4 * n;
    this.scoresOff = this.scalesOff + (type === 'int8' ? 4 * n : 0);
    this.blockMaxOff = this.scoresOff + (type === 'int8' ? 4 * n : 0);
    this.queryBytes = queryBytes;
    const total = this.blockMaxOff + 4 * Math.floor(n / SELECT_BLOCK);
    this.batchOff = Math.ceil(total / 16) * 16;
    this.batchSize = Math.max(1, Math.min(BATCH_BLOCK, Math.floor(BATCH_OUT_BYTES / (4 * Math.max(1, n)))));
    const module = useWasm ? compiled() : null;
    let exports: KernelExports | null = null;
    if (module !== null) {
      try {
        exports = new WebAssembly.Instance(module, {}).exports as unknown as KernelExports;
        const pages = Math.ceil(total / 65536);
        const have = exports.mem.buffer.byteLength / 65536;
        if (pages > have) exports.mem.grow(pages - have); // RangeError past wasm32's 4 GiB: fall back to JS
      } catch {
        exports = null;
      }
    }
    if (exports !== null) {
      this.exports = exports;
      this.mem = new Uint8Array(exports.mem.buffer, 0, total);
      this.kernel = 'wasm-simd';
    } else {
      this.exports = null;
      this.mem = new Uint8Array(total);
      this.kernel = 'js';
    }
    this.rowScales = new Float32Array(type === 'int8' ? n : 0);
    this.scratch = new Float32Array(type === 'int8' && exports === null ? n : 0); // the JS selection's int8 scores
    const view = new DataView(this.mem.buffer, this.mem.byteOffset, this.mem.byteLength);
    for (let i = 0; i < n; i++) {
      const o = this.rowsOff + i * this.stride;
      if (type === 'float32') {
        for (let j = 0; j < dims; j++) view.setFloat32(o + 4 * j, vectors[i * dims + j]!, true);
      } else {
        let max = 0;
        for (let j = 0; j < dims; j++) max = Math.max(max, Math.abs(vectors[i * dims + j]!));
        const scale = Math.fround(max / 127);
        this.rowScales[i] = scale;
        view.setFloat32(this.scalesOff + 4 * i, scale, true);
        if (scale > 0) for (let j = 0; j < dims; j++) view.setInt8(o + j, Math.max(-127, Math.min(127, Math.round(vectors[i * dims + j]! / scale))));
      }
    }
  }

  /** Memory footprint of the stored vectors, in bytes. */
  get vectorBytes(): number {
    return this.n * this.stride;
  }

  /**
   * The best `k` vectors by dot product with `query` among those `allowed` (undefined = all), in
   * rankStable order. Vectors outside `allowed` are never scored.
   */
  search(query: Float32Array, k: number, allowed?: Uint8Array): TopHit[] {
    k = Math.min(Math.floor(k), this.n);
    if (!(k > 0)) return [];
    const { mask, queryScale } = this.dots(query, allowed);
    return this.select(this.outOff, mask, k, queryScale);
  }

  /**
   * `search` for each of a batch of queries, with one `allowed` mask for all of them or one per
   * query (undefined = all): the same hits, scores and order as
   * `queries.map((q, b) => search(q, k, allowed[b]))`, the queries scored together by `prepareBatch`.
   */
  searchBatch(queries: readonly Float32Array[], k: number, allowed?: Uint8Array | readonly (Uint8Array | undefined)[]): TopHit[][] {
    const masks: readonly (Uint8Array | undefined)[] = allowed === undefined || allowed instanceof Uint8Array ? queries.map(() => allowed) : allowed;
    if (masks.length !== queries.length) throw new RangeError(`${masks.length} allowed masks for ${queries.length} queries`);
    for (const m of masks) if (m !== undefined && m.length !== this.n) throw new RangeError(`allowed mask has ${m.length} entries for ${this.n} vectors`);
    return this.prepareBatch(queries).map((p, b) => this.searchPrepared(p, k, masks[b]));
  }

  /**
   * Every vector's score (as `search` reports it) by position; 0 outside `allowed`, which is never
   * scored. For fusion over the whole catalog without ranking it.
   */
  scoreAll(query: Float32Array, allowed?: Uint8Array): Float64Array {
    const out = new Float64Array(this.n);
    if (this.n === 0) return out;
    const { mask, queryScale } = this.dots(query, allowed);
    const mem = this.mem;
    if (this.type === 'float32') {
      const scores = new Float32Array(mem.buffer, mem.byteOffset + this.outOff, this.n);
      for (let i = 0; i < this.n; i++) if (mask[i] === 1) out[i] = scores[i]!;
    } else {
      const dots = new Int32Array(mem.buffer, mem.byteOffset + this.outOff, this.n);
      const scales = this.rowScales;
      const f = Math.fround;
      // as `select`: rowScale · dot in float32, then the query scale
      for (let i = 0; i < this.n; i++) if (mask[i] === 1) out[i] = f(dots[i]! * scales[i]!) * queryScale;
    }
    return out;
  }

  /**
   * Each query's score against every row, computed once ahead of the searches that will use it
   * (`searchPrepared`, `scoreAllPrepared`): with the WebAssembly kernel, blocks of up to
   * BATCH_BLOCK queries read each row once for the whole block (the batched kernels, bit-identical
   * to the single-query one); the JavaScript kernel runs them one by one. Each result holds n
   * float32 values (4n bytes): in `buffers[b]` for query b when given (an array of n floats no
   * longer in use, which saves allocating one per query), else in a new array.
   */
  prepareBatch(queries: readonly Float32Array[], buffers: readonly (Float32Array | undefined)[] = []): PreparedQuery[] {
    const { n, dims } = this;
    for (const q of queries) if (q.length !== dims) throw new RangeError(`query has ${q.length} dims, the index ${dims}`);
    for (const buffer of buffers) if (buffer !== undefined && buffer.length !== n) throw new RangeError(`a buffer of ${buffer.length} floats for ${n} vectors`);
    if (n === 0) return queries.map(() => ({ keys: new Float32Array(0), factor: 1 }));
    if (this.exports === null || !this.growForBatch()) {
      return queries.map((q, b) => {
        const { queryScale } = this.dots(q, undefined);
        return { keys: this.keysAt(this.outOff, buffers[b]), factor: queryScale };
      });
    }
    const out: PreparedQuery[] = [];
    const size = this.batchSize;
    const maskOff = this.batchOff;
    const queriesOff = maskOff + align16(n);
    const outOff = queriesOff + size * this.queryBytes;
    const f = this.type === 'float32' ? this.exports.f32batch : this.exports.i8batch;
    for (let b0 = 0; b0 < queries.length; b0 += size) {
      const block = queries.slice(b0, b0 + size);
      const mem = this.mem;
      mem.fill(1, maskOff, maskOff + n); // every row
      const view = new DataView(mem.buffer, mem.byteOffset, mem.byteLength);
      const scales = block.map((q, b) => this.loadQuery(view, q, queriesOff + b * this.queryBytes));
      f(queriesOff, this.rowsOff, n, this.stride, maskOff, outOff, block.length);
      block.forEach((_, b) => out.push({ keys: this.keysAt(outOff + 4 * n * b, buffers[b0 + b]), factor: scales[b]! }));
    }
    return out;
  }

  /** Room for the batch region in wasm memory; false if it cannot grow (then queries run one by one). */
  private growForBatch(): boolean {
    if (this.batchReady) return true;
    const exports = this.exports!;
    const total = this.batchOff + align16(this.n) + this.batchSize * (this.queryBytes + 4 * this.n);
    try {
      const pages = Math.ceil(total / 65536);
      const have = exports.mem.buffer.byteLength / 65536;
      if (pages > have) exports.mem.grow(pages - have);
    } catch {
      return false;
    }
    // Growing detaches the old buffer: view the new one (same contents, same offsets).
    this.mem = new Uint8Array(exports.mem.buffer, 0, total);
    this.batchReady = true;
    return true;
  }

  /**
   * The ranking scores of every row from kernel output at `off` (float32: the dots; int8:
   * float32(dot · rowScale), as `select` computes them), copied into `into` or a new array.
   */
  private keysAt(off: number, into: Float32Array | undefined): Float32Array {
    const { n } = this;
    const mem = this.mem;
    const keys = into ?? new Float32Array(n);
    if (this.type === 'float32') {
      keys.set(new Float32Array(mem.buffer, mem.byteOffset + off, n));
      return keys;
    }
    if (this.exports !== null) {
      this.exports.i8scores(off, this.scalesOff, n, this.scoresOff);
      keys.set(new Float32Array(mem.buffer, mem.byteOffset + this.scoresOff, n));
      return keys;
    }
    const dots = new Int32Array(mem.buffer, mem.byteOffset + off, n);
    const scales = this.rowScales;
    for (let i = 0; i < n; i++) keys[i] = dots[i]! * scales[i]!;
    return keys;
  }

  /** `search(query, k, allowed)` for a query prepared by `prepareBatch`: the same hits, order and scores. */
  searchPrepared(prepared: PreparedQuery, k: number, allowed?: Uint8Array): TopHit[] {
    const { n } = this;
    this.checkPrepared(prepared, allowed);
    k = Math.min(Math.floor(k), n);
    if (!(k > 0)) return [];
    const mask = this.loadMask(allowed);
    if (this.exports === null) return this.top(prepared.keys, mask, k, prepared.factor);
    // as `select`: the scores in wasm memory, where the block bounds are computed
    const mem = this.mem;
    const scoresOff = this.type === 'int8' ? this.scoresOff : this.outOff;
    const scores = new Float32Array(mem.buffer, mem.byteOffset + scoresOff, n);
    scores.set(prepared.keys);
    return this.top(scores, mask, k, prepared.factor, this.blockMax(scoresOff, mask));
  }

  /** `scoreAll(query, allowed)` for a query prepared by `prepareBatch`: the same numbers. */
  scoreAllPrepared(prepared: PreparedQuery, allowed?: Uint8Array): Float64Array {
    const { n } = this;
    this.checkPrepared(prepared, allowed);
    const out = new Float64Array(n);
    const keys = prepared.keys;
    if (this.type === 'float32') {
      if (allowed === undefined) out.set(keys);
      else for (let i = 0; i < n; i++) if (allowed[i] === 1) out[i] = keys[i]!;
    } else {
      const factor = prepared.factor;
      if (allowed === undefined) for (let i = 0; i < n; i++) out[i] = keys[i]! * factor;
      else for (let i = 0; i < n; i++) if (allowed[i] === 1) out[i] = keys[i]! * factor;
    }
    return out;
  }

  private checkPrepared(prepared: PreparedQuery, allowed: Uint8Array | undefined): void {
    if (prepared.keys.length !== this.n) throw new RangeError(`prepared query has ${prepared.keys.length} scores for ${this.n} vectors`);
    if (allowed !== undefined && allowed.length !== this.n) throw new RangeError(`allowed mask has ${allowed.length} entries for ${this.n} vectors`);
  }

  /** The mask region (1 = allowed, from `allowed[i] === 1`; all ones for undefined). */
  private loadMask(allowed: Uint8Array | undefined): Uint8Array {
    const { n } = this;
    const mem = this.mem; // wasm memory grows only in the constructor and `growForBatch`, which renews this view
    const mask = mem.subarray(this.maskOff, this.maskOff + n);
    if (allowed === undefined) {
      if (!this.maskAllOnes) {
        mask.fill(1);
        this.maskAllOnes = true;
      }
    } else {
      for (let i = 0; i < n; i++) mask[i] = allowed[i] === 1 ? 1 : 0;
      this.maskAllOnes = false;
    }
    return mask;
  }

  /** Load the query and mask, run the dot products into the output region. */
  private dots(query: Float32Array, allowed: Uint8Array | undefined): { mask: Uint8Array; queryScale: number } {
    const { n, dims } = this;
    if (query.length !== dims) throw new RangeError(`query has ${query.length} dims, the index ${dims}`);
    if (allowed !== undefined && allowed.length !== n) throw new RangeError(`allowed mask has ${allowed.length} entries for ${n} vectors`);
    const mask = this.loadMask(allowed);
    const mem = this.mem;
    const view = new DataView(mem.buffer, mem.byteOffset, mem.byteLength);
    const queryScale = this.loadQuery(view, query, this.queryOff);
    if (this.exports !== null) {
      const f = this.type === 'float32' ? this.exports.f32dots : this.exports.i8dots;
      f(this.queryOff, this.rowsOff, n, this.stride, this.maskOff, this.outOff);
    } else if (this.type === 'float32') this.jsF32(view, mask);
    else this.jsI8(view, mask);
    return { mask, queryScale };
  }

  /** Store the query as the kernel reads it at `off` (float32, or int16 for int8 rows); returns its scale. */
  private loadQuery(view: DataView, query: Float32Array, off: number): number {
    const { dims } = this;
    if (this.type === 'float32') {
      for (let j = 0; j < this.lanes; j++) view.setFloat32(off + 4 * j, j < dims ? query[j]! : 0, true);
      return 1;
    }
    let max = 0;
    for (let j = 0; j < dims; j++) max = Math.max(max, Math.abs(query[j]!));
    const qmax = queryInt16Max(dims);
    const queryScale = max / qmax;
    for (let j = 0; j < this.lanes; j++) view.setInt16(off + 2 * j, j < dims && queryScale > 0 ? Math.round(query[j]! / queryScale) : 0, true);
    return queryScale;
  }

  private jsF32(view: DataView, mask: Uint8Array): void {
    const { n, stride, lanes } = this;
    const q = new Float32Array(lanes);
    for (let j = 0; j < lanes; j++) q[j] = view.getFloat32(this.queryOff + 4 * j, true);
    const f = Math.fround;
    const acc = new Float64Array(16); // accumulator u, lane l at 4u + l
    for (let i = 0; i < n; i++) {
      if (mask[i] === 0) continue;
      const o = this.rowsOff + i * stride;
      acc.fill(0);
      for (let x = 0; x < lanes; x++) {
        const a = x % 16; // (x / 4 mod 4) * 4 + x mod 4
        acc[a] = f(acc[a]! + f(q[x]! * view.getFloat32(o + 4 * x, true)));
      }
      const c = [0, 1, 2, 3].map((l) => f(f(acc[l]! + acc[4 + l]!) + f(acc[8 + l]! + acc[12 + l]!)));
      view.setFloat32(this.outOff + 4 * i, f(f(f(c[0]! + c[1]!) + c[2]!) + c[3]!), true);
    }
  }

  private jsI8(view: DataView, mask: Uint8Array): void {
    const { n, stride, lanes } = this;
    const q = new Int32Array(lanes);
    for (let j = 0; j < lanes; j++) q[j] = view.getInt16(this.queryOff + 2 * j, true);
    for (let i = 0; i < n; i++) {
      if (mask[i] === 0) continue;
      const o = this.rowsOff + i * stride;
      let s = 0;
      for (let j = 0; j < lanes; j++) s += q[j]! * view.getInt8(o + j);
      view.setInt32(this.outOff + 4 * i, s, true);
    }
  }

  /**
   * Top-k of the allowed rows' scores (kernel output at `outOff`), in rankStable order. With the
   * wasm kernel, `mask` is a view of wasm memory: the int8 scores and the block maxima are computed
   * there.
   */
  private select(outOff: number, mask: Uint8Array, k: number, queryScale: number): TopHit[] {
    const { n } = this;
    const mem = this.mem;
    if (this.exports !== null) {
      let scoresOff = outOff;
      if (this.type === 'int8') {
        this.exports.i8scores(outOff, this.scalesOff, n, this.scoresOff);
        scoresOff = this.scoresOff;
      }
      const scores = new Float32Array(mem.buffer, mem.byteOffset + scoresOff, n);
      return this.top(scores, mask, k, queryScale, this.blockMax(scoresOff, mask));
    }
    if (this.type === 'float32') return this.top(new Float32Array(mem.buffer, mem.byteOffset + outOff, n), mask, k, 1);
    // int8: rank by dot · rowScale (float32); the query scale is a common positive factor, applied to the k results only.
    const out = new Int32Array(mem.buffer, mem.byteOffset + outOff, n);
    const scores = this.scratch;
    const scales = this.rowScales;
    for (let i = 0; i < n; i++) scores[i] = out[i]! * scales[i]!;
    return this.top(scores, mask, k, queryScale);
  }

  /** The wasm bound of each whole block of SELECT_BLOCK allowed scores (scores at `scoresOff`, `mask` in wasm memory). */
  private blockMax(scoresOff: number, mask: Uint8Array): Float32Array {
    const blocks = Math.floor(this.n / SELECT_BLOCK);
    this.exports!.blockmax(scoresOff, mask.byteOffset, blocks, this.blockMaxOff);
    return new Float32Array(this.mem.buffer, this.mem.byteOffset + this.blockMaxOff, blocks);
  }

  /** The best `k` (≥ 1) rows of `scores` allowed by `mask`, in rankStable order, their scores multiplied by `factor` (> 0). */
  private top(scores: Float32Array, mask: Uint8Array, k: number, factor: number, blockMax?: Float32Array): TopHit[] {
    return topByScore(scores, this.rank, k, blockMax === undefined ? { mask } : { mask, blockMax }).map((i) => ({ index: i, score: scores[i]! * factor }));
  }
}
