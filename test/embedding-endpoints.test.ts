/**
 * Embedding endpoints (`--model openai:MODEL`, `--model ollama:MODEL`) against a real HTTP server
 * on 127.0.0.1 with the shipped static encoder behind it (test/servers/embedding-server.ts): the
 * same rankings as the built-in encoder, nothing sent the second time, the key in no file or
 * message, the budget, and every fault: retried, or exit 2 naming the endpoint, never a hang and
 * never a results folder.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { detailLines, runCli, tempDir } from './helpers.ts';
import { calibratedEvalArgs } from './run-args.ts';
import { type Fault, startEmbeddingServer, type EmbeddingServer } from './servers/embedding-server.ts';

const KEY = 'sk-test-Zq81kLmN0pQrStUvWxYz1234567890abcd';
const tmp = tempDir('endpoints');
const dataset = join(tmp, 'tiny');
let builtIn: string;
const servers: EmbeddingServer[] = [];

/** Every file under `dir`, read as text. */
function allText(dir: string): string {
  let text = '';
  for (const e of readdirSync(dir)) {
    const p = join(dir, e);
    text += statSync(p).isDirectory() ? allText(p) : readFileSync(p, 'utf8');
  }
  return text;
}

/** Run the CLI with these environment variables set (and restored after). */
async function withEnv(env: Record<string, string | undefined>, ...argv: string[]) {
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  try {
    return await runCli(...argv);
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

async function server(faults: Fault[] = []): Promise<EmbeddingServer> {
  const s = await startEmbeddingServer({ faults });
  servers.push(s);
  return s;
}

/** `eval` with `--model openai:<model>` against server `s`, the key set; `args` name the rest (dataset, strategies, out). */
function viaOpenAi(s: EmbeddingServer, model: string, ...args: string[]) {
  return withEnv({ OPENAI_BASE_URL: `${s.origin}/v1`, OPENAI_API_KEY: KEY }, 'eval', '--model', `openai:${model}`, '--quiet', ...args);
}

/** `embed` on the tiny dataset through `--model openai:<model>`, one request at a time (faults land on the requests they name). */
function openAi(s: EmbeddingServer, model: string, out: string, ...extra: string[]) {
  return viaOpenAi(s, model, '--dataset', dataset, '--retrievers', 'embed', '--out', out, '--embed-concurrency', '1', ...extra);
}

beforeAll(async () => {
  expect((await runCli('generate', '--preset', 'tiny', '--seed', '5', '--out', dataset)).code).toBe(0);
  builtIn = join(tmp, 'built-in');
  const r = await runCli('eval', '--dataset', dataset, '--retrievers', 'embed,hybrid', '--out', builtIn, '--quiet');
  expect(r.code, r.err).toBe(0);
});

afterEach(() => {
  for (const s of servers) expect(s.requests.length).toBeLessThan(1000); // sanity: no request storm
});

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

describe('--model openai:MODEL against an OpenAI-compatible server', () => {
  it('gives the built-in encoder’s rankings, prints what it sends first, and sends nothing the second time', async () => {
    const s = await server();
    const out = join(tmp, 'openai');
    const r = await viaOpenAi(s, 'static-test', '--dataset', dataset, '--retrievers', 'embed,hybrid', '--out', out);
    expect(r.code, r.err).toBe(0);
    expect(detailLines(out, 'embed')).toEqual(detailLines(builtIn, 'embed'));
    expect(detailLines(out, 'hybrid')).toEqual(detailLines(builtIn, 'hybrid'));
    // what was sent: the 406 tools' texts and the requests, counted before the first request
    const line = /embed: openai:static-test at (\S+): ([\d,]+) texts to send, ([\d,]+) tokens \(o200k count\); 0 of ([\d,]+) already in the vector cache/.exec(
      r.err,
    );
    expect(line, r.err).not.toBeNull();
    expect(line![1]).toBe(`${s.origin}/v1/embeddings`);
    const texts = s.requests.reduce((n, q) => n + q.texts, 0);
    expect(Number(line![2]!.replace(/,/g, ''))).toBe(texts);
    expect(texts).toBeGreaterThan(406);
    expect(s.requests.every((q) => q.path === '/v1/embeddings' && q.authorization === `Bearer ${KEY}`)).toBe(true);
    // the results name the endpoint, never the key
    const config = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')).retrievers.embed.config;
    expect(config).toMatchObject({ model: 'openai:static-test', provider: 'openai', endpoint: `${s.origin}/v1/embeddings` });
    expect(allText(out)).not.toContain(KEY.slice(8));
    expect(r.out + r.err).not.toContain(KEY.slice(8));

    const sent = s.requests.length;
    const again = join(tmp, 'openai-again');
    const r2 = await viaOpenAi(s, 'static-test', '--dataset', dataset, '--retrievers', 'embed,hybrid', '--out', again);
    expect(r2.code, r2.err).toBe(0);
    expect(s.requests.length).toBe(sent);
    expect(r2.err).toContain(`0 texts to send, 0 tokens (o200k count); ${line![4]} of ${line![4]} already in the vector cache`);
    expect(detailLines(again, 'embed')).toEqual(detailLines(builtIn, 'embed'));
  });

  it('--max-embed-tokens refuses a run that would send more, before any request', async () => {
    const s = await server();
    const out = join(tmp, 'budget');
    const r = await openAi(s, 'budget', out, '--max-embed-tokens', '1000');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(
      new RegExp(`error: ${s.origin}/v1/embeddings: the run would send [\\d,]+ tokens, more than --max-embed-tokens 1,000: nothing was sent`),
    );
    expect(s.requests.length).toBe(0);
    expect(existsSync(out)).toBe(false);
  });

  it('works on worker threads, with every vector embedded ahead once', async () => {
    const s = await server();
    const out = join(tmp, 'workers');
    const r = await viaOpenAi(s, 'threads', '--dataset', dataset, '--retrievers', 'embed,hybrid', '--workers', '2', '--out', out);
    expect(r.code, r.err).toBe(0);
    expect(detailLines(out, 'hybrid')).toEqual(detailLines(builtIn, 'hybrid'));
    const planned = Number(/: ([\d,]+) texts to send/.exec(r.err)![1]!.replace(/,/g, ''));
    expect(s.requests.reduce((n, q) => n + q.texts, 0)).toBe(planned);
  });
});

describe('floors and calibration on an endpoint model', () => {
  it('--floor auto and the calibrated hybrid fit the same as on the built-in encoder', async () => {
    const args = [...calibratedEvalArgs(dataset), '--retrievers', 'embed,hybrid', '--quiet'];
    const local = join(tmp, 'floors-local');
    expect((await runCli('eval', ...args, '--out', local)).code).toBe(0);
    const s = await server();
    const out = join(tmp, 'floors-openai');
    const r = await viaOpenAi(s, 'floors', ...args, '--out', out);
    expect(r.code, r.err).toBe(0);
    const floors = (dir: string) => JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')).config.floors;
    expect(floors(out).embed.mode).toBe('auto');
    expect(floors(out)).toEqual(floors(local));
    expect(detailLines(out, 'hybrid')).toEqual(detailLines(local, 'hybrid'));
  });
});

describe('--model ollama:MODEL', () => {
  it('reads OLLAMA_HOST as Ollama does (host:port, no scheme) and gives the same rankings', async () => {
    const s = await server();
    const out = join(tmp, 'ollama');
    const r = await withEnv(
      { OLLAMA_HOST: s.origin.replace('http://', '') },
      'eval',
      '--dataset',
      dataset,
      '--retrievers',
      'embed',
      '--model',
      'ollama:static-test',
      '--out',
      out,
      '--quiet',
    );
    expect(r.code, r.err).toBe(0);
    expect(s.requests.every((q) => q.path === '/api/embed' && q.authorization === undefined)).toBe(true);
    expect(detailLines(out, 'embed')).toEqual(detailLines(builtIn, 'embed'));
  });
});

describe('faults of the endpoint', () => {
  it('429 with Retry-After: waits as asked, then goes on', async () => {
    const s = await server([{ kind: 'status', status: 429, headers: { 'retry-after': '1' }, body: '{"error":{"message":"slow down"}}' }]);
    const out = join(tmp, 'f-429');
    const r = await openAi(s, 'f429', out);
    expect(r.code, r.err).toBe(0);
    expect(s.requests[1]!.at - s.requests[0]!.at).toBeGreaterThanOrEqual(950);
    expect(detailLines(out, 'embed')).toEqual(detailLines(builtIn, 'embed'));
  });

  it('a Retry-After longer than Backpack waits: exit 2 naming the endpoint', async () => {
    const s = await server([{ kind: 'status', status: 429, headers: { 'retry-after': '3600' } }]);
    const out = join(tmp, 'f-429-long');
    const r = await openAi(s, 'f429long', out);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`error: ${s.origin}/v1/embeddings: HTTP 429`);
    expect(r.err).toContain('it asks to wait 3600 s, more than the 60 s Backpack waits');
    expect(existsSync(out)).toBe(false);
  });

  it('500s: retried with backoff until one answers', async () => {
    const s = await server([
      { kind: 'status', status: 500 },
      { kind: 'status', status: 503 },
    ]);
    const out = join(tmp, 'f-500');
    const r = await openAi(s, 'f500', out);
    expect(r.code, r.err).toBe(0);
    expect(s.requests[2]!.texts).toBe(s.requests[0]!.texts); // the same batch, a third time
    expect(detailLines(out, 'embed')).toEqual(detailLines(builtIn, 'embed'));
  });

  it('500s that do not stop: exit 2 after the retries, naming the endpoint and the last answer', async () => {
    const s = await server(Array.from({ length: 3 }, () => ({ kind: 'status' as const, status: 500, body: '{"error":"model crashed"}' })));
    const out = join(tmp, 'f-500-always');
    const r = await openAi(s, 'f500always', out, '--embed-retries', '2');
    expect(r.code).toBe(2);
    expect(r.err).toContain(`error: ${s.origin}/v1/embeddings: gave up after 3 attempts: HTTP 500: {"error":"model crashed"}`);
    expect(s.requests.length).toBe(3);
    expect(existsSync(out)).toBe(false);
  });

  it('a 401: exit 2 at once, the key not in the message', async () => {
    const s = await server([{ kind: 'status', status: 401, body: `{"error":{"message":"Incorrect API key provided: ${KEY}"}}` }]);
    const out = join(tmp, 'f-401');
    const r = await openAi(s, 'f401', out);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`error: ${s.origin}/v1/embeddings: HTTP 401`);
    expect(r.err).not.toContain(KEY.slice(8));
    expect(s.requests.length).toBe(1);
  });

  it('no answer: a timeout, retried, then exit 2 naming the endpoint', async () => {
    const s = await server([{ kind: 'hang' }, { kind: 'hang' }]);
    const out = join(tmp, 'f-timeout');
    const r = await openAi(s, 'ftimeout', out, '--embed-timeout', '0.5', '--embed-retries', '1');
    expect(r.code).toBe(2);
    expect(r.err).toContain(`error: ${s.origin}/v1/embeddings: gave up after 2 attempts: no answer within 0.5 s`);
    expect(existsSync(out)).toBe(false);
  });

  it('a timeout once: retried, and the run completes', async () => {
    const s = await server([{ kind: 'hang' }]);
    const out = join(tmp, 'f-timeout-once');
    const r = await openAi(s, 'ftimeoutonce', out, '--embed-timeout', '0.5');
    expect(r.code, r.err).toBe(0);
    expect(detailLines(out, 'embed')).toEqual(detailLines(builtIn, 'embed'));
  });

  it('malformed JSON: exit 2 naming the endpoint, no retry', async () => {
    const s = await server([{ kind: 'not-json' }]);
    const out = join(tmp, 'f-json');
    const r = await openAi(s, 'fjson', out);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`error: ${s.origin}/v1/embeddings: answered 200 with a body that is not JSON`);
    expect(s.requests.length).toBe(1);
    expect(existsSync(out)).toBe(false);
  });

  it('vectors of another size mid-run: exit 2 naming the endpoint', async () => {
    const s = await server([{ kind: 'ok' }, { kind: 'dims', dims: 64 }]);
    const out = join(tmp, 'f-dims');
    const r = await openAi(s, 'fdims', out);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`error: ${s.origin}/v1/embeddings: model fdims answered 64-dimension vectors where it gave 100 before`);
    expect(existsSync(out)).toBe(false);
  });

  it('a model that changed size since the cache was filled: exit 2 naming the endpoint', async () => {
    const s = await server();
    expect((await openAi(s, 'fresized', join(tmp, 'f-resized-1'))).code).toBe(0);
    s.faults = Array.from({ length: 50 }, () => ({ kind: 'dims' as const, dims: 32 }));
    // a new request text, so something is sent: the cases file of another dataset seed
    const other = join(tmp, 'tiny-6');
    expect((await runCli('generate', '--preset', 'tiny', '--seed', '6', '--out', other)).code).toBe(0);
    const out = join(tmp, 'f-resized-2');
    const r = await viaOpenAi(s, 'fresized', '--dataset', other, '--retrievers', 'embed', '--out', out);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`error: ${s.origin}/v1/embeddings: model fresized answered 32-dimension vectors where it gave 100 before (the vector cache`);
    expect(existsSync(out)).toBe(false);
  });

  it('a server that closes the connection: retried; closing every time: exit 2 naming the endpoint', async () => {
    const once = await server([{ kind: 'close' }]);
    const r1 = await openAi(once, 'fclose', join(tmp, 'f-close-once'));
    expect(r1.code, r1.err).toBe(0);
    const always = await server(Array.from({ length: 2 }, () => ({ kind: 'close' as const })));
    const out = join(tmp, 'f-close');
    const r2 = await openAi(always, 'fclosealways', out, '--embed-retries', '1');
    expect(r2.code).toBe(2);
    expect(r2.err).toContain(`error: ${always.origin}/v1/embeddings: gave up after 2 attempts: the server closed the connection`);
    expect(existsSync(out)).toBe(false);
  });

  it('nothing listening: exit 2 naming the endpoint', async () => {
    const s = await server();
    await s.close();
    const out = join(tmp, 'f-refused');
    const r = await openAi(s, 'frefused', out, '--embed-retries', '0');
    expect(r.code).toBe(2);
    expect(r.err).toContain(`error: ${s.origin}/v1/embeddings: gave up after 1 attempt: connection refused`);
  });

  it('--embed-* flags without an endpoint model: exit 2', async () => {
    const r = await runCli('eval', '--dataset', dataset, '--retrievers', 'embed', '--max-embed-tokens', '10', '--out', join(tmp, 'x'), '--quiet');
    expect(r.code).toBe(2);
    expect(r.err).toContain('--max-embed-tokens applies to an endpoint model only');
  });

  it('api.openai.com without OPENAI_API_KEY: exit 2 before any request', async () => {
    const r = await withEnv(
      { OPENAI_BASE_URL: undefined, OPENAI_API_KEY: undefined },
      'eval',
      '--dataset',
      dataset,
      '--retrievers',
      'embed',
      '--model',
      'openai:text-embedding-3-small',
      '--out',
      join(tmp, 'nokey'),
      '--quiet',
    );
    expect(r.code).toBe(2);
    expect(r.err).toContain('--model openai:text-embedding-3-small: OPENAI_API_KEY is not set');
  });
});
