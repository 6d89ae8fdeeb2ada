/**
 * A dense retriever over local embeddings: the shipped static encoder in plain JavaScript (`static-encoder.ts`), any other model through transformers.js.
 *
 * - Model: the committed offline default (`models/glove-static-30k`, a GloVe static encoder that
 *   needs no network), a local model folder, or any Hugging Face feature-extraction model id
 *   (downloaded once into the model cache folder, then loaded from there). See `model.ts`.
 * - Text: each tool's index text comes from a named recipe (`intent` by default, `source+intent` in
 *   the registry's `embed` and `hybrid`, `intent+schema`; see `recipes.ts`), encoded with mean
 *   pooling and L2 normalisation, so score = cosine similarity.
 * - Cache: vectors are kept on disk keyed by the model (identity, dtype, pooling) and the sha256
 *   of the text (`cache.ts`); `index()` encodes only texts it has not seen, in batches (shortest
 *   first, so padding stays small), reporting progress, and `stats()` counts what it encoded and
 *   what it found cached (over distinct texts). With a static model (whose vector of a text is the
 *   same alone, in a batch or from the cache) requests' vectors are cached too, so a second
 *   evaluation or a registry diff over the same cases encodes no request (`requestsCached`).
 * - Search: the request is encoded the same way; exact top-k over every allowed tool's vector
 *   with a WebAssembly SIMD kernel (`kernel.ts`, float32 or int8 vectors), in rankStable order.
 *   Tools outside `allowed` are never scored. A request with no token the model knows (a zero
 *   vector; only possible with a static model) returns no hits.
 * - Prefetch (`prefetch`, the {@link Prefetching} capability): the requests an evaluation is about
 *   to search are encoded together (a static model in small batches, which give the same vectors
 *   as one text at a time: its output is a per-token lookup; any other model one text per call)
 *   and scored against every tool in one batched pass of the kernel (`VectorIndex.prepareBatch`,
 *   bit-identical to the single-query scores). The scores are kept, keyed by request text, for the
 *   `search` / `denseScores` calls that follow (at most PREFETCH_LIMIT requests, the oldest
 *   dropped first); a request not held is encoded and scored as usual. Either way a request gets
 *   the same hits and scores: they depend on its text and the index only.
 */
import { join } from 'node:path';
import { checkedMask, idRanks } from '../rank.ts';
import type { Catalog } from '../../catalog/types.ts';
import { CACHE_ROOT } from '../../util/version.ts';
import type { Describable, Hit, Prefetching, Retriever, SearchContext } from '../types.ts';
import { sha256Hex, VectorCache } from './cache.ts';
import { VectorIndex, type PreparedQuery, type VectorType } from './kernel.ts';
import {
  DEFAULT_MODEL,
  folderHash,
  loadExtractor,
  makeEncoder,
  modelKey,
  resolveModel,
  type Encoder,
  type FeatureExtractor,
  type ModelSource,
} from './model.ts';
import { INDEX_RECIPES, isIndexRecipeName, type IndexRecipeName } from './recipes.ts';
import { DEFAULT_ENDPOINT_SETTINGS, endpointEncoder, type EndpointEncoder, type EndpointSettings, type EndpointSource } from './endpoint.ts';
import { TOKEN_COUNTERS } from '../../tokens/count.ts';
import { EndpointError, mapLimit } from '../../util/http-json.ts';

/** Default folder of the vector cache: `embeddings/` in Backpack's cache folder (`CACHE_ROOT`, the user's cache directory). */
export const DEFAULT_CACHE_DIR = join(CACHE_ROOT, 'embeddings');
/** Default folder Hugging Face models are downloaded to: `models/` in Backpack's cache folder (`CACHE_ROOT`). */
export const DEFAULT_MODEL_CACHE_DIR = join(CACHE_ROOT, 'models');

/** Progress of `index()`: `done` of `total` texts to encode (cache misses) are encoded. */
export type EmbedProgress = (done: number, total: number) => void;

export interface EmbedOptions {
  /** Model: `glove-static-30k` (default, offline), a local model folder, or a Hugging Face id. */
  model: string;
  /** transformers.js dtype (`fp32`, `q8`, …); `undefined` = the model's default. */
  dtype?: string;
  /** Hugging Face revision for hub models (default `main`). */
  revision?: string;
  /** Index text recipe. */
  recipe: IndexRecipeName;
  /** Stored vector type for search: `float32` (exact cosine) or `int8` (per-vector int8, 4× smaller). */
  vectors: VectorType;
  /** Texts per model call. Integer ≥ 1. */
  batchSize: number;
  /** Vector cache folder; `null` disables the disk cache. */
  cacheDir: string | null;
  /** Where hub models are downloaded to. */
  modelCacheDir: string;
  /** Called after each encoded batch (not called when nothing needs encoding). */
  onProgress?: EmbedProgress;
  /** With an endpoint model (`openai:…`, `ollama:…`): batching, concurrency, timeout, retries, budget (default DEFAULT_ENDPOINT_SETTINGS). */
  endpoint?: EndpointSettings;
}

/** Counters of the last `index()`, over distinct index texts. */
export interface EmbedStats {
  tools: number;
  /** Distinct index texts. */
  texts: number;
  /** Texts encoded by the model (cache misses). */
  embedded: number;
  /** Texts whose vector came from the cache. */
  cacheHits: number;
  dims: number;
  kernel: 'wasm-simd' | 'js' | null;
  /** Requests searched (`search()` or `denseScores()`; encoded then, or ahead by `prefetch()`) since `index()`. */
  queries: number;
  /** Of the request vectors needed since `index()`, those read from the vector cache (static models only: see `requestVectors`). */
  requestsCached: number;
  /** An endpoint model: HTTP requests made and retried since the retriever was made. */
  requests?: number;
  retries?: number;
}

export const EMBED_DEFAULT_OPTIONS: Readonly<Omit<EmbedOptions, 'onProgress'>> = Object.freeze({
  model: DEFAULT_MODEL,
  recipe: 'intent',
  vectors: 'float32',
  batchSize: 64,
  cacheDir: DEFAULT_CACHE_DIR,
  modelCacheDir: DEFAULT_MODEL_CACHE_DIR,
});

/**
 * Requests `prefetch` holds at most (the oldest are dropped first). Each holds a float32 score per
 * tool: 128 × 50,000 tools ≈ 26 MB.
 */
export const PREFETCH_LIMIT = 128;
/**
 * Texts per model call when prefetching with a static model: a batch is padded to its longest
 * text, so large ones cost more than they save (on the GloVe model, 4–8 texts of similar length
 * per call measured fastest, ~35% less than one at a time; 64 slower than one at a time).
 */
const PREFETCH_ENCODE_BATCH = 8;

/**
 * Whether encoding texts together gives each text exactly the vector it gets alone: true for a
 * static encoder (a BERT with no layer, as `static-model.ts` writes: the output is a per-token
 * lookup times the attention mask, so padding adds exact zeros to the mean), not assumed for any
 * other model (attention and matrix products over a padded batch may round differently).
 */
function encodesBatchesExactly(extractor: FeatureExtractor): boolean {
  const config = (extractor as unknown as { model?: { config?: { num_hidden_layers?: unknown; model_type?: unknown } } }).model?.config;
  return config?.num_hidden_layers === 0 && config.model_type === 'bert';
}

/** Throws a `RangeError` if an option is out of range. */
export function checkEmbedOptions(o: EmbedOptions): void {
  if (typeof o.model !== 'string' || o.model === '') throw new RangeError('model must be a non-empty string');
  if (!isIndexRecipeName(o.recipe)) throw new RangeError(`unknown index recipe "${String(o.recipe)}" (recipes: ${Object.keys(INDEX_RECIPES).join(', ')})`);
  if (o.vectors !== 'float32' && o.vectors !== 'int8') throw new RangeError(`vectors must be 'float32' or 'int8' (got ${JSON.stringify(o.vectors)})`);
  if (!Number.isInteger(o.batchSize) || o.batchSize < 1) throw new RangeError(`batchSize must be an integer ≥ 1 (got ${o.batchSize})`);
}

export class EmbedRetriever implements Retriever, Describable, Prefetching {
  readonly name: string;
  private readonly options: EmbedOptions;
  private readonly source: ModelSource;
  private modelId: string | undefined;
  private encoder: Encoder | undefined;
  /** Whether the encoder may encode several texts per call in `prefetch` (see `encodesBatchesExactly`). */
  private batchEncode = false;
  /** Requests scored ahead by `prefetch`, oldest first: the scores, or null for a request with no known word. */
  private prepared = new Map<string, PreparedQuery | null>();
  /** Score arrays of requests no longer held, for `prefetch` to fill again (allocating ~200 KB per request costs more than the batched scoring saves). */
  private spare: Float32Array[] = [];
  private vectors: VectorIndex | undefined;
  private ids: string[] = [];
  private counters: EmbedStats = { tools: 0, texts: 0, embedded: 0, cacheHits: 0, dims: 0, kernel: null, queries: 0, requestsCached: 0 };
  /** The vector cache `index()` read (null: none), where a static model's request vectors are also kept. */
  private cache: VectorCache | null = null;
  /** The endpoint encoder, when the model is an endpoint. */
  private remote: EndpointEncoder | undefined;
  /** The vector cache as `uncachedTexts` and `embedAhead` read it (see `openCache`). */
  private planCache: VectorCache | undefined;

  constructor(name: string, options: EmbedOptions) {
    checkEmbedOptions(options);
    this.name = name;
    this.options = { ...options };
    this.source = resolveModel(options.model);
  }

  /** Set (or clear) the progress callback, e.g. for a progress bar in the CLI. */
  setProgress(onProgress: EmbedProgress | undefined): void {
    this.options.onProgress = onProgress;
  }

  describe(): Record<string, unknown> {
    const o = this.options;
    return {
      retriever: 'embed',
      name: this.name,
      model: o.model,
      ...(this.source.kind === 'local'
        ? { modelFilesSha256: folderHash(this.source.dir) }
        : this.source.kind === 'endpoint'
          ? { provider: this.source.provider, endpoint: this.source.shown }
          : { revision: o.revision ?? 'main' }),
      ...(this.source.kind === 'endpoint' ? {} : { dtype: o.dtype ?? 'model default' }),
      recipe: o.recipe,
      recipeText: INDEX_RECIPES[o.recipe].description,
      pooling: this.source.kind === 'endpoint' ? "the endpoint's, L2-normalised" : 'mean over the attention mask, L2-normalised',
      vectors: o.vectors,
      score: o.vectors === 'float32' ? 'cosine (dot of unit vectors, float32)' : 'cosine with int8 tool vectors and int16 request vector',
      search: 'exact top-k over allowed tools, rankStable order; a request with no known token returns no hits',
    };
  }

  /** Counters of the last `index()` (and the queries since). */
  stats(): EmbedStats {
    const remote = this.remote?.counters();
    return { ...this.counters, ...(remote ? { requests: remote.requests, retries: remote.retries } : {}) };
  }

  private async ensureEncoder(): Promise<Encoder> {
    if (this.encoder === undefined && this.source.kind === 'endpoint') {
      // An endpoint's vector of a text is the text's alone (cached by text, requests batched); no call is made here.
      this.remote = endpointEncoder(this.source, this.options.endpoint ?? DEFAULT_ENDPOINT_SETTINGS, TOKEN_COUNTERS.o200k.count);
      this.encoder = this.remote;
      this.batchEncode = true;
    }
    if (this.encoder === undefined) {
      const { dtype, revision, modelCacheDir } = this.options;
      const extractor = await loadExtractor(this.source, {
        modelCacheDir,
        ...(dtype !== undefined ? { dtype } : {}),
        ...(revision !== undefined ? { revision } : {}),
      });
      this.encoder = makeEncoder(extractor);
      this.batchEncode = encodesBatchesExactly(extractor);
    }
    return this.encoder;
  }

  private key(): string {
    if (this.modelId === undefined) {
      const { dtype, revision } = this.options;
      this.modelId = modelKey(this.source, { ...(dtype !== undefined ? { dtype } : {}), ...(revision !== undefined ? { revision } : {}) });
    }
    return this.modelId;
  }

  async index(catalog: Catalog): Promise<void> {
    this.prepared.clear();
    this.spare = [];
    const recipe = INDEX_RECIPES[this.options.recipe];
    const tools = catalog.tools;
    const texts = tools.map((t) => recipe.text(t));
    const hashes = texts.map((t) => sha256Hex(t));
    // Distinct texts, first occurrence order.
    const distinct = new Map<string, string>();
    hashes.forEach((h, i) => {
      if (!distinct.has(h)) distinct.set(h, texts[i]!);
    });

    const cache = this.options.cacheDir !== null ? new VectorCache(this.options.cacheDir, this.key()) : null;
    cache?.load();
    const found = new Map<string, Float32Array>();
    const missing: string[] = [];
    for (const h of distinct.keys()) {
      const v = cache?.get(h);
      if (v !== undefined) found.set(h, v);
      else missing.push(h);
    }
    let dims = cache?.vectorDims ?? 0;
    for (const v of found.values()) {
      dims = v.length;
      break;
    }
    await this.ensureEncoder(); // fail fast on a broken model, even when every vector is cached
    if (missing.length > 0) {
      // Shortest first: batches of similar length pad little. Ties by hash, for a fixed order.
      missing.sort((a, b) => distinct.get(a)!.length - distinct.get(b)!.length || (a < b ? -1 : a > b ? 1 : 0));
      const { onProgress } = this.options;
      onProgress?.(0, missing.length);
      let done = 0;
      dims = await this.encodeBatches(
        missing,
        (h) => distinct.get(h)!,
        this.remote?.batchSize ?? this.options.batchSize,
        dims,
        cache,
        (batch, data, d) => {
          // Views on the batch's buffer, not copies: a copy per tool is a separate allocation that, at
          // hundreds of thousands of tools, keeps the garbage collector busy (bench/scale.bench.ts).
          batch.forEach((h, i) => found.set(h, data.subarray(i * d, (i + 1) * d)));
          cache?.add(batch, data, d);
          done += batch.length;
          onProgress?.(done, missing.length);
        },
      );
    }

    const n = tools.length;
    const matrix = new Float32Array(n * Math.max(dims, 1));
    if (dims > 0) hashes.forEach((h, i) => matrix.set(found.get(h)!, i * dims));
    const ids = tools.map((t) => t.id);
    const rank = idRanks(ids);
    this.ids = ids;
    this.prepared.clear();
    this.spare = [];
    this.vectors = new VectorIndex(matrix, Math.max(dims, 1), rank, this.options.vectors);
    this.counters = {
      tools: n,
      texts: distinct.size,
      embedded: missing.length,
      cacheHits: distinct.size - missing.length,
      dims,
      kernel: this.vectors.kernel,
      queries: 0,
      requestsCached: 0,
    };
    this.cache = cache;
  }

  /** The model's endpoint, when it is one (`openai:…`, `ollama:…`). */
  get endpoint(): EndpointSource | undefined {
    return this.source.kind === 'endpoint' ? this.source : undefined;
  }

  /** The texts `index(catalog)` embeds: the recipe's text of every tool. */
  indexTexts(catalog: Catalog): string[] {
    const recipe = INDEX_RECIPES[this.options.recipe];
    return catalog.tools.map((t) => recipe.text(t));
  }

  /** The vector cache of this model (null: the cache is off), read once: planning and embedding ahead share it. */
  private openCache(): VectorCache | null {
    if (this.options.cacheDir === null) return null;
    if (this.planCache === undefined) {
      this.planCache = new VectorCache(this.options.cacheDir, this.key());
      this.planCache.load();
    }
    return this.planCache;
  }

  /**
   * Encode `items` (their `textOf`) in batches of `per`, `concurrency` requests in flight for an
   * endpoint (one batch at a time otherwise), each batch's vectors checked against the size `dims`
   * seen so far (0: none yet) and handed to `onBatch` as it arrives. Returns the size.
   */
  private async encodeBatches<T>(
    items: readonly T[],
    textOf: (item: T) => string,
    per: number,
    dims: number,
    cache: VectorCache | null,
    onBatch: (batch: T[], data: Float32Array, dims: number) => void,
  ): Promise<number> {
    const encoder = await this.ensureEncoder();
    const batches: T[][] = [];
    for (let s = 0; s < items.length; s += per) batches.push(items.slice(s, s + per));
    let size = dims;
    await mapLimit(batches, this.remote?.concurrency ?? 1, async (batch) => {
      const out = await encoder.encode(batch.map(textOf));
      if (size !== 0 && out.dims !== size) throw this.dimsChanged(out.dims, size, cache);
      size = out.dims;
      onBatch(batch, out.data, size);
    });
    return size;
  }

  /** Of the distinct `texts`, those whose vector the cache does not hold (all of them when the cache is off). */
  uncachedTexts(texts: Iterable<string>): string[] {
    const cache = this.openCache();
    return [...new Set(texts)].filter((t) => cache?.get(sha256Hex(t)) === undefined);
  }

  /**
   * Embed `texts` (distinct, none in the cache) and add their vectors to the cache, in batches,
   * several requests in flight for an endpoint: what a run embeds, ahead of its strategies, which
   * then find every vector cached. Nothing is kept when the cache is off.
   */
  async embedAhead(texts: readonly string[], onProgress?: EmbedProgress): Promise<void> {
    const cache = this.openCache();
    if (cache === null || texts.length === 0) return;
    let done = 0;
    onProgress?.(0, texts.length);
    await this.encodeBatches(
      texts,
      (t) => t,
      this.remote?.batchSize ?? this.options.batchSize,
      cache.vectorDims ?? 0,
      cache,
      (batch, data, dims) => {
        cache.add(
          batch.map((t) => sha256Hex(t)),
          data,
          dims,
        );
        done += batch.length;
        onProgress?.(done, texts.length);
      },
    );
  }

  /** The error of a model whose vectors changed size: an endpoint's names the endpoint (exit 2). */
  private dimsChanged(got: number, had: number, cache: VectorCache | null): Error {
    if (this.source.kind === 'endpoint')
      return new EndpointError(
        this.source.url,
        `model ${this.source.model} answered ${got}-dimension vectors where it gave ${had} before${cache ? ` (the vector cache ${cache.folder})` : ''}: the model behind the endpoint changed; delete that cache folder if the change is meant`,
      );
    return new Error(`embed: the model gave ${got}-dim vectors, the cache in ${cache?.folder ?? '(none)'} ${had}-dim ones: delete that folder`);
  }

  /**
   * The vectors of the distinct `texts` (requests), and their size. A static model
   * (`encodesBatchesExactly`) gives a text the same vector alone, in a batch or from the vector
   * cache, so its request vectors are read from the cache and, with `store` (a prefetched block:
   * one append per block, not one per search), added to it; they are encoded
   * PREFETCH_ENCODE_BATCH per call. Any other model encodes each request alone, as `search` always
   * has, and no request vector is cached.
   */
  private async requestVectors(texts: readonly string[], store: boolean): Promise<{ vectors: Map<string, Float32Array>; dims: number }> {
    await this.ensureEncoder(); // sets batchEncode
    const exact = this.batchEncode;
    const cache = exact ? this.cache : null;
    const vectors = new Map<string, Float32Array>();
    const hashes = new Map<string, string>();
    let dims = cache?.vectorDims ?? 0;
    const todo: string[] = [];
    for (const t of texts) {
      const h = cache !== null ? sha256Hex(t) : '';
      const v = cache?.get(h);
      if (v !== undefined) {
        vectors.set(t, v);
        dims = v.length;
        this.counters.requestsCached++;
      } else {
        hashes.set(t, h);
        todo.push(t);
      }
    }
    // A static model: a few texts of similar length per call; an endpoint its batch size, several
    // requests in flight; any other model one per call.
    if (exact) todo.sort((a, b) => a.length - b.length);
    const parts: Array<{ batch: string[]; data: Float32Array }> = [];
    dims = await this.encodeBatches(
      todo,
      (t) => t,
      this.remote?.batchSize ?? (exact ? PREFETCH_ENCODE_BATCH : 1),
      dims,
      cache,
      (batch, data, d) => {
        batch.forEach((t, i) => vectors.set(t, data.subarray(i * d, (i + 1) * d)));
        parts.push({ batch, data });
      },
    );
    if (cache !== null && store && todo.length > 0) {
      const all = new Float32Array(todo.length * dims);
      let at = 0;
      for (const p of parts) {
        all.set(p.data, at);
        at += p.data.length;
      }
      cache.add(
        parts.flatMap((p) => p.batch.map((t) => hashes.get(t)!)),
        all,
        dims,
      );
    }
    return { vectors, dims };
  }

  async search(request: string, context: SearchContext): Promise<Hit[]> {
    const vectors = this.vectors;
    if (vectors === undefined) throw new Error(`retriever "${this.name}": search() called before index()`);
    const allowed = checkedMask(this.name, context.allowed, vectors.n);
    const k = Math.floor(context.k);
    if (!(k > 0) || vectors.n === 0) return [];
    const prepared = this.prepared.get(request);
    if (prepared !== undefined) {
      this.counters.queries++;
      return prepared === null ? [] : vectors.searchPrepared(prepared, k, allowed).map((h) => ({ id: this.ids[h.index]!, score: h.score }));
    }
    const { vectors: got, dims } = await this.requestVectors([request], false);
    const data = got.get(request)!;
    this.counters.queries++;
    if (this.counters.dims !== 0 && dims !== vectors.dims) throw new Error(`embed: request vector has ${dims} dims, the index ${vectors.dims}`);
    if (data.every((x) => x === 0)) return [];
    return vectors.search(data, k, allowed).map((h) => ({ id: this.ids[h.index]!, score: h.score }));
  }

  /** Every allowed tool's cosine by position (see {@link DenseScoring}); nothing is returned for a request with no known word. */
  async denseScores(request: string, context: Omit<SearchContext, 'k'>): Promise<{ scores: Float64Array; returned: Uint8Array }> {
    const vectors = this.vectors;
    if (vectors === undefined) throw new Error(`retriever "${this.name}": denseScores() called before index()`);
    const allowed = checkedMask(this.name, context.allowed, vectors.n);
    const n = vectors.n;
    const returnedMask = (): Uint8Array => {
      const returned = new Uint8Array(n);
      if (allowed === undefined) returned.fill(1);
      else for (let i = 0; i < n; i++) returned[i] = allowed[i] === 1 ? 1 : 0;
      return returned;
    };
    const prepared = this.prepared.get(request);
    if (prepared !== undefined) {
      this.counters.queries++;
      if (prepared === null) return { scores: new Float64Array(n), returned: new Uint8Array(n) };
      return { scores: vectors.scoreAllPrepared(prepared, allowed), returned: returnedMask() };
    }
    const { vectors: got, dims } = await this.requestVectors([request], false);
    const data = got.get(request)!;
    this.counters.queries++;
    if (this.counters.dims !== 0 && dims !== vectors.dims) throw new Error(`embed: request vector has ${dims} dims, the index ${vectors.dims}`);
    if (n === 0 || data.every((x) => x === 0)) return { scores: new Float64Array(n), returned: new Uint8Array(n) };
    return { scores: vectors.scoreAll(data, allowed), returned: returnedMask() };
  }

  /**
   * Encode the distinct `requests` (the first PREFETCH_LIMIT) and score each against every tool
   * in one batched pass (see the file comment), for the `search` / `denseScores` calls that
   * follow. Their results are exactly those without it. A request already held is kept (and
   * counts as recent); the oldest are dropped past PREFETCH_LIMIT.
   */
  async prefetch(requests: readonly string[]): Promise<void> {
    const vectors = this.vectors;
    if (vectors === undefined) throw new Error(`retriever "${this.name}": prefetch() called before index()`);
    if (vectors.n === 0) return;
    const distinct = new Set<string>();
    const todo: string[] = [];
    for (const r of requests) {
      if (distinct.size >= PREFETCH_LIMIT) break;
      if (typeof r !== 'string' || distinct.has(r)) continue;
      distinct.add(r);
      const held = this.prepared.get(r);
      if (held === undefined) todo.push(r);
      else {
        this.prepared.delete(r); // now the most recent
        this.prepared.set(r, held);
      }
    }
    if (todo.length === 0) return;
    const { vectors: encoded, dims } = await this.requestVectors(todo, true);
    if (dims !== vectors.dims) return; // `search` reports the mismatch
    if (this.vectors !== vectors) return; // re-indexed meanwhile
    // Drop the oldest to make room (never one of these requests: at most PREFETCH_LIMIT of them), keeping their arrays to fill again.
    for (const [oldest, held] of this.prepared) {
      if (this.prepared.size + todo.length <= PREFETCH_LIMIT) break;
      this.prepared.delete(oldest);
      if (held !== null) this.spare.push(held.keys);
    }
    const known = todo.filter((t) => !encoded.get(t)!.every((x) => x === 0));
    const scored = vectors.prepareBatch(
      known.map((t) => encoded.get(t)!),
      known.map(() => this.spare.pop()),
    );
    const byText = new Map(known.map((t, i) => [t, scored[i]!]));
    for (const t of todo) this.prepared.set(t, byText.get(t) ?? null);
  }
}

/** Parts of {@link EmbedOptions} to override. */
export type EmbedOptionsInput = Partial<EmbedOptions>;

/**
 * An embedding retriever named `name` with the default options (offline GloVe model, `intent`
 * recipe, float32 vectors, cache in `.cache/embeddings/`) and `options` laid over them. Throws a
 * `RangeError` on an out-of-range option or a model that is neither a folder nor a hub id.
 */
export function createEmbed(name: string, options: EmbedOptionsInput = {}): EmbedRetriever {
  return new EmbedRetriever(name, { ...EMBED_DEFAULT_OPTIONS, ...options });
}

/** The index text recipe of the registry's `embed` and `hybrid` (see `recipes.ts`). */
export const REGISTRY_RECIPE: IndexRecipeName = 'source+intent';

/** The registry's embed (the `embed` entry, the hybrids' and the seed profiles' embed child): its recipe, and the user's model and endpoint settings. */
export function registryEmbed(name: string, options: { model?: string; endpoint?: EndpointSettings } = {}): EmbedRetriever {
  return createEmbed(name, {
    recipe: REGISTRY_RECIPE,
    ...(options.model !== undefined ? { model: options.model } : {}),
    ...(options.endpoint !== undefined ? { endpoint: options.endpoint } : {}),
  });
}

/** Registry entry. */
export const EMBED_FACTORY = {
  description:
    'local embeddings (mean-pooled, normalised): offline GloVe static encoder by default (plain JavaScript; other models through transformers.js), over server/plugin name, split name, summary, description and examples; exact cosine top-k',
  create: (name: string) => createEmbed(name, { recipe: REGISTRY_RECIPE }),
} as const;
