/**
 * Where an embedding model comes from, and the transformers.js feature-extraction pipeline that
 * encodes texts with it (mean pooling over the attention mask, L2 normalisation).
 *
 * A model reference is one of:
 * - `undefined` or {@link DEFAULT_MODEL}: the committed offline model, `models/glove-static-30k`
 *   in the Backpack package (a GloVe static encoder, see `scripts/build-static-model.ts`);
 * - a path to a local model folder (absolute, or relative to the working directory): loaded with
 *   remote models disabled (air-gapped CI: copy a model folder there once);
 * - a Hugging Face model id (`owner/name`, e.g. `Xenova/all-MiniLM-L6-v2`): downloaded on first
 *   use into the model cache folder and loaded from there afterwards (needs network once).
 * An existing local folder wins over a hub id of the same spelling.
 *
 * A local folder that is a static encoder as `static-model.ts` writes it (the committed default
 * among them), loaded with its default dtype, is computed in pure JavaScript (`static-encoder.ts`,
 * tokenised with `@huggingface/tokenizers`), with vectors bit-identical to transformers.js's, and
 * never imports transformers.js (an optional peer dependency). Any other model (hub ids, other
 * local models, another dtype) goes through transformers.js.
 *
 * transformers.js is imported lazily (the first `load`), so registering the retriever costs
 * nothing for runs that do not use it. Its `env` is global: loads run one at a time, set the
 * fields they need and restore them after.
 */
import { InputError } from '../../util/errors.ts';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { PACKAGE_ROOT } from '../../util/version.ts';
import { loadStaticEncoder, StaticEncoderMismatch, staticEncoderDtype, type StaticEncoder } from './static-encoder.ts';
import { isEndpointRef, resolveEndpoint, type EndpointSource } from './endpoint.ts';

/** Name of the committed offline model (a folder under `models/`). */
export const DEFAULT_MODEL = 'glove-static-30k';
export const DEFAULT_MODEL_DIR = join(PACKAGE_ROOT, 'models', DEFAULT_MODEL);

export type ModelSource = { kind: 'local'; dir: string; name: string } | { kind: 'hub'; id: string } | EndpointSource;

/** Resolve a model reference (see the file comment; `openai:…` and `ollama:…` are endpoints, `endpoint.ts`). Throws an `InputError` for one that is none of them. */
export function resolveModel(model: string | undefined): ModelSource {
  if (model === undefined || model === DEFAULT_MODEL) return { kind: 'local', dir: DEFAULT_MODEL_DIR, name: DEFAULT_MODEL };
  if (isEndpointRef(model)) return resolveEndpoint(model);
  const dir = resolve(model);
  if (existsSync(dir) && statSync(dir).isDirectory()) {
    if (!existsSync(join(dir, 'config.json'))) throw new InputError(`model folder ${dir} has no config.json (not a transformers.js model folder)`);
    return { kind: 'local', dir, name: basename(dir) };
  }
  if (/^[A-Za-z0-9][\w.-]*\/[\w.-]+$/.test(model)) return { kind: 'hub', id: model };
  throw new InputError(
    `model "${model}" is neither a local model folder (no directory ${dir}), a Hugging Face id (owner/name) nor an endpoint (openai:MODEL, ollama:MODEL)`,
  );
}

const folderHashes = new Map<string, string>();

/**
 * sha256 over a model folder's files (relative path and bytes, in sorted path order; PROVENANCE.md
 * and README.md left out). Computed once per folder per process.
 */
export function folderHash(dir: string): string {
  const known = folderHashes.get(dir);
  if (known !== undefined) return known;
  const h = createHash('sha256');
  const walk = (d: string): void => {
    for (const entry of readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const p = join(d, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (entry.isFile() && entry.name !== 'PROVENANCE.md' && entry.name !== 'README.md') {
        h.update(relative(dir, p).split('\\').join('/')).update('\0').update(readFileSync(p)).update('\0');
      }
    }
  };
  walk(dir);
  const hex = h.digest('hex');
  folderHashes.set(dir, hex);
  return hex;
}

export interface EncoderOptions {
  /** transformers.js dtype (`fp32`, `q8`, …); `undefined` = the model's default (its `transformers.js_config`, else fp32). */
  dtype?: string;
  /** Hub revision (branch, tag or commit). Default `main`. */
  revision?: string;
  /** Where hub models are downloaded to. */
  modelCacheDir: string;
}

/** What the cache keys vectors by: the model's identity, pooling and dtype. */
export function modelKey(source: ModelSource, options: Pick<EncoderOptions, 'dtype' | 'revision'>): string {
  const dtype = options.dtype ?? 'default';
  if (source.kind === 'local') return `local:${source.name}:${folderHash(source.dir)}:${dtype}:mean:l2`;
  if (source.kind === 'endpoint') return `${source.provider}:${source.shown}:${source.model}`;
  return `hub:${source.id}@${options.revision ?? 'main'}:${dtype}:mean:l2`;
}

/** The slice of the transformers.js feature-extraction pipeline used here. */
export type FeatureExtractor = (texts: string[], options: { pooling: 'mean'; normalize: true }) => Promise<{ data: ArrayLike<number>; dims: number[] }>;

export interface Encoder {
  /** `n × dims` row-major unit vectors (a text with no known token gives a zero row). */
  encode(texts: string[]): Promise<{ data: Float32Array; dims: number }>;
}

let loadChain: Promise<unknown> = Promise.resolve();
const pipelines = new Map<string, Promise<FeatureExtractor>>();

/** Load (once per process and model/options) the feature-extraction pipeline. */
export function loadExtractor(source: ModelSource, options: EncoderOptions): Promise<FeatureExtractor> {
  const key = JSON.stringify([source, options.dtype ?? null, options.revision ?? null, source.kind === 'hub' ? options.modelCacheDir : null]);
  let p = pipelines.get(key);
  if (p === undefined) {
    const run = loadChain.then(() => loadNow(source, options));
    loadChain = run.catch(() => undefined);
    p = run;
    pipelines.set(key, p);
    p.catch(() => pipelines.delete(key));
  }
  return p;
}

/** The version of `@huggingface/transformers` Backpack is tested with (an optional peer dependency). */
export const TRANSFORMERS_VERSION = '4.3.2';

/**
 * transformers.js, imported on first use. It is an optional peer dependency of the published
 * package (it brings onnxruntime-node, whose install script downloads GPU libraries), so a missing
 * one is an `InputError` saying how to install it.
 */
async function importTransformers(): Promise<typeof import('@huggingface/transformers')> {
  try {
    return await import('@huggingface/transformers');
  } catch (e) {
    if ((e as { code?: unknown }).code !== 'ERR_MODULE_NOT_FOUND' || !String((e as Error).message).includes('@huggingface/transformers')) throw e;
    throw new InputError(
      `this embedding model (any model other than the shipped static encoder) runs through @huggingface/transformers, an optional peer dependency of Backpack that is not installed: run \`npm install @huggingface/transformers@${TRANSFORMERS_VERSION}\` where Backpack is installed (add -g for a global install; with ONNXRUNTIME_NODE_INSTALL=skip set, onnxruntime-node does not download GPU libraries, which Backpack does not use)`,
      { cause: e },
    );
  }
}

/**
 * A feature extractor over the pure-JS static encoder (`static-encoder.ts`), or null when `source`
 * is not a local static encoder it computes exactly (then transformers.js loads it). Its vectors are
 * bit-identical to transformers.js's (mean pooling, normalised; an all-unknown text a zero row), so
 * the vector cache key ({@link modelKey}) is the same either way. It carries `model.config` like a
 * transformers.js pipeline does.
 */
function staticExtractor(source: ModelSource, options: EncoderOptions): FeatureExtractor | null {
  if (source.kind !== 'local' || staticEncoderDtype(source.dir, options.dtype) === null) return null;
  let encoder: StaticEncoder;
  try {
    encoder = loadStaticEncoder(source.dir, options.dtype);
  } catch (e) {
    if (e instanceof StaticEncoderMismatch) return null; // some other 0-layer graph: transformers.js runs it
    throw new InputError(`embed: could not load the local folder ${source.dir}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
  const extract = async (texts: string[], opts: { pooling: 'mean'; normalize: true }) => {
    if (opts.pooling !== 'mean' || opts.normalize !== true) throw new Error('embed: the static encoder computes mean pooling with normalisation only');
    const { data, dims } = encoder.encodeSync(texts);
    return { data, dims: [texts.length, dims] };
  };
  return Object.assign(extract, { model: { config: encoder.config } });
}

async function loadNow(source: ModelSource, options: EncoderOptions): Promise<FeatureExtractor> {
  if (source.kind === 'endpoint') throw new Error(`embed: ${source.shown} is an endpoint, not a model transformers.js loads`);
  const pure = staticExtractor(source, options);
  if (pure !== null) return pure;
  return transformersNow(source, options);
}

/**
 * The transformers.js feature-extraction pipeline of `source`, whatever the model (for a static
 * encoder, the reference the pure-JS path is tested against). Not cached (`loadExtractor` is what
 * the retriever uses), but serialised with its loads (transformers.js's `env` is global).
 */
export function loadWithTransformers(source: ModelSource, options: EncoderOptions): Promise<FeatureExtractor> {
  const run = loadChain.then(() => transformersNow(source, options));
  loadChain = run.catch(() => undefined);
  return run;
}

async function transformersNow(source: ModelSource, options: EncoderOptions): Promise<FeatureExtractor> {
  if (source.kind === 'endpoint') throw new Error(`embed: ${source.shown} is an endpoint, not a model transformers.js loads`);
  const tf = await importTransformers();
  const env = tf.env;
  const saved = {
    allowRemoteModels: env.allowRemoteModels,
    allowLocalModels: env.allowLocalModels,
    localModelPath: env.localModelPath,
    cacheDir: env.cacheDir,
  };
  try {
    const common = { device: 'cpu' as const, ...(options.dtype !== undefined ? { dtype: options.dtype as 'fp32' } : {}) };
    let extractor: unknown;
    if (source.kind === 'local') {
      env.allowRemoteModels = false;
      env.allowLocalModels = true;
      env.localModelPath = dirname(source.dir) + '/';
      extractor = await tf.pipeline('feature-extraction', basename(source.dir), { ...common, local_files_only: true });
    } else {
      env.allowRemoteModels = true;
      env.allowLocalModels = false;
      // Both: transformers.js 4.3 reads some files (the config, while listing the pipeline's files) through env.cacheDir only.
      env.cacheDir = options.modelCacheDir;
      extractor = await tf.pipeline('feature-extraction', source.id, { ...common, cache_dir: options.modelCacheDir, revision: options.revision ?? 'main' });
    }
    return extractor as FeatureExtractor;
  } catch (e) {
    const where =
      source.kind === 'local'
        ? `local folder ${source.dir}`
        : `Hugging Face model ${source.id} (downloaded to ${options.modelCacheDir}; needs network the first time)`;
    throw new InputError(`embed: could not load the ${where}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  } finally {
    env.allowRemoteModels = saved.allowRemoteModels;
    env.allowLocalModels = saved.allowLocalModels;
    env.localModelPath = saved.localModelPath;
    env.cacheDir = saved.cacheDir;
  }
}

/** An encoder over a loaded pipeline: mean pooling, L2 normalisation, NaN (all-unknown text) → zero row. */
export function makeEncoder(extractor: FeatureExtractor): Encoder {
  return {
    async encode(texts: string[]) {
      const out = await extractor(texts, { pooling: 'mean', normalize: true });
      const dims = out.dims[out.dims.length - 1]!;
      const data = out.data instanceof Float32Array ? out.data : Float32Array.from(out.data);
      if (out.dims.length !== 2 || out.dims[0] !== texts.length)
        throw new Error(`embed: the model returned dims ${JSON.stringify(out.dims)} for ${texts.length} texts`);
      for (let i = 0; i < texts.length; i++) {
        const o = i * dims;
        let bad = false;
        for (let j = 0; j < dims; j++) if (!Number.isFinite(data[o + j]!)) bad = true;
        if (bad) data.fill(0, o, o + dims); // a zero mean (every token unknown) normalised to 0/0
      }
      return { data, dims };
    },
  };
}
