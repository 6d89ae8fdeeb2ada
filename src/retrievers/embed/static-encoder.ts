/**
 * The static encoder (a "BERT-shaped static encoder", as `static-model.ts` writes it, e.g. the
 * committed `models/glove-static-30k`) in pure JavaScript: no onnxruntime, no transformers.js.
 *
 * It gives BIT-IDENTICAL vectors to transformers.js 4.3.2's feature-extraction pipeline with
 * `{pooling: 'mean', normalize: true}` (as `makeEncoder` in `model.ts` post-processes it), so the
 * vector cache key of such a model does not change with the path taken. What it replicates:
 *
 * - Tokenisation: `@huggingface/tokenizers` (the library transformers.js 4.3.2 bundles, same
 *   version), `Tokenizer(tokenizer.json, tokenizer_config.json).encode(text, {add_special_tokens:
 *   true, return_token_type_ids: true})` as `PreTrainedTokenizer._encode_plus` of a BertTokenizer
 *   calls it; then the pipeline's `{padding: true, truncation: true}`: a text longer than
 *   `model_max_length` (tokenizer_config.json, else unlimited) keeps its first `model_max_length`
 *   tokens (no final `[SEP]`); padding only adds masked positions, whose contribution to the mean
 *   is an exact ±0 (so a text's vector does not depend on its batch, and padding is not done).
 * - The ONNX graph, as onnxruntime computes it in float32: q8 `fround(fround(float(q) · scale) +
 *   T[type])`, fp32 `fround(W + T[type])`, times the mask (1.0: no change).
 * - `mean_pooling`: per dimension, a float64 sum over the text's tokens in order, divided by the
 *   token count in float64, stored as float32.
 * - `Tensor.normalize(2, -1)`: the norm accumulated in a float32 array (`fround(acc + x ** 2)` per
 *   dimension in order), `fround(acc ** 0.5)`, then each value `fround(x / norm)`.
 * - `makeEncoder`: a row with a non-finite value (0/0 for a text with no known token) becomes zero.
 *
 * The graph is checked node by node against what `staticEncoderOnnx` writes (and the tables'
 * shapes against config.json); {@link loadStaticEncoder} throws a {@link StaticEncoderMismatch}
 * for any other model, which `model.ts` then loads with transformers.js, and a plain Error for a
 * static encoder folder with a missing file.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import { checkTextFile, MAX_NESTING, MAX_TEXT_BYTES, tooDeep } from '../../util/bounded.ts';
import { InputError } from '../../util/errors.ts';
import {
  floatData,
  int64Data,
  int8Data,
  ONNX_FLOAT,
  ONNX_INT64,
  ONNX_INT8,
  readOnnxModel,
  type OnnxModelInfo,
  type OnnxNodeInfo,
  type OnnxTensorInfo,
} from './onnx-weights.ts';

/** The folder is not a static encoder this module computes exactly (transformers.js must load it). */
export class StaticEncoderMismatch extends Error {}

export type StaticDtype = 'q8' | 'fp32';

/** The ONNX file transformers.js loads for each dtype. */
const ONNX_FILES: Record<StaticDtype, string> = { q8: 'onnx/model_quantized.onnx', fp32: 'onnx/model.onnx' };

export interface StaticEncoder {
  /** `n × dims` row-major unit vectors (a text with no known token gives a zero row). */
  encode(texts: string[]): Promise<{ data: Float32Array; dims: number }>;
  /** Synchronous {@link StaticEncoder.encode}. */
  encodeSync(texts: readonly string[]): { data: Float32Array; dims: number };
  /** Hidden size. */
  readonly dims: number;
  readonly dtype: StaticDtype;
  /** The model's config.json. */
  readonly config: Record<string, unknown>;
}

/**
 * A JSON object file of the model folder. Unreadable, invalid or too deeply nested JSON, or a value
 * that is not an object, is an Error naming the file (a broken folder, whichever library reads it).
 */
function readJson(path: string): Record<string, unknown> {
  let value: unknown;
  try {
    checkTextFile(path, MAX_TEXT_BYTES, 'model file');
    value = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new Error(`${path}: ${e instanceof SyntaxError ? 'invalid JSON: ' : ''}${(e as Error).message}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new Error(`${path}: must be a JSON object (got ${value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`})`);
  const deep = tooDeep(value);
  if (deep !== undefined) throw new Error(`${path}: arrays and objects nested more than ${MAX_NESTING} levels deep (at ${deep})`);
  return value as Record<string, unknown>;
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Why a parsed tokenizer.json is not one the tokenizer library can build (the parts it reads
 * first: the model and its vocabulary, the optional pipeline steps, the added tokens), or
 * undefined. The library's own errors name no file and no field ("Cannot read properties of null").
 */
export function tokenizerProblem(json: Record<string, unknown>): string | undefined {
  const describe = (v: unknown) => (v === undefined ? 'nothing' : v === null ? 'null' : Array.isArray(v) ? 'an array' : `a ${typeof v}`);
  const model = json.model;
  if (!isRecord(model) || typeof model.type !== 'string') return `"model" must be an object with a "type" (got ${describe(model)})`;
  if (!isRecord(model.vocab) && !Array.isArray(model.vocab)) return `"model.vocab" must be an object of token → id (got ${describe(model.vocab)})`;
  for (const step of ['normalizer', 'pre_tokenizer', 'post_processor', 'decoder'] as const) {
    const v = json[step];
    if (v === undefined) return `"${step}" is missing (null when the tokenizer has none)`;
    if (v !== null && !(isRecord(v) && typeof v.type === 'string')) return `"${step}" must be null or an object with a "type" (got ${describe(v)})`;
  }
  const added = json.added_tokens;
  if (!Array.isArray(added)) return `"added_tokens" must be a list (got ${describe(added)})`;
  const bad = added.findIndex((t) => !isRecord(t) || typeof t.id !== 'number' || typeof t.content !== 'string');
  if (bad >= 0) return `"added_tokens[${bad}]" must be an object with a numeric "id" and a "content" string`;
  return undefined;
}

/**
 * The dtype the folder would be loaded with (the requested one, else config.json's
 * `transformers.js_config.dtype`) when config.json describes a static BERT (`model_type: bert`,
 * `num_hidden_layers: 0`) and that dtype is `q8` or `fp32`; otherwise null. Reads config.json only:
 * one that is there but cannot be read as a JSON object is an `InputError` naming it (no library
 * could load the folder; transformers.js would say so less clearly).
 */
export function staticEncoderDtype(dir: string, dtype?: string): StaticDtype | null {
  const path = join(dir, 'config.json');
  if (!existsSync(path)) return null;
  let config: Record<string, unknown>;
  try {
    config = readJson(path);
  } catch (e) {
    throw new InputError(`not a model configuration: ${(e as Error).message.slice(path.length + 2)}`, { file: path, cause: e });
  }
  if (config.model_type !== 'bert' || config.num_hidden_layers !== 0) return null;
  const tjs = config['transformers.js_config'] as { dtype?: unknown } | undefined;
  const configured = tjs !== null && typeof tjs === 'object' ? tjs.dtype : undefined;
  // Only the dtype the model names as its default (what the committed folder and static-model.ts write).
  if (configured !== 'q8' && configured !== 'fp32') return null;
  if (dtype !== undefined && dtype !== configured) return null;
  return configured;
}

type NodeSpec = [opType: string, inputs: string[], outputs: string[], attrs: Record<string, bigint>];

/** The nodes `staticEncoderOnnx` writes, in order. */
function expectedNodes(dtype: StaticDtype): NodeSpec[] {
  const words: NodeSpec[] =
    dtype === 'q8'
      ? [
          ['Gather', ['word_embeddings.int8', 'input_ids'], ['words_int8'], { axis: 0n }],
          ['Cast', ['words_int8'], ['words_unscaled'], { to: 1n }],
          ['Gather', ['word_embeddings.scale', 'input_ids'], ['words_scale'], { axis: 0n }],
          ['Mul', ['words_unscaled', 'words_scale'], ['words'], {}],
        ]
      : [['Gather', ['word_embeddings', 'input_ids'], ['words'], { axis: 0n }]];
  return [
    ...words,
    ['Gather', ['token_type_embeddings', 'token_type_ids'], ['types'], { axis: 0n }],
    ['Add', ['words', 'types'], ['embeddings'], {}],
    ['Cast', ['attention_mask'], ['mask_float'], { to: 1n }],
    ['Unsqueeze', ['mask_float', 'mask_axes'], ['mask'], {}],
    ['Mul', ['embeddings', 'mask'], ['last_hidden_state'], {}],
  ];
}

function sameNode(n: OnnxNodeInfo, [op, inputs, outputs, attrs]: NodeSpec): boolean {
  if (n.opType !== op || n.domain !== '' || n.inputs.join('\0') !== inputs.join('\0') || n.outputs.join('\0') !== outputs.join('\0')) return false;
  if (n.attributes.length !== Object.keys(attrs).length) return false;
  return n.attributes.every((a) => attrs[a.name] !== undefined && a.int === attrs[a.name] && a.ints === undefined && a.float === undefined);
}

/** The tables of a static encoder graph, checked against config.json. Throws StaticEncoderMismatch. */
function tablesOf(model: OnnxModelInfo, dtype: StaticDtype, vocab: number, hidden: number, typeVocab: number) {
  const fail = (why: string): never => {
    throw new StaticEncoderMismatch(`not a static encoder graph: ${why}`);
  };
  const opset = model.opsets.get('');
  if (opset === undefined || model.opsets.size !== 1) fail('opset imports other than the default domain');
  const nodes = expectedNodes(dtype);
  if (model.nodes.length !== nodes.length || !model.nodes.every((n, i) => sameNode(n, nodes[i]!))) fail('its nodes differ from the static encoder graph');
  if (model.inputs.join(',') !== 'input_ids,attention_mask,token_type_ids' || model.outputs.join(',') !== 'last_hidden_state')
    fail('unexpected graph inputs or outputs');
  const byName = new Map<string, OnnxTensorInfo>();
  for (const t of model.initializers) {
    if (byName.has(t.name)) fail(`initializer ${t.name} repeated`);
    byName.set(t.name, t);
  }
  const expectedNames =
    dtype === 'q8'
      ? ['word_embeddings.int8', 'word_embeddings.scale', 'token_type_embeddings', 'mask_axes']
      : ['word_embeddings', 'token_type_embeddings', 'mask_axes'];
  if (byName.size !== expectedNames.length || !expectedNames.every((n) => byName.has(n))) fail(`initializers ${[...byName.keys()].join(', ')}`);
  const get = (name: string, type: number, dims: number[]): OnnxTensorInfo => {
    const t = byName.get(name)!;
    if (t.dataType !== type || t.data === null || t.dims.join(',') !== dims.join(','))
      fail(`initializer ${name}: type ${t.dataType}, dims [${t.dims.join(', ')}], expected type ${type}, dims [${dims.join(', ')}] (config.json)`);
    return t;
  };
  const axes = int64Data(get('mask_axes', ONNX_INT64, [1]));
  if (axes[0] !== -1n) fail('mask_axes is not [-1]');
  const types = floatData(get('token_type_embeddings', ONNX_FLOAT, [typeVocab, hidden]));
  if (dtype === 'q8') {
    const q = int8Data(get('word_embeddings.int8', ONNX_INT8, [vocab, hidden]));
    const scales = floatData(get('word_embeddings.scale', ONNX_FLOAT, [vocab, 1]));
    return { q, scales, table: null, types };
  }
  return { q: null, scales: null, table: floatData(get('word_embeddings', ONNX_FLOAT, [vocab, hidden])), types };
}

function positiveInt(v: unknown, what: string): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) throw new StaticEncoderMismatch(`config.json: ${what} is not a positive integer`);
  return v;
}

/**
 * Load the static encoder in `dir` (see the file comment). `dtype`: the requested transformers.js
 * dtype (undefined = the model's default). Throws {@link StaticEncoderMismatch} when the folder is
 * not one (config, dtype, graph or table shapes).
 */
export function loadStaticEncoder(dir: string, dtype?: string): StaticEncoder {
  const d = staticEncoderDtype(dir, dtype);
  if (d === null)
    throw new StaticEncoderMismatch(
      `${dir} is not a static encoder (config.json: model_type bert, num_hidden_layers 0, transformers.js_config.dtype q8 or fp32${dtype !== undefined ? `, requested dtype ${dtype}` : ''})`,
    );
  const config = readJson(join(dir, 'config.json'));
  const hidden = positiveInt(config.hidden_size, 'hidden_size');
  const vocab = positiveInt(config.vocab_size, 'vocab_size');
  const typeVocab = config.type_vocab_size === undefined ? 2 : positiveInt(config.type_vocab_size, 'type_vocab_size');
  const onnxPath = join(dir, ONNX_FILES[d]);
  // A missing file is a broken folder (an Error), not another kind of model.
  for (const f of [ONNX_FILES[d], 'tokenizer.json', 'tokenizer_config.json']) if (!existsSync(join(dir, f))) throw new Error(`${join(dir, f)} not found`);
  let model: OnnxModelInfo;
  try {
    model = readOnnxModel(readFileSync(onnxPath));
  } catch (e) {
    throw new StaticEncoderMismatch(`${onnxPath}: ${e instanceof Error ? e.message : String(e)}`);
  }
  const { q, scales, table, types } = tablesOf(model, d, vocab, hidden, typeVocab);
  const tokenizerJson = readJson(join(dir, 'tokenizer.json'));
  const problem = tokenizerProblem(tokenizerJson);
  if (problem !== undefined) throw new Error(`${join(dir, 'tokenizer.json')}: ${problem}`);
  const tokenizerConfig = readJson(join(dir, 'tokenizer_config.json'));
  // PreTrainedTokenizer.model_max_length: tokenizer_config.json's, else unlimited.
  const mml = tokenizerConfig.model_max_length;
  const maxLength = typeof mml === 'number' && mml >= 0 ? mml : Infinity;
  const tokenizer = new Tokenizer(tokenizerJson, tokenizerConfig);

  const acc = new Float64Array(hidden);
  const encodeSync = (texts: readonly string[]): { data: Float32Array; dims: number } => {
    const out = new Float32Array(texts.length * hidden);
    for (let i = 0; i < texts.length; i++) {
      const text = texts[i]!;
      if (typeof text !== 'string') throw new TypeError('embed: texts must be strings');
      const enc = tokenizer.encode(text, { add_special_tokens: true, return_token_type_ids: true });
      const ids = enc.ids;
      const typeIds = enc.token_type_ids;
      // truncation: true → the first model_max_length tokens.
      const n = Math.min(ids.length, maxLength);
      acc.fill(0);
      let count = 0;
      for (let t = 0; t < n; t++) {
        const id = ids[t]!;
        const type = typeIds[t] ?? 0;
        if (!(id >= 0 && id < vocab) || !(type >= 0 && type < typeVocab))
          throw new RangeError(`embed: token id ${id} / type ${type} outside the model's tables`);
        if (enc.attention_mask[t] !== 1) throw new RangeError('embed: unexpected attention mask value from the tokenizer');
        const r = id * hidden;
        const tr = type * hidden;
        if (q !== null) {
          const s = scales![id]!;
          for (let k = 0; k < hidden; k++) acc[k]! += Math.fround(Math.fround(q[r + k]! * s) + types[tr + k]!);
        } else {
          for (let k = 0; k < hidden; k++) acc[k]! += Math.fround(table![r + k]! + types[tr + k]!);
        }
        count++;
      }
      const o = i * hidden;
      // mean_pooling: float64 sum / count, stored in a Float32Array.
      for (let k = 0; k < hidden; k++) out[o + k] = acc[k]! / count;
      // Tensor.norm(2, -1): accumulated in a Float32Array.
      let ss = 0;
      for (let k = 0; k < hidden; k++) {
        const x = out[o + k]!;
        ss = Math.fround(ss + x * x);
      }
      const norm = Math.fround(ss ** 0.5);
      let finite = true;
      for (let k = 0; k < hidden; k++) {
        const v = Math.fround(out[o + k]! / norm);
        out[o + k] = v;
        if (!Number.isFinite(v)) finite = false;
      }
      if (!finite) out.fill(0, o, o + hidden); // makeEncoder: a zero mean normalised to 0/0
    }
    return { data: out, dims: hidden };
  };
  return {
    dims: hidden,
    dtype: d,
    config,
    encodeSync,
    async encode(texts: string[]) {
      return encodeSync(texts);
    },
  };
}
