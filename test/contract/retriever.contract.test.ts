/**
 * The contract every registered retriever must keep. Parametrised over the registry, so a
 * retriever added to `RETRIEVERS` is tested here without further edits.
 */
import { describe, expect, it } from 'vitest';
import { generate, resolveParams } from '../../src/generate/index.ts';
import { Rng } from '../../src/generate/rng.ts';
import { rankStable } from '../../src/retrievers/rank.ts';
import { createRetriever, retrieverNames } from '../../src/retrievers/registry.ts';
import { isDescribable } from '../../src/retrievers/types.ts';

const { catalog, cases, roles } = generate(resolveParams('tiny', 11)).dataset;
/** What the command line hands every retriever: the dataset's role map (the gate needs it). */
const options = { roles: roles! };
const ids = new Set(catalog.tools.map((t) => t.id));
const requests = cases.slice(0, 60).map((c) => c.request);

describe.each(retrieverNames())('retriever %s', (name) => {
  it('is created under its registry name and indexes a catalog', async () => {
    const r = createRetriever(name, options);
    expect(r.name).toBe(name);
    await r.index(catalog);
  });

  it('returns at most k known, distinct tools in rankStable order', async () => {
    const r = createRetriever(name, options);
    await r.index(catalog);
    let nonEmpty = 0;
    for (const q of requests) {
      for (const k of [1, 5, 10]) {
        const hits = await r.search(q, { k });
        expect(hits.length).toBeLessThanOrEqual(k);
        expect(new Set(hits.map((h) => h.id)).size).toBe(hits.length);
        for (const h of hits) {
          expect(ids.has(h.id), h.id).toBe(true);
          expect(Number.isFinite(h.score)).toBe(true);
        }
        expect(hits).toEqual(rankStable(hits));
        if (hits.length) nonEmpty++;
      }
    }
    expect(nonEmpty).toBeGreaterThan(0);
  });

  it('never returns a tool outside the allowed mask', async () => {
    const r = createRetriever(name, options);
    await r.index(catalog);
    const rng = new Rng(5, name);
    for (const q of requests) {
      const allowed = new Uint8Array(catalog.tools.length).map(() => (rng.chance(0.3) ? 1 : 0));
      const hits = await r.search(q, { k: 20, allowed });
      const pos = new Map(catalog.tools.map((t, i) => [t.id, i]));
      for (const h of hits) expect(allowed[pos.get(h.id)!], `${q} → ${h.id}`).toBe(1);
    }
    const none = await r.search(requests[0]!, { k: 10, allowed: new Uint8Array(catalog.tools.length) });
    expect(none).toEqual([]);
  });

  it('is deterministic across instances', async () => {
    const a = createRetriever(name, options);
    const b = createRetriever(name, options);
    await a.index(catalog);
    await b.index(catalog);
    for (const q of requests.slice(0, 20)) expect(await a.search(q, { k: 10 })).toEqual(await b.search(q, { k: 10 }));
  });

  it('describes its configuration as plain JSON, if it can', () => {
    const r = createRetriever(name, options);
    if (isDescribable(r)) expect(JSON.parse(JSON.stringify(r.describe()))).toEqual(r.describe());
  });
});
