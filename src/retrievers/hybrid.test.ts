import { describe, expect, it } from 'vitest';
import { retrieverContract } from '../../test/contract/contract.ts';
import type { Catalog, Tool } from '../catalog/types.ts';
import { createBm25 } from './bm25/presets.ts';
import { HybridRetriever, checkHybridOptions, createHybrid, defaultDepth, firstK, HYBRID_DEFAULT_OPTIONS, zStats, type HybridOptions } from './hybrid.ts';
import { rankStable } from './rank.ts';
import { type Hit, type Retriever, type SearchContext } from './types.ts';
import { prng } from '../../test/prng.ts';

function tool(id: string, description = ''): Tool {
  return {
    id,
    name: id,
    source: 'core',
    namespace: 'core',
    summary: '',
    description,
    inputSchema: { type: 'object', properties: {} },
    examples: [],
    scopes: [],
    pinned: false,
    hash: '',
  };
}
const catalogOf = (tools: Tool[]): Catalog => ({ tools, skills: [], servers: [], plugins: [] });
const ABCDE = catalogOf(['a', 'b', 'c', 'd', 'e'].map((id) => tool(id)));

/**
 * A child that returns a fixed list (in the given order, truncated to ctx.k) and records every
 * context it was given. With `honourMask: false` it ignores the mask, as a buggy child would.
 */
class ListRetriever implements Retriever {
  readonly contexts: SearchContext[] = [];
  indexed = 0;
  private ids: string[] = [];
  constructor(
    readonly name: string,
    private readonly hits: Hit[],
    private readonly honourMask = true,
  ) {}
  async index(catalog: Catalog): Promise<void> {
    this.indexed++;
    this.ids = catalog.tools.map((t) => t.id);
  }
  async search(_request: string, context: SearchContext): Promise<Hit[]> {
    this.contexts.push(context);
    const { allowed } = context;
    const ok = (h: Hit): boolean => !this.honourMask || allowed === undefined || allowed[this.ids.indexOf(h.id)] === 1;
    return this.hits.filter(ok).slice(0, context.k);
  }
}

async function hybridOf(a: Hit[], b: Hit[], options: Partial<HybridOptions> = {}, catalog = ABCDE) {
  const ca = new ListRetriever('a', a);
  const cb = new ListRetriever('b', b);
  const h = new HybridRetriever('h', ca, cb, options);
  await h.index(catalog);
  return { h, ca, cb };
}

const hits = (...pairs: Array<[string, number]>): Hit[] => pairs.map(([id, score]) => ({ id, score }));

describe('HybridRetriever, reciprocal-rank fusion', () => {
  it('sums 1 / (rrfK + rank) over the children, rank 1-based', async () => {
    // A: a b c;  B: c d a.  a = 1/61 + 1/63, c = 1/63 + 1/61 (equal: ties by id), b = d = 1/62.
    const { h } = await hybridOf(hits(['a', 10], ['b', 5], ['c', 1]), hits(['c', 3], ['d', 2], ['a', 1]));
    const out = await h.search('q', { k: 10 });
    expect(out).toEqual([
      { id: 'a', score: 1 / 61 + 1 / 63 },
      { id: 'c', score: 1 / 63 + 1 / 61 },
      { id: 'b', score: 1 / 62 },
      { id: 'd', score: 1 / 62 },
    ]);
    expect(out).toEqual(rankStable(out));
  });

  it('uses rrfK and ignores the scores themselves', async () => {
    // A: b (1000) a (999);  B: e (0.001).  rrfK 0: b = 1, e = 1, a = 1/2.
    const { h } = await hybridOf(hits(['b', 1000], ['a', 999]), hits(['e', 0.001]), { rrfK: 0 });
    expect(await h.search('q', { k: 10 })).toEqual([
      { id: 'b', score: 1 },
      { id: 'e', score: 1 },
      { id: 'a', score: 0.5 },
    ]);
  });

  it('breaks equal fused scores by id', async () => {
    const { h } = await hybridOf(hits(['b', 2], ['a', 1]), hits(['a', 2], ['b', 1]));
    const out = await h.search('q', { k: 10 });
    expect(out.map((x) => x.id)).toEqual(['a', 'b']);
    expect(out[0]!.score).toBe(out[1]!.score);
  });
});

describe('HybridRetriever, weighted fusion', () => {
  it('min-max normalises each list, an all-equal list → 1, then sums weight · score', async () => {
    // A: a 10 → 1, b 6 → 0.5, c 2 → 0;  B: c 4, d 4 → 1 each.  weights 0.7 / 0.3.
    // a = 0.7, b = 0.35, c = 0 + 0.3, d = 0.3 (c, d tie → by id).
    const { h } = await hybridOf(hits(['a', 10], ['b', 6], ['c', 2]), hits(['c', 4], ['d', 4]), { method: 'weighted', weights: [0.7, 0.3] });
    const out = await h.search('q', { k: 10 });
    expect(out.map((x) => x.id)).toEqual(['a', 'b', 'c', 'd']);
    expect(out[0]!.score).toBeCloseTo(0.7, 15);
    expect(out[1]!.score).toBeCloseTo(0.35, 15);
    expect(out[2]!.score).toBe(0.3);
    expect(out[3]!.score).toBe(0.3);
  });

  it('gives a single hit normalised score 1, and keeps a list-minimum tool at 0', async () => {
    // A: e 0.01 alone → 1;  B: d 9 → 1, a 3 → 0.  default weights 0.5 / 0.5.
    const { h } = await hybridOf(hits(['e', 0.01]), hits(['d', 9], ['a', 3]), { method: 'weighted' });
    expect(await h.search('q', { k: 10 })).toEqual([
      { id: 'd', score: 0.5 },
      { id: 'e', score: 0.5 },
      { id: 'a', score: 0 },
    ]);
  });

  it('handles negative and mixed-scale scores', async () => {
    // A: a -1 → 1, b -3 → 0;  B: b 100 → 1, a 50 → 0.  weights 1 / 3: b = 3, a = 1.
    const { h } = await hybridOf(hits(['a', -1], ['b', -3]), hits(['b', 100], ['a', 50]), { method: 'weighted', weights: [1, 3] });
    expect(await h.search('q', { k: 10 })).toEqual([
      { id: 'b', score: 3 },
      { id: 'a', score: 1 },
    ]);
  });
});

describe('HybridRetriever, masks, depth, k', () => {
  it("passes the same mask to both children and drops a child's hit outside it", async () => {
    const ca = new ListRetriever('a', hits(['a', 3], ['b', 2], ['c', 1]), false); // ignores the mask
    const cb = new ListRetriever('b', hits(['b', 3], ['d', 2]));
    const h = new HybridRetriever('h', ca, cb);
    await h.index(ABCDE);
    const allowed = Uint8Array.from([1, 0, 1, 1, 1]); // b is not allowed
    const out = await h.search('q', { k: 10, allowed, floor: 0.5, callerScopes: ['x'] });
    expect(out.map((x) => x.id)).not.toContain('b');
    // b removed before ranking: A is a (rank 1), c (rank 2); B is d (rank 1).
    expect(out).toEqual([
      { id: 'a', score: 1 / 61 },
      { id: 'd', score: 1 / 61 },
      { id: 'c', score: 1 / 62 },
    ]);
    for (const c of [ca, cb]) {
      expect(c.contexts).toHaveLength(1);
      expect(c.contexts[0]!.allowed).toBe(allowed);
      expect(c.contexts[0]!.callerScopes).toEqual(['x']);
      expect(c.contexts[0]!.k).toBe(50);
      expect(c.contexts[0]!.floor).toBeUndefined(); // the floor is on the fused scale
    }
    const none = await h.search('q', { k: 10, allowed: new Uint8Array(5) });
    expect(none).toEqual([]);
  });

  it('drops unknown ids and repeats from a child', async () => {
    const { h } = await hybridOf(hits(['zz', 9], ['a', 3], ['a', 2], ['b', 1]), []);
    expect(await h.search('q', { k: 10 })).toEqual([
      { id: 'a', score: 1 / 61 },
      { id: 'b', score: 1 / 62 },
    ]);
  });

  it('asks each child for max(50, 5k) hits by default, or for `depth`', async () => {
    expect(defaultDepth(1)).toBe(50);
    expect(defaultDepth(10)).toBe(50);
    expect(defaultDepth(11)).toBe(55);
    const { h, ca } = await hybridOf(hits(['a', 1]), []);
    await h.search('q', { k: 3 });
    await h.search('q', { k: 20 });
    expect(ca.contexts.map((c) => c.k)).toEqual([50, 100]);

    // depth 2: only the first two of each list are fused, even from a child returning more.
    const eager = new ListRetriever('x', hits(['a', 4], ['b', 3], ['c', 2]), false);
    eager.search = async (_q, ctx) => {
      eager.contexts.push(ctx);
      return hits(['a', 4], ['b', 3], ['c', 2]);
    };
    const h2 = new HybridRetriever('h', eager, new ListRetriever('y', hits(['c', 1])), { depth: 2 });
    await h2.index(ABCDE);
    expect((await h2.search('q', { k: 10 })).map((x) => x.id)).toEqual(['a', 'c', 'b']);
    expect(eager.contexts[0]!.k).toBe(2);
  });

  it('returns at most k hits, and none for k ≤ 0 or empty children', async () => {
    const { h } = await hybridOf(hits(['a', 3], ['b', 2], ['c', 1]), hits(['d', 1]));
    expect((await h.search('q', { k: 2 })).map((x) => x.id)).toEqual(['a', 'd']);
    expect(await h.search('q', { k: 0 })).toEqual([]);
    const empty = await hybridOf([], []);
    expect(await empty.h.search('q', { k: 5 })).toEqual([]);
  });

  it('indexes both children; refuses to search before index and a mask of the wrong length', async () => {
    const ca = new ListRetriever('a', []);
    const cb = new ListRetriever('b', []);
    const h = new HybridRetriever('h', ca, cb);
    await expect(h.search('q', { k: 1 })).rejects.toThrow(/before index/);
    await h.index(ABCDE);
    expect([ca.indexed, cb.indexed]).toEqual([1, 1]);
    await expect(h.search('q', { k: 1, allowed: new Uint8Array(4) })).rejects.toThrow(RangeError);
  });

  it('rejects out-of-range options', () => {
    const base: HybridOptions = { ...HYBRID_DEFAULT_OPTIONS, weights: [0.5, 0.5] };
    expect(() => checkHybridOptions(base)).not.toThrow();
    const bad: Array<Partial<HybridOptions>> = [
      { method: 'max' as 'rrf' },
      { rrfK: -1 },
      { rrfK: Number.NaN },
      { weights: [0, 0] },
      { weights: [-1, 2] },
      { weights: [1] as unknown as [number, number] },
      { depth: 0 },
      { depth: 2.5 },
    ];
    for (const o of bad) expect(() => new HybridRetriever('h', new ListRetriever('a', []), new ListRetriever('b', []), o), JSON.stringify(o)).toThrow(RangeError);
  });
});

/*
 * Real children: bm25 + bm25-plain over a hand catalog. The fused list must be exactly the RRF of
 * the two children's own lists (asked with the same mask and depth).
 */
const HAND = catalogOf([
  tool('search_issues', 'Find issues by text.'),
  tool('create_issue', 'Create a new issue.'),
  tool('list_repos', 'List repositories.'),
  tool('search_code', 'Search code in repositories.'),
  tool('createPullRequest', 'Open a PR.'),
]);

describe('HybridRetriever over bm25 + bm25-plain', () => {
  it('is the RRF of the children under the same mask', async () => {
    const h = createHybrid('hybrid', 'bm25', 'bm25-plain');
    await h.index(HAND);
    const [a, b] = [createBm25('bm25'), createBm25('bm25-plain')];
    await a.index(HAND);
    await b.index(HAND);
    const masks = [undefined, Uint8Array.from([1, 1, 0, 1, 1]), Uint8Array.from([0, 1, 1, 1, 0])];
    for (const q of ['search issues', 'create pull request', 'repositories code', 'issue', 'nothing matches zzz']) {
      for (const allowed of masks) {
        const [ha, hb] = [await a.search(q, { k: 50, allowed }), await b.search(q, { k: 50, allowed })];
        const fused = new Map<string, number>();
        for (const list of [ha, hb]) list.forEach((x, i) => fused.set(x.id, (fused.get(x.id) ?? 0) + 1 / (61 + i)));
        const expected = rankStable([...fused].map(([id, score]) => ({ id, score }))).slice(0, 3);
        expect(await h.search(q, { k: 3, allowed }), q).toEqual(expected);
      }
    }
    // bm25 splits createPullRequest, bm25-plain does not: only bm25 finds it, at rank 1.
    expect(await h.search('pull request', { k: 5 })).toEqual([{ id: 'createPullRequest', score: 1 / 61 }]);
    expect(await h.search('zzz', { k: 5 })).toEqual([]);
  });

  it('describes itself and both children as plain JSON', () => {
    const h = createHybrid('hybrid', 'bm25', 'bm25-plain', { method: 'weighted', weights: [0.6, 0.4], depth: 30 });
    expect(h.name).toBe('hybrid');
    expect(h.children.map((c) => c.name)).toEqual(['bm25', 'bm25-plain']);
    const d = h.describe();
    expect(JSON.parse(JSON.stringify(d))).toEqual(d);
    expect(d).toMatchObject({ retriever: 'hybrid', method: 'weighted', weights: [0.6, 0.4], depth: 30 });
    const [da, db] = d.children as Array<Record<string, unknown>>;
    expect(da).toEqual(createBm25('bm25').describe());
    expect(db).toEqual(createBm25('bm25-plain').describe());
    expect(createHybrid('hybrid', 'bm25', 'bm25-plain').describe()).toMatchObject({ method: 'rrf', rrfK: 60, depth: 'max(50, 5k)' });
  });

  it('rejects an unknown child name', () => {
    expect(() => createHybrid('hybrid', 'bm25', 'bm52')).toThrow(/unknown retriever "bm52"/);
  });
});

describe('HybridRetriever, z-score fusion', () => {
  it('standardises each child over every allowed tool (absent = 0 for a non-negative list) and sums weight · z', async () => {
    // A (BM25-like) returns a 4, b 2; c, d, e count as 0: mean 1.2, sd 1.6 → a 1.75, b 0.5, absent -0.75.
    // B returns all five: c 5, a b d e 0: mean 1, sd 2 → c 2, the others -0.5.
    // weights 0.4 / 0.6: c = -0.3 + 1.2 = 0.9, a = 0.7 - 0.3 = 0.4, b = 0.2 - 0.3 = -0.1, d = e = -0.3 - 0.3 = -0.6.
    const { h } = await hybridOf(hits(['a', 4], ['b', 2]), hits(['c', 5], ['a', 0], ['b', 0], ['d', 0], ['e', 0]), { method: 'zscore', weights: [0.4, 0.6] });
    const out = await h.search('q', { k: 10 });
    expect(out.map((x) => x.id)).toEqual(['c', 'a', 'b', 'd', 'e']);
    [0.9, 0.4, -0.1, -0.6, -0.6].forEach((want, i) => expect(out[i]!.score).toBeCloseTo(want, 12));
    expect(out[3]!.score).toBe(out[4]!.score); // d, e tie → by id
    expect(await h.search('q', { k: 2 })).toEqual(out.slice(0, 2));
  });

  it('counts absent tools at the lowest score when a child scores below 0, over the allowed tools only', async () => {
    // Mask without e: 4 allowed. A returns a -1, b -3; c, d absent → -3: mean -2.5, sd √0.75 → a √3, b c d -1/√3.
    // B returns nothing: no spread, adds 0. c and d were returned by no child: not ranked.
    const { h, ca, cb } = await hybridOf(hits(['a', -1], ['b', -3]), [], { method: 'zscore', weights: [1, 1] });
    const out = await h.search('q', { k: 10, allowed: Uint8Array.from([1, 1, 1, 1, 0]) });
    expect(out.map((x) => x.id)).toEqual(['a', 'b']);
    expect(out[0]!.score).toBeCloseTo(Math.sqrt(3), 12);
    expect(out[1]!.score).toBeCloseTo(-1 / Math.sqrt(3), 12);
    // Default depth: every allowed tool.
    expect(ca.contexts.at(-1)!.k).toBe(4);
    expect(cb.contexts.at(-1)!.k).toBe(4);
    await h.search('q', { k: 1 });
    expect(ca.contexts.at(-1)!.k).toBe(5);
  });

  it('adds nothing for a child whose scores do not spread', async () => {
    // A: all five at 7 → sd 0 → 0.  B: d 1, the rest absent at 0: mean 0.2, sd 0.4 → d 2, absent -0.5.  weights 0.5 / 0.5.
    const { h } = await hybridOf(hits(['a', 7], ['b', 7], ['c', 7], ['d', 7], ['e', 7]), hits(['d', 1]), { method: 'zscore' });
    const out = await h.search('q', { k: 10 });
    expect(out.map((x) => x.id)).toEqual(['d', 'a', 'b', 'c', 'e']);
    expect(out[0]!.score).toBeCloseTo(1, 12);
    for (const x of out.slice(1)) expect(x.score).toBeCloseTo(-0.25, 12);
  });

  it('with a depth, fuses only that many hits of each child (the rest count as absent)', async () => {
    // depth 1: A gives a 4 only → values a 4, four absent 0: mean 0.8, sd 1.6 → a 2, absent -0.5. B gives c 5 → same shape.
    const { h, ca } = await hybridOf(hits(['a', 4], ['b', 2]), hits(['c', 5], ['a', 1]), { method: 'zscore', depth: 1 });
    const out = await h.search('q', { k: 10 });
    expect(ca.contexts.at(-1)!.k).toBe(1);
    expect(out.map((x) => x.id)).toEqual(['a', 'c']);
    for (const x of out) expect(x.score).toBeCloseTo(0.75, 12); // 0.5 · 2 + 0.5 · -0.5
  });

  it('computes the statistics by hand', () => {
    const s = zStats(2, 5, (j) => [4, 2][j]!); // [4, 2, 0, 0, 0]
    expect(s.mean).toBeCloseTo(1.2, 12);
    expect(s.sd).toBeCloseTo(1.6, 12);
    expect(s.absent).toBe(0);
    expect(zStats(0, 3, () => 0)).toEqual({ mean: 0, sd: 0, absent: 0 });
    expect(zStats(2, 2, (j) => [-1, 1][j]!)).toEqual({ mean: 0, sd: 1, absent: -1 });
  });

  it('describes itself', () => {
    const d = createHybrid('hybrid', 'bm25', 'bm25-plain', { method: 'zscore', weights: [0.4, 0.6] }).describe();
    expect(JSON.parse(JSON.stringify(d))).toEqual(d);
    expect(d).toMatchObject({ method: 'zscore', weights: [0.4, 0.6], depth: 'every allowed tool' });
    expect(() => checkHybridOptions({ ...HYBRID_DEFAULT_OPTIONS, weights: [1, 1], method: 'zscore' })).not.toThrow();
  });
});

describe('firstK', () => {
  it('equals rankStable(hits).slice(0, k), ties by id', () => {
    let seed = 7;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    for (let round = 0; round < 50; round++) {
      const n = 1 + Math.floor(rand() * 200);
      const list: Hit[] = Array.from({ length: n }, (_, i) => ({ id: `t${(i * 7919) % 1000}-${i}`, score: Math.floor(rand() * 10) / 2 - 1 }));
      for (const k of [1, 3, 10, 60, 500]) expect(firstK(list, k)).toEqual(rankStable(list).slice(0, k));
    }
  });
});

/* The shared retriever contract, on variants the registry does not list. */
describe.each([
  ['rrf', (): Retriever => createHybrid('hybrid', 'bm25', 'bm25-plain')],
  ['weighted', (): Retriever => createHybrid('hybrid', 'bm25', 'bm25-plain', { method: 'weighted' })],
  ['zscore', (): Retriever => createHybrid('hybrid', 'bm25', 'bm25-plain', { method: 'zscore' })],
] as const)('contract: hybrid %s', (_method, make) => {
  retrieverContract(make);
});

describe('zscore fusion from dense scores', () => {
  it('gives what fusing the two full ranked lists gives', async () => {
    const { CONTRACT_DATA } = await import('../../test/contract/contract.ts');
    const { catalog, requests } = CONTRACT_DATA;
    // bm25 and bm25-plain both offer denseScores; wrapping them hides it and forces the list path
    const hide = (r: Retriever): Retriever => ({ name: r.name, index: (c) => r.index(c), search: (q, ctx) => r.search(q, ctx) });
    const dense = new HybridRetriever('hybrid', createBm25('bm25'), createBm25('bm25-plain'), { method: 'zscore', weights: [0.4, 0.6] });
    const lists = new HybridRetriever('hybrid', hide(createBm25('bm25')), hide(createBm25('bm25-plain')), { method: 'zscore', weights: [0.4, 0.6] });
    await dense.index(catalog);
    await lists.index(catalog);
    const mask = Uint8Array.from(catalog.tools, (_, i) => (i % 3 === 0 ? 0 : 1));
    let compared = 0;
    for (const q of requests.slice(0, 30)) {
      for (const ctx of [{ k: 10 }, { k: 5, allowed: mask }]) {
        const a = await dense.search(q, ctx);
        const b = await lists.search(q, ctx);
        expect(a.map((h) => h.id)).toEqual(b.map((h) => h.id));
        a.forEach((h, i) => expect(h.score).toBeCloseTo(b[i]!.score, 9));
        compared += a.length;
      }
    }
    expect(compared).toBeGreaterThan(100);
  });
});

describe('zscore fusion from dense scores, against the formula computed directly', () => {
  type Dense = { scores: Float64Array; returned: Uint8Array };
  /** A child whose dense scores are given per request (it has no ranked list: the hybrid must not ask for one). */
  class DenseChild implements Retriever {
    constructor(
      readonly name: string,
      private readonly of: (request: string) => Dense,
    ) {}
    async index(): Promise<void> {}
    async search(): Promise<Hit[]> {
      throw new Error('the dense path should be taken');
    }
    async denseScores(request: string): Promise<Dense> {
      return this.of(request);
    }
  }

  /**
   * The z-score fusion as the file comment states it, in the simplest code (one child at a time,
   * a Map of fused scores, rankStable): each child's admissible tools (returned, allowed, finite),
   * their mean and population sd over the `total` allowed tools with absent tools at min(0, lowest),
   * and Σ in child order over the union of weight · z (the absent term for a tool the child lacks).
   */
  function reference(dense: readonly Dense[], allowed: Uint8Array | undefined, ids: readonly string[], weights: readonly number[], k: number): Hit[] {
    const n = ids.length;
    let total = 0;
    for (let p = 0; p < n; p++) if (allowed === undefined || allowed[p] === 1) total++;
    if (total === 0 || k <= 0) return [];
    const admissible = dense.map(({ scores, returned }) => {
      const ps: number[] = [];
      for (let p = 0; p < n; p++) if (returned[p] === 1 && (allowed === undefined || allowed[p] === 1) && Number.isFinite(scores[p]!)) ps.push(p);
      return ps;
    });
    const union = [...new Set(admissible.flat())].sort((x, y) => x - y);
    const fused = new Map<number, number>(union.map((p) => [p, 0]));
    dense.forEach(({ scores }, c) => {
      const mine = new Set(admissible[c]);
      const { mean, sd, absent } = zStats(admissible[c]!.length, total, (j) => scores[admissible[c]![j]!]!);
      if (!(sd > 0)) return;
      for (const p of union) fused.set(p, fused.get(p)! + (mine.has(p) ? weights[c]! * ((scores[p]! - mean) / sd) : weights[c]! * ((absent - mean) / sd)));
    });
    return rankStable(union.map((p) => ({ id: ids[p]!, score: fused.get(p)! }))).slice(0, k);
  }

  it('gives exactly the same hits and scores: ties, negative, non-finite and flat scores, masks, weights, k', async () => {
    const n = 700;
    const r = prng(41);
    // ids whose code-unit order is not the catalog order
    const ids = Array.from({ length: n }, (_, i) => `t${((i * 7919) % n).toString(36)}-${i % 3}`);
    const catalog = catalogOf(ids.map((id) => tool(id)));
    const requests = Array.from({ length: 60 }, (_, i) => `request ${i}`);
    const data = new Map<string, [Dense, Dense]>();
    requests.forEach((q, i) => {
      const coarse = (scale: number) => Math.round(r() * 8) / 8 * scale;
      const a: Dense = { scores: new Float64Array(n), returned: new Uint8Array(n) }; // bm25-like: some tools, ≥ 0, ties
      const b: Dense = { scores: new Float64Array(n), returned: new Uint8Array(n) }; // embed-like: every tool, signed
      for (let p = 0; p < n; p++) {
        if (i % 10 !== 3 && r() < 0.2) {
          a.returned[p] = 1;
          a.scores[p] = i % 5 === 1 ? 2 : coarse(12); // request ≡ 1 (mod 5): a flat list (sd 0 when it covers… never: absent tools are 0)
        }
        b.returned[p] = i % 7 === 2 && p % 2 === 0 ? 0 : 1;
        b.scores[p] = i % 11 === 4 ? 0.5 : i % 2 ? coarse(2) - 1 : r() * 2 - 1; // ≡ 4 (mod 11): every score equal (sd 0)
        if (p % 97 === 5) b.scores[p] = [NaN, Infinity, -Infinity][p % 3]!;
        if (p % 89 === 7 && a.returned[p] === 1) a.scores[p] = NaN;
      }
      data.set(q, [a, b]);
    });
    const masks = [undefined, new Uint8Array(n).map(() => (r() < 0.5 ? 1 : 0)), new Uint8Array(n).map(() => Math.floor(r() * 3)), new Uint8Array(n)];
    let compared = 0;
    for (const weights of [[0.4, 0.6], [1, 0], [0.5, 0.5]] as [number, number][]) {
      const h = new HybridRetriever('h', new DenseChild('a', (q) => data.get(q)![0]), new DenseChild('b', (q) => data.get(q)![1]), { method: 'zscore', weights });
      await h.index(catalog);
      for (const q of requests) {
        for (const allowed of masks) {
          for (const k of [1, 10, n]) {
            const got = await h.search(q, { k, ...(allowed ? { allowed } : {}) });
            const want = reference(data.get(q)!, allowed, ids, weights, k);
            expect(got).toEqual(want);
            // exactly: −0 and 0 too
            expect(got.map((x) => Object.is(x.score, -0))).toEqual(want.map((x) => Object.is(x.score, -0)));
            compared += got.length;
          }
        }
      }
    }
    expect(compared).toBeGreaterThan(100_000);
  });
});
