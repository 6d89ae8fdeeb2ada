/**
 * `VectorIndex.prepareBatch` (every row scored for many queries in one batched pass) against the
 * single-query path: `scoreAllPrepared` gives `scoreAll`'s numbers bit for bit,
 * and `searchPrepared` gives `search`'s hits, order and scores, for float32 and int8 rows, the
 * WebAssembly kernel and the JavaScript fallback, several dims, masks (none, random, values other
 * than 0/1), k from 1 to every row, batches past BATCH_BLOCK, coarse values with exact ties, NaN
 * rows, a zero query, interleaved with single-query calls; and an empty index.
 */
import { describe, expect, it } from 'vitest';
import { BATCH_BLOCK, type TopHit, VectorIndex, type VectorType } from './kernel.ts';
import { halfMask, prng, shuffledRank, uniform, uniformVectors } from '../../../test/prng.ts';

const f64 = new Float64Array(1);
const u64 = new BigUint64Array(f64.buffer);
/** A float64's bit pattern (−0 and 0 differ); every NaN alike. */
function bits(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  f64[0] = x;
  return u64[0]!.toString(16);
}
const arrayBits = (a: Float64Array): string[] => Array.from(a, bits);
const hitBits = (hits: TopHit[]): string[] => hits.map((h) => `${h.index}:${bits(h.score)}`);

const TYPES: VectorType[] = ['float32', 'int8'];

/** Compare the prepared path with the single-query path on one index, for each query and mask. */
function expectSame(idx: VectorIndex, queries: Float32Array[], masks: (Uint8Array | undefined)[], ks: number[]): void {
  const prepared = idx.prepareBatch(queries);
  expect(prepared).toHaveLength(queries.length);
  for (const allowed of masks) {
    queries.forEach((q, b) => {
      const want = arrayBits(idx.scoreAll(q, allowed));
      expect(arrayBits(idx.scoreAllPrepared(prepared[b]!, allowed))).toEqual(want);
      for (const k of ks) expect(hitBits(idx.searchPrepared(prepared[b]!, k, allowed))).toEqual(hitBits(idx.search(q, k, allowed)));
    });
  }
}

/** `n` random vectors of `dims` values with shuffled ranks, `nq` random queries and a random half mask, from `seed`. */
function fixture(seed: number, n: number, dims: number, nq: number) {
  const r = prng(seed);
  const v = uniform(n * dims, r);
  const rank = shuffledRank(n, r);
  return { v, rank, queries: uniformVectors(nq, dims, r), mask: halfMask(n, r) };
}

describe('VectorIndex.prepareBatch', () => {
  it('scores exactly as scoreAll and selects exactly as search: random vectors, dims 100 / 384 / 77 / 5, masks, k', () => {
    const r = prng(23);
    for (const [n, dims] of [
      [600, 100],
      [300, 384],
      [517, 77],
      [40, 5],
    ] as const) {
      const v = uniform(n * dims, r);
      const rank = shuffledRank(n, r);
      const masks = [undefined, new Uint8Array(n).map(() => (r() < 0.4 ? 1 : 0)), new Uint8Array(n).map(() => Math.floor(r() * 3)), new Uint8Array(n)];
      for (const type of TYPES) {
        for (const useWasm of [true, false]) {
          const idx = new VectorIndex(v, dims, rank, type, useWasm);
          expect(idx.kernel).toBe(useWasm ? 'wasm-simd' : 'js');
          // past one block of the batched kernel (wasm); a few for the fallback, which runs them one by one
          const nq = useWasm ? BATCH_BLOCK + 5 : 6;
          const queries = Array.from({ length: nq }, (_, b) => new Float32Array(dims).map(() => (b === 3 ? 0 : r() - 0.5))); // query 3 is zero
          expectSame(idx, queries, masks, [1, 10, n]);
        }
      }
    }
  });

  it('matches the single path with coarse values (exact ties), -0, and NaN rows', () => {
    const r = prng(9);
    for (const [n, dims] of [
      [300, 16],
      [400, 100],
      [150, 19],
    ] as const) {
      const coarse = () => Math.round((r() - 0.5) * 4) / 2;
      const v = new Float32Array(n * dims).map(coarse);
      for (let i = 0; i < n; i += 13) v[i * dims] = NaN;
      const rank = shuffledRank(n, r);
      const queries = Array.from({ length: 9 }, (_, b) => new Float32Array(dims).map((_, j) => (b === 0 ? (j === 0 ? -0 : 0) : coarse())));
      const masks = [undefined, new Uint8Array(n).map(() => (r() < 0.7 ? 1 : 0))];
      for (const type of TYPES) {
        for (const useWasm of [true, false]) expectSame(new VectorIndex(v, dims, rank, type, useWasm), queries, masks, [1, 3, 50, n]);
      }
    }
  });

  it('gives the same numbers with the WebAssembly kernel and the JavaScript fallback', () => {
    const { v, rank, queries, mask } = fixture(4, 333, 100, 7);
    const dims = 100;
    for (const type of TYPES) {
      const wasm = new VectorIndex(v, dims, rank, type, true);
      const js = new VectorIndex(v, dims, rank, type, false);
      const pw = wasm.prepareBatch(queries);
      const pj = js.prepareBatch(queries);
      pw.forEach((p, b) => expect(arrayBits(wasm.scoreAllPrepared(p, mask))).toEqual(arrayBits(js.scoreAllPrepared(pj[b]!, mask))));
      pw.forEach((p, b) => expect(hitBits(wasm.searchPrepared(p, 10, mask))).toEqual(hitBits(js.searchPrepared(pj[b]!, 10, mask))));
    }
  });

  it('keeps prepared scores valid across single-query calls and later batches', () => {
    const { v, rank, queries, mask } = fixture(77, 250, 64, 12);
    const dims = 64;
    for (const type of TYPES) {
      const idx = new VectorIndex(v, dims, rank, type);
      const early = idx.prepareBatch(queries.slice(0, 6));
      idx.searchBatch(queries.slice(6), 5, mask);
      idx.search(queries[7]!, 5);
      const late = idx.prepareBatch(queries.slice(6));
      [...early, ...late].forEach((p, b) => {
        expect(hitBits(idx.searchPrepared(p, 8, mask))).toEqual(hitBits(idx.search(queries[b]!, 8, mask)));
        expect(arrayBits(idx.scoreAllPrepared(p))).toEqual(arrayBits(idx.scoreAll(queries[b]!)));
      });
    }
  });

  it('fills the buffers it is given (garbage in them) with the same scores', () => {
    const r = prng(15);
    const n = 410,
      dims = 100;
    const v = uniform(n * dims, r);
    const rank = shuffledRank(n, r);
    const queries = Array.from({ length: BATCH_BLOCK + 2 }, () => uniform(dims, r));
    for (const type of TYPES) {
      for (const useWasm of [true, false]) {
        const idx = new VectorIndex(v, dims, rank, type, useWasm);
        const qs = useWasm ? queries : queries.slice(0, 5);
        const buffers = qs.map((_, b) => (b % 3 === 1 ? undefined : new Float32Array(n).fill(b % 2 ? NaN : 7)));
        const prepared = idx.prepareBatch(qs, buffers);
        prepared.forEach((p, b) => {
          if (buffers[b] !== undefined) expect(p.keys).toBe(buffers[b]);
          expect(arrayBits(idx.scoreAllPrepared(p))).toEqual(arrayBits(idx.scoreAll(qs[b]!)));
          expect(hitBits(idx.searchPrepared(p, 10))).toEqual(hitBits(idx.search(qs[b]!, 10)));
        });
      }
    }
    const idx = new VectorIndex(v, dims, rank);
    expect(() => idx.prepareBatch([queries[0]!], [new Float32Array(n - 1)])).toThrow(RangeError);
  });

  it('handles an empty index and an empty batch, and checks its arguments', () => {
    const empty = new VectorIndex(new Float32Array(0), 4, new Uint32Array(0));
    const [p] = empty.prepareBatch([new Float32Array(4)]);
    expect(empty.searchPrepared(p!, 5)).toEqual([]);
    expect(empty.scoreAllPrepared(p!)).toEqual(new Float64Array(0));
    const r = prng(3);
    const n = 50,
      dims = 8;
    const idx = new VectorIndex(uniform(n * dims, r), dims, shuffledRank(n, r));
    expect(idx.prepareBatch([])).toEqual([]);
    const [q] = idx.prepareBatch([new Float32Array(dims).map(() => r())]);
    expect(idx.searchPrepared(q!, 0)).toEqual([]);
    expect(() => idx.prepareBatch([new Float32Array(dims + 1)])).toThrow(RangeError);
    expect(() => idx.searchPrepared(q!, 3, new Uint8Array(n - 1))).toThrow(RangeError);
    expect(() => idx.scoreAllPrepared(q!, new Uint8Array(n + 1))).toThrow(RangeError);
    expect(() => idx.searchPrepared(p!, 3)).toThrow(RangeError); // prepared on another index
  });
});
