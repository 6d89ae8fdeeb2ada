/**
 * A retrieval service as a strategy (`--http-retriever NAME=URL`, `httpRetrievers` in the config
 * file) against a real HTTP server on 127.0.0.1 serving Backpack's BM25 over the protocol
 * (test/servers/retrieval-server.ts): bm25's figures through the wire, the protocol breaches
 * counted and the scope rule enforced all the same, floors and calibration on the service's own
 * scale, and the failures that end a run with exit 2 naming the service.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { retrieverNames } from '../src/retrievers/registry.ts';
import { detailLines, readResults, runCli, tempDir } from './helpers.ts';
import { calibratedEvalArgs } from './run-args.ts';
import { startRetrievalServer, type Misbehaviour, type RetrievalServer } from './servers/retrieval-server.ts';

const tmp = tempDir('service');
const dataset = join(tmp, 'tiny');
const servers: RetrievalServer[] = [];

async function service(misbehave: Misbehaviour[] = []): Promise<RetrievalServer> {
  const s = await startRetrievalServer({ misbehave, service: { name: 'bm25-over-http', version: '0.1.0' } });
  servers.push(s);
  return s;
}

/** A config file naming the service (with its index URL) as `name`. */
function configFor(s: RetrievalServer, name: string, extra = ''): string {
  const file = join(tmp, `${name}.yaml`);
  writeFileSync(file, `httpRetrievers:\n  ${name}:\n    url: ${s.origin}/search\n    indexUrl: ${s.origin}/index\n    concurrency: 3\n${extra}`);
  return file;
}

/** `eval` with the service `s` configured as the retriever `name` (with its index URL), quiet. */
function evalWith(s: RetrievalServer, name: string, ...args: string[]) {
  return runCli('--config-file', configFor(s, name), 'eval', ...args, '--quiet');
}

beforeAll(async () => {
  expect((await runCli('generate', '--preset', 'tiny', '--seed', '5', '--out', dataset)).code).toBe(0);
});

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

describe('a retrieval service serving BM25', () => {
  it("gives bm25's figures and rankings, every request in the protocol's schema", async () => {
    const s = await service();
    const out = join(tmp, 'same');
    const r = await evalWith(s, 'bm25-service', '--dataset', dataset, '--retrievers', 'bm25,bm25-service', '--out', out);
    expect(r.code, r.err).toBe(0);
    expect(detailLines(out, 'bm25-service')).toEqual(detailLines(out, 'bm25'));
    const res = readResults(out);
    expect(res.retrievers['bm25-service'].metrics.overall).toEqual(res.retrievers.bm25.metrics.overall);
    expect(s.invalid).toEqual([]);
    expect(s.indexed).toBe(1);
    expect(res.retrievers['bm25-service'].config).toMatchObject({
      retriever: 'http',
      protocol: 'backpack-retrieval/1',
      url: `${s.origin}/search`,
      service: { name: 'bm25-over-http', version: '0.1.0' },
      answers: { unknownIds: 0, repeatedIds: 0, unsorted: 0, overK: 0, outOfScope: 0 },
      origin: { service: `${s.origin}/search` },
    });
    expect(res.warnings ?? []).toEqual([]);
    expect(retrieverNames()).not.toContain('bm25-service');
  });

  it('takes a floor calibrated on its own scale, as bm25 does', async () => {
    const s = await service();
    const out = join(tmp, 'floors');
    const r = await evalWith(s, 'bm25-service', ...calibratedEvalArgs(dataset), '--retrievers', 'bm25,bm25-service', '--out', out);
    expect(r.code, r.err).toBe(0);
    const floors = readResults(out).config.floors;
    expect(floors['bm25-service'].mode).toBe('auto');
    expect(floors['bm25-service']).toEqual(floors.bm25);
    expect(detailLines(out, 'bm25-service')).toEqual(detailLines(out, 'bm25'));
  });

  it('the flag form, on worker threads', async () => {
    const s = await service();
    // index once through a config run, then the flag (no index URL) searches the indexed service
    expect((await evalWith(s, 'warm', '--dataset', dataset, '--retrievers', 'warm', '--out', join(tmp, 'warm'))).code).toBe(0);
    const out = join(tmp, 'flag');
    const r = await runCli(
      '--no-config-file',
      'eval',
      '--dataset',
      dataset,
      '--http-retriever',
      `svc=${s.origin}/search`,
      '--retrievers',
      'bm25,svc',
      '--workers',
      '2',
      '--out',
      out,
      '--quiet',
    );
    expect(r.code, r.err).toBe(0);
    expect(detailLines(out, 'svc')).toEqual(detailLines(out, 'bm25'));
  });
});

describe('a service that breaks the protocol', () => {
  it('unknown ids, unsorted and over-long answers, hits outside the scopes: counted, warned, enforced', async () => {
    const s = await service(['unknown-ids', 'unsorted', 'over-k', 'out-of-scope']);
    const out = join(tmp, 'breaches');
    const r = await evalWith(s, 'sloppy', '--dataset', dataset, '--retrievers', 'bm25,sloppy', '--out', out);
    expect(r.code, r.err).toBe(0);
    const res = readResults(out);
    const answers = res.retrievers.sloppy.config.answers;
    // every answer: one unknown id, reversed, three hits past k; the scoped callers' answers one hit outside their scopes
    expect(answers.unknownIds).toBe(answers.searches);
    expect(answers.unsorted).toBe(answers.searches);
    expect(answers.overK).toBeGreaterThan(0);
    expect(answers.outOfScope).toBeGreaterThan(0);
    expect(answers.repeatedIds).toBe(0);
    for (const what of ['named tools the catalog does not have', 'were not best first', 'held more than k hits', "were outside the caller's scopes"])
      expect(r.err).toContain(what);
    expect(res.warnings.filter((w: string) => w.startsWith('http retriever sloppy')).length).toBe(4);
    // the scope rule, enforced by Backpack: no tool outside a caller's scopes is ranked, each is a leak
    const tools = new Map(
      readFileSync(join(out, 'tools.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l))
        .map((t: { id: string; scopes?: string[] }) => [t.id, t.scopes ?? []]),
    );
    const cases = new Map(
      readFileSync(join(out, 'cases.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l))
        .map((c: { id: string; callerScopes?: string[] }) => [c.id, c.callerScopes]),
    );
    let leaks = 0;
    for (const line of detailLines(out, 'sloppy')) {
      const d = JSON.parse(line) as { caseId: string; ranked: Array<[string, number]>; leaks: string[] };
      const scopes = cases.get(d.caseId);
      leaks += d.leaks.length;
      if (scopes) for (const [id] of d.ranked) expect((tools.get(id) as string[]).every((x) => scopes.includes(x))).toBe(true);
      for (const [id] of d.ranked) expect(tools.has(id)).toBe(true);
    }
    expect(leaks).toBeGreaterThan(0);
    expect(res.retrievers.sloppy.metrics.overall.scopeLeakCount).toBeGreaterThan(0);
  });

  it('an answer without a hits array: exit 2 naming the service, no results folder', async () => {
    const s = await service(['no-hits-array']);
    const out = join(tmp, 'no-hits');
    const r = await evalWith(s, 'broken', '--dataset', dataset, '--retrievers', 'broken', '--out', out);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`error: ${s.origin}/search: the answer has no "hits" array`);
    expect(existsSync(out)).toBe(false);
  });

  it('a service that is not indexed answers 409: exit 2 with its status and body', async () => {
    const s = await service();
    const out = join(tmp, 'unindexed');
    const r = await runCli(
      '--no-config-file',
      'eval',
      '--dataset',
      dataset,
      '--http-retriever',
      `cold=${s.origin}/search`,
      '--retrievers',
      'cold',
      '--out',
      out,
      '--quiet',
    );
    expect(r.code).toBe(2);
    expect(r.err).toContain(`error: ${s.origin}/search: HTTP 409: {"error":"not indexed"}`);
    expect(existsSync(out)).toBe(false);
  });

  it('header values from the environment; one that is not set is exit 2 naming it', async () => {
    const s = await service();
    const file = configFor(s, 'authed', '    headers: { X-Token: "${BACKPACK_TEST_TOKEN_UNSET}" }\n');
    const r = await runCli('--config-file', file, 'eval', '--dataset', dataset, '--retrievers', 'authed', '--out', join(tmp, 'authed'), '--quiet');
    expect(r.code).toBe(2);
    expect(r.err).toContain('http retriever authed: header X-Token uses ${BACKPACK_TEST_TOKEN_UNSET}, which is not set in the environment');
  });
});

describe('what --http-retriever refuses', () => {
  it.each([
    ['no-equals', /--http-retriever "no-equals": give NAME=URL/],
    ['x=ftp://host/search', /--http-retriever x: url must be http:\/\/ or https:\/\//],
    ['bm25=http://127.0.0.1:9/search', /--http-retriever bm25: retriever "bm25" is already registered/],
    ['Bad_Name=http://127.0.0.1:9/search', /must be lowercase letters, digits, dots and dashes/],
  ])('%s', async (flag, message) => {
    const r = await runCli('--no-config-file', 'list', '--http-retriever', flag);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(message);
  });
});
