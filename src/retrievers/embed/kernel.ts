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
 * selected. Selection keeps a size-k heap ordered exactly as `rankStable` (score descending, then
 * tool id ascending, via a precomputed rank of each id); the k survivors are sorted the same way.
 * When k covers every allowed row (a z-score fusion ranks the whole catalog), one numeric sort of
 * exact (score, rank) keys replaces the heap, in the same order.
 */

export type VectorType = 'float32' | 'int8';

// ---------------------------------------------------------------------------------------------
// The WebAssembly module.
// ---------------------------------------------------------------------------------------------

function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n !== 0) b |= 0x80;
    out.push(b);
  } while (n !== 0);
  return out;
}
function section(id: number, body: number[]): number[] {
  return [id, ...uleb(body.length), ...body];
}
function vec(items: number[][]): number[] {
  return [...uleb(items.length), ...items.flat()];
}
function name(s: string): number[] {
  const b = [...new TextEncoder().encode(s)];
  return [...uleb(b.length), ...b];
}

const I32 = 0x7f;
const V128 = 0x7b;
// Opcodes.
const BLOCK = 0x02, LOOP = 0x03, IF = 0x04, END = 0x0b, BR = 0x0c, BR_IF = 0x0d, VOID = 0x40;
const GET = 0x20, SET = 0x21, TEE = 0x22;
const I32_CONST = 0x41, I32_LOAD8_U = 0x2d, I32_STORE = 0x36, F32_STORE = 0x38;
const I32_GE_U = 0x4f, I32_LT_U = 0x49, I32_ADD = 0x6a, I32_SHL = 0x74, F32_ADD = 0x92;
const simd = (op: number) => [0xfd, ...uleb(op)];
const V128_LOAD = (offset: number) => [...simd(0x00), 4, ...uleb(offset)];
const V128_CONST0 = [...simd(0x0c), ...new Array<number>(16).fill(0)];
const I32X4_EXTRACT = (lane: number) => [...simd(0x1b), lane];
const F32X4_EXTRACT = (lane: number) => [...simd(0x1f), lane];
const I16X8_EXTEND_LOW_I8X16_S = simd(0x87);
const I16X8_EXTEND_HIGH_I8X16_S = simd(0x88);
const I32X4_ADD = simd(0xae);
const I32X4_DOT_I16X8_S = simd(0xba);
const F32X4_ADD = simd(0xe4);
const F32X4_MUL = simd(0xe6);

// Parameters of both functions: q, m, n, stride (bytes per row, a multiple of the step), mask, out.
const Q = 0, M = 1, N = 2, STRIDE = 3, MASK = 4, OUT = 5;
// Locals: i, row, j (i32); acc0..acc3, r (v128).
const I = 6, ROW = 7, J = 8, ACC = [9, 10, 11, 12] as const, R = 13;

/**
 * The shared row loop: for each i < n with mask[i] ≠ 0, zero the accumulators, run `inner` for
 * j = 0, step, 2·step, … < stride (j in row bytes), then `store` the score at out + 4i.
 */
function rowLoop(inner: number[], step: number, store: number[]): number[] {
  return [
    GET, M, SET, ROW,
    BLOCK, VOID,
    LOOP, VOID,
    GET, I, GET, N, I32_GE_U, BR_IF, 1,
    GET, MASK, GET, I, I32_ADD, I32_LOAD8_U, 0, 0,
    IF, VOID,
    ...ACC.flatMap((a) => [...V128_CONST0, SET, a]),
    I32_CONST, 0, SET, J,
    LOOP, VOID,
    ...inner,
    GET, J, I32_CONST, ...sleb(step), I32_ADD, TEE, J, GET, STRIDE, I32_LT_U, BR_IF, 0,
    END,
    GET, OUT, GET, I, I32_CONST, 2, I32_SHL, I32_ADD,
    ...store,
    END,
    GET, ROW, GET, STRIDE, I32_ADD, SET, ROW,
    GET, I, I32_CONST, 1, I32_ADD, SET, I,
    BR, 0,
    END,
    END,
  ];
}

function sleb(n: number): number[] {
  const out: number[] = [];
  for (;;) {
    const b = n & 0x7f;
    n >>= 7;
    if ((n === 0 && (b & 0x40) === 0) || (n === -1 && (b & 0x40) !== 0)) {
      out.push(b);
      return out;
    }
    out.push(b | 0x80);
  }
}

/** float32 step: 64 bytes = four f32x4 products, accumulator u takes bytes j+16u .. j+16u+16 (four independent add chains). */
const F32_STEP = 64;
const F32_INNER = ACC.flatMap((a, u) => [GET, a, GET, Q, GET, J, I32_ADD, ...V128_LOAD(16 * u), GET, ROW, GET, J, I32_ADD, ...V128_LOAD(16 * u), ...F32X4_MUL, ...F32X4_ADD, SET, a]);
/** (acc0 + acc1) + (acc2 + acc3) lane-wise, then ((l0 + l1) + l2) + l3. */
const F32_STORE_SUM = [
  GET, ACC[0], GET, ACC[1], ...F32X4_ADD, GET, ACC[2], GET, ACC[3], ...F32X4_ADD, ...F32X4_ADD, SET, ACC[0],
  GET, ACC[0], ...F32X4_EXTRACT(0), GET, ACC[0], ...F32X4_EXTRACT(1), F32_ADD, GET, ACC[0], ...F32X4_EXTRACT(2), F32_ADD, GET, ACC[0], ...F32X4_EXTRACT(3), F32_ADD,
  F32_STORE, 2, 0,
];
/** int8 step: 16 int8 of the row (bytes j..j+16) against 16 int16 of the query (bytes 2j..2j+32). Exact, so the order is free. */
const I8_STEP = 16;
const I8_INNER = [
  GET, ROW, GET, J, I32_ADD, ...V128_LOAD(0), SET, R,
  GET, R, ...I16X8_EXTEND_LOW_I8X16_S, GET, Q, GET, J, I32_CONST, 1, I32_SHL, I32_ADD, ...V128_LOAD(0), ...I32X4_DOT_I16X8_S, GET, ACC[0], ...I32X4_ADD, SET, ACC[0],
  GET, R, ...I16X8_EXTEND_HIGH_I8X16_S, GET, Q, GET, J, I32_CONST, 1, I32_SHL, I32_ADD, ...V128_LOAD(16), ...I32X4_DOT_I16X8_S, GET, ACC[1], ...I32X4_ADD, SET, ACC[1],
];
const I32_STORE_SUM = [
  GET, ACC[0], GET, ACC[1], ...I32X4_ADD, SET, ACC[0],
  GET, ACC[0], ...I32X4_EXTRACT(0), GET, ACC[0], ...I32X4_EXTRACT(1), I32_ADD, GET, ACC[0], ...I32X4_EXTRACT(2), I32_ADD, GET, ACC[0], ...I32X4_EXTRACT(3), I32_ADD,
  I32_STORE, 2, 0,
];

function funcBody(code: number[]): number[] {
  const locals = vec([[3, I32], [5, V128]]);
  const body = [...locals, ...code, END];
  return [...uleb(body.length), ...body];
}

/** The module: memory `mem`, `f32dots(q, m, n, stride, mask, out)`, `i8dots(q, m, n, stride, mask, out)`. */
export function kernelWasm(): Uint8Array<ArrayBuffer> {
  const type = [0x60, ...vec([[I32], [I32], [I32], [I32], [I32], [I32]]), 0];
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, vec([type])),
    ...section(3, vec([[0], [0]])),
    ...section(5, vec([[0x00, 1]])),
    ...section(7, vec([[...name('mem'), 0x02, 0], [...name('f32dots'), 0x00, 0], [...name('i8dots'), 0x00, 1]])),
    ...section(10, vec([funcBody(rowLoop(F32_INNER, F32_STEP, F32_STORE_SUM)), funcBody(rowLoop(I8_INNER, I8_STEP, I32_STORE_SUM))])),
  ]);
}

interface KernelExports {
  mem: WebAssembly.Memory;
  f32dots(q: number, m: number, n: number, stride: number, mask: number, out: number): void;
  i8dots(q: number, m: number, n: number, stride: number, mask: number, out: number): void;
}

let wasmModule: WebAssembly.Module | null | undefined;
function compiled(): WebAssembly.Module | null {
  if (wasmModule === undefined) {
    try {
      const bytes = kernelWasm();
      wasmModule = WebAssembly.validate(bytes) ? new WebAssembly.Module(bytes) : null;
    } catch {
      wasmModule = null;
    }
  }
  return wasmModule;
}

// ---------------------------------------------------------------------------------------------
// The index.
// ---------------------------------------------------------------------------------------------

const align16 = (n: number) => (n + 15) & ~15;
const align64 = (n: number) => (n + 63) & ~63;

/** Largest |int16 query value| such that Σ |q|·127 over `dims` fits in int32. */
export function queryInt16Max(dims: number): number {
  return Math.min(32767, Math.floor(0x7fffffff / (127 * Math.max(1, dims))));
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
  // Memory: [mask n][query][rows n × stride][out n × 4]
  private readonly mem: Uint8Array;
  private readonly maskOff: number;
  private readonly queryOff: number;
  private readonly rowsOff: number;
  private readonly outOff: number;
  private readonly exports: KernelExports | null;
  private readonly rowScales: Float32Array; // int8 only
  private readonly scratch: Float32Array;
  /** The mask region currently holds all ones (the no-mask case), so it need not be rewritten. */
  private maskAllOnes = false;

  /** `vectors` = n × dims row-major. `useWasm: false` forces the JavaScript kernel (tests). */
  constructor(vectors: Float32Array, dims: number, rank: Uint32Array, type: VectorType = 'float32', useWasm = true) {
    if (!Number.isInteger(dims) || dims <= 0 || vectors.length % dims !== 0) throw new RangeError(`${vectors.length} values are not whole vectors of ${dims} dims`);
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
    const total = this.outOff + 4 * n;
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
    this.scratch = new Float32Array(type === 'int8' ? n : 0);
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
    const { view, mask, queryScale } = this.dots(query, allowed);
    return this.select(view, mask, k, queryScale);
  }

  /**
   * Every vector's score (as `search` reports it) by position; 0 outside `allowed`, which is never
   * scored. For fusion over the whole catalog without ranking it.
   */
  scoreAll(query: Float32Array, allowed?: Uint8Array): Float64Array {
    const out = new Float64Array(this.n);
    if (this.n === 0) return out;
    const { view, mask, queryScale } = this.dots(query, allowed);
    if (this.type === 'float32') {
      const scores = new Float32Array(view.buffer, view.byteOffset + this.outOff, this.n);
      for (let i = 0; i < this.n; i++) if (mask[i] === 1) out[i] = scores[i]!;
    } else {
      const dots = new Int32Array(view.buffer, view.byteOffset + this.outOff, this.n);
      const scales = this.rowScales;
      const f = Math.fround;
      // as `select`: rowScale · dot in float32, then the query scale
      for (let i = 0; i < this.n; i++) if (mask[i] === 1) out[i] = f(dots[i]! * scales[i]!) * queryScale;
    }
    return out;
  }

  /** Load the query and mask, run the dot products into the output region. */
  private dots(query: Float32Array, allowed: Uint8Array | undefined): { view: DataView; mask: Uint8Array; queryScale: number } {
    const { n, dims } = this;
    if (query.length !== dims) throw new RangeError(`query has ${query.length} dims, the index ${dims}`);
    if (allowed !== undefined && allowed.length !== n) throw new RangeError(`allowed mask has ${allowed.length} entries for ${n} vectors`);
    const mem = this.mem; // wasm memory only grows in the constructor, so this view stays attached
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
    const view = new DataView(mem.buffer, mem.byteOffset, mem.byteLength);
    let queryScale = 1;
    if (this.type === 'float32') {
      for (let j = 0; j < this.lanes; j++) view.setFloat32(this.queryOff + 4 * j, j < dims ? query[j]! : 0, true);
    } else {
      let max = 0;
      for (let j = 0; j < dims; j++) max = Math.max(max, Math.abs(query[j]!));
      const qmax = queryInt16Max(dims);
      queryScale = max / qmax;
      for (let j = 0; j < this.lanes; j++) view.setInt16(this.queryOff + 2 * j, j < dims && queryScale > 0 ? Math.round(query[j]! / queryScale) : 0, true);
    }
    if (this.exports !== null) {
      const f = this.type === 'float32' ? this.exports.f32dots : this.exports.i8dots;
      f(this.queryOff, this.rowsOff, n, this.stride, this.maskOff, this.outOff);
    } else if (this.type === 'float32') this.jsF32(view, mask);
    else this.jsI8(view, mask);
    return { view, mask, queryScale };
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

  /** Top-k of the allowed rows' scores, in rankStable order. */
  private select(view: DataView, mask: Uint8Array, k: number, queryScale: number): TopHit[] {
    const { n } = this;
    if (this.type === 'float32') return topByScore(new Float32Array(view.buffer, view.byteOffset + this.outOff, n), mask, this.rank, k, 1);
    // int8: rank by dot · rowScale (float32); the query scale is a common positive factor, applied to the k results only.
    const out = new Int32Array(view.buffer, view.byteOffset + this.outOff, n);
    const scores = this.scratch;
    const scales = this.rowScales;
    for (let i = 0; i < n; i++) scores[i] = out[i]! * scales[i]!;
    return topByScore(scores, mask, this.rank, k, queryScale);
  }
}

const RANK_BITS = 2 ** 21;
const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/**
 * Every allowed row in rankStable order (a caller ranking the whole catalog, such as a z-score
 * fusion): one native numeric sort of keys (score order-preserving as 32 bits, descending) ·
 * 2^21 + rank, exact in a float64, instead of a heap of n. Falls back to a comparator sort when the
 * ranks are not a permutation of 0..n-1 below 2^21.
 */
function allByScore(scores: Float32Array, mask: Uint8Array, rank: Uint32Array, factor: number): TopHit[] {
  const n = mask.length;
  const byRank = new Int32Array(n).fill(-1);
  let permutation = n <= RANK_BITS;
  for (let i = 0; i < n && permutation; i++) {
    const r = rank[i]!;
    if (r >= n || byRank[r] !== -1) permutation = false;
    else byRank[r] = i;
  }
  if (!permutation) {
    const all: number[] = [];
    for (let i = 0; i < n; i++) if (mask[i] !== 0) all.push(i);
    all.sort((a, b) => scores[b]! - scores[a]! || rank[a]! - rank[b]!);
    return all.map((i) => ({ index: i, score: scores[i]! * factor }));
  }
  const keys = new Float64Array(countAllowed(mask));
  let m = 0;
  for (let i = 0; i < n; i++) {
    if (mask[i] === 0) continue;
    f32[0] = scores[i]! + 0; // -0 → +0: equal scores share a key
    const bits = u32[0]!;
    const ascending = bits & 0x80000000 ? ~bits >>> 0 : (bits | 0x80000000) >>> 0; // order-preserving
    keys[m++] = (0xffffffff - ascending) * RANK_BITS + rank[i]!;
  }
  keys.sort();
  const out: TopHit[] = new Array(m);
  for (let j = 0; j < m; j++) {
    const i = byRank[keys[j]! % RANK_BITS]!;
    out[j] = { index: i, score: scores[i]! * factor };
  }
  return out;
}

function countAllowed(mask: Uint8Array): number {
  let c = 0;
  for (let i = 0; i < mask.length; i++) if (mask[i] !== 0) c++;
  return c;
}

/**
 * The best `k` (≥ 1) of `scores[i]` with `mask[i] ≠ 0`, in rankStable order (reported scores multiplied by `factor` > 0): score descending,
 * then `rank` ascending. A size-k heap with the worst hit at the root; a row below the root's
 * score is rejected with one comparison.
 */
export function topByScore(scores: Float32Array, mask: Uint8Array, rank: Uint32Array, k: number, factor: number): TopHit[] {
  const n = mask.length;
  if (k >= n || k >= countAllowed(mask)) return allByScore(scores, mask, rank, factor);
  const hIdx = new Int32Array(k);
  const hScore = new Float64Array(k);
  const hRank = new Uint32Array(k);
  let size = 0;
  let floor = -Infinity; // root score once the heap is full
  for (let i = 0; i < n; i++) {
    if (mask[i] === 0) continue;
    const s = scores[i]!;
    if (s < floor) continue;
    const r = rank[i]!;
    if (size < k) {
      // Sift up: a parent is never better than its children.
      let c = size++;
      while (c > 0) {
        const p = (c - 1) >> 1;
        const ps = hScore[p]!;
        if (!(s < ps || (s === ps && r > hRank[p]!))) break;
        hIdx[c] = hIdx[p]!;
        hScore[c] = ps;
        hRank[c] = hRank[p]!;
        c = p;
      }
      hIdx[c] = i;
      hScore[c] = s;
      hRank[c] = r;
      if (size === k) floor = hScore[0]!;
    } else {
      const rs = hScore[0]!;
      if (!(s > rs || (s === rs && r < hRank[0]!))) continue; // not better than the worst kept
      let c = 0;
      for (;;) {
        const l = 2 * c + 1;
        if (l >= size) break;
        const rr = l + 1;
        let w = l;
        if (rr < size && (hScore[rr]! < hScore[l]! || (hScore[rr] === hScore[l] && hRank[rr]! > hRank[l]!))) w = rr;
        const ws = hScore[w]!;
        if (!(ws < s || (ws === s && hRank[w]! > r))) break;
        hIdx[c] = hIdx[w]!;
        hScore[c] = ws;
        hRank[c] = hRank[w]!;
        c = w;
      }
      hIdx[c] = i;
      hScore[c] = s;
      hRank[c] = r;
      floor = hScore[0]!;
    }
  }
  const order = Array.from({ length: size }, (_, j) => j).sort((a, b) => hScore[b]! - hScore[a]! || hRank[a]! - hRank[b]!);
  return order.map((j) => ({ index: hIdx[j]!, score: hScore[j]! * factor }));
}
