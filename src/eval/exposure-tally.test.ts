import { describe, expect, it } from 'vitest';
import { makeTool } from '../catalog/model.ts';
import type { Catalog } from '../catalog/types.ts';
import { listingLength, listingText, withListing, type CatalogListing } from '../profiles/catalog-listing.ts';
import type { BeforeSearch, Caller, Profile } from '../profiles/types.ts';
import { Policy } from '../retrievers/policy.ts';
import { countTokens, type TokenCounterName } from '../tokens/count.ts';
import type { Provider } from '../tokens/serialize.ts';
import { ExposureTally } from './exposure-tally.ts';
import { LINE_SUMMED_CHARS, TokenMeter } from './tokens.ts';

/** The positions `keep` accepts, in catalog order. */
const positionsWhere = (n: number, keep: (p: number) => boolean): Int32Array => Int32Array.from({ length: n }, (_, p) => p).filter(keep);

/** `n` tools over two scopes; every 50th summary names another tool (a listing that names what a caller may not use). */
function catalogOf(n: number): Catalog {
  const tools = Array.from({ length: n }, (_, i) =>
    makeTool({
      source: 'mcp',
      server: `srv${i % 5}`,
      name: `tool_${i}`,
      summary:
        i === 2
          ? 'Use mcp__srv3__tool_3 first.'
          : i % 50 === 7
            ? `Like mcp__srv${(i + 1) % 5}__tool_${i + 1}, but — ünïcode ${i} 🙂.`
            : `Does thing number ${i} for the team.`,
      description: `Tool ${i}.`,
      scopes: i % 3 === 0 ? ['admin'] : [],
    }),
  );
  return { tools, skills: [], servers: [], plugins: [] };
}

/** A listing of `- id: summary` pieces, some on two lines. */
function listingOf(catalog: Catalog, keep: (p: number) => boolean, tail = 'End of catalog.\nAsk for more.'): CatalogListing {
  const pieces = catalog.tools.map((t, i) => (i % 4 === 1 ? `- ${t.id}:\n  ${t.summary}` : `- ${t.id}: ${t.summary}`));
  return { head: 'Tools:\n', positions: positionsWhere(catalog.tools.length, keep), pieces, tail };
}

describe('a catalog listing', () => {
  it('is counted by the token meter exactly as its text, long or short, whatever the counter', () => {
    const catalog = catalogOf(1200);
    for (const counter of ['o200k', 'chars/4', 'bytes/4'] as const) {
      const m = new TokenMeter(catalog, 'anthropic', counter);
      const fresh = new TokenMeter(catalog, 'anthropic', counter);
      const long = listingOf(catalog, (p) => p % 3 !== 0);
      expect(listingLength(long)).toBeGreaterThan(LINE_SUMMED_CHARS);
      expect(m.listing(long)).toBe(fresh.text(listingText(long)));
      // a second caller's listing reuses the pieces counted for the first
      const other = listingOf(catalog, (p) => p % 2 === 0, '');
      expect(m.listing({ ...other, pieces: long.pieces })).toBe(fresh.text(listingText({ ...other, pieces: long.pieces })));
      const short = listingOf(catalog, (p) => p < 20);
      expect(listingLength(short)).toBeLessThanOrEqual(LINE_SUMMED_CHARS);
      expect(m.listing(short)).toBe(countTokens(listingText(short), counter));
      // a head that does not end a line: counted from the joined text
      const joined = { ...long, head: 'Tools: ' };
      expect(m.listing(joined)).toBe(fresh.text(listingText(joined)));
    }
  });
});

/** A profile that advertises a listing (or, `asText`, the same text without it): the seed's deferred shape. */
function listingProfile(catalog: Catalog, asText: boolean): Profile {
  return {
    name: 'listing',
    searchLimit: 5,
    calls: { search: 1, perFoundTool: 1, call: 'each' },
    queryStyle: 'keywords',
    index: async () => {},
    searcher: () => null,
    afterSearch: () => ({ form: 'metadata', loaded: [], text: '' }),
    describe: () => ({}),
    beforeSearch(caller: Caller): BeforeSearch {
      // every tool but one, the caller's or not; a piece names the one left out
      const l = listingOf(catalog, (p) => p !== 3 || caller.allowed === undefined);
      return asText ? { eager: [], metaTools: [], advertisement: listingText(l) } : withListing({ eager: [], metaTools: [] }, l);
    },
  };
}

describe('a listing in front of the model', () => {
  it('gives the same tokens and the same scope leaks, in the same order, as its text', async () => {
    const catalog = catalogOf(1200);
    const meters = new Map<string, TokenMeter>();
    const meterFor = (provider: Provider, counter: TokenCounterName) => {
      const key = `${provider} ${counter}`;
      if (!meters.has(key)) meters.set(key, new TokenMeter(catalog, provider, counter));
      return meters.get(key)!;
    };
    const policy = new Policy(catalog);
    const results = [];
    for (const asText of [false, true]) {
      const profile = listingProfile(catalog, asText);
      await profile.index(catalog);
      const tally = new ExposureTally(profile, policy, catalog, false, meterFor);
      const restricted = tally.record({ goldMode: 'all', expectedTools: [catalog.tools[1]!.id] }, { callerScopes: [] }, [], '', false);
      const everyone = tally.record({ goldMode: 'all', expectedTools: [] }, {}, [], '', false);
      results.push({ restricted, everyone });
    }
    const [fromListing, fromText] = results as [(typeof results)[0], (typeof results)[0]];
    expect(fromListing).toEqual(fromText);
    // tools of the admin scope are listed to a caller without it: leaks, in listing order (a piece's
    // own tool, then the tools its summary names); an unrestricted caller has none
    const leaks = fromListing.restricted.exposureLeaks;
    expect(leaks.length).toBe(400);
    expect(leaks.slice(0, 3)).toEqual(['mcp__srv0__tool_0', 'mcp__srv3__tool_3', 'mcp__srv1__tool_6']);
    expect(fromListing.everyone.exposureLeaks).toEqual([]);
    expect(fromListing.restricted.exposure?.beforeTokens).toBeGreaterThan((fromListing.everyone.exposure?.beforeTokens ?? 0) / 2);
  });
});
