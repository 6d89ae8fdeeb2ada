/**
 * JSON over HTTP for the endpoints a run talks to (embedding APIs, retrieval services): one POST,
 * retried when the failure may pass, refused at once when it will not, never waiting forever.
 *
 * | what happened                                         | what is done                                     |
 * | ----------------------------------------------------- | ------------------------------------------------ |
 * | 2xx with a JSON body                                  | the body is returned                             |
 * | 2xx whose body is not JSON                            | `EndpointError` (exit 2), no retry                |
 * | 429 or 503 with `Retry-After` (seconds or a date)     | wait that long (≤ `maxRetryAfterMs`), retry       |
 * | 408, 429, 500, 502, 503, 504; connection refused,     | retry after `backoffMs` × 2^attempt (≤ 8 s)       |
 * |   reset or closed; no answer within `timeoutMs`       |                                                  |
 * | any other status (400, 401, 403, 404, …)              | `EndpointError` with the status and the body's    |
 * |                                                       | first 300 characters (credentials masked)        |
 * At most `retries` retries; then `EndpointError` naming the endpoint and the last failure. Every
 * message names the endpoint with its credentials masked (`maskCredentials`); header values (API
 * keys) are never part of a message.
 */
import { InputError } from './errors.ts';
import { maskCredentials } from './redact.ts';

/** A failure of an endpoint the user pointed Backpack at: exit 2, the endpoint named. */
export class EndpointError extends InputError {
  constructor(
    readonly endpoint: string,
    message: string,
    opts: { cause?: unknown } = {},
  ) {
    super(`${maskCredentials(endpoint)}: ${maskCredentials(message)}`, opts);
    this.name = 'EndpointError';
  }
}

export interface HttpSettings {
  /** Milliseconds one attempt may take, answer read included. */
  timeoutMs: number;
  /** Retries after the first attempt. */
  retries: number;
  /** Headers sent with every request (values are never printed). */
  headers?: Readonly<Record<string, string>>;
  /** First backoff (doubled each retry, at most 8 s). Default 500 ms. */
  backoffMs?: number;
  /** The longest `Retry-After` honoured; a longer one is an `EndpointError`. Default 60 s. */
  maxRetryAfterMs?: number;
  /** Called before each retry: the attempt about to be made (2, 3, …), the wait, the reason. */
  onRetry?: (attempt: number, waitMs: number, reason: string) => void;
}

export const DEFAULT_BACKOFF_MS = 500;
export const DEFAULT_MAX_RETRY_AFTER_MS = 60_000;
const MAX_BACKOFF_MS = 8_000;
const RETRIED_STATUS = new Set([408, 429, 500, 502, 503, 504]);

/** A failure worth another attempt, and how long the server asked to wait (undefined: back off). */
class Transient extends Error {
  constructor(
    message: string,
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

/** POST `body` as JSON to `url`; the parsed JSON answer (see the module comment for failures). */
export function postJson(url: string, body: unknown, settings: HttpSettings): Promise<unknown> {
  return postJsonText(url, JSON.stringify(body), settings);
}

/** {@link postJson} of a body already serialised. */
export async function postJsonText(url: string, payload: string, settings: HttpSettings): Promise<unknown> {
  const backoff = settings.backoffMs ?? DEFAULT_BACKOFF_MS;
  const maxRetryAfter = settings.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS;
  let last = '';
  let asked: number | undefined;
  for (let attempt = 0; attempt <= settings.retries; attempt++) {
    if (attempt > 0) {
      const wait = asked ?? Math.min(backoff * 2 ** (attempt - 1), MAX_BACKOFF_MS);
      settings.onRetry?.(attempt + 1, wait, last);
      await sleep(wait);
    }
    try {
      return await attemptOnce(url, payload, settings);
    } catch (e) {
      if (!(e instanceof Transient)) throw e;
      last = e.message;
      if (e.retryAfterMs !== undefined && e.retryAfterMs > maxRetryAfter)
        throw new EndpointError(
          url,
          `${e.message}; it asks to wait ${Math.ceil(e.retryAfterMs / 1000)} s, more than the ${Math.round(maxRetryAfter / 1000)} s Backpack waits`,
        );
      asked = e.retryAfterMs;
    }
  }
  throw new EndpointError(url, `gave up after ${settings.retries + 1} attempt${settings.retries === 0 ? '' : 's'}: ${last}`);
}

async function attemptOnce(url: string, payload: string, settings: HttpSettings): Promise<unknown> {
  const signal = AbortSignal.timeout(settings.timeoutMs);
  let text: string;
  let status: number;
  let retryAfter: string | null;
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...settings.headers },
      body: payload,
      signal,
    });
    status = res.status;
    retryAfter = res.headers.get('retry-after');
    text = await res.text();
  } catch (e) {
    throw new Transient(networkReason(e, settings.timeoutMs));
  }
  if (status >= 200 && status < 300) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new EndpointError(url, `answered ${status} with a body that is not JSON: ${JSON.stringify(scrub(text.slice(0, 120), settings.headers))}`);
    }
  }
  const said = text.trim() === '' ? '' : `: ${scrub(text.trim().slice(0, 300), settings.headers)}`;
  if (RETRIED_STATUS.has(status)) throw new Transient(`HTTP ${status}${said}`, retryAfterMs(retryAfter));
  throw new EndpointError(url, `HTTP ${status}${said}`);
}

/** `text` with every header value (an API key, a token) the request sent replaced: a server may quote the key back. */
function scrub(text: string, headers: Readonly<Record<string, string>> | undefined): string {
  let out = text;
  for (const value of Object.values(headers ?? {})) {
    for (const secret of [value, value.replace(/^(Bearer|Basic|Token)\s+/i, '')]) {
      if (secret.length >= 8) out = out.split(secret).join('[REDACTED]');
    }
  }
  return out;
}

/** Why a request got no answer: a timeout, a refused or closed connection, … */
function networkReason(e: unknown, timeoutMs: number): string {
  const err = e as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (err.name === 'TimeoutError' || err.name === 'AbortError') return `no answer within ${timeoutMs / 1000} s`;
  const code = err.cause?.code;
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE') return 'the server closed the connection';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'host not found';
  return `${err.message ?? String(e)}${err.cause?.message ? ` (${err.cause.message})` : ''}`;
}

/** `Retry-After` in milliseconds: delta seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Run `fn` over `items` with at most `limit` running at once; results in item order. The first failure stops new starts and is thrown. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  let failed = false;
  const worker = async (): Promise<void> => {
    while (!failed && next < items.length) {
      const i = next++;
      try {
        out[i] = await fn(items[i]!, i);
      } catch (e) {
        failed = true;
        throw e;
      }
    }
  };
  const runners = Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, () => worker());
  const settled = await Promise.allSettled(runners);
  const rejected = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (rejected) throw rejected.reason;
  return out;
}
