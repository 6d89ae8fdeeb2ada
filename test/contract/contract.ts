/**
 * The contract every retriever keeps, as reusable test cases: the shared contract test runs them
 * over the whole registry, and a retriever's own tests may run them on variants the registry does
 * not list (other options).
 */
import { expect, it } from 'vitest';
import { generate, resolveParams } from '../../src/generate/index.ts';
import { Rng } from '../../src/util/rng.ts';
import { rankStable } from '../../src/retrievers/rank.ts';
import { isDescribable, type Retriever } from '../../src/retrievers/types.ts';

/** The catalog and requests the contract is checked on (a generated tiny company, with roles). */
export const CONTRACT_DATA = (() => {
  const { catalog, cases, roles } = generate(resolveParams('tiny', 11)).dataset;
  return { catalog, roles: roles!, cases: cases.slice(0, 60), requests: cases.slice(0, 60).map((c) => c.request) };
})();

/** Register the contract's test cases for retrievers made by `make` (call inside a describe). */
export function retrieverContract(make: () => Retriever, expectedName?: string): void {
  const { catalog, requests } = CONTRACT_DATA;
  const ids = new Set(catalog.tools.map((t) => t.id));
  const pos = new Map(catalog.tools.map((t, i) => [t.id, i]));

  it('indexes a catalog (under its registry name)', async () => {
    const r = make();
    if (expectedName !== undefined) expect(r.name).toBe(expectedName);
    await r.index(catalog);
  });

  it('returns at most k known, distinct tools in rankStable order', async () => {
    const r = make();
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
    const r = make();
    await r.index(catalog);
    const rng = new Rng(5, r.name);
    for (const q of requests) {
      const allowed = new Uint8Array(catalog.tools.length).map(() => (rng.chance(0.3) ? 1 : 0));
      const hits = await r.search(q, { k: 20, allowed });
      for (const h of hits) expect(allowed[pos.get(h.id)!], `${q} → ${h.id}`).toBe(1);
    }
    expect(await r.search(requests[0]!, { k: 10, allowed: new Uint8Array(catalog.tools.length) })).toEqual([]);
  });

  it('is deterministic across instances', async () => {
    const a = make();
    const b = make();
    await a.index(catalog);
    await b.index(catalog);
    for (const q of requests.slice(0, 20)) expect(await a.search(q, { k: 10 })).toEqual(await b.search(q, { k: 10 }));
  });

  it('describes its configuration as plain JSON, if it can', () => {
    const r = make();
    if (isDescribable(r)) expect(JSON.parse(JSON.stringify(r.describe()))).toEqual(r.describe());
  });
}
