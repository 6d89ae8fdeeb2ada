/**
 * `VectorIndex.searchBatch` against the single-query path: for float32 and int8 rows, the WebAssembly
 * kernel and the JavaScript fallback, several dims (one that is no multiple of 16), masks (none,
 * shared, per query, values other than 0/1), k from 1 to every row, batch sizes around the
 * kernel's query groups and BATCH_BLOCK, and coarse values with many exact ties (also against the
 * fallback, whose selection reads every row where the wasm one passes over blocks below the
 * heap's floor): the same hits in the same order with bit-identical scores. And the wasm selection
 * helpers on their own: the int8 score conversion against JavaScript's, the block bounds against
 * a reference, rows with NaN scores.
 */
import { describe, expect, it } from 'vitest';
import { BATCH_BLOCK, kernelWasm, SELECT_BLOCK, type TopHit, VectorIndex, type VectorType } from './kernel.ts';
import { halfMask, prng, shuffledRank, uniform, uniformVectors } from '../../../test/prng.ts';

/** Hits as exact comparables: indices, and each score's float64 bit pattern. */
function exact(lists: TopHit[][]): { index: number[]; bits: string[] }[] {
  return lists.map((hits) => {
    const scores = new Float64Array(hits.map((h) => h.score));
    return { index: hits.map((h) => h.index), bits: Array.from(new BigUint64Array(scores.buffer), (b) => b.toString(16)) };
  });
}

const TYPES: VectorType[] = ['float32', 'int8'];

describe('VectorIndex.searchBatch', () => {
  it('gives exactly the single-query results: random vectors, dims 100 / 384 / 77 / 5, masks, k', () => {
    const r = prng(17);
    const sizes = [1, 2, 3, 5, BATCH_BLOCK - 1, BATCH_BLOCK + 3];
    for (const [n, dims] of [
      [600, 100],
      [300, 384],
      [500, 77],
      [40, 5],
    ] as const) {
      const v = uniform(n * dims, r);
      const rank = shuffledRank(n, r);
      const queries = Array.from({ length: Math.max(...sizes) }, () => uniform(dims, r));
      // per query: no mask, a random one, or (every third) one with values other than 0/1 (only 1 allows)
      const masks = queries.map((_, b) => (b % 4 === 0 ? undefined : new Uint8Array(n).map(() => (b % 3 === 0 ? Math.floor(r() * 3) : r() < 0.6 ? 1 : 0))));
      const shared = new Uint8Array(n).map(() => (r() < 0.3 ? 1 : 0));
      for (const type of TYPES) {
        for (const useWasm of [true, false]) {
          const idx = new VectorIndex(v, dims, rank, type, useWasm);
          expect(idx.kernel).toBe(useWasm ? 'wasm-simd' : 'js');
          for (const nq of sizes) {
            if (!useWasm && nq > 8) continue; // the fallback runs query by query: a few suffice
            const qs = queries.slice(0, nq);
            const ms = masks.slice(0, nq);
            for (const k of [1, 10, n]) {
              // the batch first (on a fresh index it grows the wasm memory), then the single path
              const batch = exact(idx.searchBatch(qs, k, ms));
              expect(batch).toEqual(exact(qs.map((q, b) => idx.search(q, k, ms[b]))));
              expect(exact(idx.searchBatch(qs, k, shared))).toEqual(exact(qs.map((q) => idx.search(q, k, shared))));
              expect(exact(idx.searchBatch(qs, k))).toEqual(exact(qs.map((q) => idx.search(q, k))));
            }
          }
        }
      }
    }
  });

  it('matches between the WebAssembly kernel and the JavaScript fallback', () => {
    const r = prng(5);
    for (const [n, dims] of [
      [257, 100],
      [120, 384],
      [200, 33],
    ] as const) {
      const v = uniform(n * dims, r);
      const rank = shuffledRank(n, r);
      const qs = uniformVectors(7, dims, r);
      const ms = qs.map((_, b) => (b === 2 ? undefined : halfMask(n, r)));
      for (const type of TYPES) {
        const wasm = new VectorIndex(v, dims, rank, type, true);
        const js = new VectorIndex(v, dims, rank, type, false);
        for (const k of [1, 10, n]) expect(exact(wasm.searchBatch(qs, k, ms))).toEqual(exact(js.searchBatch(qs, k, ms)));
      }
    }
  });

  it('breaks ties by rank exactly as the single path: coarse values, zeros and -0', () => {
    const r = prng(8);
    for (const [n, dims] of [
      [300, 16],
      [400, 100],
      [200, 384],
      [150, 19],
    ] as const) {
      const coarse = () => Math.round((r() - 0.5) * 4) / 2;
      const v = new Float32Array(n * dims).map(coarse);
      const rank = shuffledRank(n, r);
      const qs = Array.from({ length: 11 }, (_, b) => new Float32Array(dims).map((_, j) => (b === 0 ? (j === 0 ? -0 : 0) : coarse())));
      const ms = qs.map(() => new Uint8Array(n).map(() => (r() < 0.7 ? 1 : 0)));
      for (const type of TYPES) {
        const idx = new VectorIndex(v, dims, rank, type);
        const js = new VectorIndex(v, dims, rank, type, false); // its selection reads every row
        const single = qs.map((q, b) => idx.search(q, n, ms[b]));
        // the all-rows sort, the heap just below it, and small k
        for (const k of [n, ...single.map((s) => s.length - 1), 3]) {
          const batch = exact(idx.searchBatch(qs, k, ms));
          expect(batch).toEqual(exact(qs.map((q, b) => idx.search(q, k, ms[b]))));
          expect(batch).toEqual(exact(qs.map((q, b) => js.search(q, k, ms[b]))));
        }
        const all = idx.searchBatch(qs, n, ms);
        for (const hits of all) {
          for (let j = 1; j < hits.length; j++) {
            const [a, b] = [hits[j - 1]!, hits[j]!];
            expect(a.score > b.score || (a.score === b.score && rank[a.index]! < rank[b.index]!)).toBe(true);
          }
        }
        // exact ties exist, and are ordered by rank
        expect(all.some((hits) => hits.some((h, j) => j > 0 && h.score === hits[j - 1]!.score))).toBe(true);
      }
    }
  });

  it('checks its arguments', () => {
    const r = prng(2);
    const n = 90,
      dims = 24;
    const v = uniform(n * dims, r);
    const idx = new VectorIndex(v, dims, shuffledRank(n, r), 'float32');
    const list = uniformVectors(5, dims, r);
    expect(idx.searchBatch([], 7)).toEqual([]);
    expect(idx.searchBatch(list, 0)).toEqual(list.map(() => []));
    expect(() => idx.searchBatch([new Float32Array(dims + 1)], 7)).toThrow(RangeError);
    expect(() => idx.searchBatch(list, 7, [new Uint8Array(n)])).toThrow(RangeError);
    expect(() => idx.searchBatch(list, 7, new Uint8Array(n - 1))).toThrow(RangeError);
  });

  it('selects as the fallback with NaN scores among the rows', () => {
    const r = prng(31);
    const n = 400,
      dims = 40;
    const v = uniform(n * dims, r);
    for (let i = 0; i < n; i += 7) v[i * dims + (i % dims)] = NaN; // every 7th row scores NaN
    const rank = shuffledRank(n, r);
    const qs = uniformVectors(9, dims, r);
    const ms = qs.map((_, b) => (b % 2 === 0 ? undefined : halfMask(n, r)));
    for (const type of TYPES) {
      const wasm = new VectorIndex(v, dims, rank, type, true);
      const js = new VectorIndex(v, dims, rank, type, false);
      for (const k of [1, 5, 30, n]) {
        const want = exact(qs.map((q, b) => js.search(q, k, ms[b])));
        expect(exact(qs.map((q, b) => wasm.search(q, k, ms[b])))).toEqual(want);
        expect(exact(wasm.searchBatch(qs, k, ms))).toEqual(want);
      }
    }
  });
});

describe('wasm selection helpers', () => {
  const instance = () =>
    new WebAssembly.Instance(new WebAssembly.Module(kernelWasm()), {}).exports as unknown as {
      mem: WebAssembly.Memory;
      blockmax(scores: number, mask: number, blocks: number, dst: number): void;
      i8scores(dots: number, scales: number, n: number, dst: number): void;
    };

  it('i8scores is float32(int32 × float32) exactly as JavaScript computes it', () => {
    const r = prng(11);
    const ex = instance();
    const n = 1003; // not a multiple of 4: the scalar tail too
    const dots = new Int32Array(ex.mem.buffer, 0, n);
    const scales = new Float32Array(ex.mem.buffer, 4 * n, n);
    const dst = new Float32Array(ex.mem.buffer, 8 * n, n);
    for (let round = 0; round < 20; round++) {
      for (let i = 0; i < n; i++) {
        // the whole int32 range (large products round twice), small and zero dots
        dots[i] = i % 5 === 0 ? Math.floor((r() - 0.5) * 2000) : (r() * 2 ** 32) | 0;
        scales[i] = i % 11 === 0 ? 0 : (r() + 0.5) * 2 ** Math.floor((r() - 0.5) * 60);
      }
      dots[0] = -(2 ** 31);
      dots[1] = 2 ** 31 - 1;
      ex.i8scores(0, 4 * n, n, 8 * n);
      const want = new Float32Array(n);
      for (let i = 0; i < n; i++) want[i] = dots[i]! * scales[i]!;
      expect(new Uint32Array(dst.slice().buffer)).toEqual(new Uint32Array(want.buffer));
    }
  });

  it('blockmax bounds each block’s allowed scores: the largest, ignoring NaN; −∞ if none', () => {
    const r = prng(12);
    const ex = instance();
    const blocks = 200;
    const n = blocks * SELECT_BLOCK;
    const scores = new Float32Array(ex.mem.buffer, 0, n);
    const mask = new Uint8Array(ex.mem.buffer, 4 * n, n);
    const dst = new Float32Array(ex.mem.buffer, 5 * n, blocks);
    const special = [NaN, -0, 0, Infinity, -Infinity, 3.4e38, -3.4e38, 1e-45];
    for (let round = 0; round < 20; round++) {
      for (let i = 0; i < n; i++) {
        scores[i] = r() < 0.15 ? special[Math.floor(r() * special.length)]! : (r() - 0.5) * 100;
        mask[i] = r() < (round % 2 ? 0.9 : 0.2) ? 1 : 0;
      }
      ex.blockmax(0, 4 * n, blocks, 5 * n);
      for (let b = 0; b < blocks; b++) {
        let max = -Infinity;
        for (let i = b * SELECT_BLOCK; i < (b + 1) * SELECT_BLOCK; i++) if (mask[i] !== 0 && !Number.isNaN(scores[i]!)) max = Math.max(max, scores[i]!);
        expect(dst[b]! === max).toBe(true); // −0 and 0 alike
      }
    }
  });
});
