/**
 * The `embed` retriever on a tiny random model loaded through the real transformers.js pipeline:
 * exact ranking against hand-computed embeddings, the allowed mask, the id tie-break, the vector
 * cache's counters, int8 against float32, the index text recipes; and the committed default model
 * on a generated catalog under the shared contract's checks.
 */
import { cpSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeTool } from '../../src/catalog/model.ts';
import type { Catalog, Tool } from '../../src/catalog/types.ts';
import { generate, resolveParams } from '../../src/generate/index.ts';
import { Rng } from '../../src/util/rng.ts';
import { createEmbed, EMBED_FACTORY, type EmbedOptionsInput } from '../../src/retrievers/embed/index.ts';
import { kernelWasm, VectorIndex } from '../../src/retrievers/embed/kernel.ts';
import { INDEX_RECIPES, splitName } from '../../src/retrievers/embed/recipes.ts';
import { dequantizeRow, quantizeRows } from '../../src/retrievers/embed/static-model.ts';
import { rankStable } from '../../src/retrievers/rank.ts';
import type { Hit } from '../../src/retrievers/types.ts';
import { tempDir } from '../helpers.ts';
import { prng, writeTinyModel } from './tiny-model.ts';

const dir = tempDir('embed-retriever');
const { dir: modelDir, spec } = writeTinyModel(dir, 'tiny', { seed: 5, words: 300, hidden: 16, specialRows: 'zero' });
const W = spec.words;
let cacheN = 0;
/** A retriever on the tiny model with its own fresh cache folder (unless one is given). */
const tiny = (o: EmbedOptionsInput = {}) => createEmbed('embed', { model: modelDir, cacheDir: join(dir, `cache-${cacheN++}`), ...o });

const rand = prng(99);
const pick = () => W[Math.floor(rand() * W.length)]!;
const sentence = (n: number) => Array.from({ length: n }, pick).join(' ');

function tool(name: string, description: string, extra: Partial<Parameters<typeof makeTool>[0]> = {}): Tool {
  return makeTool({ source: 'core', name, summary: description.split(' ').slice(0, 3).join(' '), description, ...extra });
}
function catalogOf(tools: Tool[]): Catalog {
  return { tools, skills: [], servers: [], plugins: [] };
}

const tools = Array.from({ length: 40 }, (_, i) => tool(`${W[i]}_${pick()}`, sentence(4 + (i % 7)), { examples: i % 3 === 0 ? [sentence(3)] : [] }));
const catalog = catalogOf(tools);
const queries = Array.from({ length: 25 }, () => sentence(2 + Math.floor(rand() * 5)));

/** Hand-computed unit vector: mean of the dequantised rows of [CLS], the words, [SEP], normalised (zero if no word is known). */
function hand(text: string): Float64Array {
  const q = quantizeRows(spec.table, spec.hidden);
  const pieces = text.toLowerCase().match(/[a-z0-9]+|[^\sa-z0-9]/g) ?? [];
  const ids = ['[CLS]', ...pieces, '[SEP]'].map((p) => spec.tokens.indexOf(p)).map((i) => (i < 0 ? spec.tokens.indexOf('[UNK]') : i));
  const v = new Float64Array(spec.hidden);
  for (const id of ids) {
    const row = dequantizeRow(q, id, spec.hidden);
    for (let j = 0; j < spec.hidden; j++) v[j]! += row[j]!;
  }
  const norm = Math.hypot(...v);
  return norm === 0 ? v : v.map((x) => x / norm);
}

/** Brute force: every allowed tool scored by hand, rankStable order, top k. */
function bruteForce(request: string, k: number, allowed?: Uint8Array, recipe: keyof typeof INDEX_RECIPES = 'intent'): Hit[] {
  const q = hand(request);
  const hits: Hit[] = [];
  tools.forEach((t, i) => {
    if (allowed !== undefined && allowed[i] !== 1) return;
    const d = hand(INDEX_RECIPES[recipe].text(t));
    let s = 0;
    for (let j = 0; j < spec.hidden; j++) s += q[j]! * d[j]!;
    hits.push({ id: t.id, score: s });
  });
  return rankStable(hits).slice(0, k);
}

function expectSameRanking(got: Hit[], want: Hit[]): void {
  expect(got.map((h) => h.id)).toEqual(want.map((h) => h.id));
  got.forEach((h, i) => expect(Math.abs(h.score - want[i]!.score), h.id).toBeLessThan(1e-5));
}

describe('embed retriever on a tiny model', () => {
  it('ranks exactly as hand-computed cosine similarities, in rankStable order', async () => {
    const r = tiny();
    await r.index(catalog);
    for (const q of queries) {
      const hits = await r.search(q, { k: 7 });
      expect(hits).toEqual(rankStable(hits));
      expectSameRanking(hits, bruteForce(q, 7));
    }
    expect(await r.search(queries[0]!, { k: 100 })).toHaveLength(tools.length);
    expect(await r.search(queries[0]!, { k: 0 })).toEqual([]);
  });

  it('never scores or returns a tool outside the allowed mask', async () => {
    const r = tiny();
    await r.index(catalog);
    for (const q of queries) {
      const allowed = new Uint8Array(tools.length).map(() => (rand() < 0.3 ? 1 : 0));
      const hits = await r.search(q, { k: 5, allowed });
      for (const h of hits) expect(allowed[tools.findIndex((t) => t.id === h.id)]).toBe(1);
      expectSameRanking(hits, bruteForce(q, 5, allowed));
      // A mask value other than 1 does not allow.
      const twos = allowed.map((a) => (a === 1 ? 1 : 2));
      expect(await r.search(q, { k: 5, allowed: twos })).toEqual(hits);
    }
    expect(await r.search(queries[0]!, { k: 10, allowed: new Uint8Array(tools.length) })).toEqual([]);
    await expect(r.search(queries[0]!, { k: 10, allowed: new Uint8Array(3) })).rejects.toThrow(/allowed mask has 3 entries/);
  });

  it('breaks exact score ties by tool id', async () => {
    // Same name and description on two servers: identical text, identical vectors, identical scores.
    const desc = sentence(6);
    const twins = [
      makeTool({ source: 'mcp', server: 'zeta', name: `${W[1]}_${W[2]}`, summary: '', description: desc }),
      makeTool({ source: 'mcp', server: 'alpha', name: `${W[1]}_${W[2]}`, summary: '', description: desc }),
      tool(`${W[3]}`, sentence(5)),
    ];
    const r = tiny();
    await r.index(catalogOf(twins));
    const hits = await r.search(desc, { k: 3 });
    expect(hits.slice(0, 2).map((h) => h.id)).toEqual(['mcp__alpha__' + `${W[1]}_${W[2]}`, 'mcp__zeta__' + `${W[1]}_${W[2]}`]);
    expect(hits[0]!.score).toBe(hits[1]!.score);
    expect(r.stats()).toMatchObject({ tools: 3, texts: 2, embedded: 2 });
  });

  it('returns no hits for a request with no known word (a zero vector)', async () => {
    const r = tiny();
    await r.index(catalog);
    expect(await r.search('xyzzy plugh!', { k: 5 })).toEqual([]);
    expect(await r.search('', { k: 5 })).toEqual([]);
  });

  it('re-embeds exactly the one tool whose description changed; the rest are cache hits', async () => {
    const cacheDir = join(dir, 'shared-cache');
    const progress: Array<[number, number]> = [];
    const first = tiny({ cacheDir, batchSize: 16, onProgress: (d, t) => progress.push([d, t]) });
    await first.index(catalog);
    expect(first.stats()).toMatchObject({ tools: 40, texts: 40, embedded: 40, cacheHits: 0, dims: 16 });
    expect(progress).toEqual([
      [0, 40],
      [16, 40],
      [32, 40],
      [40, 40],
    ]);

    const again = tiny({ cacheDir });
    await again.index(catalog);
    expect(again.stats()).toMatchObject({ embedded: 0, cacheHits: 40 });
    for (const q of queries.slice(0, 5)) expect(await again.search(q, { k: 5 })).toEqual(await first.search(q, { k: 5 }));

    const changed = catalogOf(tools.map((t, i) => (i === 17 ? tool(t.name, `${t.description} ${pick()}`) : t)));
    const third = tiny({ cacheDir });
    progress.length = 0;
    third.setProgress((d, t) => progress.push([d, t]));
    await third.index(changed);
    expect(third.stats()).toMatchObject({ tools: 40, texts: 40, embedded: 1, cacheHits: 39 });
    expect(progress).toEqual([
      [0, 1],
      [1, 1],
    ]);

    // Another recipe is another text: no false hits.
    const schema = tiny({ cacheDir, recipe: 'intent+schema' });
    await schema.index(catalog);
    expect(schema.stats().embedded).toBe(40);
  });

  it("keeps a static model's prefetched request vectors in the vector cache: a second run encodes none of them, with the same hits", async () => {
    const cacheDir = join(dir, 'request-cache');
    const qs = queries.slice(0, 12);
    const single = queries[12]!; // searched without a prefetch: read from the cache, never added to it
    const first = tiny({ cacheDir });
    await first.index(catalog);
    await first.prefetch(qs);
    const want = await Promise.all(qs.map((q) => first.search(q, { k: 5 })));
    const wantSingle = await first.search(single, { k: 5 });
    expect(first.stats()).toMatchObject({ queries: 13, requestsCached: 0 });
    for (let i = 0; i < qs.length; i++) expectSameRanking(want[i]!, bruteForce(qs[i]!, 5));

    const second = tiny({ cacheDir });
    await second.index(catalog);
    expect(second.stats()).toMatchObject({ embedded: 0, cacheHits: 40 }); // request texts are not tool texts
    await second.prefetch(qs.slice(6));
    for (let i = 0; i < qs.length; i++) expect(await second.search(qs[i]!, { k: 5 })).toEqual(want[i]);
    const dense = await second.denseScores(qs[0]!, {});
    expect(second.stats()).toMatchObject({ queries: 13, requestsCached: 13 });
    expect(dense.scores[tools.findIndex((t) => t.id === want[0]![0]!.id)]).toBe(want[0]![0]!.score);
    expect(await second.search(single, { k: 5 })).toEqual(wantSingle);
    expect(second.stats()).toMatchObject({ queries: 14, requestsCached: 13 });
  });

  it('caches no request vector for a model that is not known to encode batches exactly', async () => {
    // The same tiny model, its config claiming a hidden layer: batches might round differently.
    const layered = join(dir, 'tiny-layered');
    cpSync(modelDir, layered, { recursive: true });
    const configFile = join(layered, 'config.json');
    writeFileSync(configFile, JSON.stringify({ ...JSON.parse(readFileSync(configFile, 'utf8')), num_hidden_layers: 1 }));
    const cacheDir = join(dir, 'layered-cache');
    const make = () => createEmbed('embed', { model: layered, cacheDir });
    const log = () => readdirSync(cacheDir).map((d) => statSync(join(cacheDir, d, 'vectors.bin')).size);
    const first = make();
    await first.index(catalog);
    const afterIndex = log();
    await first.prefetch(queries.slice(0, 8));
    const want = await Promise.all(queries.slice(0, 8).map((q) => first.search(q, { k: 5 })));
    expect(log()).toEqual(afterIndex); // no request appended
    const second = make();
    await second.index(catalog);
    await second.prefetch(queries.slice(0, 8));
    for (let i = 0; i < 8; i++) expect(await second.search(queries[i]!, { k: 5 })).toEqual(want[i]);
    expect(second.stats()).toMatchObject({ embedded: 0, queries: 8, requestsCached: 0 });
  });

  it('gives the same top-k with int8 vectors as with float32 on a small case', async () => {
    const f = tiny();
    const q8 = tiny({ vectors: 'int8' });
    await f.index(catalog);
    await q8.index(catalog);
    for (const q of queries.slice(0, 10)) {
      const a = await f.search(q, { k: 3 });
      const b = await q8.search(q, { k: 3 });
      expect(b.map((h) => h.id)).toEqual(a.map((h) => h.id));
      b.forEach((h, i) => expect(Math.abs(h.score - a[i]!.score)).toBeLessThan(0.02));
    }
  });

  it('describes itself as plain JSON, and checks its options', () => {
    const r = tiny({ recipe: 'intent+schema', vectors: 'int8' });
    const d = r.describe();
    expect(JSON.parse(JSON.stringify(d))).toEqual(d);
    expect(d).toMatchObject({ retriever: 'embed', recipe: 'intent+schema', vectors: 'int8' });
    expect(typeof d.modelFilesSha256).toBe('string');
    expect(() => tiny({ recipe: 'schema-only' as 'intent' })).toThrow(/unknown index recipe "schema-only"/);
    expect(() => tiny({ batchSize: 0 })).toThrow(/batchSize/);
    expect(() => tiny({ model: join(dir, 'no-such-model') + '/x/y' })).toThrow(/neither a local model folder/);
    expect(() => createEmbed('embed', { model: 'Xenova/all-MiniLM-L6-v2' })).not.toThrow(); // a hub id is accepted without network until index()
  });

  it('loads a Hugging Face id from the model cache folder without network once downloaded', async () => {
    // The layout transformers.js writes for `owner/name` at revision main: <modelCacheDir>/owner/name/<file>.
    const modelCacheDir = join(dir, 'hub-models');
    writeTinyModel(join(modelCacheDir, 'backpack-test'), 'tiny-hub', { seed: 5, words: 300, hidden: 16, specialRows: 'zero' });
    const hub = tiny({ model: 'backpack-test/tiny-hub', modelCacheDir });
    await hub.index(catalog);
    const local = tiny();
    await local.index(catalog);
    expect(await hub.search(queries[0]!, { k: 5 })).toEqual(await local.search(queries[0]!, { k: 5 }));
    expect(hub.describe()).toMatchObject({ model: 'backpack-test/tiny-hub', revision: 'main' });
  });

  it('throws if searched before index()', async () => {
    await expect(tiny().search('x', { k: 1 })).rejects.toThrow(/before index/);
  });
});

describe('index text recipes', () => {
  const t = makeTool({
    source: 'mcp',
    server: 'tracker',
    name: 'createIssue',
    title: 'Create issue',
    summary: 'Open a new issue.',
    description: 'Open a new issue. Use it for bugs.',
    inputSchema: { type: 'object', properties: { zebraCount: { type: 'integer', description: 'how many zebras' } } },
    examples: ['file a bug about the login page'],
  });

  it('intent: split name, title, summary (unless the description starts with it), description, examples; no schema', () => {
    const text = INDEX_RECIPES.intent.text(t);
    expect(text).toBe('create issue\nCreate issue\nOpen a new issue. Use it for bugs.\nfile a bug about the login page');
    expect(text).not.toContain('zebra');
    expect(text).not.toContain('integer');
  });

  it('source+intent: the server or plugin name (split) first, then the intent text; nothing for core tools', () => {
    expect(INDEX_RECIPES['source+intent'].text(t)).toBe(`tracker\n${INDEX_RECIPES.intent.text(t)}`);
    const plugin = makeTool({ source: 'plugin', plugin: 'SlackTools', name: 'post', summary: 'Post a message.', description: 'Post a message.' });
    expect(INDEX_RECIPES['source+intent'].text(plugin)).toBe('slack tools\npost\nPost a message.');
    const core = makeTool({ source: 'core', name: 'read_file', summary: 'Read a file.', description: 'Read a file.' });
    expect(INDEX_RECIPES['source+intent'].text(core)).toBe(INDEX_RECIPES.intent.text(core));
    // A plugin named like its only tool (MetaTool) adds nothing.
    const same = makeTool({ source: 'plugin', plugin: 'WeatherTool', name: 'WeatherTool', summary: 'Weather.', description: 'Weather.' });
    expect(INDEX_RECIPES['source+intent'].text(same)).toBe(INDEX_RECIPES.intent.text(same));
  });

  it('intent+schema: the intent text plus the schema JSON', () => {
    const text = INDEX_RECIPES['intent+schema'].text(t);
    expect(text.startsWith(INDEX_RECIPES.intent.text(t))).toBe(true);
    expect(text).toContain('"zebraCount":{"type":"integer","description":"how many zebras"}');
  });

  it('splits names on punctuation and camelCase', () => {
    expect(splitName('create_issue')).toBe('create issue');
    expect(splitName('issues.createIssue')).toBe('issues create issue');
    expect(splitName('HTMLParser')).toBe('html parser');
    expect(splitName('PDF&URLTool')).toBe('pdf url tool');
  });
});

describe('top-k kernel', () => {
  it('compiles (WebAssembly SIMD) and scores bit-identically to the JavaScript fallback', () => {
    expect(WebAssembly.validate(kernelWasm())).toBe(true);
    const r = prng(3);
    for (const [n, dims] of [
      [1, 1],
      [9, 5],
      [300, 16],
      [257, 100],
      [50, 384],
    ] as const) {
      const v = new Float32Array(n * dims).map(() => r() - 0.5);
      const rank = new Uint32Array(n).map((_, i) => n - 1 - i);
      const q = new Float32Array(dims).map(() => r() - 0.5);
      const mask = new Uint8Array(n).map(() => (r() < 0.6 ? 1 : 0));
      for (const type of ['float32', 'int8'] as const) {
        const wasm = new VectorIndex(v, dims, rank, type, true);
        const js = new VectorIndex(v, dims, rank, type, false);
        expect(wasm.kernel).toBe('wasm-simd');
        expect(js.kernel).toBe('js');
        expect(wasm.search(q, 10)).toEqual(js.search(q, 10));
        expect(wasm.search(q, 10, mask)).toEqual(js.search(q, 10, mask));
        for (const h of wasm.search(q, n, mask)) expect(mask[h.index]).toBe(1);
        // float32 against a float64 brute force: same order, scores within float32 error.
        if (type === 'float32') {
          const exact = Array.from({ length: n }, (_, i) => {
            let s = 0;
            for (let j = 0; j < dims; j++) s += q[j]! * v[i * dims + j]!;
            return { index: i, score: s };
          }).sort((a, b) => b.score - a.score || rank[a.index]! - rank[b.index]!);
          const got = wasm.search(q, 5);
          got.forEach((h, i) => expect(Math.abs(h.score - exact[i]!.score)).toBeLessThan(1e-5));
        }
      }
    }
  });

  it('ranks every allowed vector (k ≥ allowed) exactly as the heap does, ties and -0 by rank', () => {
    const r = prng(8);
    for (const [n, dims] of [
      [7, 3],
      [300, 16],
      [1000, 8],
    ] as const) {
      // Coarse values: many exact ties, zeros and negative zeros.
      const v = new Float32Array(n * dims).map(() => Math.round((r() - 0.5) * 4) / 2);
      const rank = new Uint32Array(n);
      Array.from({ length: n }, (_, i) => i)
        .sort((a, b) => ((a * 7919) % n) - ((b * 7919) % n) || a - b)
        .forEach((i, p) => (rank[i] = p));
      const q = new Float32Array(dims).map(() => Math.round((r() - 0.5) * 4) / 2);
      const mask = new Uint8Array(n).map(() => (r() < 0.7 ? 1 : 0));
      const allowed = mask.reduce((a, b) => a + b, 0);
      for (const type of ['float32', 'int8'] as const) {
        const idx = new VectorIndex(v, dims, rank, type);
        const all = idx.search(q, n, mask);
        expect(all).toHaveLength(allowed);
        expect(idx.search(q, allowed - 1, mask)).toEqual(all.slice(0, allowed - 1)); // the heap path
        for (let j = 1; j < all.length; j++) {
          const [a, b] = [all[j - 1]!, all[j]!];
          expect(a.score > b.score || (a.score === b.score && rank[a.index]! < rank[b.index]!)).toBe(true);
        }
      }
    }
  });

  it('orders equal scores by rank (the id order)', () => {
    const v = new Float32Array([1, 0, 1, 0, 0, 1, 1, 0]);
    const idx = new VectorIndex(v, 2, new Uint32Array([3, 1, 0, 2]));
    // Scores 1, 1, 0, 1: the three ties in rank order (ranks 1, 2, 3 = vectors 1, 3, 0), then vector 2.
    expect(idx.search(new Float32Array([1, 0]), 4).map((h) => h.index)).toEqual([1, 3, 0, 2]);
  });
});

describe('embed with the committed default model (contract checks)', () => {
  const { catalog: gen, cases } = generate(resolveParams('tiny', 11)).dataset;
  const requests = cases.slice(0, 40).map((c) => c.request);
  const ids = new Set(gen.tools.map((t) => t.id));
  const make = () => EMBED_FACTORY.create('embed');

  it('returns known, distinct tools in rankStable order, honours the mask, and is deterministic', async () => {
    const a = make();
    const b = make();
    expect(a.name).toBe('embed');
    await a.index(gen);
    await b.index(gen);
    let nonEmpty = 0;
    const rng = new Rng(5, 'embed');
    for (const q of requests) {
      const hits = await a.search(q, { k: 10 });
      expect(hits.length).toBeLessThanOrEqual(10);
      expect(new Set(hits.map((h) => h.id)).size).toBe(hits.length);
      for (const h of hits) expect(ids.has(h.id) && Number.isFinite(h.score)).toBe(true);
      expect(hits).toEqual(rankStable(hits));
      expect(await b.search(q, { k: 10 })).toEqual(hits);
      if (hits.length) nonEmpty++;
      const allowed = new Uint8Array(gen.tools.length).map(() => (rng.chance(0.3) ? 1 : 0));
      for (const h of await a.search(q, { k: 20, allowed })) expect(allowed[gen.tools.findIndex((t) => t.id === h.id)]).toBe(1);
    }
    expect(nonEmpty).toBe(requests.length);
    expect(a.stats().kernel).toBe('wasm-simd');
    expect(JSON.parse(JSON.stringify(a.describe()))).toEqual(a.describe());
  });

  it('puts a paraphrase of a tool description above unrelated tools', async () => {
    const r = createEmbed('embed', { cacheDir: null });
    const cat = catalogOf([
      tool('send_email', 'Send an email message to a recipient with a subject and body.'),
      tool('get_weather', 'Get the current weather forecast for a city.'),
      tool('create_invoice', 'Create a billing invoice for a customer order.'),
      tool('list_files', 'List the files in a directory of the file system.'),
    ]);
    await r.index(cat);
    expect((await r.search('write a mail to my boss', { k: 1 }))[0]!.id).toBe('send_email');
    expect((await r.search('will it rain in paris tomorrow?', { k: 1 }))[0]!.id).toBe('get_weather');
    expect((await r.search('show me what documents are in this folder', { k: 1 }))[0]!.id).toBe('list_files');
  });
});
