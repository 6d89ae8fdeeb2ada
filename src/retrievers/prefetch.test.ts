/**
 * The `Prefetching` capability: prefetching a block of requests must not change any search.
 * - On the small generated catalog (5,194 tools), the z-score hybrid (bm25 + embed, as the
 *   registry's `hybrid-zscore`), the calibrated hybrid (the registry's `hybrid`: calibration too)
 *   and embed alone (float32 and int8 vectors) give exactly the same hits and
 *   scores (and embed the same dense score arrays) with and without prefetch, under the cases'
 *   scope masks, random masks and no mask, k from 1 to every tool; for requests prefetched twice,
 *   never, past the held limit, with no known word, and after a re-index.
 * - `runEval` gives the same results and per-case details (timings and latencies aside) with
 *   prefetch and with the capability hidden, per-turn and sticky.
 */
import { describe, expect, it } from 'vitest';
import { tempDir, tinyInput } from '../../test/helpers.ts';
import type { Case } from '../catalog/types.ts';
import { makeConfig, runEval, type EvalRun } from '../eval/run.ts';
import { generate, resolveParams } from '../generate/index.ts';
import { Rng } from '../util/rng.ts';
import { createBm25 } from './bm25/presets.ts';
import { createEmbed, PREFETCH_LIMIT, REGISTRY_RECIPE, type EmbedRetriever } from './embed/index.ts';
import { CalibratedHybridRetriever, HybridRetriever } from './hybrid.ts';
import { Policy } from './policy.ts';
import { createRetriever } from './registry.ts';
import { hasDenseScores, isDescribable, isPrefetching, type Hit, type Retriever, type SearchContext } from './types.ts';

/** A retriever without its optional capabilities but `describe` (so results still name it the same). */
function hidden(r: Retriever): Retriever {
  const h: Retriever & { describe?: () => Record<string, unknown> } = { name: r.name, index: (c) => r.index(c), search: (q, ctx) => r.search(q, ctx) };
  if (isDescribable(r)) h.describe = () => r.describe();
  return h;
}

/** Hits as one string: ids, and each score's float64 bytes (−0 and 0 differ). */
function exact(hits: readonly Hit[]): string {
  return `${hits.map((h) => h.id).join('\n')}|${Buffer.from(Float64Array.from(hits, (h) => h.score).buffer).toString('hex')}`;
}
/** Dense scores as one string: the scores' float64 bytes and the returned mask. */
function exactDense(d: { scores: Float64Array; returned: Uint8Array }): string {
  return `${Buffer.from(d.scores.buffer, d.scores.byteOffset, d.scores.byteLength).toString('hex')}|${Buffer.from(d.returned).toString('hex')}`;
}

/** How many requests an embed retriever holds prefetched (a private field, peeked at by the tests only). */
const held = (e: EmbedRetriever): ReadonlyMap<string, unknown> => (e as unknown as { prepared: Map<string, unknown> }).prepared;

// Budget: 90 s a test (measured 2026-12-07 on 2 cores: at most 5.4 s quiet, 40 s at load 12–17).
const BUDGET = 90_000;

describe('prefetch gives exactly the results without it (small-7 catalog)', { timeout: BUDGET }, () => {
  const { catalog, cases } = generate(resolveParams('small', 7)).dataset;
  const n = catalog.tools.length;
  const policy = new Policy(catalog);
  const cacheDir = tempDir('prefetch');
  const rng = new Rng(3, 'prefetch');
  const randomMask = new Uint8Array(n).map(() => (rng.chance(0.5) ? 1 : 0));
  const oddMask = new Uint8Array(n).map((_, i) => i % 3); // only 1 allows
  const labelled = cases.filter((c) => c.expectedTools !== undefined);
  // every scoped case, then others, so the masks vary; and a request with no known word
  const picked: Case[] = [
    ...labelled.filter((c) => c.callerScopes !== undefined).slice(0, 80),
    ...labelled.filter((c) => c.callerScopes === undefined).slice(0, 190),
  ];
  const requests = [...picked.map((c) => c.request), 'qqzx vvkj wqqz', picked[0]!.request];
  const scopesOf = new Map(picked.map((c) => [c.request, c.callerScopes]));

  /** The contexts each request is searched under. */
  function contexts(request: string, j: number): SearchContext[] {
    const scoped = policy.allowedMask(scopesOf.get(request));
    const out: SearchContext[] = [{ k: 10, ...(scoped ? { allowed: scoped } : {}) }, { k: 1 }];
    if (j % 5 === 0) out.push({ k: 25, allowed: randomMask }, { k: 7, allowed: oddMask });
    if (j % 23 === 0) out.push({ k: n }, { k: n, allowed: randomMask });
    return out;
  }

  /** Search `requests` in blocks of 64 on both retrievers, `pre` prefetching each block first. */
  async function compare(
    plain: Retriever,
    pre: Retriever & { prefetch(r: readonly string[]): Promise<void> },
    embedOf: (r: Retriever) => EmbedRetriever,
  ): Promise<number> {
    let compared = 0;
    for (let s = 0; s < requests.length; s += 64) {
      const block = requests.slice(s, s + 64);
      // prefetch the block (with a repeat) and the next one: past PREFETCH_LIMIT distinct requests over the run
      await pre.prefetch([...block, block[0]!, ...requests.slice(s + 64, s + 128)]);
      expect(held(embedOf(pre)).size).toBeLessThanOrEqual(PREFETCH_LIMIT);
      for (const [j, q] of block.entries()) {
        expect(held(embedOf(pre)).has(q)).toBe(true);
        for (const ctx of contexts(q, s + j)) {
          const want = await plain.search(q, ctx);
          const got = await pre.search(q, ctx);
          expect(exact(got)).toBe(exact(want)); // ids, order and scores, exactly
          compared += want.length;
        }
        const { allowed } = contexts(q, s + j)[0]!;
        for (const c of [allowed ? { allowed } : {}, { allowed: randomMask }])
          expect(exactDense(await embedOf(pre).denseScores(q, c))).toBe(exactDense(await embedOf(plain).denseScores(q, c)));
      }
    }
    // a request never prefetched
    expect(await pre.search('calendar event tomorrow', { k: 10 })).toEqual(await plain.search('calendar event tomorrow', { k: 10 }));
    return compared;
  }

  it('z-score hybrid (bm25 + embed, 0.4 / 0.6, the registry hybrid-zscore)', async () => {
    const make = () =>
      new HybridRetriever('hybrid', createBm25('bm25'), createEmbed('embed', { recipe: REGISTRY_RECIPE, cacheDir }), { method: 'zscore', weights: [0.4, 0.6] });
    const plain = make();
    const pre = make();
    expect(isPrefetching(pre)).toBe(true);
    await expect(pre.prefetch(['x'])).rejects.toThrow(/before index/);
    await plain.index(catalog);
    await pre.index(catalog);
    const embedOf = (r: Retriever) => (r as HybridRetriever).children[1] as EmbedRetriever;
    const compared = await compare(plain, pre, embedOf);
    expect(compared).toBeGreaterThan(10_000);
    // the unknown-word request is held as "no known word": no hits from embed, the same fused result
    await pre.prefetch(['qqzx vvkj wqqz']);
    expect(held(embedOf(pre)).get('qqzx vvkj wqqz')).toBeNull();
    expect(await embedOf(pre).search('qqzx vvkj wqqz', { k: 5 })).toEqual([]);
    // a re-index drops what was held
    await pre.index(catalog);
    expect(held(embedOf(pre)).size).toBe(0);
    expect(await pre.search(requests[1]!, { k: 10 })).toEqual(await plain.search(requests[1]!, { k: 10 }));
  });

  it('calibrated hybrid (the registry hybrid: bm25 + embed): calibration and searches', async () => {
    // plain: the embed child without prefetch (dense scores kept), so neither calibrate nor search prefetches
    const noPrefetch = (r: EmbedRetriever): Retriever => {
      const w = {
        name: r.name,
        index: (c: Parameters<Retriever['index']>[0]) => r.index(c),
        search: (q: string, ctx: SearchContext) => r.search(q, ctx),
        denseScores: r.denseScores.bind(r),
      };
      return w;
    };
    const plain = new CalibratedHybridRetriever('hybrid', createBm25('bm25'), noPrefetch(createEmbed('embed', { recipe: REGISTRY_RECIPE, cacheDir })));
    const pre = new CalibratedHybridRetriever('hybrid', createBm25('bm25'), createEmbed('embed', { recipe: REGISTRY_RECIPE, cacheDir }));
    expect(isPrefetching(plain.children[1])).toBe(false);
    expect(hasDenseScores(plain.children[1])).toBe(true);
    await plain.index(catalog);
    await pre.index(catalog);
    const calibration = labelled
      .slice(0, 150)
      .map((c) => ({ id: c.id, request: c.request, expectedTools: c.expectedTools!, ...(c.callerScopes ? { callerScopes: c.callerScopes } : {}) }));
    await plain.calibrate(calibration);
    await pre.calibrate(calibration);
    expect(pre.describe().coefficientsFrom).toBe('calibration');
    const coefficients = (r: CalibratedHybridRetriever) => Buffer.from(Float64Array.from(r.currentCoefficients()).buffer).toString('hex');
    expect(coefficients(pre)).toBe(coefficients(plain));
    const embedOf = (r: Retriever) => (r as CalibratedHybridRetriever).children[1] as EmbedRetriever;
    expect(await compare(plain, pre, embedOf)).toBeGreaterThan(10_000);
  });

  for (const vectors of ['float32', 'int8'] as const) {
    it(`embed alone, ${vectors} vectors`, async () => {
      const plain = createEmbed('embed', { recipe: REGISTRY_RECIPE, cacheDir, vectors });
      const pre = createEmbed('embed', { recipe: REGISTRY_RECIPE, cacheDir, vectors });
      await plain.index(catalog);
      await pre.index(catalog);
      expect(await compare(plain, pre, (r) => r as EmbedRetriever)).toBeGreaterThan(10_000);
      // served from what was held, counted like a search
      const before = pre.stats().queries;
      await pre.search(requests.at(-3)!, { k: 3 });
      expect(pre.stats().queries).toBe(before + 1);
    });
  }
});

describe('runEval with and without prefetch', { timeout: BUDGET }, () => {
  /** A run without what varies from run to run: timings, latencies, per-case milliseconds. */
  function comparable(run: EvalRun): string {
    const strip = (entries: Record<string, { latency?: unknown }> | undefined) =>
      entries && Object.fromEntries(Object.entries(entries).map(([k, v]) => [k, { ...v, latency: undefined }]));
    return JSON.stringify({
      results: { ...run.results, timings: undefined, retrievers: strip(run.results.retrievers), profiles: strip(run.results.profiles) },
      details: Object.fromEntries(Object.entries(run.details).map(([k, list]) => [k, list.map((d) => ({ ...d, ms: 0 }))])),
    });
  }

  for (const sticky of [false, true]) {
    it(`gives the same results and details (${sticky ? 'sticky' : 'per-turn'})`, async () => {
      const { input } = tinyInput();
      const config = makeConfig(['hybrid', 'embed', 'hybrid-rrf', 'bm25'], [1, 3, 5, 10], {}, null, sticky);
      const calls: string[][] = [];
      const withPrefetch = await runEval(input, config, {
        create: (name) => {
          const r = createRetriever(name);
          if (isPrefetching(r)) {
            const prefetch = r.prefetch.bind(r);
            r.prefetch = (requests) => {
              calls.push([...requests]);
              return prefetch(requests);
            };
          }
          return r;
        },
      });
      const without = await runEval(input, config, { create: (name) => hidden(createRetriever(name)) });
      expect(comparable(withPrefetch)).toBe(comparable(without));
      // every labelled case was prefetched (hybrid, embed, hybrid-rrf), once more for the sessions' other mode
      const labelled = input.cases.filter((c) => c.expectedTools !== undefined);
      const sessions = labelled.filter((c) => c.sessionId !== undefined);
      expect(calls.flat()).toHaveLength(3 * (labelled.length + sessions.length));
      // blocks of 64 cases in case order, their labelled requests
      expect(calls[0]).toEqual(
        input.cases
          .slice(0, 64)
          .filter((c) => c.expectedTools !== undefined)
          .map((c) => c.request),
      );
      expect(calls[1]).toEqual(
        input.cases
          .slice(64, 128)
          .filter((c) => c.expectedTools !== undefined)
          .map((c) => c.request),
      );
    });
  }
});
