import fc from 'fast-check';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeTool } from '../catalog/model.ts';
import type { Tool } from '../catalog/types.ts';
import { generate, resolveParams } from '../generate/index.ts';
import {
  analysePairs,
  analysePairsFrom,
  describePair,
  INCREMENTAL_SHARE,
  jaccard,
  nearDuplicates,
  similarPairs,
  type PairAnalysis,
} from './near-duplicates.ts';
import { readPairCache, sealPairFile, writePairCache } from './pair-cache.ts';
import { corruptLine, warningsOf } from '../../test/cache-damage.ts';
import { prng, shuffled } from '../../test/prng.ts';

const tool = (server: string, name: string, description: string): Tool => makeTool({ name, source: 'mcp', server, summary: '', description });

describe('nearDuplicates', () => {
  const history = tool(
    'billing',
    'get_billing_history',
    'Returns the billing history of an account: invoices, payments, refunds and credits over a date range.',
  );
  const lines = tool(
    'billing',
    'get_billing_lines',
    'Returns the billing history of an account: invoices, payments, refunds and credit lines over a date range.',
  );
  const weather = tool('weather', 'get_forecast', 'Returns the weather forecast for a city over the next seven days.');

  it('reports two nearly identical tools with a "not for" suggestion, and not a distinct pair', () => {
    const r = nearDuplicates([history, lines, weather], { focus: new Set([lines.id]) });
    expect(r.pairs).toBe(1);
    expect(r.pairsInvolvingChanges).toBe(1);
    expect(r.tools).toBe(2);
    const [p] = r.listed;
    expect(p).toMatchObject({ a: history.id, b: lines.id, involvesChange: true, onlyA: [], onlyB: ['lines'] });
    expect(p!.jaccard).toBeGreaterThanOrEqual(0.8);
    expect(p!.suggestions[0]).toBe(`Add to ${history.id}'s description: "Not for requests about lines: use get_billing_lines."`);
    expect(p!.suggestions.join('\n')).toMatch(/says nothing .* does not/);
    expect(r.listed.some((x) => x.a === weather.id || x.b === weather.id)).toBe(false);
  });

  it('writes the advice as a sentence, filler words left out', () => {
    const a = tool('shop', 'list_items', 'Lists the items of an order, including sizes and colours. Useful for returns.');
    const b = tool('shop', 'list_products', 'Lists the items of the catalog.');
    const p = describePair(a, b, 0.6, false);
    expect(p.onlyA).not.toContain('including');
    expect(p.onlyA).not.toContain('useful');
    expect(p.suggestions[0]).toBe(`Add to ${a.id}'s description: "Not for requests about catalog: use list_products."`);
    expect(p.suggestions[1]).toMatch(/^Add to \S+'s description: "Not for requests about [a-z]+(, [a-z]+)* or [a-z]+: use list_items\."$/);
  });

  it('names the other server when two servers carry the same operation', () => {
    const a = tool('hubspot', 'create_account', 'Creates an account.');
    const b = tool('salesforce', 'create_account', 'Creates an account.');
    const p = describePair(a, b, 1, false);
    expect(p.suggestions).toEqual([
      `Add to ${a.id}'s description: "Not for requests about salesforce: use ${b.id}."`,
      `Add to ${b.id}'s description: "Not for requests about hubspot: use ${a.id}."`,
    ]);
  });

  it('respects the threshold', () => {
    expect(nearDuplicates([history, lines], { similarity: 0.99 }).pairs).toBe(0);
    expect(nearDuplicates([history, weather], { similarity: 0.05 }).pairs).toBe(1);
  });

  it('finds exactly the pairs a brute-force comparison finds', () => {
    const set = fc.uniqueArray(fc.integer({ min: 0, max: 24 }), { minLength: 0, maxLength: 12 }).map((xs) => Uint32Array.from(xs).sort());
    fc.assert(
      fc.property(fc.array(set, { minLength: 2, maxLength: 40 }), fc.constantFrom(0.5, 0.6, 0.7, 0.8, 0.9, 1), (sets, t) => {
        const got = similarPairs(sets, t)
          .map(([i, j]) => `${i},${j}`)
          .sort();
        const want: string[] = [];
        for (let i = 0; i < sets.length; i++)
          for (let j = i + 1; j < sets.length; j++) if (sets[i]!.length && sets[j]!.length && jaccard(sets[i]!, sets[j]!) >= t - 1e-12) want.push(`${i},${j}`);
        expect(got).toEqual(want.sort());
      }),
      { numRuns: 300, seed: 7 },
    );
  });
});

describe('analysePairsFrom (the pairs of a changed catalog from its base)', () => {
  const { dataset } = generate(resolveParams('small', 3));
  const old = dataset.catalog.tools;
  const oldIds = old.map((t) => t.id);
  const base = analysePairs(old);
  const key = (a: PairAnalysis, tools: readonly Tool[]) => a.pairs.map(([i, j, jac]) => [tools[i]!.id, tools[j]!.id].sort().join(' ') + ` ${jac}`).sort();

  it('finds the pairs and Jaccard values the whole join finds, after adds, edits and removals', () => {
    expect(base.pairs.length).toBeGreaterThan(20);
    const inPair = base.pairs[0]!;
    const copied = old[inPair[0]]!;
    const { hash: _h, id: _i, ...rest } = copied;
    const added = makeTool({ ...rest, source: 'mcp', server: 'mirror', namespace: 'mirror' }); // the same text on another server
    const others = base.pairs.filter(([i, j]) => i !== inPair[0] && j !== inPair[0]);
    const editedAt = others[0]![1];
    const removedId = old[others.find(([i, j]) => i !== editedAt && j !== editedAt)![0]]!.id;
    const plain = old.findIndex((_t, i) => !base.pairs.some(([a, b]) => a === i || b === i));
    // One tool edited away from its pair, one edited into a copy of another's text (a new pair), one removed, one added.
    const next = [
      ...old.map((t, i) =>
        i === editedAt
          ? makeTool({ ...t, description: 'Rotates the signing keys of a webhook endpoint.' })
          : i === plain
            ? makeTool({ ...t, summary: copied.summary, description: copied.description, name: copied.name, title: copied.title })
            : t,
      ),
      added,
    ].filter((t) => t.id !== removedId);
    const fresh = new Set([added.id, old[editedAt]!.id, old[plain]!.id]);
    const inc = analysePairsFrom(base, oldIds, next, fresh)!;
    const full = analysePairs(next);
    expect(key(inc, next)).toEqual(key(full, next));
    expect(key(inc, next).some((p) => p.startsWith([copied.id, added.id].sort().join(' ')))).toBe(true);
    expect(key(inc, next).some((p) => p.includes(removedId))).toBe(false);
    const focus = fresh;
    expect(JSON.stringify(nearDuplicates(next, { focus, analysis: inc }))).toBe(JSON.stringify(nearDuplicates(next, { focus })));
    // At the threshold exactly: the copy's Jaccard is 1.
    const exact = analysePairsFrom(analysePairs(old, 1), oldIds, next, fresh)!;
    expect(key(exact, next)).toEqual(key(analysePairs(next, 1), next));
    expect(key(exact, next)).toContain(`${[copied.id, added.id].sort().join(' ')} 1`);
  });

  it('agrees with the whole join on random catalogs after random edits, additions, removals and reordering', () => {
    const words = Array.from({ length: 14 }, (_, i) => `word${String.fromCharCode(97 + i)}`);
    const text = (xs: number[]) => xs.map((x) => words[x]).join(' ');
    const desc = fc.uniqueArray(fc.integer({ min: 0, max: 13 }), { minLength: 0, maxLength: 6 });
    // 2,000 tools of one unique word each pair with nothing, and let up to 4 tools be fresh.
    const filler = Array.from({ length: 2000 }, (_, i) => makeTool({ name: `f${i}`, source: 'core', summary: '', description: `filler${i}` }));
    const change = fc.record({
      edits: fc.array(fc.tuple(fc.nat(), desc), { maxLength: 1 }),
      added: fc.array(desc, { maxLength: 2 }),
      removed: fc.array(fc.nat(), { maxLength: 2 }),
      seed: fc.nat(),
    });
    fc.assert(
      fc.property(fc.array(desc, { minLength: 2, maxLength: 30 }), change, fc.constantFrom(0.5, 2 / 3, 0.8, 1), (descs, c, t) => {
        const own = descs.map((d, i) => makeTool({ name: `t${i}`, source: 'core', summary: '', description: text(d) }));
        const before = [...filler, ...own];
        let after = [...before];
        const fresh = new Set<string>();
        for (const [at, d] of c.edits) {
          const i = filler.length + (at % own.length);
          after[i] = makeTool({ name: `t${i - filler.length}`, source: 'core', summary: '', description: text(d) });
          fresh.add(after[i]!.id);
        }
        // Each added text twice (a pair of two fresh tools), the second under a name of its own.
        [...c.added, ...c.added.slice(0, 1)].forEach((d, i) => {
          const tool = makeTool({ name: `new${i}`, source: 'core', summary: '', description: text(d) });
          after.push(tool);
          fresh.add(tool.id);
        });
        const gone = new Set(c.removed.map((r) => own[r % own.length]!.id));
        after = after.filter((tool) => !gone.has(tool.id));
        for (const id of gone) fresh.delete(id);
        after = shuffled(after, prng(c.seed));
        const got = analysePairsFrom(
          analysePairs(before, t),
          before.map((x) => x.id),
          after,
          fresh,
        );
        expect(got).toBeDefined();
        expect(key(got!, after)).toEqual(key(analysePairs(after, t), after));
      }),
      { numRuns: 60, seed: 11 },
    );
  });

  it('declines too many fresh tools, and a base that does not describe the unchanged tools', () => {
    const many = new Set(old.slice(0, Math.ceil(INCREMENTAL_SHARE * old.length) + 2).map((t) => t.id));
    expect(analysePairsFrom(base, oldIds, old, many)).toBeUndefined();
    expect(analysePairsFrom(base, oldIds, [...old, makeTool({ name: 'stranger', source: 'core', summary: '', description: 'x' })], new Set())).toBeUndefined();
    expect(key(analysePairsFrom(base, oldIds, old, new Set())!, old)).toEqual(key(base, old));
  });
});

describe('pair cache', () => {
  const dir = mkdtempSync(join(tmpdir(), 'backpack-pairs-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const tools = [
    makeTool({ name: 'a', source: 'core', summary: '', description: 'list open invoices of a customer' }),
    makeTool({ name: 'b', source: 'core', summary: '', description: 'list open invoices of an account' }),
    makeTool({ name: 'c', source: 'core', summary: '', description: 'rotate webhook keys' }),
  ];
  const ids = tools.map((t) => t.id);
  const analysis = analysePairs(tools, 0.5);
  /** The cache file written for catalog hash `hash`. */
  const cacheFile = (hash: string) =>
    readdirSync(join(dir, 'near-duplicates'))
      .map((f) => join(dir, 'near-duplicates', f))
      .find((f) => readFileSync(f, 'utf8').includes(`"${hash}"`))!;

  it('round-trips an analysis, keyed by catalog hash and threshold', () => {
    writePairCache(dir, 'abc', ids, analysis);
    const back = readPairCache(dir, 'abc', 0.5)!;
    expect(back.ids).toEqual(['a', 'b', 'c']);
    expect(back.analysis.words).toEqual(analysis.words);
    expect(back.analysis.sets.map((s) => [...s])).toEqual(analysis.sets.map((s) => [...s]));
    expect(back.analysis.pairs).toEqual(analysis.pairs);
    expect(back.analysis.pairs.length).toBe(1);
    expect(readPairCache(dir, 'abd', 0.5)).toBeUndefined();
    expect(readPairCache(dir, 'abc', 0.8)).toBeUndefined();
  });

  it('treats a damaged file as a miss, saying so', () => {
    writePairCache(dir, 'damaged', ['a'], analysePairs(tools.slice(0, 1), 0.5));
    const file = cacheFile('damaged');
    writeFileSync(file, readFileSync(file, 'utf8').slice(0, 40));
    expect(warningsOf(() => readPairCache(dir, 'damaged', 0.5))).toEqual({ value: undefined, warnings: [corruptLine(1, file)] });
  });

  it('treats a file that parses but does not hold a valid analysis as a miss', () => {
    writePairCache(dir, 'crafted', ids, analysis);
    const file = cacheFile('crafted');
    const good = JSON.parse(readFileSync(file, 'utf8')).data;
    expect(readPairCache(dir, 'crafted', 0.5)).toBeDefined();
    const bad = [
      { members: good.members.map((w: number, i: number) => (i === 0 ? good.words.length : w)) }, // a word id past the vocabulary
      { pairs: [good.pairs[1], good.pairs[0], good.pairs[2]] }, // i > j
      { pairs: [good.pairs[0], good.pairs[1], 0.1] }, // below the threshold
      { ids: [good.ids[0], good.ids[0], good.ids[2]] }, // a repeated id
    ];
    for (const change of bad) {
      writeFileSync(file, sealPairFile({ ...good, ...change })); // a checksum that holds: the shape checks answer
      expect(readPairCache(dir, 'crafted', 0.5), JSON.stringify(change)).toBeUndefined();
    }
  });
});
