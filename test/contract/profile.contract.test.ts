/**
 * The contract every registered profile keeps, parametrised over the profile registry: a profile
 * added to `PROFILES` is tested here without further edits. Its searcher (when it offers one) also
 * keeps the retriever contract.
 */
import { describe, expect, it } from 'vitest';
import { createProfile, profileNames } from '../../src/profiles/registry.ts';
import type { Profile } from '../../src/profiles/types.ts';
import { Rng } from '../../src/generate/rng.ts';
import { retrieverNames } from '../../src/retrievers/registry.ts';
import { CONTRACT_DATA, retrieverContract } from './contract.ts';

const { catalog, requests, roles } = CONTRACT_DATA;
const options = { roles };
const position = new Map(catalog.tools.map((t, i) => [t.id, i]));

function namedIn(text: string, id: string): boolean {
  const escaped = id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^A-Za-z0-9_.-])${escaped}($|[^A-Za-z0-9_.-])`).test(text);
}

async function indexed(name: string): Promise<Profile> {
  const p = createProfile(name, options);
  await p.index(catalog);
  return p;
}

it('profile and retriever names do not collide', () => {
  const retrievers = new Set(retrieverNames());
  expect(profileNames().filter((n) => retrievers.has(n))).toEqual([]);
});

describe.each(profileNames())('profile %s', (name) => {
  it('is created under its registry name and describes itself as plain JSON', async () => {
    const p = await indexed(name);
    expect(p.name).toBe(name);
    expect(JSON.parse(JSON.stringify(p.describe()))).toEqual(p.describe());
    expect(Number.isInteger(p.searchLimit) && p.searchLimit >= 0).toBe(true);
  });

  it('shows nothing before search that the caller may not see', async () => {
    const p = await indexed(name);
    const rng = new Rng(9, name);
    for (let trial = 0; trial < 5; trial++) {
      const allowed = new Uint8Array(catalog.tools.length).map(() => (rng.chance(0.4) ? 1 : 0));
      const before = p.beforeSearch({ allowed });
      for (const id of before.eager) expect(allowed[position.get(id)!], id).toBe(1);
      // No tool outside the mask is named in the advertisement (by its full id, as a whole word).
      catalog.tools.forEach((t, i) => {
        if (allowed[i] === 0) expect(namedIn(before.advertisement, t.id), `${t.id} advertised`).toBe(false);
      });
    }
    const none = p.beforeSearch({ allowed: new Uint8Array(catalog.tools.length) });
    expect(none.eager).toEqual([]);
  });

  it('eager tools are catalog tools, in catalog order, without repeats', async () => {
    const p = await indexed(name);
    const eager = p.beforeSearch({}).eager;
    const pos = eager.map((id) => position.get(id));
    for (const x of pos) expect(x).toBeDefined();
    expect([...pos].sort((a, b) => a! - b!)).toEqual(pos);
    expect(new Set(eager).size).toBe(eager.length);
  });

  it('a search adds at most its hits, and a searcher keeps to the search limit', async () => {
    const p = await indexed(name);
    const s = p.searcher();
    if (!s) {
      expect(p.afterSearch([], {}, '').loaded).toEqual([]);
      return;
    }
    for (const q of requests.slice(0, 20)) {
      const hits = await s.search(q, { k: p.searchLimit });
      expect(hits.length).toBeLessThanOrEqual(p.searchLimit);
      const added = p.afterSearch(hits, {}, q);
      expect(added.loaded.every((id) => hits.some((h) => h.id === id))).toBe(true);
    }
  });
});

// The searchers keep the retriever contract too (profiles that offer one on the contract catalog).
const searching: string[] = [];
for (const name of profileNames()) if ((await indexed(name)).searcher()) searching.push(name);

it('most profiles offer a search on the contract catalog', () => {
  expect(searching.length).toBeGreaterThanOrEqual(profileNames().length / 2);
});

for (const name of searching) {
  const probe = createProfile(name, options);
  describe(`profile ${name}: searcher`, () => {
    retrieverContract(() => {
      let searcher: ReturnType<Profile['searcher']> = null;
      // The contract indexes the retriever itself: hand it a searcher whose index() indexes the profile.
      return {
        name: probe.name,
        async index(c) {
          const p = createProfile(name, options);
          await p.index(c);
          searcher = p.searcher();
        },
        async search(q, ctx) {
          return searcher ? searcher.search(q, ctx) : [];
        },
      };
    }, name);
  });
}
