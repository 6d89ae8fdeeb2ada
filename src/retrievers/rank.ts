/**
 * The one tie-break of the project: score descending, then tool id ascending (code-unit order).
 * With 50,000 short tool names, exact score ties are common (BM25 on a one-word query); without a
 * fixed rule top-1 would depend on insertion order. Every retriever and metric ranks through here.
 *
 * Retrievers that score by catalog position rank through two helpers: {@link idRanks} (each
 * position's rank in id order, built once per catalog) and {@link topByScore} (the first `k`
 * positions by score descending, then id rank ascending: the `rankStable` order).
 */
import type { Hit } from './types.ts';

export function compareHits(a: Hit, b: Hit): number {
  if (a.score !== b.score) return b.score - a.score;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** A new array of `hits` in rank order (stable sort by `compareHits`). */
export function rankStable(hits: readonly Hit[]): Hit[] {
  return [...hits].sort(compareHits);
}

/** The first `k` hits in rank order: `rankStable(hits).slice(0, k)`, selected by {@link topByScore}. */
export function topK(hits: readonly Hit[], k: number): Hit[] {
  const scores = Float64Array.from(hits, (h) => h.score);
  const rank = idRanks(hits.map((h) => h.id));
  return topByScore(scores, rank, k, { mask: new Uint8Array(hits.length).fill(1) }).map((p) => hits[p]!);
}

/**
 * `rank[p]` = the position of `ids[p]` in code-unit order (equal ids in position order): the
 * tie-break of `rankStable` as a number, so a selection compares two integers instead of two strings.
 */
export function idRanks(ids: readonly string[]): Uint32Array<ArrayBuffer> {
  const order = Array.from({ length: ids.length }, (_, i) => i).sort((x, y) => (ids[x]! < ids[y]! ? -1 : ids[x]! > ids[y]! ? 1 : x - y));
  const rank = new Uint32Array(ids.length);
  for (let r = 0; r < order.length; r++) rank[order[r]!] = r;
  return rank;
}

/**
 * Check a search context against the indexed catalog's size: the `allowed` mask must have one
 * entry per tool (a mask of another catalog would silently let the wrong tools through).
 * Returns the mask.
 */
export function checkedMask(retriever: string, allowed: Uint8Array | undefined, tools: number): Uint8Array | undefined {
  if (allowed !== undefined && allowed.length !== tools) {
    throw new RangeError(`retriever "${retriever}": allowed mask has ${allowed.length} entries, the catalog ${tools} tools`);
  }
  return allowed;
}

// ---------------------------------------------------------------------------------------------
// The selector.
// ---------------------------------------------------------------------------------------------

/**
 * The positions a selection chooses from: a list of positions, or every position p with
 * `mask[p] ≠ 0`. With a mask, `blockMax` (optional) bounds the scores of each whole block of
 * `BLOCK` positions (block b = positions b·BLOCK … b·BLOCK + BLOCK − 1): for each block, an upper
 * bound of its candidates' scores ignoring NaN (−∞ if none). The dense kernel computes it in SIMD.
 */
export type Candidates = ArrayLike<number> | { readonly mask: Uint8Array; readonly blockMax?: ArrayLike<number> };

/** Positions per block of `blockMax` (see {@link Candidates}). */
export const BLOCK = 16;

/**
 * The first `k` candidates by `scores[p]` descending, then `rank[p]` ascending (with `rank` from
 * {@link idRanks}: the `rankStable` order), as positions in that order.
 *
 * A size-k heap with the worst kept candidate at the root: once it is full, a candidate scoring
 * below the root is rejected with one comparison (a NaN score never enters a full heap), and a
 * block whose `blockMax` bound is below the root is passed over without reading its positions
 * (each would be rejected anyway, so the result is the same). When `k` covers every candidate,
 * one sort replaces the heap: of exact numeric (score, rank) keys for float32 scores whose ranks
 * are a permutation of the positions (a z-score fusion ranks the whole catalog), else by comparison.
 */
export function topByScore(scores: ArrayLike<number>, rank: ArrayLike<number>, k: number, candidates: Candidates): number[] {
  k = Math.floor(k);
  if (!(k > 0)) return [];
  const mask = 'mask' in candidates ? candidates.mask : undefined;
  const list = mask === undefined ? (candidates as ArrayLike<number>) : undefined;
  if (list !== undefined ? k >= list.length : !allowsMoreThan(mask!, k)) return allByScore(scores, rank, list ?? positionsOf(mask!), mask);
  const heap = new TopHeap(k);
  if (list !== undefined) {
    for (let j = 0; j < list.length; j++) {
      const p = list[j]!;
      const s = scores[p]!;
      if (!(s < heap.floor)) heap.offer(p, s, rank[p]!);
    }
    return heap.sorted();
  }
  const n = mask!.length;
  const blockMax = (candidates as { blockMax?: ArrayLike<number> }).blockMax;
  const blocks = blockMax === undefined ? 0 : blockMax.length;
  for (let b = 0, start = 0; start < n; b++, start += BLOCK) {
    // a block whose bound is below the floor (of a full heap: the floor is −∞ until then): each of its rows would be rejected
    if (b < blocks && blockMax![b]! < heap.floor) continue;
    const end = Math.min(start + BLOCK, n);
    for (let p = start; p < end; p++) {
      if (mask![p] === 0) continue;
      const s = scores[p]!;
      if (!(s < heap.floor)) heap.offer(p, s, rank[p]!);
    }
  }
  return heap.sorted();
}

/** A size-k heap of (position, score, rank), the worst (lowest score, then highest rank) at the root. */
class TopHeap {
  private readonly pos: Int32Array;
  private readonly score: Float64Array;
  private readonly rank: Float64Array;
  private size = 0;
  /** The root's score once the heap is full, −∞ until then. */
  floor = -Infinity;

  constructor(private readonly k: number) {
    this.pos = new Int32Array(k);
    this.score = new Float64Array(k);
    this.rank = new Float64Array(k);
  }

  /** Keep (p, s, r) if the heap is not full or it ranks before the root. */
  offer(p: number, s: number, r: number): void {
    const { score, rank, k } = this;
    if (this.size < k) {
      // Sift up: a parent is never better than its children.
      let c = this.size++;
      while (c > 0) {
        const parent = (c - 1) >> 1;
        if (!(s < score[parent]! || (s === score[parent] && r > rank[parent]!))) break;
        this.move(parent, c);
        c = parent;
      }
      this.put(c, p, s, r);
      if (this.size === k) this.floor = score[0]!;
      return;
    }
    if (!(s > score[0]! || (s === score[0] && r < rank[0]!))) return; // not better than the worst kept
    // Sift down from the root: the worse child moves up while it is worse than (p, s, r).
    const size = this.size;
    let c = 0;
    for (;;) {
      const l = 2 * c + 1;
      if (l >= size) break;
      const rr = l + 1;
      let w = l;
      if (rr < size && (score[rr]! < score[l]! || (score[rr] === score[l] && rank[rr]! > rank[l]!))) w = rr;
      if (!(score[w]! < s || (score[w] === s && rank[w]! > r))) break;
      this.move(w, c);
      c = w;
    }
    this.put(c, p, s, r);
    this.floor = score[0]!;
  }

  private move(from: number, to: number): void {
    this.pos[to] = this.pos[from]!;
    this.score[to] = this.score[from]!;
    this.rank[to] = this.rank[from]!;
  }

  private put(at: number, p: number, s: number, r: number): void {
    this.pos[at] = p;
    this.score[at] = s;
    this.rank[at] = r;
  }

  /** The kept positions, best first. */
  sorted(): number[] {
    const { pos, score, rank } = this;
    const order = Array.from({ length: this.size }, (_, j) => j).sort((a, b) => score[b]! - score[a]! || rank[a]! - rank[b]!);
    return order.map((j) => pos[j]!);
  }
}

const RANK_BITS = 2 ** 21;
const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/**
 * Every candidate of `list` in rankStable order. For float32 scores whose ranks are a permutation
 * of 0..n−1 below 2^21 (n = the mask's length, else the largest position + 1): one native numeric
 * sort of keys (score order-preserving as 32 bits, descending) · 2^21 + rank, exact in a float64;
 * otherwise a comparator sort.
 */
function allByScore(scores: ArrayLike<number>, rank: ArrayLike<number>, list: ArrayLike<number>, mask: Uint8Array | undefined): number[] {
  const byRank = scores instanceof Float32Array && mask !== undefined ? permutation(rank, mask.length) : undefined;
  if (byRank === undefined) {
    return Array.from(list).sort((a, b) => scores[b]! - scores[a]! || rank[a]! - rank[b]!);
  }
  const m = list.length;
  const keys = new Float64Array(m);
  for (let j = 0; j < m; j++) {
    const p = list[j]!;
    f32[0] = scores[p]! + 0; // -0 → +0: equal scores share a key
    const bits = u32[0]!;
    const ascending = bits & 0x80000000 ? ~bits >>> 0 : (bits | 0x80000000) >>> 0; // order-preserving
    keys[j] = (0xffffffff - ascending) * RANK_BITS + rank[p]!;
  }
  keys.sort();
  const out: number[] = new Array(m);
  for (let j = 0; j < m; j++) out[j] = byRank[keys[j]! % RANK_BITS]!;
  return out;
}

/** The position of each rank, if `rank` (n entries) is a permutation of 0..n−1 with n ≤ 2^21. */
function permutation(rank: ArrayLike<number>, n: number): Int32Array | undefined {
  if (n > RANK_BITS || rank.length !== n) return undefined;
  const byRank = new Int32Array(n).fill(-1);
  for (let i = 0; i < n; i++) {
    const r = rank[i]!;
    if (r >= n || byRank[r] !== -1) return undefined;
    byRank[r] = i;
  }
  return byRank;
}

/** The positions p with mask[p] ≠ 0, ascending. */
function positionsOf(mask: Uint8Array): number[] {
  const out: number[] = [];
  for (let i = 0; i < mask.length; i++) if (mask[i] !== 0) out.push(i);
  return out;
}

/** More than `k` positions with mask ≠ 0, stopping as soon as it is known. */
function allowsMoreThan(mask: Uint8Array, k: number): boolean {
  let c = 0;
  for (let i = 0; i < mask.length; i++) if (mask[i] !== 0 && ++c > k) return true;
  return false;
}
