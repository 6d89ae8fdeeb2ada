/**
 * The WebAssembly module of the dense kernel (`kernel.ts`), written as bytes (no toolchain, no
 * dependency): 128-bit SIMD dot products of one query, or of a batch of queries, against every
 * allowed row, and two selection helpers. The arithmetic (which the JavaScript fallback in
 * `kernel.ts` reproduces bit for bit):
 *
 * - `float32` vectors, rows padded with zeros to a multiple of 16 floats: value x of a row goes to
 *   accumulator u = ⌊x/4⌋ mod 4, lane l = x mod 4, each step a float32 multiply then a float32 add
 *   (four independent f32x4 chains); then (acc0 + acc1) + (acc2 + acc3) lane-wise, then
 *   ((l0 + l1) + l2) + l3, all in float32.
 * - `int8` vectors, rows padded to a multiple of 16 bytes, against an int16 query: an exact int32
 *   dot product.
 */
import { BLOCK as RANK_BLOCK } from '../rank.ts';

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
    ...nextRow(ROW, STRIDE, I),
    BR, 0,
    END,
    END,
  ];
}

/** The step to the next row: `row += stride; i += 1` (i32 locals). */
function nextRow(row: number, stride: number, i: number): number[] {
  return [GET, row, GET, stride, I32_ADD, SET, row, ...addTo(i, 1)];
}

/** `local += by` (i32). */
function addTo(local: number, by: number): number[] {
  return [GET, local, I32_CONST, ...sleb(by), I32_ADD, SET, local];
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
    ...addTo(BB, g),
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
    ...nextRow(BROW, BSTRIDE, BI),
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

/** Rows per block of `blockmax`: the selection's block (`BLOCK` in rank.ts). */
export const SELECT_BLOCK = RANK_BLOCK;
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
  ...addTo(XS, 4 * SELECT_BLOCK),
  ...addTo(XMASK, SELECT_BLOCK),
  ...addTo(XDST, 4),
  ...addTo(XB, 1),
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
  ...[YD, YS, YDST].flatMap((l) => addTo(l, 16)), // four rows on
  ...addTo(YI, 4),
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
  ...[YD, YS, YDST].flatMap((l) => addTo(l, 4)), // one row on
  ...addTo(YI, 1),
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

export interface KernelExports {
  mem: WebAssembly.Memory;
  f32dots(q: number, m: number, n: number, stride: number, mask: number, out: number): void;
  i8dots(q: number, m: number, n: number, stride: number, mask: number, out: number): void;
  f32batch(qs: number, m: number, n: number, stride: number, mask: number, out: number, nq: number): void;
  i8batch(qs: number, m: number, n: number, stride: number, mask: number, out: number, nq: number): void;
  blockmax(scores: number, mask: number, blocks: number, dst: number): void;
  i8scores(dots: number, scales: number, n: number, dst: number): void;
}

let wasmModule: WebAssembly.Module | null | undefined;
/** The compiled module, or null where WebAssembly SIMD is not available (compiled once). */
export function compiled(): WebAssembly.Module | null {
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
