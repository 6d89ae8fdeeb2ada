import { describe, expect, it } from 'vitest';
import { retrieverContract } from '../../test/contract/contract.ts';
import type { Catalog, Tool } from '../catalog/types.ts';
import { createBm25 } from './bm25/presets.ts';
import { sha256 } from '../util/hash.ts';
import {
  CalibratedHybridRetriever,
  calibrationBudget,
  checkCalibratedOptions,
  CALIBRATED_DEFAULT_OPTIONS,
  checkHybridOptions,
  defaultDepth,
  HYBRID_DEFAULT_COEFFICIENTS,
  HYBRID_DEFAULT_OPTIONS,
  HybridRetriever,
  selectCases,
  zStats,
  type HybridOptions,
} from './hybrid.ts';
import { fitLogistic, sigmoid } from './logistic.ts';
import { Policy } from './policy.ts';
import { createHybrid, createRetriever } from './registry.ts';
import { rankStable } from './rank.ts';
import { isCalibrating, type CalibrationCase, type Hit, type Retriever, type SearchContext } from './types.ts';
import { prng } from '../../test/prng.ts';

function tool(id: string, description = '', scopes: string[] = []): Tool {
  return {
    id,
    name: id,
    source: 'core',
    namespace: 'core',
    summary: '',
    description,
    inputSchema: { type: 'object', properties: {} },
    examples: [],
    scopes,
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
    for (const o of bad)
      expect(() => new HybridRetriever('h', new ListRetriever('a', []), new ListRetriever('b', []), o), JSON.stringify(o)).toThrow(RangeError);
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
    await expectSameRankings(dense, lists, catalog, requests, 9);
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
      const coarse = (scale: number) => (Math.round(r() * 8) / 8) * scale;
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
    for (const weights of [
      [0.4, 0.6],
      [1, 0],
      [0.5, 0.5],
    ] as [number, number][]) {
      const h = new HybridRetriever('h', new DenseChild('a', (q) => data.get(q)![0]), new DenseChild('b', (q) => data.get(q)![1]), {
        method: 'zscore',
        weights,
      });
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

/* ---------------------------------------------------------------------------------------------- */
/* Calibrated fusion                                                                              */
/* ---------------------------------------------------------------------------------------------- */

/** A child whose ranked list depends on the request (missing request = nothing), honouring the mask and k; it records every context. */
class TableRetriever implements Retriever {
  readonly contexts: Array<{ request: string; context: SearchContext }> = [];
  private ids: string[] = [];
  constructor(
    readonly name: string,
    private readonly table: Record<string, Hit[]>,
  ) {}
  async index(catalog: Catalog): Promise<void> {
    this.ids = catalog.tools.map((t) => t.id);
  }
  async search(request: string, context: SearchContext): Promise<Hit[]> {
    this.contexts.push({ request, context });
    const { allowed } = context;
    return rankStable((this.table[request] ?? []).filter((h) => allowed === undefined || allowed[this.ids.indexOf(h.id)] === 1)).slice(0, context.k);
  }
}

/**
 * The six features of the class comment, in the simplest code: for each child, its hits among the
 * `allowed` ids; raw = its score, or min(0, lowest) when absent; z over every allowed tool (0 when
 * flat), or rr = 1 / (rrfK + rank) for the first `rankDepth` by rankStable; max = its best score
 * (0 if none). Only tools some child returned.
 */
function referenceFeatures(
  lists: readonly [Hit[], Hit[]],
  allowed: readonly string[],
  kind: 'zscore' | 'rrf',
  rrfK = 60,
  rankDepth = 50,
): Map<string, number[]> {
  const per = lists.map((list) => {
    const mine = rankStable(list.filter((h) => allowed.includes(h.id)));
    const score = new Map(mine.map((h) => [h.id, h.score]));
    const absent = Math.min(0, ...mine.map((h) => h.score));
    const values = allowed.map((id) => score.get(id) ?? absent);
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    const sd = Math.sqrt(values.reduce((a, v) => a + (v - mean) ** 2, 0) / values.length);
    const best = mine.length ? Math.max(...mine.map((h) => h.score)) : 0;
    const rank = new Map(mine.slice(0, rankDepth).map((h, i) => [h.id, i + 1]));
    return { score, absent, mean, sd, best, rank };
  });
  const out = new Map<string, number[]>();
  for (const id of allowed) {
    if (!per.some((c) => c.score.has(id))) continue;
    const raw = per.map((c) => c.score.get(id) ?? c.absent);
    const f =
      kind === 'zscore' ? per.map((c, i) => (c.sd > 0 ? (raw[i]! - c.mean) / c.sd : 0)) : per.map((c) => (c.rank.has(id) ? 1 / (rrfK + c.rank.get(id)!) : 0));
    out.set(id, [raw[0]!, raw[1]!, f[0]!, f[1]!, per[0]!.best, per[1]!.best]);
  }
  return out;
}

const logitOf = (beta: readonly number[], f: readonly number[]): number => beta[0]! + f.reduce((s, v, i) => s + beta[i + 1]! * v, 0);

describe('CalibratedHybridRetriever, the formula', () => {
  it('scores σ(β · [1, a, b, z(a), z(b), max a, max b]) by hand, ranked by rankStable', async () => {
    // A (bm25-like): a 4, b 2 → mean 1.2, sd 1.6: z a 1.75, b 0.5, absent (c d e, raw 0) −0.75; max 4.
    // B: c 5, the rest 0 → mean 1, sd 2: z c 2, others −0.5; max 5.
    // β = [−1, 0.5, 0.2, 1, 1, −0.1, −0.1]: constant part −1 − 0.4 − 0.5 = −1.9;
    // a: 2 + 0 + 1.75 − 0.5 = 3.25 → 1.35; b: 1 + 0.5 − 0.5 = 1 → −0.9; c: 1 − 0.75 + 2 = 2.25 → 0.35; d, e: −1.25 → −3.15.
    const beta = [-1, 0.5, 0.2, 1, 1, -0.1, -0.1];
    const h = new CalibratedHybridRetriever(
      'h',
      new ListRetriever('a', hits(['a', 4], ['b', 2])),
      new ListRetriever('b', hits(['c', 5], ['a', 0], ['b', 0], ['d', 0], ['e', 0])),
      { coefficients: beta },
    );
    await h.index(ABCDE);
    const out = await h.search('q', { k: 10 });
    expect(out.map((x) => x.id)).toEqual(['a', 'c', 'b', 'd', 'e']);
    [1.35, 0.35, -0.9, -3.15, -3.15].forEach((z, i) => expect(out[i]!.score).toBeCloseTo(sigmoid(z), 14));
    expect(out[3]!.score).toBe(out[4]!.score);
    expect(await h.search('q', { k: 2 })).toEqual(out.slice(0, 2));
  });

  it('rrf features: 1 / (rrfK + rank) for the first rankDepth of each child, ties by id, 0 past them', async () => {
    // rrfK 0, rankDepth 2. A ranks a 1, b 2. B ranks c 1, then a b d e all 0 → by id: a 2 (b 3 is past the depth).
    // β = [0, 1, 0, 1, 1, 0, 0]: a = 4 + 1 + 1/2 = 5.5, b = 2 + 1/2 = 2.5, c = 0 + 1 = 1, d = e = 0.
    const h = new CalibratedHybridRetriever(
      'h',
      new ListRetriever('a', hits(['a', 4], ['b', 2])),
      new ListRetriever('b', hits(['c', 5], ['a', 0], ['b', 0], ['d', 0], ['e', 0])),
      {
        features: 'rrf',
        rrfK: 0,
        rankDepth: 2,
        coefficients: [0, 1, 0, 1, 1, 0, 0],
      },
    );
    await h.index(ABCDE);
    const out = await h.search('q', { k: 10 });
    expect(out.map((x) => x.id)).toEqual(['a', 'b', 'c', 'd', 'e']);
    [5.5, 2.5, 1, 0, 0].forEach((z, i) => expect(out[i]!.score).toBeCloseTo(sigmoid(z), 14));
  });

  it("gives a tool's score independently of k, and honours the mask (features over the allowed tools only)", async () => {
    const beta = [-1, 0.5, 0.2, 1, 1, -0.1, -0.1];
    const la = hits(['a', 4], ['b', 2], ['e', 1]);
    const lb = hits(['c', 5], ['a', 0.5], ['b', 0], ['d', -1], ['e', 0]);
    const h = new CalibratedHybridRetriever('h', new ListRetriever('a', la), new ListRetriever('b', lb), { coefficients: beta });
    await h.index(ABCDE);
    const allowed = Uint8Array.from([1, 0, 1, 1, 1]); // no b
    const out = await h.search('q', { k: 10, allowed });
    const want = referenceFeatures([la, lb], ['a', 'c', 'd', 'e'], 'zscore');
    expect(out.map((x) => x.id).sort()).toEqual([...want.keys()].sort());
    for (const x of out) expect(x.score).toBeCloseTo(sigmoid(logitOf(beta, want.get(x.id)!)), 13);
    for (const k of [1, 2, 3]) expect(await h.search('q', { k, allowed })).toEqual(out.slice(0, k));
    expect(await h.search('q', { k: 10, allowed: new Uint8Array(5) })).toEqual([]);
  });

  it('scores a request matching nothing far below one matching well (registry hybrid and hybrid-rrf, default coefficients)', async () => {
    for (const name of ['hybrid', 'hybrid-rrf']) {
      const r = createRetriever(name);
      await r.index(HAND);
      const top = async (q: string) => (await r.search(q, { k: 1 }))[0]?.score ?? 0;
      const real = [await top('search issues by text'), await top('create a new issue'), await top('list my repositories')];
      const chat = [await top('thanks, that worked'), await top('hello there'), await top('qqzx vvkj')];
      for (const s of [...real, ...chat]) expect(s >= 0 && s <= 1, `${name} ${s}`).toBe(true);
      expect(Math.max(...chat) * 10, `${name}: ${chat} vs ${real}`).toBeLessThan(Math.min(...real));
    }
  }, 60_000);
});

describe('CalibratedHybridRetriever, defaults and calibration', () => {
  const CAT = catalogOf([tool('a'), tool('b'), tool('c'), tool('x', '', ['admin'])]);
  const A: Record<string, Hit[]> = {
    q1: hits(['a', 3], ['c', 1]),
    q2: hits(['b', 2], ['x', 5]),
    q4: hits(['x', 4], ['a', 1]),
  };
  const B: Record<string, Hit[]> = {
    q1: hits(['a', 0.9], ['b', 0.5], ['c', 0.1], ['x', -0.2]),
    q2: hits(['x', 0.8], ['b', 0.7], ['a', 0.2], ['c', 0.1]),
    q3: hits(['c', 0.3], ['a', 0.2], ['b', 0.1], ['x', 0]),
    q4: hits(['x', 0.9], ['a', 0.3], ['c', 0.2], ['b', 0.1]),
  };
  const CASES: CalibrationCase[] = [
    { id: 'c1', request: 'q1', expectedTools: ['a'] },
    { id: 'c2', request: 'q2', expectedTools: ['b'], callerScopes: [] }, // x not allowed
    { id: 'c3', request: 'q3', expectedTools: [] }, // no tool
    { id: 'c4', request: 'q4', expectedTools: ['x'], callerScopes: [] }, // its gold is masked: no positive row
  ];
  const make = (options = {}) => {
    const ca = new TableRetriever('a', A);
    const cb = new TableRetriever('b', B);
    return { h: new CalibratedHybridRetriever('h', ca, cb, { topN: 2, ...options }), ca, cb };
  };

  it('uses the default coefficients until calibrated, and says so', async () => {
    const { h } = make();
    await h.index(CAT);
    expect(isCalibrating(h)).toBe(true);
    expect(h.currentCoefficients()).toEqual([...HYBRID_DEFAULT_COEFFICIENTS.zscore]);
    const d = h.describe();
    expect(d.coefficientsFrom).toBe('defaults');
    expect(Object.values(d.coefficients as object)).toEqual(HYBRID_DEFAULT_COEFFICIENTS.zscore.map((c) => Number(c.toPrecision(6))));
    const out = await h.search('q1', { k: 10 });
    const f = referenceFeatures([A.q1!, B.q1!], ['a', 'b', 'c', 'x'], 'zscore');
    for (const x of out) expect(x.score).toBeCloseTo(sigmoid(logitOf(HYBRID_DEFAULT_COEFFICIENTS.zscore, f.get(x.id)!)), 13);
    expect(make({ features: 'rrf' }).h.currentCoefficients()).toEqual([...HYBRID_DEFAULT_COEFFICIENTS.rrf]);
    // the registry's hybrids start on them too
    expect((createRetriever('hybrid') as CalibratedHybridRetriever).currentCoefficients()).toEqual([...HYBRID_DEFAULT_COEFFICIENTS.zscore]);
    expect((createRetriever('hybrid-rrf') as CalibratedHybridRetriever).describe()).toMatchObject({ features: 'rrf', coefficientsFrom: 'defaults' });
  });

  it("calibrates on the documented rows, under each case's mask, then searches with the fitted coefficients", async () => {
    const { h, ca } = make();
    await h.index(CAT);
    await expect(make().h.calibrate(CASES)).rejects.toThrow(/before index/);
    await h.calibrate(CASES);
    // The children were asked under each case's mask: c2 and c4 without x.
    const noX = new Policy(CAT).allowedMask([]);
    expect([...noX!]).toEqual([1, 1, 1, 0]);
    const asked = new Map(ca.contexts.map((c) => [c.request, c.context.allowed]));
    expect(asked.get('q1')).toBeUndefined();
    expect([...asked.get('q2')!]).toEqual([1, 1, 1, 0]);
    expect([...asked.get('q4')!]).toEqual([1, 1, 1, 0]);
    // The rows by hand (topN 2 of each child, allowed only), cases by sha256 of id, rows in catalog order:
    //   c1: {a, b, c} (a gold); c2: {a, b} (b gold); c3: {a, c} no-tool; c4: {a, c} (x masked).
    const rowsOf: Record<string, string[]> = { c1: ['a', 'b', 'c'], c2: ['a', 'b'], c3: ['a', 'c'], c4: ['a', 'c'] };
    const order = [...CASES].sort((u, v) => (sha256(u.id) < sha256(v.id) ? -1 : 1));
    const x: number[] = [];
    const y: number[] = [];
    const w: number[] = [];
    for (const c of order) {
      const allowed = c.callerScopes ? ['a', 'b', 'c'] : ['a', 'b', 'c', 'x'];
      const f = referenceFeatures([A[c.request] ?? [], B[c.request]!], allowed, 'zscore');
      for (const id of rowsOf[c.id]!) {
        x.push(...f.get(id)!);
        y.push(c.expectedTools.includes(id) ? 1 : 0);
        w.push(c.expectedTools.length === 0 ? 7 / 2 : 1); // 7 graded rows, 2 no-tool rows
      }
    }
    const want = fitLogistic(Float64Array.from(x), Uint8Array.from(y), 6, { l2: 1e-3 }, Float64Array.from(w)).coefficients;
    const got = h.currentCoefficients();
    got.forEach((b, i) => expect(b).toBeCloseTo(want[i]!, 9));
    expect(h.describe()).toMatchObject({
      coefficientsFrom: 'calibration',
      calibration: { from: 'calibration', casesGiven: 4, casesUsed: 4, rows: 9, positives: 2, noToolRows: 2, noToolWeight: 3.5, converged: true },
    });
    // search = σ(β · features) with the fitted β
    const out = await h.search('q2', { k: 10, allowed: noX! });
    const f = referenceFeatures([A.q2!, B.q2!], ['a', 'b', 'c'], 'zscore');
    expect(out.map((o) => o.id).sort()).toEqual(['a', 'b', 'c']);
    for (const o of out) expect(o.score).toBeCloseTo(sigmoid(logitOf(got, f.get(o.id)!)), 12);
  });

  it('fits the same coefficients bit for bit whatever the order of the cases, and again on a new instance', async () => {
    const fit = async (cases: CalibrationCase[]) => {
      const { h } = make();
      await h.index(CAT);
      await h.calibrate(cases);
      return Buffer.from(Float64Array.from(h.currentCoefficients()).buffer).toString('hex');
    };
    const first = await fit(CASES);
    expect(await fit([...CASES].reverse())).toBe(first);
    expect(await fit(CASES)).toBe(first);
    // a different label set gives different coefficients (the fit reads the labels)
    expect(await fit(CASES.map((c) => (c.id === 'c1' ? { ...c, expectedTools: ['c'] } : c)))).not.toBe(first);
  });

  it('keeps the defaults when calibration has a single class, and calibrates again from scratch', async () => {
    const { h } = make();
    await h.index(CAT);
    await h.calibrate([CASES[2]!]);
    expect(h.currentCoefficients()).toEqual([...HYBRID_DEFAULT_COEFFICIENTS.zscore]);
    expect(h.describe()).toMatchObject({ coefficientsFrom: 'defaults', calibration: { rows: 2, positives: 0 } });
    await h.calibrate(CASES);
    expect(h.describe().coefficientsFrom).toBe('calibration');
    await h.calibrate([]);
    expect(h.describe().coefficientsFrom).toBe('defaults');
  });

  it('subsamples by sha256 of the case id, at most maxCases', async () => {
    const many = Array.from({ length: 30 }, (_, i): CalibrationCase => ({ id: `case-${i}`, request: 'q1', expectedTools: i % 3 === 0 ? [] : ['a'] }));
    const picked = selectCases(many, 5).map((c) => c.id);
    const byHash = many.map((c) => c.id).sort((u, v) => (sha256(u) < sha256(v) ? -1 : 1));
    expect(picked).toEqual(byHash.slice(0, 5));
    expect(selectCases([...many].reverse(), 5).map((c) => c.id)).toEqual(picked);
    const { h } = make({ maxCases: 5 });
    await h.index(CAT);
    await h.calibrate(many);
    expect(h.describe()).toMatchObject({ calibration: { casesGiven: 30, casesUsed: 5 } });
    expect(calibrationBudget(199)).toBe(20_000);
    expect(calibrationBudget(50_000)).toBe(250);
    expect(calibrationBudget(25_000)).toBe(500);
  });

  it('rejects out-of-range options', () => {
    expect(() => checkCalibratedOptions({ ...CALIBRATED_DEFAULT_OPTIONS })).not.toThrow();
    const bad = [
      { features: 'max' },
      { rrfK: -1 },
      { rankDepth: 0 },
      { topN: 1.5 },
      { maxCases: 0 },
      { l2: 0 },
      { coefficients: [1, 2] },
      { coefficients: [0, 0, 0, 0, 0, 0, NaN] },
    ];
    for (const o of bad)
      expect(() => new CalibratedHybridRetriever('h', new ListRetriever('a', []), new ListRetriever('b', []), o as never), JSON.stringify(o)).toThrow(
        RangeError,
      );
  });
});

describe('CalibratedHybridRetriever from dense scores', () => {
  it('gives what the full ranked lists give, before and after calibration', async () => {
    const { CONTRACT_DATA } = await import('../../test/contract/contract.ts');
    const { catalog, requests, cases: labelled } = CONTRACT_DATA;
    const hide = (r: Retriever): Retriever => ({ name: r.name, index: (c) => r.index(c), search: (q, ctx) => r.search(q, ctx) });
    for (const features of ['zscore', 'rrf'] as const) {
      const dense = new CalibratedHybridRetriever('hybrid', createBm25('bm25'), createBm25('bm25-plain'), { features });
      const lists = new CalibratedHybridRetriever('hybrid', hide(createBm25('bm25')), hide(createBm25('bm25-plain')), { features });
      await dense.index(catalog);
      await lists.index(catalog);
      const check = () => expectSameRankings(dense, lists, catalog, requests, 12);
      await check();
      // The generated cases' own labels: positives the fusion's candidate lists can hold, and no-tool cases.
      const cases: CalibrationCase[] = labelled
        .filter((c) => c.expectedTools !== undefined)
        .map((c) => ({ id: c.id, request: c.request, expectedTools: c.expectedTools! }));
      await dense.calibrate(cases);
      await lists.calibrate(cases);
      expect(dense.describe().coefficientsFrom).toBe('calibration');
      dense.currentCoefficients().forEach((c, i) => expect(c).toBeCloseTo(lists.currentCoefficients()[i]!, 9));
      await check();
    }
  });
});

/* The shared retriever contract on the calibrated variants over bm25 + bm25-plain. */
describe.each([
  ['calibrated zscore', (): Retriever => new CalibratedHybridRetriever('hybrid', createRetriever('bm25'), createRetriever('bm25-plain'))],
  ['calibrated rrf', (): Retriever => new CalibratedHybridRetriever('hybrid', createRetriever('bm25'), createRetriever('bm25-plain'), { features: 'rrf' })],
] as const)('contract: hybrid %s', (_method, make) => {
  retrieverContract(make);
});

/** The dense and the list path rank the first 30 requests alike (unmasked k 10, masked k 5), scores to `digits` digits. */
async function expectSameRankings(
  dense: Retriever,
  lists: Retriever,
  catalog: { tools: readonly unknown[] },
  requests: readonly string[],
  digits: number,
): Promise<void> {
  const mask = Uint8Array.from(catalog.tools, (_, i) => (i % 3 === 0 ? 0 : 1));
  let compared = 0;
  for (const q of requests.slice(0, 30)) {
    for (const ctx of [{ k: 10 }, { k: 5, allowed: mask }]) {
      const a = await dense.search(q, ctx);
      const b = await lists.search(q, ctx);
      expect(a.map((h) => h.id)).toEqual(b.map((h) => h.id));
      a.forEach((h, i) => expect(h.score).toBeCloseTo(b[i]!.score, digits));
      compared += a.length;
    }
  }
  expect(compared).toBeGreaterThan(100);
}

describe('CalibratedHybridRetriever on a catalog larger than its candidate depth', () => {
  type Dense = { scores: Float64Array; returned: Uint8Array };
  /** A child with fixed dense scores per request. */
  const denseChild = (name: string, of: (request: string) => Dense): Retriever & { denseScores: (r: string) => Promise<Dense> } => ({
    name,
    index: async () => {},
    search: async () => {
      throw new Error('the dense path should be taken');
    },
    denseScores: async (request: string) => of(request),
  });
  const N = 700;
  const big = catalogOf(Array.from({ length: N }, (_, i) => tool(`t${String(i).padStart(4, '0')}`)));

  /** Scores by request: 'sparse' (a BM25-like child: few tools, ties), 'flat' (everyone alike but a few), 'random' (every tool). */
  function scores(kind: string, seed: number): Dense {
    const rand = prng(seed);
    const s = new Float64Array(N);
    const returned = new Uint8Array(N);
    for (let p = 0; p < N; p++) {
      if (kind === 'sparse') {
        if (rand() < 0.1) {
          returned[p] = 1;
          s[p] = Math.floor(rand() * 4) * 2.5;
        }
      } else if (kind === 'flat') {
        returned[p] = 1;
        s[p] = p % 97 === 0 ? 0.9 : 0.1;
      } else {
        returned[p] = 1;
        s[p] = rand() * 2 - 1;
      }
    }
    return { scores: s, returned };
  }

  it('returns the first k of the whole union, scores included, whatever k, mask, features and coefficient signs', async () => {
    const masks: (Uint8Array | undefined)[] = [undefined, Uint8Array.from({ length: N }, (_, p) => (p % 3 === 0 ? 0 : 1))];
    const betas = [undefined, [-2, -0.4, 3, 0.5, -0.7, 0.1, -0.2], [0, 1, 1, 0, 0, 0, 0]];
    let checked = 0;
    for (const features of ['zscore', 'rrf'] as const)
      for (const beta of betas)
        for (const [ka, kb] of [
          ['sparse', 'random'],
          ['sparse', 'flat'],
          ['random', 'random'],
          ['flat', 'flat'],
        ]) {
          const h = new CalibratedHybridRetriever(
            'h',
            denseChild('a', (r) => scores(ka!, 1 + r.length)),
            denseChild('b', (r) => scores(kb!, 100 + r.length)),
            { features, ...(beta ? { coefficients: beta } : {}) },
          );
          await h.index(big);
          for (const request of ['q', 'qq', 'qqq'])
            for (const allowed of masks) {
              // k = N: fewer candidates than k, so every tool of the union is scored
              const all = await h.search(request, { k: N, ...(allowed ? { allowed } : {}) });
              for (const k of [1, 5, 10, 37]) {
                expect(await h.search(request, { k, ...(allowed ? { allowed } : {}) }), `${features} ${ka}/${kb} k ${k}`).toEqual(all.slice(0, k));
                checked++;
              }
            }
        }
    expect(checked).toBe(2 * 3 * 4 * 3 * 2 * 4);
  });
});
