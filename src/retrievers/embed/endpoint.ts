/**
 * Embedding models behind an HTTP API: `openai:MODEL` (the OpenAI embeddings API, which Azure
 * OpenAI's v1 endpoint, vLLM, text-embeddings-inference, llama.cpp's server and LM Studio speak
 * too) and `ollama:MODEL` (Ollama's `/api/embed`).
 *
 * Where they are, as the providers' own clients read it:
 * - OpenAI: `OPENAI_BASE_URL` (default `https://api.openai.com/v1`), requests to
 *   `<base>/embeddings`, `Authorization: Bearer $OPENAI_API_KEY` when the key is set (required for
 *   api.openai.com; local servers usually need none). Body `{model, input: [texts],
 *   encoding_format: "float"}`; answer `{data: [{index, embedding: [numbers]}]}`, put back in
 *   `index` order.
 * - Ollama: `OLLAMA_HOST` (default `http://127.0.0.1:11434`; `host`, `host:port` and `:port` take
 *   scheme http and port 11434 as Ollama's clients do), requests to `<host>/api/embed`, body
 *   `{model, input: [texts]}`, answer `{embeddings: [[numbers]]}`.
 *
 * Keys come from the environment only and are never written or printed: the endpoint is named by
 * its URL with any credentials masked. Every answer is checked: one vector per text, all of one
 * size, finite numbers; anything else is an `EndpointError` (exit 2) naming the endpoint. Vectors
 * are L2-normalised when their norm is off 1 by more than 1e-4 (Ollama's older API, some servers):
 * cosine is the dot product of unit vectors.
 */
import { EndpointError, type HttpSettings, postJson } from '../../util/http-json.ts';
import { maskCredentials } from '../../util/redact.ts';
import { InputError, setting } from '../../util/errors.ts';

export type EndpointProvider = 'openai' | 'ollama';

/** An embedding model behind an API. */
export interface EndpointSource {
  kind: 'endpoint';
  provider: EndpointProvider;
  model: string;
  /** The URL requests are POSTed to. */
  url: string;
  /** The same, credentials masked: what results, the cache key and messages name. */
  shown: string;
}

/** How an endpoint is called: batching, concurrency, timeout, retries, and the run's token budget. */
export interface EndpointSettings {
  /** Texts per request. */
  batchSize: number;
  /** Requests in flight at once. */
  concurrency: number;
  /** Milliseconds one request may take. */
  timeoutMs: number;
  /** Retries of a request that failed in a way that may pass (429, 5xx, timeouts, closed connections). */
  retries: number;
  /** First backoff between retries, milliseconds (tests make it short). */
  backoffMs?: number;
  /**
   * The run's budget (`--max-embed-tokens`): at most `max` tokens (o200k count of the texts) sent
   * by every thread of the run together; `sent` is a shared 8-byte counter (BigInt64Array).
   */
  budget?: { max: number; sent: SharedArrayBuffer };
}

export const DEFAULT_ENDPOINT_SETTINGS: Readonly<EndpointSettings> = Object.freeze({ batchSize: 64, concurrency: 4, timeoutMs: 60_000, retries: 4 });

const OPENAI_DEFAULT_BASE = 'https://api.openai.com/v1';

/** Whether a `--model` value names an endpoint (`openai:…`, `ollama:…`). */
export function isEndpointRef(model: string): boolean {
  return /^(openai|ollama):/.test(model);
}

/** `openai:MODEL` / `ollama:MODEL` resolved against the environment. */
export function resolveEndpoint(model: string, env: NodeJS.ProcessEnv = process.env): EndpointSource {
  const colon = model.indexOf(':');
  const provider = model.slice(0, colon) as EndpointProvider;
  const name = model.slice(colon + 1);
  if (name.trim() === '')
    throw new InputError(
      `${setting('model')} ${model}: name the model after "${provider}:" (e.g. ${provider === 'openai' ? 'openai:text-embedding-3-small' : 'ollama:nomic-embed-text'})`,
    );
  let url: string;
  if (provider === 'openai') {
    const base = (env.OPENAI_BASE_URL?.trim() || OPENAI_DEFAULT_BASE).replace(/\/+$/, '');
    checkUrl(base, 'OPENAI_BASE_URL');
    url = `${base}/embeddings`;
  } else url = `${ollamaHost(env.OLLAMA_HOST)}/api/embed`;
  return { kind: 'endpoint', provider, model: name, url, shown: maskCredentials(url) };
}

/** OLLAMA_HOST as Ollama's clients read it: scheme http and port 11434 unless given. */
export function ollamaHost(value: string | undefined): string {
  const v = value?.trim() ?? '';
  if (v === '') return 'http://127.0.0.1:11434';
  const explicit = /^[a-z][a-z0-9+.-]*:\/\//i.test(v);
  const text = v.startsWith(':') ? `http://127.0.0.1${v}` : explicit ? v : `http://${v}`;
  checkUrl(text, 'OLLAMA_HOST');
  const u = new URL(text);
  if (u.port === '' && !explicit) u.port = '11434';
  return u.toString().replace(/\/+$/, '');
}

function checkUrl(text: string, variable: string): void {
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    throw new InputError(`${variable} is not a URL: ${JSON.stringify(maskCredentials(text))}`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new InputError(`${variable} must be an http or https URL (got ${u.protocol})`);
}

/** Headers of a request to `source`: the API key from the environment, when set. */
function headersOf(source: EndpointSource, env: NodeJS.ProcessEnv): Record<string, string> {
  if (source.provider !== 'openai') return {};
  const key = env.OPENAI_API_KEY?.trim();
  if (key) return { authorization: `Bearer ${key}` };
  if (new URL(source.url).hostname === 'api.openai.com')
    throw new InputError(
      `${setting('model')} openai:${source.model}: OPENAI_API_KEY is not set (api.openai.com needs it; set OPENAI_BASE_URL for a server that does not)`,
    );
  return {};
}

/** What an endpoint encoder offers besides `encode`: how many texts per request and requests at once. */
export interface EndpointEncoder {
  readonly endpoint: EndpointSource;
  readonly batchSize: number;
  readonly concurrency: number;
  /** `n × dims` row-major unit vectors for `texts` (one request; at most `batchSize` texts). */
  encode(texts: string[]): Promise<{ data: Float32Array; dims: number }>;
  /** Requests made and retried so far (counters; they vary run to run). */
  counters(): { requests: number; retries: number; tokensSent: number };
}

/** An encoder that POSTs to `source`. Keys are read from `env` when it is made (an error then if one is needed and missing). */
export function endpointEncoder(
  source: EndpointSource,
  settings: EndpointSettings,
  countTokens: (text: string) => number,
  env: NodeJS.ProcessEnv = process.env,
): EndpointEncoder {
  const headers = headersOf(source, env);
  const http: HttpSettings = {
    timeoutMs: settings.timeoutMs,
    retries: settings.retries,
    headers,
    ...(settings.backoffMs !== undefined ? { backoffMs: settings.backoffMs } : {}),
    onRetry: () => void counts.retries++,
  };
  const counts = { requests: 0, retries: 0, tokensSent: 0 };
  const sent = settings.budget ? new BigInt64Array(settings.budget.sent) : null;
  return {
    endpoint: source,
    batchSize: settings.batchSize,
    concurrency: settings.concurrency,
    counters: () => ({ ...counts }),
    async encode(texts: string[]) {
      if (texts.length === 0) return { data: new Float32Array(0), dims: 0 };
      const tokens = texts.reduce((n, t) => n + countTokens(t), 0);
      if (sent && settings.budget) {
        const total = Atomics.add(sent, 0, BigInt(tokens)) + BigInt(tokens);
        if (total > BigInt(settings.budget.max))
          throw new EndpointError(
            source.url,
            `sending ${tokens} more tokens would pass ${setting('maxEmbedTokens')} ${settings.budget.max} (${total} in all): stopped before sending them`,
          );
      }
      counts.requests++;
      counts.tokensSent += tokens;
      const body = source.provider === 'openai' ? { model: source.model, input: texts, encoding_format: 'float' } : { model: source.model, input: texts };
      const answer = await postJson(source.url, body, http);
      const rows = source.provider === 'openai' ? openAiRows(source, answer, texts.length) : ollamaRows(source, answer, texts.length);
      return toMatrix(source, rows);
    },
  };
}

function malformed(source: EndpointSource, what: string): EndpointError {
  return new EndpointError(source.url, `malformed answer for model ${source.model}: ${what}`);
}

function openAiRows(source: EndpointSource, answer: unknown, n: number): unknown[] {
  const data = (answer as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) throw malformed(source, 'no "data" array');
  if (data.length !== n) throw malformed(source, `${data.length} embeddings for ${n} texts`);
  const rows: unknown[] = new Array(n);
  data.forEach((d: unknown, j) => {
    const index = (d as { index?: unknown } | null)?.index ?? j;
    if (!Number.isInteger(index) || (index as number) < 0 || (index as number) >= n || rows[index as number] !== undefined)
      throw malformed(source, `data[${j}].index is ${JSON.stringify(index)}`);
    rows[index as number] = (d as { embedding?: unknown }).embedding;
  });
  return rows;
}

function ollamaRows(source: EndpointSource, answer: unknown, n: number): unknown[] {
  const rows = (answer as { embeddings?: unknown } | null)?.embeddings;
  if (!Array.isArray(rows)) throw malformed(source, 'no "embeddings" array');
  if (rows.length !== n) throw malformed(source, `${rows.length} embeddings for ${n} texts`);
  return rows;
}

/** The rows as one float32 matrix of unit vectors; every row the same size of finite numbers. */
function toMatrix(source: EndpointSource, rows: readonly unknown[]): { data: Float32Array; dims: number } {
  const first = rows[0];
  if (!Array.isArray(first) || first.length === 0) throw malformed(source, 'an embedding is not a non-empty array of numbers');
  const dims = first.length;
  const data = new Float32Array(rows.length * dims);
  rows.forEach((row, i) => {
    if (!Array.isArray(row)) throw malformed(source, `embedding ${i} is not an array of numbers`);
    if (row.length !== dims) throw malformed(source, `embedding ${i} has ${row.length} dimensions, embedding 0 ${dims}`);
    let norm = 0;
    for (let j = 0; j < dims; j++) {
      const x = row[j] as unknown;
      if (typeof x !== 'number' || !Number.isFinite(x)) throw malformed(source, `embedding ${i} holds ${JSON.stringify(x)} at ${j}`);
      data[i * dims + j] = x;
      norm += x * x;
    }
    norm = Math.sqrt(norm);
    if (norm > 0 && Math.abs(norm - 1) > 1e-4) for (let j = 0; j < dims; j++) data[i * dims + j] = data[i * dims + j]! / norm;
  });
  return { data, dims };
}
