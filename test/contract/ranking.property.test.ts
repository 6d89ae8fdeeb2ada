/**
 * Properties of ranking, on random inputs (fast-check, seeded):
 * - every registered retriever, on a few random small catalogs (names and descriptions from a small
 *   vocabulary, so scores tie), requests, k and masks, returns at most k hits, in `rankStable`
 *   order (score descending, then tool id), ids unique, only tools its mask allows (position 0 is
 *   never allowed), with or without a role;
 * - `topByScore` (the one selector of rank.ts) equals a full sort on random scores with many ties,
 *   over a list of positions, over a mask, and over a mask with block bounds; `topK` equals
 *   `rankStable(hits).slice(0, k)`.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Catalog, Tool } from '../../src/catalog/types.ts';
import type { RoleMap } from '../../src/catalog/roles.ts';
import { BLOCK, idRanks, rankStable, topByScore, topK } from '../../src/retrievers/rank.ts';
import { retrieverEntries } from '../../src/retrievers/registry.ts';
import type { Hit, Retriever } from '../../src/retrievers/types.ts';

const SEED = 20251202;
const WORDS = ['send', 'mail', 'read', 'file', 'list', 'issue', 'create', 'user', 'search', 'page'];
const NAMESPACES = ['core', 'mail', 'files'];

const words = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 4 }).map((w) => w.join(' '));
const toolArb = fc.record({
  name: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 2 }),
  namespace: fc.constantFrom(...NAMESPACES),
  description: words,
});

function catalogOf(specs: { name: string[]; namespace: string; description: string }[]): Catalog {
  const tools: Tool[] = specs.map((s, i) => {
    // ids unique, in an order unrelated to the position (the tie-break must not follow it)
    const name = `${s.name.join('_')}_${(i * 7) % specs.length}`;
    return {
      id: `${s.namespace}__${name}`,
      name,
      source: 'core',
      namespace: s.namespace,
      summary: s.description,
      description: s.description,
      inputSchema: { type: 'object', properties: {} },
      examples: [],
      scopes: [],
      pinned: false,
      hash: '',
    };
  });
  return { tools, skills: [], servers: [], plugins: [] };
}

/** A role per namespace, seeing that namespace only (the gate retriever needs a role map). */
const ROLES: RoleMap = { schemaVersion: 1, always: [], roles: Object.fromEntries(NAMESPACES.map((ns) => [ns, { description: ns, namespaces: [ns] }])) };

describe('every registered retriever, on random catalogs', () => {
  const retrievers: [string, Retriever][] = retrieverEntries().map(([name, factory]) => [name, factory.create(name, { roles: ROLES })]);

  it('returns at most k allowed, distinct tools in rankStable order', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(toolArb, { minLength: 1, maxLength: 14 }),
        fc.array(
          fc.record({
            request: words,
            k: fc.integer({ min: 1, max: 16 }),
            mask: fc.option(fc.array(fc.boolean(), { minLength: 14, maxLength: 14 })),
            role: fc.option(fc.constantFrom(...NAMESPACES)),
          }),
          { minLength: 1, maxLength: 10 },
        ),
        async (specs, requests) => {
          const catalog = catalogOf(specs);
          const n = catalog.tools.length;
          const position = new Map(catalog.tools.map((t, i) => [t.id, i]));
          for (const [name, r] of retrievers) {
            await r.index(catalog);
            for (const { request, k, mask, role } of requests) {
              const allowed = mask === null ? undefined : Uint8Array.from({ length: n }, (_, i) => (i > 0 && mask[i] ? 1 : 0));
              const hits = await r.search(request, { k, ...(allowed ? { allowed } : {}), ...(role !== null ? { role } : {}) });
              expect(hits.length, name).toBeLessThanOrEqual(k);
              expect(new Set(hits.map((h) => h.id)).size, name).toBe(hits.length);
              expect(hits, name).toEqual(rankStable(hits));
              for (const h of hits) {
                const p = position.get(h.id);
                expect(p, `${name}: ${h.id}`).toBeDefined();
                if (allowed) expect(allowed[p!], `${name}: ${h.id}`).toBe(1);
              }
            }
          }
        },
      ),
      // few catalogs, many requests each: indexing a catalog with the embedding model takes ~0.3 s
      { seed: SEED, numRuns: 4 },
    );
  });
});

describe('the selector', () => {
  /** Scores with many exact ties (a few values, −0 among them). */
  const scoresArb = fc.array(fc.constantFrom(-1, -0, 0, 0.5, 1, 2, Infinity), { minLength: 0, maxLength: 80 });

  it('topByScore equals a full sort by (score descending, id rank), over a list, a mask, or a mask with block bounds', () => {
    fc.assert(
      fc.property(scoresArb, fc.integer({ min: 0, max: 90 }), fc.boolean(), fc.infiniteStream(fc.boolean()), (values, k, float32, coin) => {
        const n = values.length;
        const scores = float32 ? Float32Array.from(values) : Float64Array.from(values);
        const ids = values.map((_, i) => `t${(i * 37) % 101}`);
        const rank = idRanks(ids);
        const mask = Uint8Array.from({ length: n }, () => (coin.next().value ? 1 : 0));
        const list = Array.from({ length: n }, (_, i) => i).filter((i) => mask[i] === 1);
        const want = [...list].sort((a, b) => (scores[a] !== scores[b] ? scores[b]! - scores[a]! : ids[a]! < ids[b]! ? -1 : 1)).slice(0, k);
        expect(topByScore(scores, rank, k, list)).toEqual(want);
        expect(topByScore(scores, rank, k, { mask })).toEqual(want);
        const blockMax = Array.from({ length: Math.floor(n / BLOCK) }, (_, b) =>
          Math.max(-Infinity, ...list.filter((i) => Math.floor(i / BLOCK) === b).map((i) => scores[i]!)),
        );
        expect(topByScore(scores, rank, k, { mask, blockMax })).toEqual(want);
      }),
      { seed: SEED, numRuns: 300 },
    );
  });

  it('topK equals rankStable(hits).slice(0, k)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ id: fc.constantFrom('a', 'b', 'B', 'c', 'd', 'e', 'f'), score: fc.constantFrom(0, 1, 2.5) }), { maxLength: 30 }),
        fc.integer({ min: 0, max: 35 }),
        (hits: Hit[], k) => {
          expect(topK(hits, k)).toEqual(rankStable(hits).slice(0, k));
        },
      ),
      { seed: SEED, numRuns: 300 },
    );
  });
});
