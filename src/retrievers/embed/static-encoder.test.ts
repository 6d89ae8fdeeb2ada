/**
 * The pure-JS static encoder against transformers.js (a devDependency, the reference): the same
 * float32 bytes on a broad corpus (generated tool texts and requests, MetaTool queries and tool
 * texts, hostile strings), batches equal to single calls, the graph check that sends any other
 * model to transformers.js, and a child process showing the default model never imports
 * `@huggingface/transformers`.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadMetaTool } from '../../catalog/loaders/metatool.ts';
import { generate, resolveParams } from '../../generate/index.ts';
import { PACKAGE_ROOT } from '../../util/version.ts';
import { BACKPACK_BIN, tempDir } from '../../../test/helpers.ts';
import { tinyWords, writeTinyModel } from '../../../test/embed/tiny-model.ts';
import { DEFAULT_MODEL_DIR, loadExtractor, loadWithTransformers, makeEncoder, modelKey, resolveModel, type Encoder } from './model.ts';
import { encodeOnnxModel } from './onnx-writer.ts';
import { floatData, int8Data, readOnnxModel } from './onnx-weights.ts';
import { INDEX_RECIPES } from './recipes.ts';
import { loadStaticEncoder, StaticEncoderMismatch, staticEncoderDtype } from './static-encoder.ts';
import { quantizeRows, staticEncoderOnnx } from './static-model.ts';

const dir = tempDir('static-encoder');

/** Hostile inputs: scripts, accents, emoji, control characters, huge words and texts. */
const HOSTILE: string[] = [
  '',
  ' ',
  '\t\n\r',
  '!!!',
  '...,,,;;;::',
  '?!@#$%^&*()_+-=[]{}|\\/<>~`\'"',
  'Café naïve résumé façade Ångström Øre',
  'CAFÉ NAÏVE',
  'e\u0301te\u0301 (combining accents)',
  '東京で天気を調べる',
  '中文 tools 和 English mixed',
  '한국어 텍스트 search',
  'Привет, найди погоду в Москве',
  'مرحبا بالعالم weather',
  'שלום עולם',
  'नमस्ते दुनिया',
  'ไทย ภาษา',
  'emoji 🎉🔥 weather ☀️ 👩‍👩‍👧‍👦 flags 🇫🇷',
  '🙂',
  'control\u0000chars\u0001in\u0007the\u001bmiddle\u007f',
  'zero\u200bwidth\u200dspace\ufeffbom',
  'soft\u00adhyphen and non\u00a0breaking',
  'line\u2028separator\u2029paragraph',
  'fullwidth ＷＥＡＴＨＥＲ ｐａｒｉｓ',
  'ligature ﬁle ﬂow',
  'math 𝐛𝐨𝐥𝐝 𝕕𝕠𝕦𝕓𝕝𝕖',
  'lone surrogate \ud800 here \udfff',
  'create_issue get-weather listFiles HTTPRequest snake_case_name',
  'x'.repeat(5000),
  'weather'.repeat(800),
  `${'a'.repeat(99)} ${'b'.repeat(100)} ${'c'.repeat(101)}`,
  'playlist keywords chatbot workflow plugins',
  'the of and a to in is you that it',
  '[CLS] [SEP] [PAD] [UNK] [MASK] tokens typed in',
  '1234567890 3.14159 1e10 0x1f',
  'https://example.com/path?query=weather&city=Paris#frag',
  '{"json": ["array", 1, null]}',
  Array.from({ length: 20_000 }, (_, i) => ['weather', 'city', 'music', 'play', 'the', 'xyzzy', 'file'][i % 7]).join(' '),
  Array.from({ length: 9_000 }, (_, i) => (i % 2 === 0 ? 'search' : 'café')).join(' '),
];

function sameBytes(a: Float32Array, b: Float32Array): boolean {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
}

/** Index of the first text whose vector differs in any bit, or -1. */
function firstDifference(a: { data: Float32Array; dims: number }, b: { data: Float32Array; dims: number }, n: number): number {
  expect(a.dims).toBe(b.dims);
  expect(a.data.length).toBe(n * a.dims);
  expect(b.data.length).toBe(n * b.dims);
  for (let i = 0; i < n; i++) if (!sameBytes(a.data.subarray(i * a.dims, (i + 1) * a.dims), b.data.subarray(i * b.dims, (i + 1) * b.dims))) return i;
  return -1;
}

/**
 * Encode in batches of `size`, the texts taken in order of length so that a batch's texts are of
 * about one length (transformers.js pads a batch to its longest text: mixed batches of the corpus's
 * short requests and long schema texts cost several times the encoding), texts of over 2,000
 * characters alone. The rows come back in the order of `texts`.
 */
async function encodeInBatches(encoder: Encoder, texts: string[], size: number): Promise<{ data: Float32Array; dims: number }> {
  const order = texts.map((_, i) => i).sort((a, b) => texts[a]!.length - texts[b]!.length || a - b);
  const rows: Float32Array[] = new Array(texts.length);
  let dims = 0;
  let batch: number[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    const out = await encoder.encode(batch.map((i) => texts[i]!));
    dims = out.dims;
    batch.forEach((i, j) => (rows[i] = out.data.slice(j * dims, (j + 1) * dims)));
    batch = [];
  };
  for (const i of order) {
    if (texts[i]!.length > 2000) {
      await flush();
      batch = [i];
      await flush();
    } else {
      batch.push(i);
      if (batch.length >= size) await flush();
    }
  }
  await flush();
  const data = new Float32Array(texts.length * dims);
  rows.forEach((row, i) => data.set(row, i * dims));
  return { data, dims };
}

function corpus(): { name: string; texts: string[] }[] {
  const generated = generate(resolveParams('tiny', 1)).dataset;
  const toolTexts = generated.catalog.tools.flatMap((t) => Object.values(INDEX_RECIPES).map((r) => r.text(t)));
  const requests = generated.cases.map((c) => c.request);
  const metatool = loadMetaTool(join(PACKAGE_ROOT, 'datasets', 'metatool'));
  const step = Math.max(1, Math.floor(metatool.cases.length / 400));
  const metaRequests = metatool.cases.filter((_, i) => i % step === 0).map((c) => c.request);
  const metaTools = metatool.catalog.tools.map((t) => INDEX_RECIPES['source+intent'].text(t));
  return [
    { name: 'generated tiny dataset: tool texts (every recipe)', texts: toolTexts },
    { name: 'generated tiny dataset: requests', texts: requests },
    { name: 'MetaTool requests', texts: metaRequests },
    { name: 'MetaTool tool texts', texts: metaTools },
    { name: 'hostile strings', texts: HOSTILE },
  ];
}

describe('the committed static model: pure JS vs transformers.js', () => {
  const pure = loadStaticEncoder(DEFAULT_MODEL_DIR);
  let reference: Encoder;
  const sets = corpus();
  beforeAll(async () => {
    reference = makeEncoder(await loadWithTransformers(resolveModel(undefined), { modelCacheDir: join(dir, 'hub') }));
  });

  it('the corpus is broad', () => {
    const counts = Object.fromEntries(sets.map((s) => [s.name, s.texts.length]));
    expect(counts['generated tiny dataset: tool texts (every recipe)']).toBeGreaterThan(100);
    expect(counts['generated tiny dataset: requests']).toBeGreaterThan(20);
    expect(counts['MetaTool requests']).toBeGreaterThanOrEqual(300);
    expect(counts['MetaTool tool texts']).toBeGreaterThan(150);
  });

  for (const set of sets) {
    it(`gives the same float32 bytes: ${set.name}`, async () => {
      const ref = await encodeInBatches(reference, set.texts, 32);
      const got = pure.encodeSync(set.texts);
      const at = firstDifference(got, ref, set.texts.length);
      expect(at, at >= 0 ? `first differing text: ${JSON.stringify(set.texts[at]!.slice(0, 200))}` : '').toBe(-1);
      // Some vectors are not zero (the comparison is not vacuous).
      expect(got.data.some((v) => v !== 0)).toBe(true);
    });
  }

  it('gives a zero row exactly where transformers.js gives one (no known token)', async () => {
    const texts = ['', '!!!', 'xyzzyq', '東京', 'the of and', 'weather'];
    const got = pure.encodeSync(texts);
    const zero = texts.map((_, i) => got.data.subarray(i * got.dims, (i + 1) * got.dims).every((v) => v === 0));
    expect(zero).toEqual([true, true, true, true, true, false]);
    expect(firstDifference(got, await reference.encode(texts), texts.length)).toBe(-1);
  });

  it('a batch of many equals one text at a time (padding is masked)', async () => {
    const texts = sets.flatMap((s) => s.texts).filter((_, i) => i % 3 === 0);
    const all = pure.encodeSync(texts);
    const one = texts.map((t) => pure.encodeSync([t]).data);
    texts.forEach((t, i) => expect(sameBytes(all.data.subarray(i * all.dims, (i + 1) * all.dims), one[i]!), t.slice(0, 80)).toBe(true));
    // And transformers.js's padded batches of mixed lengths agree with them too.
    const mixed = [...HOSTILE.filter((t) => t.length < 2000), ...sets[2]!.texts.slice(0, 40)];
    expect(firstDifference(pure.encodeSync(mixed), await reference.encode(mixed), mixed.length)).toBe(-1);
  });

  it('truncates to model_max_length (8192 tokens) as transformers.js does', async () => {
    const words = ['weather', 'city', 'music'];
    const long = Array.from({ length: 8500 }, (_, i) => (i < 8190 ? words[i % 3] : 'playlist')).join(' ');
    const cut = Array.from({ length: 8190 }, (_, i) => words[i % 3]).join(' ');
    const got = pure.encodeSync([long, cut]);
    expect(firstDifference(got, await encodeInBatches(reference, [long, cut], 1), 2)).toBe(-1);
    // The tail past 8,192 tokens ([CLS] + 8,190 words + the first word piece) changes nothing but the count.
    expect(sameBytes(got.data.subarray(0, got.dims), got.data.subarray(got.dims))).toBe(false);
  });

  it('returns no rows for no texts', async () => {
    expect((await pure.encode([])).data.length).toBe(0);
  });
});

describe('the ONNX reader', () => {
  it('reads the tables the writer wrote, by name', () => {
    const { spec } = writeTinyModel(dir, 'reader-q8', { seed: 9, words: 40, hidden: 8 });
    const model = readOnnxModel(encodeOnnxModel(staticEncoderOnnx(spec)));
    const byName = new Map(model.initializers.map((t) => [t.name, t]));
    const q = quantizeRows(spec.table, spec.hidden);
    expect([...int8Data(byName.get('word_embeddings.int8')!)]).toEqual([...q.q]);
    expect([...floatData(byName.get('word_embeddings.scale')!)]).toEqual([...q.scales]);
    expect(byName.get('word_embeddings.int8')!.dims).toEqual([spec.tokens.length, 8]);
    expect(model.nodes.map((n) => n.opType)).toEqual(['Gather', 'Cast', 'Gather', 'Mul', 'Gather', 'Add', 'Cast', 'Unsqueeze', 'Mul']);
    expect(model.irVersion).toBe(7);
    expect(model.opsets.get('')).toBe(13);
  });

  it('reads the committed model with shapes matching config.json', () => {
    const config = JSON.parse(readFileSync(join(DEFAULT_MODEL_DIR, 'config.json'), 'utf8'));
    const model = readOnnxModel(readFileSync(join(DEFAULT_MODEL_DIR, 'onnx', 'model_quantized.onnx')));
    const dims = Object.fromEntries(model.initializers.map((t) => [t.name, t.dims]));
    expect(dims).toEqual({
      'word_embeddings.int8': [config.vocab_size, config.hidden_size],
      'word_embeddings.scale': [config.vocab_size, 1],
      token_type_embeddings: [config.type_vocab_size, config.hidden_size],
      mask_axes: [1],
    });
  });

  it('rejects truncated bytes', () => {
    const bytes = readFileSync(join(DEFAULT_MODEL_DIR, 'onnx', 'model_quantized.onnx'));
    expect(() => readOnnxModel(bytes.subarray(0, 1000))).toThrow(/truncated/);
  });
});

describe('tiny static models: pure JS vs transformers.js', () => {
  const words = tinyWords(300);
  const texts = [
    `${words[3]} ${words[17]} ${words[250]}.`,
    `${words[5]!.toUpperCase()}_${words[6]}, ${words[7]}`,
    `${words[0]}`,
    '',
    'unknown words only',
    `${words[1]}${words[2]} ${words[299]}!! ${words[42]}`,
    Array.from({ length: 300 }, (_, i) => words[(i * 7) % 300]).join(' '),
  ];
  for (const dtype of ['q8', 'fp32'] as const) {
    for (const specialRows of ['random', 'zero'] as const) {
      it(`(${dtype}, ${specialRows} [CLS]/[SEP] rows) gives the same bytes, through loadExtractor's pure-JS path`, async () => {
        const { dir: modelDir } = writeTinyModel(dir, `tiny-${dtype}-${specialRows}`, { seed: 21, dtype, specialRows });
        const source = resolveModel(modelDir);
        const extractor = await loadExtractor(source, { modelCacheDir: join(dir, 'hub') });
        expect('tokenizer' in extractor).toBe(false); // not a transformers.js pipeline
        const got = await makeEncoder(extractor).encode(texts);
        const ref = await makeEncoder(await loadWithTransformers(source, { modelCacheDir: join(dir, 'hub') })).encode(texts);
        expect(firstDifference(got, ref, texts.length)).toBe(-1);
      });
    }
  }
});

describe('which models take the pure-JS path', () => {
  it('the default dtype (or the same one named) only', () => {
    const { dir: q8 } = writeTinyModel(dir, 'which-q8', { seed: 2 });
    expect(staticEncoderDtype(q8)).toBe('q8');
    expect(staticEncoderDtype(q8, 'q8')).toBe('q8');
    expect(staticEncoderDtype(q8, 'fp32')).toBeNull();
    expect(staticEncoderDtype(q8, 'fp16')).toBeNull();
    expect(staticEncoderDtype(DEFAULT_MODEL_DIR)).toBe('q8');
    expect(staticEncoderDtype(join(dir, 'nowhere'))).toBeNull();
  });

  it('a config with hidden layers is not a static encoder', () => {
    const { dir: modelDir } = writeTinyModel(dir, 'layers', { seed: 2 });
    const path = join(modelDir, 'config.json');
    writeFileSync(path, JSON.stringify({ ...JSON.parse(readFileSync(path, 'utf8')), num_hidden_layers: 2 }));
    expect(staticEncoderDtype(modelDir)).toBeNull();
  });

  it('another graph (Add → Sub) goes to transformers.js', async () => {
    const { dir: modelDir, spec } = writeTinyModel(dir, 'sub-graph', { seed: 3 });
    const graph = staticEncoderOnnx(spec);
    const nodes = graph.graph.nodes.map((n) => (n.opType === 'Add' ? { ...n, opType: 'Sub' } : n));
    writeFileSync(join(modelDir, 'onnx', 'model_quantized.onnx'), encodeOnnxModel({ ...graph, graph: { ...graph.graph, nodes } }));
    expect(() => loadStaticEncoder(modelDir)).toThrow(StaticEncoderMismatch);
    const extractor = await loadExtractor(resolveModel(modelDir), { modelCacheDir: join(dir, 'hub') });
    expect('tokenizer' in extractor).toBe(true); // the transformers.js pipeline
  });

  it('tables that do not match config.json go to transformers.js', () => {
    const { dir: modelDir } = writeTinyModel(dir, 'bad-vocab', { seed: 4 });
    const path = join(modelDir, 'config.json');
    const config = JSON.parse(readFileSync(path, 'utf8'));
    writeFileSync(path, JSON.stringify({ ...config, vocab_size: config.vocab_size + 1 }));
    expect(() => loadStaticEncoder(modelDir)).toThrow(/word_embeddings\.int8.*config\.json/);
  });

  it('keeps the vector cache key of the committed model', () => {
    expect(modelKey(resolveModel(undefined), {})).toMatch(/^local:glove-static-30k:[0-9a-f]{64}:default:mean:l2$/);
  });
});

// Budget: 60 s a test, each a process of its own (measured 2026-12-07 on 2 cores: at most 2.4 s
// quiet, 25 s at load 12–17).
describe('the default model never imports transformers.js', { timeout: 60_000 }, () => {
  /** Resolve hooks that make importing transformers.js or onnxruntime throw. */
  function blockerFlags(): string[] {
    const hooks = join(dir, 'block-hooks.mjs');
    writeFileSync(
      hooks,
      `const banned = (s) => /(^|\\/)(@huggingface\\/transformers|onnxruntime-node|onnxruntime-web|onnxruntime-common)(\\/|$)/.test(s);
export async function resolve(specifier, context, next) {
  if (banned(specifier)) throw new Error('BLOCKED import of ' + specifier);
  const r = await next(specifier, context);
  if (banned(decodeURIComponent(new URL(r.url).pathname).replace(/^.*node_modules\\//, ''))) throw new Error('BLOCKED import of ' + r.url);
  return r;
}
`,
    );
    const register = join(dir, 'block-register.mjs');
    writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
    return ['--import', 'tsx', '--import', pathToFileURL(register).href];
  }

  function runChild(code: string): { status: number | null; stdout: string; stderr: string } {
    const file = join(dir, `child-${Math.random().toString(36).slice(2)}.mts`);
    writeFileSync(file, code);
    const r = spawnSync(process.execPath, [...blockerFlags(), file], {
      cwd: PACKAGE_ROOT,
      encoding: 'utf8',
      env: { ...process.env, BACKPACK_CACHE_DIR: join(dir, 'child-cache') },
    });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  }

  const src = (rel: string) => JSON.stringify(pathToFileURL(join(PACKAGE_ROOT, 'src', rel)).href);

  // One child process for the three checks below (starting a process was most of their time): the
  // default model's path first, then, in that same process, what the blocker must stop — which also
  // shows the blocker was active where the default model ran.
  let child: { status: number | null; stdout: string; stderr: string };
  beforeAll(() => {
    const { dir: modelDir } = writeTinyModel(dir, 'child-fp32-request', { seed: 5 });
    /** What a refusal says, its causes included (loadExtractor may wrap the import error). */
    const said = `(e) => { const m = []; for (let x = e; x; x = x.cause) m.push(String(x.message ?? x)); return m.join(' <- '); }`;
    child = runChild(
      `import { loadExtractor, makeEncoder, resolveModel } from ${src('retrievers/embed/model.ts')};\n` +
        `import { createEmbed, REGISTRY_RECIPE } from ${src('retrievers/embed/index.ts')};\n` +
        `import { generate, resolveParams } from ${src('generate/index.ts')};\n` +
        `const said = ${said};\n` +
        `const enc = makeEncoder(await loadExtractor(resolveModel(undefined), { modelCacheDir: '/nonexistent' }));\n` +
        `const out = await enc.encode(['get the weather in paris', 'play a song']);\n` +
        `const embed = createEmbed('embed', { recipe: REGISTRY_RECIPE, cacheDir: null });\n` +
        `const ds = generate(resolveParams('tiny', 1)).dataset;\n` +
        `await embed.index(ds.catalog);\n` +
        `console.log('OK', out.dims, out.data.some((v) => v !== 0), embed.stats().embedded);\n` +
        // a q8 model asked for fp32: not the pure-JS path
        `try {\n` +
        `  await loadExtractor(resolveModel(${JSON.stringify(modelDir)}), { modelCacheDir: ${JSON.stringify(join(dir, 'hub'))}, dtype: 'fp32' });\n` +
        `  console.log('LOADED');\n` +
        `} catch (e) {\n` +
        `  console.log('REFUSED model:', said(e));\n` +
        `}\n` +
        `try {\n` +
        `  await import('@huggingface/transformers');\n` +
        `  console.log('IMPORTED');\n` +
        `} catch (e) {\n` +
        `  console.log('REFUSED import:', said(e));\n` +
        `}\n`,
    );
  });

  it('the blocker works: importing transformers.js in the child fails', () => {
    expect(child.stdout).not.toContain('IMPORTED');
    expect(child.stdout).toMatch(/^REFUSED import: .*BLOCKED import of @huggingface\/transformers/m);
  });

  it('the blocker works: a model transformers.js must run fails in the child', () => {
    expect(child.stdout).not.toContain('LOADED');
    expect(child.stdout).toMatch(/^REFUSED model: .*BLOCKED import of @huggingface\/transformers/m);
  });

  it('encoding and indexing with the default model runs with transformers.js blocked', () => {
    expect(child.stderr).not.toContain('BLOCKED');
    expect(child.stdout).toMatch(/^OK 100 true [1-9]\d*$/m);
    expect(child.status, child.stderr).toBe(0);
  });

  /**
   * `backpack eval` with the embed retriever, transformers.js blocked in every process (NODE_OPTIONS),
   * on the BEIR fixture (3 tools, 4 cases): the whole path (load, index, encode, search, results) on
   * the smallest dataset, as the time goes to starting the process and loading the data, not to encoding.
   */
  function runCli(extra: string[]): { status: number | null; stderr: string; out: string } {
    const register = blockerFlags()[3]!;
    const out = join(dir, `cli-out-${extra.length}`);
    const r = spawnSync(
      process.execPath,
      [BACKPACK_BIN, 'eval', '--dataset', join(PACKAGE_ROOT, 'fixtures', 'beir-mini'), '--retrievers', 'embed', '--out', out, '--quiet', ...extra],
      {
        cwd: PACKAGE_ROOT,
        encoding: 'utf8',
        env: { ...process.env, BACKPACK_CACHE_DIR: join(dir, 'cli-cache'), NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${register}`.trim() },
      },
    );
    return { status: r.status, stderr: r.stderr, out };
  }

  it('the CLI evaluates embed with transformers.js blocked', () => {
    const r = runCli([]);
    expect(r.stderr).not.toContain('BLOCKED');
    expect(r.status, r.stderr).toBe(0);
    // every tool text was encoded in that process (its cache folder was empty), and every case searched
    const results = JSON.parse(readFileSync(join(r.out, 'results.json'), 'utf8'));
    expect(results.retrievers.embed.latency.index).toMatchObject({ texts: 3, embedded: 3 });
    expect(results.retrievers.embed.metrics.overall.cases).toBe(4);
  });

  it('the blocker works in the CLI: a model only transformers.js runs fails there', () => {
    const { dir: modelDir, spec } = writeTinyModel(dir, 'cli-sub-graph', { seed: 3 });
    const graph = staticEncoderOnnx(spec);
    const nodes = graph.graph.nodes.map((n) => (n.opType === 'Add' ? { ...n, opType: 'Sub' } : n));
    writeFileSync(join(modelDir, 'onnx', 'model_quantized.onnx'), encodeOnnxModel({ ...graph, graph: { ...graph.graph, nodes } }));
    const r = runCli(['--model', modelDir]);
    expect(r.stderr).toContain('BLOCKED import of @huggingface/transformers');
    expect(r.status).not.toBe(0);
  });
});
