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
 * With the wasm kernel, a SIMD pass first bounds each block of 16 rows' allowed scores, and the
 * heap passes over blocks whose bound is below its floor (for 50,000 random rows and k = 10, most
 * of the 3,125 blocks: ~20 µs instead of ~150 µs); int8 scores are converted there too. When k covers every allowed row (a z-score fusion ranks the whole catalog), one numeric
 * sort of exact (score, rank) keys replaces the heap, in the same order.
 *
 * `searchBatch` scores a batch of queries with kernels that read each row once per block of up to
 * 64 queries and score it against all of them while it is in cache, computing each score exactly
 * as the single-query kernel does: a single query streams the whole index from memory (bounded by
 * memory bandwidth at 384 dims), a batch is bounded by arithmetic instead (50,000 × 384 float32:
 * ~1.7 ms per query against ~6 ms alone, on the machine where it was written). `bench/dense.bench.ts`
 * measures both against the memory bandwidth. `prepareBatch` runs the same batched kernels over
 * every row for queries known ahead (an evaluation's next requests) and keeps each query's scores,
 * from which `searchPrepared` and `scoreAllPrepared` give exactly what `search` and `scoreAll`
 * give (50,560 × 100 float32: ~0.45 ms per query against ~1.1 ms alone, on a loaded 2-core VM).
 */

export type VectorType = 'float32' | 'int8';

// ---------------------------------------------------------------------------------------------
// The WebAssembly module.
// ---------------------------------------------------------------------------------------------

// The encoding helpers are exported for bench/bandwidth.ts, which builds its own small module.
export function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n !== 0) b |= 0x80;
    out.push(b);
  } while (n !== 0);
  return out;
}
export function section(id: number, body: number[]): number[] {
  return [id, ...uleb(body.length), ...body];
}
export function vec(items: number[][]): number[] {
  return [...uleb(items.length), ...items.flat()];
}
export function name(s: string): number[] {
  const b = [...new TextEncoder().encode(s)];
  return [...uleb(b.length), ...b];
}

const I32 = 0x7f;
const V128 = 0x7b;
// Opcodes.
const BLOCK = 0x02, LOOP = 0x03, IF = 0x04, END = 0x0b, BR = 0x0c, BR_IF = 0x0d, VOID = 0x40;
const GET = 0x20, SET = 0x21, TEE = 0x22;
const I32_CONST = 0x41, I32_LOAD8_U = 0x2d, I32_STORE = 0x36, F32_STORE = 0x38;
const I32_GE_U = 0x4f, I32_GT_U = 0x4b, I32_LT_U = 0x49, I32_ADD = 0x6a, I32_MUL = 0x6c, I32_SHL = 0x74, F32_ADD = 0x92;
export const simd = (op: number) => [0xfd, ...uleb(op)];
const V128_LOAD = (offset: number) => [...simd(0x00), 4, ...uleb(offset)];
const V128_CONST0 = [...simd(0x0c), ...new Array<number>(16).fill(0)];
const I32X4_EXTRACT = (lane: number) => [...simd(0x1b), lane];
const F32X4_EXTRACT = (lane: number) => [...simd(0x1f), lane];
const I16X8_EXTEND_LOW_I8X16_S = simd(0x87);
const I16X8_EXTEND_HIGH_I8X16_S = simd(0x88);
const I32X4_ADD = simd(0xae);
const I32X4_DOT_I16X8_S = simd(0xba);
const I8X16_EQ = simd(0x23);
const I32X4_EXTEND_LOW_I16X8_S = simd(0xa7);
const I32X4_EXTEND_HIGH_I16X8_S = simd(0xa8);
const V128_OR = simd(0x50);
const F32X4_PMAX = simd(0xeb);
/** Four lanes of float32 −∞ (0xff800000). */
const V128_CONST_NEG_INF = [...simd(0x0c), ...[0, 1, 2, 3].flatMap(() => [0x00, 0x00, 0x80, 0xff])];
const F64X2_CONVERT_LOW_I32X4_S = simd(0xfe);
const F64X2_PROMOTE_LOW_F32X4 = simd(0x5f);
const F32X4_DEMOTE_F64X2_ZERO = simd(0x5e);
const F64X2_MUL = simd(0xf2);
const I8X16_SHUFFLE = (lanes: number[]) => [...simd(0x0d), ...lanes];
/** Lanes 2, 3 of the first operand into lanes 0, 1. */
const HIGH_HALF = I8X16_SHUFFLE([8, 9, 10, 11, 12, 13, 14, 15, 8, 9, 10, 11, 12, 13, 14, 15]);
/** Lanes 0, 1 of the first operand, then lanes 0, 1 of the second. */
const LOW_HALVES = I8X16_SHUFFLE([0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23]);
const V128_STORE = (offset: number) => [...simd(0x0b), 4, ...uleb(offset)];
const I32_LOAD = 0x28, F32_LOAD = 0x2a, F64_MUL = 0xa2, F32_DEMOTE_F64 = 0xb6, F64_CONVERT_I32_S = 0xb7, F64_PROMOTE_F32 = 0xbb;
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

function funcBody(code: number[], locals: number[][] = [[3, I32], [5, V128]]): number[] {
  const body = [...vec(locals), ...code, END];
  return [...uleb(body.length), ...body];
}

// ---------------------------------------------------------------------------------------------
// The batched kernels: `nq` queries, stored `qstride` bytes apart from `qs`, against every row
// with mask[i] ≠ 0, the score of query b and row i going to out + 4(b·n + i). The row loop is the
// outer loop, so each row is read from memory once for the whole batch (then from L1 for every
// query), instead of once per query. Queries go through it in groups of G (G queries would share
// each load of the row; G int8 queries share each sign-extension of it), the rest one at a time;
// every (query, row) score is computed exactly as the single-query kernel computes it:
// float32, the same four f32x4 chains per query in the same order, summed the same way (each
// query has its own four accumulators); int8, an exact int32 sum (wrapping adds are associative,
// so one accumulator per query gives the same int32 as the single kernel's two).
// ---------------------------------------------------------------------------------------------

// Parameters: qs, m, n, stride, mask, out, nq.
const BQ = 0, BM = 1, BN = 2, BSTRIDE = 3, BMASK = 4, BOUT = 5, BNQ = 6;
// i32 locals: i, row, j, b, op (out + 4i + 4bn), ostride (4n), qstride (bytes per query), then one query pointer per group member.
const BI = 7, BROW = 8, BJ = 9, BB = 10, BOP = 11, BOSTRIDE = 12, BQSTRIDE = 13, BQP0 = 14;
/**
 * Queries per group, as measured (V8 TurboFan, x64): float32 1 (with 2, eight accumulators, V8
 * issues all of a step's loads first and spills: 10–25% slower), int8 4 (one accumulator each;
 * 2 and 8 are slower).
 */
const F32_GROUP = 1, I8_GROUP = 4;
const BATCH_I32_LOCALS = 7 + Math.max(F32_GROUP, I8_GROUP);
const BATCH_V128_LOCALS = 3 + 4 * Math.max(F32_GROUP, I8_GROUP); // r, rl, rh, then the accumulators
const BR_ = BQP0 + Math.max(F32_GROUP, I8_GROUP); // v128: r
const BRL = BR_ + 1, BRH = BR_ + 2;
const BACC = (k: number) => BR_ + 3 + k;

/** float32, G queries: accumulator 4g + u of query g takes bytes j+16u .. j+16u+16, as F32_INNER. */
function f32GroupInner(g: number): number[] {
  const out: number[] = [];
  for (let u = 0; u < 4; u++) {
    out.push(GET, BROW, GET, BJ, I32_ADD, ...V128_LOAD(16 * u), SET, BR_);
    for (let q = 0; q < g; q++) out.push(GET, BACC(4 * q + u), GET, BQP0 + q, GET, BJ, I32_ADD, ...V128_LOAD(16 * u), GET, BR_, ...F32X4_MUL, ...F32X4_ADD, SET, BACC(4 * q + u));
  }
  return out;
}
/** As F32_STORE_SUM for query q of the group, at op + q·ostride (the address is pushed by the caller). */
function f32GroupStore(q: number): number[] {
  const a = [0, 1, 2, 3].map((u) => BACC(4 * q + u));
  return [
    GET, a[0]!, GET, a[1]!, ...F32X4_ADD, GET, a[2]!, GET, a[3]!, ...F32X4_ADD, ...F32X4_ADD, SET, a[0]!,
    GET, a[0]!, ...F32X4_EXTRACT(0), GET, a[0]!, ...F32X4_EXTRACT(1), F32_ADD, GET, a[0]!, ...F32X4_EXTRACT(2), F32_ADD, GET, a[0]!, ...F32X4_EXTRACT(3), F32_ADD,
    F32_STORE, 2, 0,
  ];
}
/** int8, G queries: the row's 16 int8 sign-extended once, then each query's 16 int16 (bytes 2j..2j+32 of the query). */
function i8GroupInner(g: number): number[] {
  const out: number[] = [GET, BROW, GET, BJ, I32_ADD, ...V128_LOAD(0), SET, BR_, GET, BR_, ...I16X8_EXTEND_LOW_I8X16_S, SET, BRL, GET, BR_, ...I16X8_EXTEND_HIGH_I8X16_S, SET, BRH];
  for (let q = 0; q < g; q++) {
    out.push(
      GET, BACC(q),
      GET, BRL, GET, BQP0 + q, GET, BJ, I32_CONST, 1, I32_SHL, I32_ADD, ...V128_LOAD(0), ...I32X4_DOT_I16X8_S, ...I32X4_ADD,
      GET, BRH, GET, BQP0 + q, GET, BJ, I32_CONST, 1, I32_SHL, I32_ADD, ...V128_LOAD(16), ...I32X4_DOT_I16X8_S, ...I32X4_ADD,
      SET, BACC(q),
    );
  }
  return out;
}
function i8GroupStore(q: number): number[] {
  const a = BACC(q);
  return [GET, a, ...I32X4_EXTRACT(0), GET, a, ...I32X4_EXTRACT(1), I32_ADD, GET, a, ...I32X4_EXTRACT(2), I32_ADD, GET, a, ...I32X4_EXTRACT(3), I32_ADD, I32_STORE, 2, 0];
}

/**
 * One group of g queries starting at query b (pointer qp0 = qs + b·qstride): set the g query
 * pointers, zero the accumulators, run `inner` for j = 0, step, … < stride, store the g scores, and
 * advance b, qp0 and op by g queries.
 */
function batchGroup(g: number, accs: number, inner: number[], step: number, store: (q: number) => number[]): number[] {
  const code: number[] = [];
  for (let q = 1; q < g; q++) code.push(GET, BQP0 + q - 1, GET, BQSTRIDE, I32_ADD, SET, BQP0 + q);
  for (let a = 0; a < accs; a++) code.push(...V128_CONST0, SET, BACC(a));
  code.push(
    I32_CONST, 0, SET, BJ,
    LOOP, VOID,
    ...inner,
    GET, BJ, I32_CONST, ...sleb(step), I32_ADD, TEE, BJ, GET, BSTRIDE, I32_LT_U, BR_IF, 0,
    END,
  );
  for (let q = 0; q < g; q++) {
    code.push(GET, BOP, ...(q > 0 ? [GET, BOSTRIDE, I32_CONST, ...sleb(q), I32_MUL, I32_ADD] : []), ...store(q));
  }
  code.push(
    GET, BB, I32_CONST, ...sleb(g), I32_ADD, SET, BB,
    GET, BQP0, GET, BQSTRIDE, I32_CONST, ...sleb(g), I32_MUL, I32_ADD, SET, BQP0,
    GET, BOP, GET, BOSTRIDE, I32_CONST, ...sleb(g), I32_MUL, I32_ADD, SET, BOP,
  );
  return code;
}

/**
 * The batched row loop: for each row i < n with mask[i] ≠ 0, groups of G queries while G remain,
 * then single queries (both with `batchGroup`).
 */
function batchLoop(g: number, accsPer: number, inner: (g: number) => number[], step: number, store: (q: number) => number[], qbytesShift: number): number[] {
  return [
    GET, BM, SET, BROW,
    GET, BN, I32_CONST, 2, I32_SHL, SET, BOSTRIDE,
    GET, BSTRIDE, ...(qbytesShift ? [I32_CONST, qbytesShift, I32_SHL] : []), SET, BQSTRIDE,
    BLOCK, VOID,
    LOOP, VOID,
    GET, BI, GET, BN, I32_GE_U, BR_IF, 1,
    GET, BMASK, GET, BI, I32_ADD, I32_LOAD8_U, 0, 0,
    IF, VOID,
    I32_CONST, 0, SET, BB,
    GET, BQ, SET, BQP0,
    GET, BOUT, GET, BI, I32_CONST, 2, I32_SHL, I32_ADD, SET, BOP,
    // groups of g while b + g ≤ nq
    BLOCK, VOID,
    LOOP, VOID,
    GET, BB, I32_CONST, ...sleb(g), I32_ADD, GET, BNQ, I32_GT_U, BR_IF, 1,
    ...batchGroup(g, g * accsPer, inner(g), step, store),
    BR, 0,
    END,
    END,
    // then one at a time while b < nq
    ...(g === 1 ? [] : [
      BLOCK, VOID,
      LOOP, VOID,
      GET, BB, GET, BNQ, I32_GE_U, BR_IF, 1,
      ...batchGroup(1, accsPer, inner(1), step, store),
      BR, 0,
      END,
      END,
    ]),
    END,
    GET, BROW, GET, BSTRIDE, I32_ADD, SET, BROW,
    GET, BI, I32_CONST, 1, I32_ADD, SET, BI,
    BR, 0,
    END,
    END,
  ];
}

// ---------------------------------------------------------------------------------------------
// Selection helpers. `blockmax(scores, mask, blocks, dst)`: for each block of SELECT_BLOCK = 16
// rows, an upper bound of the scores of its rows with mask ≠ 0, ignoring NaN: the largest such
// score (−∞ if none). The selection passes over a block whose bound is below the floor of its
// full heap without reading its rows: each of them would be rejected anyway (a score below the
// floor by `s < floor`; a NaN score, which the bound ignores, by the full heap's comparison), so
// the result is the same. `i8scores(dots, scales, n, dst)`: dst[i] = float32(float64(dots[i]) ·
// float64(scales[i])), which is exactly what JavaScript's `Float32Array[i] = int32 * float32`
// computes (an exact int32 and float32 in float64, the product rounded to float64, then to
// float32, both to nearest even).
// ---------------------------------------------------------------------------------------------

export const SELECT_BLOCK = 16;
// blockmax: params scores, mask, blocks, dst; locals b (i32), acc, lo, hi (v128).
const XS = 0, XMASK = 1, XNB = 2, XDST = 3, XB = 4, XACC = 5, XLO = 6, XHI = 7;
const BLOCKMAX = [
  BLOCK, VOID,
  LOOP, VOID,
  GET, XB, GET, XNB, I32_GE_U, BR_IF, 1,
  // all ones in the 32-bit lane of each masked row (mask byte 0)
  GET, XMASK, ...V128_LOAD(0), ...V128_CONST0, ...I8X16_EQ, SET, XHI,
  GET, XHI, ...I16X8_EXTEND_LOW_I8X16_S, SET, XLO,
  GET, XHI, ...I16X8_EXTEND_HIGH_I8X16_S, SET, XHI,
  ...V128_CONST_NEG_INF, SET, XACC,
  // a masked row's score becomes a NaN (all ones), which pmax(acc, x) = acc < x ? x : acc ignores;
  // acc starts at −∞, so it is never NaN
  ...[0, 1, 2, 3].flatMap((g) => [
    GET, XACC,
    GET, XS, ...V128_LOAD(16 * g),
    GET, g < 2 ? XLO : XHI, ...(g % 2 === 0 ? I32X4_EXTEND_LOW_I16X8_S : I32X4_EXTEND_HIGH_I16X8_S),
    ...V128_OR,
    ...F32X4_PMAX, SET, XACC,
  ]),
  // the largest of the four lanes, into lane 0
  GET, XACC, GET, XACC, GET, XACC, ...HIGH_HALF, ...F32X4_PMAX, SET, XACC,
  GET, XACC, GET, XACC, GET, XACC, ...I8X16_SHUFFLE([4, 5, 6, 7, 4, 5, 6, 7, 4, 5, 6, 7, 4, 5, 6, 7]), ...F32X4_PMAX, SET, XACC,
  GET, XDST, GET, XACC, ...F32X4_EXTRACT(0), F32_STORE, 2, 0,
  GET, XS, I32_CONST, ...sleb(4 * SELECT_BLOCK), I32_ADD, SET, XS,
  GET, XMASK, I32_CONST, ...sleb(SELECT_BLOCK), I32_ADD, SET, XMASK,
  GET, XDST, I32_CONST, 4, I32_ADD, SET, XDST,
  GET, XB, I32_CONST, 1, I32_ADD, SET, XB,
  BR, 0,
  END,
  END,
];
// i8scores: params dots, scales, n, dst; locals i (i32), d, s (v128). Four rows at a time (the
// same float64 products, two per f64x2), then the last n mod 4 one by one.
const YD = 0, YS = 1, YN = 2, YDST = 3, YI = 4, YVD = 5, YVS = 6;
const I8SCORES = [
  BLOCK, VOID,
  LOOP, VOID,
  GET, YI, I32_CONST, 4, I32_ADD, GET, YN, I32_GT_U, BR_IF, 1,
  GET, YD, ...V128_LOAD(0), SET, YVD,
  GET, YS, ...V128_LOAD(0), SET, YVS,
  GET, YDST,
  GET, YVD, ...F64X2_CONVERT_LOW_I32X4_S, GET, YVS, ...F64X2_PROMOTE_LOW_F32X4, ...F64X2_MUL, ...F32X4_DEMOTE_F64X2_ZERO,
  GET, YVD, GET, YVD, ...HIGH_HALF, ...F64X2_CONVERT_LOW_I32X4_S, GET, YVS, GET, YVS, ...HIGH_HALF, ...F64X2_PROMOTE_LOW_F32X4, ...F64X2_MUL, ...F32X4_DEMOTE_F64X2_ZERO,
  ...LOW_HALVES,
  ...V128_STORE(0),
  GET, YD, I32_CONST, 16, I32_ADD, SET, YD,
  GET, YS, I32_CONST, 16, I32_ADD, SET, YS,
  GET, YDST, I32_CONST, 16, I32_ADD, SET, YDST,
  GET, YI, I32_CONST, 4, I32_ADD, SET, YI,
  BR, 0,
  END,
  END,
  BLOCK, VOID,
  LOOP, VOID,
  GET, YI, GET, YN, I32_GE_U, BR_IF, 1,
  GET, YDST,
  GET, YD, I32_LOAD, 2, 0, F64_CONVERT_I32_S,
  GET, YS, F32_LOAD, 2, 0, F64_PROMOTE_F32,
  F64_MUL, F32_DEMOTE_F64,
  F32_STORE, 2, 0,
  GET, YD, I32_CONST, 4, I32_ADD, SET, YD,
  GET, YS, I32_CONST, 4, I32_ADD, SET, YS,
  GET, YDST, I32_CONST, 4, I32_ADD, SET, YDST,
  GET, YI, I32_CONST, 1, I32_ADD, SET, YI,
  BR, 0,
  END,
  END,
];

/**
 * The module: memory `mem`; `f32dots(q, m, n, stride, mask, out)`, `i8dots(q, m, n, stride, mask, out)`;
 * `f32batch(qs, m, n, stride, mask, out, nq)`, `i8batch(qs, m, n, stride, mask, out, nq)`;
 * `blockmax(scores, mask, blocks, dst)`, `i8scores(dots, scales, n, dst)`.
 */
export function kernelWasm(): Uint8Array<ArrayBuffer> {
  const type = [0x60, ...vec([[I32], [I32], [I32], [I32], [I32], [I32]]), 0];
  const batchType = [0x60, ...vec([[I32], [I32], [I32], [I32], [I32], [I32], [I32]]), 0];
  const batchLocals = [[BATCH_I32_LOCALS, I32], [BATCH_V128_LOCALS, V128]];
  const helperType = [0x60, ...vec([[I32], [I32], [I32], [I32]]), 0];
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, vec([type, batchType, helperType])),
    ...section(3, vec([[0], [0], [1], [1], [2], [2]])),
    ...section(5, vec([[0x00, 1]])),
    ...section(7, vec([[...name('mem'), 0x02, 0], [...name('f32dots'), 0x00, 0], [...name('i8dots'), 0x00, 1], [...name('f32batch'), 0x00, 2], [...name('i8batch'), 0x00, 3], [...name('blockmax'), 0x00, 4], [...name('i8scores'), 0x00, 5]])),
    ...section(10, vec([
      funcBody(rowLoop(F32_INNER, F32_STEP, F32_STORE_SUM)),
      funcBody(rowLoop(I8_INNER, I8_STEP, I32_STORE_SUM)),
      funcBody(batchLoop(F32_GROUP, 4, f32GroupInner, F32_STEP, f32GroupStore, 0), batchLocals),
      funcBody(batchLoop(I8_GROUP, 1, i8GroupInner, I8_STEP, i8GroupStore, 1), batchLocals),
      funcBody(BLOCKMAX, [[1, I32], [3, V128]]),
      funcBody(I8SCORES, [[1, I32], [2, V128]]),
    ])),
  ]);
}

interface KernelExports {
  mem: WebAssembly.Memory;
  f32dots(q: number, m: number, n: number, stride: number, mask: number, out: number): void;
  i8dots(q: number, m: number, n: number, stride: number, mask: number, out: number): void;
  f32batch(qs: number, m: number, n: number, stride: number, mask: number, out: number, nq: number): void;
  i8batch(qs: number, m: number, n: number, stride: number, mask: number, out: number, nq: number): void;
  blockmax(scores: number, mask: number, blocks: number, dst: number): void;
  i8scores(dots: number, scales: number, n: number, dst: number): void;
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
/** Queries scored together by `searchBatch` (each row read once per block)… */
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
  // (wasm, grown by the first batch) [batch mask n][selection mask n][batchSize queries]
  // [batchSize × out n × 4].
  private mem: Uint8Array;
  private readonly maskOff: number;
  private readonly queryOff: number;
  private readonly rowsOff: number;
  private readonly outOff: number;
  private readonly scalesOff: number;
  private readonly scoresOff: number;
  private readonly blockMaxOff: number;
  private readonly queryBytes: number;
  /** Offset of the batch region (wasm only); its room is allocated by the first `searchBatch`. */
  private readonly batchOff: number;
  private batchReady = false;
  /** Queries per block of `searchBatch`: BATCH_BLOCK, or fewer for a very large index. */
  private readonly batchSize: number;
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
   * `search` for each of a batch of queries (an array, or `dims`-value queries packed one after
   * another), with one `allowed` mask for all of them or one per query (undefined = all): the same
   * hits, scores and order as `queries.map((q, b) => search(q, k, allowed[b]))`.
   *
   * With the WebAssembly kernel, blocks of up to BATCH_BLOCK queries (fewer past 262,144 rows, so
   * that their scores fit in 64 MiB) are scored together: each row
   * is read from memory once per block rather than once per query, and scored against every query
   * of the block while in cache (bit-identical scores: see the batched kernels). A row is scored
   * for the whole block if any query of the block allows it; each query's selection sees only its
   * own mask. The JavaScript kernel, which is bound by arithmetic rather than memory, runs the
   * queries one by one.
   */
  searchBatch(queries: readonly Float32Array[] | Float32Array, k: number, allowed?: Uint8Array | readonly (Uint8Array | undefined)[]): TopHit[][] {
    const { n, dims } = this;
    let list: Float32Array[];
    if (queries instanceof Float32Array) {
      if (queries.length % dims !== 0) throw new RangeError(`${queries.length} values are not whole queries of ${dims} dims`);
      list = Array.from({ length: queries.length / dims }, (_, b) => queries.subarray(b * dims, (b + 1) * dims));
    } else list = [...queries];
    const nq = list.length;
    const masks: (Uint8Array | undefined)[] = allowed === undefined || allowed instanceof Uint8Array ? new Array<Uint8Array | undefined>(nq).fill(allowed) : [...allowed];
    if (masks.length !== nq) throw new RangeError(`${masks.length} allowed masks for ${nq} queries`);
    for (const q of list) if (q.length !== dims) throw new RangeError(`query has ${q.length} dims, the index ${dims}`);
    for (const m of masks) if (m !== undefined && m.length !== n) throw new RangeError(`allowed mask has ${m.length} entries for ${n} vectors`);
    k = Math.min(Math.floor(k), n);
    if (!(k > 0)) return list.map(() => []);
    if (nq <= 1 || this.exports === null || !this.growForBatch()) return list.map((q, b) => this.search(q, k, masks[b]));
    const out: TopHit[][] = [];
    const size = this.batchSize;
    for (let b0 = 0; b0 < nq; b0 += size) out.push(...this.batchBlock(list.slice(b0, b0 + size), masks.slice(b0, b0 + size), k));
    return out;
  }

  /** Room for the batch region in wasm memory; false if it cannot grow (then queries run one by one). */
  private growForBatch(): boolean {
    if (this.batchReady) return true;
    const exports = this.exports!;
    const total = this.batchOff + 2 * align16(this.n) + this.batchSize * (this.queryBytes + 4 * this.n);
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

  /** Score up to `batchSize` queries together (wasm), then select each one's top k under its own mask. */
  private batchBlock(queries: Float32Array[], masks: (Uint8Array | undefined)[], k: number): TopHit[][] {
    const { n } = this;
    const nq = queries.length;
    const mem = this.mem;
    const maskOff = this.batchOff;
    const ownOff = maskOff + align16(n);
    const queriesOff = ownOff + align16(n);
    const outOff = queriesOff + this.batchSize * this.queryBytes;
    // The block's mask: rows that any of its queries allows.
    const union = mem.subarray(maskOff, maskOff + n);
    if (masks.some((m) => m === undefined)) union.fill(1);
    else {
      union.fill(0);
      let last: Uint8Array | undefined;
      for (const m of masks) {
        if (m === last) continue; // the same mask for several queries: once
        last = m;
        for (let i = 0; i < n; i++) if (m![i] === 1) union[i] = 1;
      }
    }
    const view = new DataView(mem.buffer, mem.byteOffset, mem.byteLength);
    const scales = queries.map((q, b) => this.loadQuery(view, q, queriesOff + b * this.queryBytes));
    const f = this.type === 'float32' ? this.exports!.f32batch : this.exports!.i8batch;
    f(queriesOff, this.rowsOff, n, this.stride, maskOff, outOff, nq);
    const own = mem.subarray(ownOff, ownOff + n);
    let ownOf: Uint8Array | undefined;
    return queries.map((_, b) => {
      const m = masks[b];
      if (m === undefined) return this.select(outOff + 4 * n * b, union, k, scales[b]!);
      if (m !== ownOf) {
        for (let i = 0; i < n; i++) own[i] = m[i] === 1 ? 1 : 0;
        ownOf = m;
      }
      return this.select(outOff + 4 * n * b, own, k, scales[b]!);
    });
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
    const queriesOff = maskOff + 2 * align16(n);
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
    if (this.exports === null) return topByScore(prepared.keys, mask, this.rank, k, prepared.factor);
    // as `select`: the scores in wasm memory, where the block bounds are computed
    const mem = this.mem;
    const scoresOff = this.type === 'int8' ? this.scoresOff : this.outOff;
    const scores = new Float32Array(mem.buffer, mem.byteOffset + scoresOff, n);
    scores.set(prepared.keys);
    const blocks = Math.floor(n / SELECT_BLOCK);
    this.exports.blockmax(scoresOff, mask.byteOffset, blocks, this.blockMaxOff);
    return topByScore(scores, mask, this.rank, k, prepared.factor, new Float32Array(mem.buffer, mem.byteOffset + this.blockMaxOff, blocks));
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

  /** `queries.map((q) => scoreAll(q, allowed))`, the queries scored together (see `prepareBatch`). */
  scoreAllBatch(queries: readonly Float32Array[], allowed?: Uint8Array): Float64Array[] {
    if (allowed !== undefined && allowed.length !== this.n) throw new RangeError(`allowed mask has ${allowed.length} entries for ${this.n} vectors`);
    return this.prepareBatch(queries).map((p) => this.scoreAllPrepared(p, allowed));
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
      const blocks = Math.floor(n / SELECT_BLOCK);
      this.exports.blockmax(scoresOff, mask.byteOffset, blocks, this.blockMaxOff);
      const scores = new Float32Array(mem.buffer, mem.byteOffset + scoresOff, n);
      return topByScore(scores, mask, this.rank, k, queryScale, new Float32Array(mem.buffer, mem.byteOffset + this.blockMaxOff, blocks));
    }
    if (this.type === 'float32') return topByScore(new Float32Array(mem.buffer, mem.byteOffset + outOff, n), mask, this.rank, k, 1);
    // int8: rank by dot · rowScale (float32); the query scale is a common positive factor, applied to the k results only.
    const out = new Int32Array(mem.buffer, mem.byteOffset + outOff, n);
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

/** countAllowed(mask) > k, stopping as soon as it is known. */
function allowsMoreThan(mask: Uint8Array, k: number): boolean {
  let c = 0;
  for (let i = 0; i < mask.length; i++) if (mask[i] !== 0 && ++c > k) return true;
  return false;
}

/**
 * The best `k` (≥ 1) of `scores[i]` with `mask[i] ≠ 0`, in rankStable order (reported scores multiplied by `factor` > 0): score descending,
 * then `rank` ascending. A size-k heap with the worst hit at the root; a row below the root's
 * score is rejected with one comparison. `blockMax` (from the wasm `blockmax`): for each whole
 * block of SELECT_BLOCK rows, a bound of its allowed scores ignoring NaN; a block whose bound is
 * below the full heap's floor is passed over, which rejects exactly the rows the scan would.
 */
export function topByScore(scores: Float32Array, mask: Uint8Array, rank: Uint32Array, k: number, factor: number, blockMax?: Float32Array): TopHit[] {
  const n = mask.length;
  if (k >= n || !allowsMoreThan(mask, k)) return allByScore(scores, mask, rank, factor);
  const hIdx = new Int32Array(k);
  const hScore = new Float64Array(k);
  const hRank = new Uint32Array(k);
  let size = 0;
  let floor = -Infinity; // root score once the heap is full
  const blocks = blockMax === undefined ? 0 : blockMax.length;
  for (let b = 0, start = 0; start < n; b++, start += SELECT_BLOCK) {
    // a block whose bound is below the floor (of a full heap: the floor is −∞ until then): each of its rows would be rejected
    if (b < blocks && blockMax![b]! < floor) continue;
    const end = Math.min(start + SELECT_BLOCK, n);
    for (let i = start; i < end; i++) {
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
  }
  const order = Array.from({ length: size }, (_, j) => j).sort((a, b) => hScore[b]! - hScore[a]! || hRank[a]! - hRank[b]!);
  return order.map((j) => ({ index: hIdx[j]!, score: hScore[j]! * factor }));
}
