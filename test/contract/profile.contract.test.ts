/**
 * The contract every registered profile keeps, parametrised over the profile registry: a profile
 * added to `PROFILES` is tested here without further edits. Its searcher (when it offers one) also
 * keeps the retriever contract.
 */
import { describe, expect, it } from 'vitest';
import { createProfile, profileNames } from '../../src/profiles/registry.ts';
import type { Profile } from '../../src/profiles/types.ts';
import { Rng } from '../../src/util/rng.ts';
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
    expect(['raw', 'keywords']).toContain(p.queryStyle);
    expect([0, 1]).toContain(p.calls.search);
    expect([0, 1]).toContain(p.calls.perFoundTool);
    expect([undefined, 0, 1]).toContain(p.calls.perNamespace);
    expect(['each', 'script']).toContain(p.calls.call);
    if (p.defaultFloor !== undefined) expect(Number.isFinite(p.defaultFloor)).toBe(true);
  });

  it('declares a model-call protocol that matches its search: a search the model issues needs a search tool', async () => {
    const p = await indexed(name);
    if (p.calls.search === 1) {
      expect(p.searcher(), 'a model-issued search needs a searcher').not.toBeNull();
      expect(p.beforeSearch({}).metaTools.length, 'a model-issued search needs a meta tool to issue it').toBeGreaterThan(0);
    }
  });

  it('shows nothing before search that the caller may not see', async () => {
    const p = await indexed(name);
    const rng = new Rng(9, name);
    for (let trial = 0; trial < 5; trial++) {
      const allowed = new Uint8Array(catalog.tools.length).map(() => (rng.chance(0.4) ? 1 : 0));
      const before = p.beforeSearch({ allowed });
      for (const id of before.eager) expect(allowed[position.get(id)!], id).toBe(1);
      for (const id of before.callable ?? []) expect(allowed[position.get(id)!], `${id} callable`).toBe(1);
      for (const id of before.wire ?? []) expect(allowed[position.get(id)!], `${id} on the wire`).toBe(1);
      // No tool outside the mask is named in the advertisement (by its full id, as a whole word).
      catalog.tools.forEach((t, i) => {
        if (allowed[i] === 0) expect(namedIn(before.advertisement, t.id), `${t.id} advertised`).toBe(false);
      });
    }
    const none = p.beforeSearch({ allowed: new Uint8Array(catalog.tools.length) });
    expect(none.eager).toEqual([]);
  });

  it('eager and callable tools are catalog tools, in catalog order, without repeats', async () => {
    const p = await indexed(name);
    const b = p.beforeSearch({});
    for (const list of [b.eager, b.callable ?? []]) {
      const pos = list.map((id) => position.get(id));
      for (const x of pos) expect(x).toBeDefined();
      expect([...pos].sort((a, b) => a! - b!)).toEqual(pos);
      expect(new Set(list).size).toBe(list.length);
    }
  });

  it('a search keeps to the search limit and loads only tools the caller may use (its hits, or the namespaces it opened)', async () => {
    const p = await indexed(name);
    const s = p.searcher();
    if (!s) {
      expect(p.afterSearch([], {}, '').loaded).toEqual([]);
      return;
    }
    const rng = new Rng(11, name);
    for (const q of requests.slice(0, 20)) {
      const allowed = new Uint8Array(catalog.tools.length).map(() => (rng.chance(0.6) ? 1 : 0));
      const hits = await s.search(q, { k: p.searchLimit, allowed });
      expect(hits.length).toBeLessThanOrEqual(p.searchLimit);
      for (const h of hits) expect(allowed[position.get(h.id)!], `${h.id} returned`).toBe(1);
      const added = p.afterSearch(hits, { allowed }, q);
      for (const id of added.loaded) expect(allowed[position.get(id)!], `${id} loaded`).toBe(1);
      for (const d of added.definitions ?? []) if (position.has(d.name)) expect(allowed[position.get(d.name)!], `${d.name} defined`).toBe(1);
      if (added.namespacesOpened === undefined) expect(added.loaded.every((id) => hits.some((h) => h.id === id))).toBe(true);
      if (added.searches !== undefined) expect([0, 1, 2]).toContain(added.searches);
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
