/**
 * Writes a transformers.js "BERT-shaped static encoder": a model folder that
 * `pipeline('feature-extraction', …)` loads like any BERT, whose "network" is only a lookup table.
 *
 * - `config.json`: `model_type: bert`, `num_hidden_layers: 0`, `hidden_size`, `vocab_size`,
 *   `type_vocab_size: 2`, and `"transformers.js_config": {"dtype": …}` so that the one ONNX file
 *   present is the one transformers.js loads by default (v2, v3 and v4).
 * - `tokenizer.json` / `tokenizer_config.json`: WordPiece over a whole-word vocabulary (no `##`
 *   pieces, so a word not in the vocabulary is `[UNK]`), BertNormalizer (clean text, lowercase,
 *   strip accents), BertPreTokenizer (whitespace and punctuation), the `[CLS] A [SEP]` template and
 *   the five special tokens.
 * - `onnx/model_quantized.onnx` (dtype `q8`): `last_hidden_state = (Cast(Gather(Wq, input_ids)) ·
 *   Gather(scale, input_ids) + Gather(T, token_type_ids)) · attention_mask`, where `Wq` is the
 *   table quantised to int8 per row with one float scale per row (scale = max|row| / 127), and `T`
 *   a zero type table; or `onnx/model.onnx` (dtype `fp32`) with the float table. IR 7, opset 13.
 *
 * Mean pooling of that output over the attention mask is the mean of the token rows, including the
 * `[CLS]` and `[SEP]` rows (zero in the committed GloVe model, so they only scale the mean, which
 * normalisation undoes).
 *
 * Every file is a pure function of the spec, so building twice gives byte-identical folders.
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { encodeOnnxModel, OnnxType, type OnnxModel, type OnnxNode, type OnnxTensor } from './onnx-writer.ts';
import { makeDirs } from '../../util/atomic-write.ts';

/** The special tokens every static model has, in this order at ids 0–4. */
export const SPECIAL_TOKENS = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'] as const;

export type StaticModelDtype = 'q8' | 'fp32';

export interface StaticModelSpec {
  /** Vocabulary; a token's id is its position. Must start with {@link SPECIAL_TOKENS} and hold no duplicates. */
  tokens: readonly string[];
  /** `tokens.length × hidden` row-major float table (row i = token i's vector). */
  table: Float32Array;
  hidden: number;
  /** `q8` (default): int8 per-row + float scale, `onnx/model_quantized.onnx`; `fp32`: `onnx/model.onnx`. */
  dtype?: StaticModelDtype;
  /** Tokenizer `model_max_length` (a static model has no position limit). Default 8192. */
  maxLength?: number;
  /** Written into the ONNX `doc_string`. */
  description?: string;
}

/** Int8 rows with one float32 scale each: row i ≈ q[i·H .. i·H+H) · scales[i]. */
export interface QuantizedTable {
  q: Int8Array;
  scales: Float32Array;
}

/**
 * Symmetric per-row int8 quantisation: scale = float32(max|row| / 127), q = round(v / scale)
 * clamped to ±127 (a zero row gets scale 0 and q 0).
 */
export function quantizeRows(table: Float32Array, hidden: number): QuantizedTable {
  if (hidden <= 0 || table.length % hidden !== 0) throw new RangeError(`table of ${table.length} values is not a whole number of rows of ${hidden}`);
  const rows = table.length / hidden;
  const q = new Int8Array(table.length);
  const scales = new Float32Array(rows);
  for (let r = 0; r < rows; r++) {
    const o = r * hidden;
    let max = 0;
    for (let j = 0; j < hidden; j++) max = Math.max(max, Math.abs(table[o + j]!));
    const scale = Math.fround(max / 127);
    scales[r] = scale;
    if (scale === 0) continue;
    for (let j = 0; j < hidden; j++) q[o + j] = Math.max(-127, Math.min(127, Math.round(table[o + j]! / scale)));
  }
  return { q, scales };
}

/** The float32 values onnxruntime computes for a quantised row (Cast to float, then Mul by the scale). */
export function dequantizeRow(t: QuantizedTable, row: number, hidden: number): Float32Array {
  const out = new Float32Array(hidden);
  const s = t.scales[row]!;
  for (let j = 0; j < hidden; j++) out[j] = Math.fround(t.q[row * hidden + j]! * s);
  return out;
}

/** The ONNX graph of the static encoder. */
export function staticEncoderOnnx(spec: StaticModelSpec): OnnxModel {
  const { hidden, table } = spec;
  const vocab = spec.tokens.length;
  if (table.length !== vocab * hidden) throw new RangeError(`table has ${table.length} values, expected ${vocab} tokens × ${hidden}`);
  const dtype = spec.dtype ?? 'q8';
  const initializers: OnnxTensor[] = [];
  const nodes: OnnxNode[] = [];
  if (dtype === 'q8') {
    const { q, scales } = quantizeRows(table, hidden);
    initializers.push({ name: 'word_embeddings.int8', type: OnnxType.INT8, dims: [vocab, hidden], data: q });
    initializers.push({ name: 'word_embeddings.scale', type: OnnxType.FLOAT, dims: [vocab, 1], data: scales });
    nodes.push(
      {
        opType: 'Gather',
        name: 'gather_words',
        inputs: ['word_embeddings.int8', 'input_ids'],
        outputs: ['words_int8'],
        attributes: [{ name: 'axis', int: 0 }],
      },
      { opType: 'Cast', name: 'cast_words', inputs: ['words_int8'], outputs: ['words_unscaled'], attributes: [{ name: 'to', int: OnnxType.FLOAT }] },
      {
        opType: 'Gather',
        name: 'gather_scales',
        inputs: ['word_embeddings.scale', 'input_ids'],
        outputs: ['words_scale'],
        attributes: [{ name: 'axis', int: 0 }],
      },
      { opType: 'Mul', name: 'scale_words', inputs: ['words_unscaled', 'words_scale'], outputs: ['words'] },
    );
  } else {
    initializers.push({ name: 'word_embeddings', type: OnnxType.FLOAT, dims: [vocab, hidden], data: table });
    nodes.push({
      opType: 'Gather',
      name: 'gather_words',
      inputs: ['word_embeddings', 'input_ids'],
      outputs: ['words'],
      attributes: [{ name: 'axis', int: 0 }],
    });
  }
  initializers.push(
    { name: 'token_type_embeddings', type: OnnxType.FLOAT, dims: [2, hidden], data: new Float32Array(2 * hidden) },
    { name: 'mask_axes', type: OnnxType.INT64, dims: [1], data: new BigInt64Array([-1n]) },
  );
  nodes.push(
    { opType: 'Gather', name: 'gather_types', inputs: ['token_type_embeddings', 'token_type_ids'], outputs: ['types'], attributes: [{ name: 'axis', int: 0 }] },
    { opType: 'Add', name: 'add_types', inputs: ['words', 'types'], outputs: ['embeddings'] },
    { opType: 'Cast', name: 'cast_mask', inputs: ['attention_mask'], outputs: ['mask_float'], attributes: [{ name: 'to', int: OnnxType.FLOAT }] },
    { opType: 'Unsqueeze', name: 'unsqueeze_mask', inputs: ['mask_float', 'mask_axes'], outputs: ['mask'] },
    { opType: 'Mul', name: 'apply_mask', inputs: ['embeddings', 'mask'], outputs: ['last_hidden_state'] },
  );
  const ids = (name: string) => ({ name, type: OnnxType.INT64, shape: ['batch_size', 'sequence_length'] }) as const;
  return {
    irVersion: 7,
    opset: 13,
    producerName: 'backpack',
    producerVersion: '1',
    ...(spec.description !== undefined ? { docString: spec.description } : {}),
    graph: {
      name: 'static_encoder',
      nodes,
      initializers,
      inputs: [ids('input_ids'), ids('attention_mask'), ids('token_type_ids')],
      outputs: [{ name: 'last_hidden_state', type: OnnxType.FLOAT, shape: ['batch_size', 'sequence_length', hidden] }],
    },
  };
}

function checkTokens(tokens: readonly string[]): void {
  SPECIAL_TOKENS.forEach((t, i) => {
    if (tokens[i] !== t) throw new RangeError(`token ${i} must be ${t} (got ${JSON.stringify(tokens[i])})`);
  });
  const seen = new Set<string>();
  for (const t of tokens) {
    if (t === '' || seen.has(t)) throw new RangeError(`vocabulary token ${JSON.stringify(t)} is empty or repeated`);
    seen.add(t);
  }
}

function json(value: unknown): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(value, null, 2) + '\n');
}

/** HF `tokenizer.json` of a whole-word WordPiece BERT tokenizer over `tokens`. */
export function tokenizerJson(tokens: readonly string[]): Record<string, unknown> {
  checkTokens(tokens);
  const id = (t: string) => tokens.indexOf(t);
  const vocab: Record<string, number> = Object.fromEntries(tokens.map((t, i) => [t, i]));
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: SPECIAL_TOKENS.map((t) => ({ id: id(t), content: t, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true })),
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [{ SpecialToken: { id: '[CLS]', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '[SEP]', type_id: 0 } }],
      pair: [
        { SpecialToken: { id: '[CLS]', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '[SEP]', type_id: 0 } },
        { Sequence: { id: 'B', type_id: 1 } },
        { SpecialToken: { id: '[SEP]', type_id: 1 } },
      ],
      special_tokens: {
        '[CLS]': { id: '[CLS]', ids: [id('[CLS]')], tokens: ['[CLS]'] },
        '[SEP]': { id: '[SEP]', ids: [id('[SEP]')], tokens: ['[SEP]'] },
      },
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: { type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##', max_input_chars_per_word: 100, vocab },
  };
}

/** Every file of the model folder: relative path → bytes, in a fixed order. */
export function staticModelFiles(spec: StaticModelSpec): Map<string, Uint8Array> {
  checkTokens(spec.tokens);
  const dtype = spec.dtype ?? 'q8';
  const maxLength = spec.maxLength ?? 8192;
  const files = new Map<string, Uint8Array>();
  files.set(
    'config.json',
    json({
      architectures: ['BertModel'],
      model_type: 'bert',
      hidden_size: spec.hidden,
      num_hidden_layers: 0,
      num_attention_heads: 1,
      intermediate_size: spec.hidden,
      max_position_embeddings: maxLength,
      type_vocab_size: 2,
      vocab_size: spec.tokens.length,
      pad_token_id: 0,
      'transformers.js_config': { dtype },
    }),
  );
  files.set(dtype === 'q8' ? 'onnx/model_quantized.onnx' : 'onnx/model.onnx', encodeOnnxModel(staticEncoderOnnx(spec)));
  files.set('tokenizer.json', json(tokenizerJson(spec.tokens)));
  files.set(
    'tokenizer_config.json',
    json({
      tokenizer_class: 'BertTokenizer',
      do_lower_case: true,
      strip_accents: null,
      tokenize_chinese_chars: true,
      model_max_length: maxLength,
      clean_up_tokenization_spaces: true,
      pad_token: '[PAD]',
      unk_token: '[UNK]',
      cls_token: '[CLS]',
      sep_token: '[SEP]',
      mask_token: '[MASK]',
    }),
  );
  return files;
}

/** Write the model folder into `dir` (created if needed). Returns the relative paths written. */
export function writeStaticModel(dir: string, spec: StaticModelSpec): string[] {
  const files = staticModelFiles(spec);
  for (const [rel, bytes] of files) {
    const path = join(dir, rel);
    makeDirs(dirname(path));
    writeFileSync(path, bytes);
  }
  return [...files.keys()];
}
