/**
 * Results first: a results folder keeps what `report`, `gate --baseline` and `merge` need (the
 * scored cases and the catalog's tool facts, beside the per-case details; a shard also where its
 * cases stand in the input), so all three work after the dataset folder is gone, with the same
 * output as when it is there.
 */
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CASES_FILE, casesJsonl, factsOfRecords, readCaseRecords, TOOLS_FILE, toolRecords, toolsJsonl } from '../src/eval/case-records.ts';
import { tempDir, tinyInput, runCli } from './helpers.ts';

const tmp = tempDir('results-first');

const cli = runCli;

/** One eval of the dataset at `data` into `out`: bm25 on the test split. */
const evalInto = (data: string, out: string, retrievers = 'bm25,bm25-plain') =>
  cli('eval', '--dataset', data, '--retrievers', retrievers, '--out', out, '--quiet');

describe('a results folder without its dataset', () => {
  const data = join(tmp, 'data');
  const base = join(tmp, 'base');
  const head = join(tmp, 'head');
  const expect_ = join(tmp, 'expect.yaml');
  let withData: { report: string; gate: string };

  beforeAll(async () => {
    expect((await cli('generate', '--preset', 'tiny', '--seed', '5', '--out', data, '--quiet')).code).toBe(0);
    expect((await evalInto(data, base)).code).toBe(0);
    expect((await evalInto(data, head)).code).toBe(0);
    for (const i of [1, 2])
      expect(
        (await cli('eval', '--dataset', data, '--retrievers', 'bm25,bm25-plain', '--shard', `${i}/2`, '--out', join(tmp, `shard-${i}`), '--quiet')).code,
      ).toBe(0);
    expect((await cli('bless', '--results', base, '--expect', expect_, '--reason', 'first figures')).code).toBe(0);
    const r = await cli('report', head, '--out', join(tmp, 'report-with-data'), '--format', 'html,md');
    expect(r.code).toBe(0);
    const g = await cli('gate', '--expect', expect_, '--results', head, '--baseline', base);
    expect(g.code).toBe(0);
    withData = { report: readFileSync(join(tmp, 'report-with-data', 'report.html'), 'utf8'), gate: g.out };
    rmSync(data, { recursive: true, force: true });
  }, 120_000);

  it('keeps every scored case and every tool of the catalog', () => {
    const saved = readCaseRecords(head)!;
    const { input } = tinyInput(5);
    const scored = input.cases.filter((c) => c.split === 'test' || c.split === undefined);
    expect(saved.cases.length).toBe(JSON.parse(readFileSync(join(head, 'results.json'), 'utf8')).dataset.cases);
    expect(saved.tools.map((t) => t.id)).toEqual(input.catalog.tools.map((t) => t.id));
    expect(saved.tools.filter((t) => t.pinned).map((t) => t.id)).toEqual(input.catalog.tools.filter((t) => t.pinned).map((t) => t.id));
    // a summary for exactly the tools some scored case expects
    const gold = new Set(saved.cases.flatMap((c) => c.expectedTools ?? []));
    expect(saved.tools.filter((t) => t.summary !== undefined).map((t) => t.id)).toEqual(input.catalog.tools.filter((t) => gold.has(t.id)).map((t) => t.id));
    expect(scored.length).toBeGreaterThan(0);
  });

  it('reports the same HTML as with the dataset, worst misses with request texts and gold summaries', async () => {
    const r = await cli('report', head, '--out', join(tmp, 'report-without'), '--format', 'html,md');
    expect(r.code).toBe(0);
    expect(r.err).not.toMatch(/not found|has changed/);
    const html = readFileSync(join(tmp, 'report-without', 'report.html'), 'utf8');
    expect(html).toBe(withData.report);
    const saved = readCaseRecords(head)!;
    const missed = saved.cases.find((c) => c.expectedTools?.length && html.includes(`<code>${c.id}</code>`));
    expect(missed, 'a worst miss is shown').toBeDefined();
  });

  it('gates against a baseline with p-values, as with the dataset', async () => {
    const g = await cli('gate', '--expect', expect_, '--results', head, '--baseline', base);
    expect(g.code).toBe(0);
    expect(g.err).not.toMatch(/significance skipped/);
    expect(g.out).toBe(withData.gate);
    expect(g.out).toMatch(/ no case changed \(\d+ paired cases\)/);
  });

  it('merges shards into the unsharded run: the same figures, details and records', async () => {
    const merged = join(tmp, 'merged');
    const m = await cli('merge', join(tmp, 'shard-1'), join(tmp, 'shard-2'), '--out', merged);
    expect(m.code, m.err).toBe(0);
    const untimed = (dir: string) =>
      JSON.stringify(JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')), (k, v: unknown) => (k === 'timings' || k === 'latency' ? undefined : v));
    expect(untimed(merged)).toBe(untimed(head));
    for (const file of [CASES_FILE, TOOLS_FILE, 'runs/bm25.trec', 'runs/qrels.txt', 'never-surfaced/bm25-plain.txt'])
      expect(readFileSync(join(merged, file), 'utf8'), file).toBe(readFileSync(join(head, file), 'utf8'));
    const details = (dir: string) => readFileSync(join(dir, 'details', 'bm25.jsonl'), 'utf8').replace(/,"ms":[0-9.e+-]+/g, '');
    expect(details(merged)).toBe(details(head));
    // the merged folder is a whole run: no shard positions
    expect(readCaseRecords(merged)!.shard).toBeUndefined();
    expect(readCaseRecords(join(tmp, 'shard-2'))!.shard!.inputCases).toBe(readCaseRecords(head)!.cases.length);
  });

  it('refuses a folder that keeps one of the two files, or a bad record, naming the file', async () => {
    const broken = join(tmp, 'broken');
    for (const [file, text, named, message] of [
      [TOOLS_FILE, null, TOOLS_FILE, /tools\.jsonl is missing beside cases\.jsonl/],
      [
        CASES_FILE,
        '{"id":"q1","request":"x","expectedTools":["nope"],"slices":[]}\n',
        CASES_FILE,
        /case "q1" expects tool "nope", which tools\.jsonl does not list \(nor results\.json's dataset\.goldRemoved\)/,
      ],
      [TOOLS_FILE, '{"id":"a","namespace":"n","colour":"red"}\n', TOOLS_FILE, /unknown field "colour"/],
    ] as const) {
      rmSync(broken, { recursive: true, force: true });
      cpSync(head, broken, { recursive: true });
      if (text === null) rmSync(join(broken, file));
      else writeFileSync(join(broken, file), text);
      const r = await cli('gate', '--expect', expect_, '--results', broken, '--baseline', base);
      expect(r.code, file).toBe(2);
      expect(r.err).toMatch(message);
      expect(r.err).toContain(join(broken, named));
    }
  });
});

describe('case records', () => {
  it('round-trip the cases as the cases format reads them, and the facts the metrics need', () => {
    const { input } = tinyInput(5);
    const dir = join(tmp, 'records');
    const cases = input.cases.slice(0, 50);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, CASES_FILE), casesJsonl(cases));
    writeFileSync(join(dir, TOOLS_FILE), toolsJsonl(toolRecords(input.catalog, cases)));
    const back = readCaseRecords(
      dir,
      cases.map((c) => c.id),
    )!;
    expect(back.cases).toEqual(cases);
    const facts = factsOfRecords(back.tools);
    const t = input.catalog.tools[7]!;
    expect(facts.namespaceOf(t.id)).toBe(t.namespace);
    expect(facts.namespaceOf('no-such-tool')).toBeUndefined();
    expect([...facts.pinned]).toEqual(input.catalog.tools.filter((x) => x.pinned).map((x) => x.id));
    expect(() => readCaseRecords(dir, ['not-scored'])).toThrow(/case "not-scored" of the details is not in cases\.jsonl/);
    expect(readCaseRecords(join(tmp, 'empty-folder-that-does-not-exist'))).toBeUndefined();
  });
});
