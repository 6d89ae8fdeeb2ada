import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readDataset, readRealism, writeDataset } from '../catalog/dataset-files.ts';
import { InputError } from '../util/errors.ts';
import { sha256 } from '../util/hash.ts';
import { makeTool } from '../catalog/model.ts';
import { formatSummary, summarize } from '../catalog/summary.ts';
import type { Case, Dataset } from '../catalog/types.ts';
import { makeConfig, runEval } from './run.ts';
import { generate, resolveParams } from '../generate/index.ts';
import { expandRequest, frameUse, generatorTables, measureRealism, realismJson, type RealismTables } from './realism.ts';

const tools = [
  makeTool({ name: 'list_invoices', source: 'mcp', server: 'ledger', summary: 'List invoices', description: 'Lists invoices of the ledger account.' }),
  makeTool({ name: 'create_ticket', source: 'mcp', server: 'helpdesk', summary: 'Create a support ticket', description: 'Creates a support ticket.' }),
  makeTool({ name: 'get_forecast', source: 'mcp', server: 'weather', summary: 'Get the forecast', description: 'Returns the weather forecast for a city.' }),
];
const [invoices, ticket] = tools.map((t) => t.id) as [string, string];

const tc = (id: string, request: string, expectedTools: string[], slices: string[]): Case => ({ id, request, expectedTools, slices });
const cases: Case[] = [
  tc('q1', 'list invoices pls', [invoices], ['lexical']),
  tc('q2', 'show me the bills asap', [invoices], ['paraphrase']),
  tc('q3', 'open a help request for Priya', [ticket], ['paraphrase']),
  tc('q4', 'open a help request for Priya', [ticket], ['paraphrase']),
  tc('q5', 'hi!', [], ['no-tool']),
  tc('q6', 'hi!', [], ['no-tool']),
  tc('q7', 'thanks', [], ['no-tool']),
];
const mini: Dataset = { name: 'mini', catalog: { tools, skills: [], servers: [], plugins: [] }, cases };

const tables: RealismTables = {
  fillers: ['pls', 'asap', 'ok so'],
  placeholders: ['Priya', '#4821'],
  objects: [
    { phrases: ['bills'], words: 'invoice invoices' },
    { phrases: ['help request'], words: 'ticket tickets' },
  ],
  verbs: [],
  products: [],
};

describe('frameUse', () => {
  it('counts each request once, under the most specific frame it reads as', () => {
    const u = frameUse(
      ['can you list invoices for me?', 'Can you list invoices?', 'list invoices', 'The job failed again. Can you list invoices?'],
      ['can you {vp}?', 'can you {vp} for me?', '{vp} for me', 'the job failed again.'],
    );
    // 1 → "can you {vp} for me?" (more literal text than "can you {vp}?" or "{vp} for me"); 2 → "can you {vp}?";
    // 3 → none; 4 → "the job failed again." (19 letters beat "can you ?": 6)
    expect(u.toolRequests).toBe(4);
    expect(u.anyShare).toBe(0.75);
    expect(u.distinctUsed).toBe(3);
    expect(u.top5).toEqual([
      { phrase: 'can you {vp} for me?', requests: 1, share: 0.25 },
      { phrase: 'can you {vp}?', requests: 1, share: 0.25 },
      { phrase: 'the job failed again.', requests: 1, share: 0.25 },
    ]);
  });
});

describe('measureRealism on a hand-made dataset', () => {
  it('gives the hand-computed figures', async () => {
    const r = await measureRealism(mini, tables);
    expect(r.schemaVersion).toBe(2);
    // 5 distinct of 7; graded q1..q4: bm25 finds only q1 (the others share no word with any tool);
    // expanded, every one. Overlap: q1 shares {list, invoice} of {list, invoice} (pls is a stop word), the rest 0.
    expect(r.overall).toEqual({
      cases: 7,
      distinctRequests: 5,
      distinctRatio: 0.7143,
      meanGoldWordOverlap: 0.25,
      bm25RecallAt5: 0.25,
      bm25ExpandedRecallAt5: 1,
      expansionLeak: 0.75,
    });
    expect(r.slices.lexical).toEqual({
      cases: 1,
      distinctRequests: 1,
      distinctRatio: 1,
      meanGoldWordOverlap: 1,
      bm25RecallAt5: 1,
      bm25ExpandedRecallAt5: 1,
      expansionLeak: 0,
    });
    expect(r.slices.paraphrase).toEqual({
      cases: 3,
      distinctRequests: 2,
      distinctRatio: 0.6667,
      meanGoldWordOverlap: 0,
      bm25RecallAt5: 0,
      bm25ExpandedRecallAt5: 1,
      expansionLeak: 1,
    });
    expect(r.slices['no-tool']).toEqual({
      cases: 3,
      distinctRequests: 2,
      distinctRatio: 0.6667,
      meanGoldWordOverlap: null,
      bm25RecallAt5: null,
      bm25ExpandedRecallAt5: null,
      expansionLeak: null,
    });
    expect(r.noTool).toEqual({ cases: 3, distinct: 2, distinctRatio: 0.6667 });
    // Of the 4 tool requests: "pls" in q1, "asap" in q2 (ties by phrase); "Priya" in q3 and q4.
    expect(r.fillers).toEqual({
      toolRequests: 4,
      anyShare: 0.5,
      distinctUsed: 2,
      top: { phrase: 'asap', requests: 1, share: 0.25 },
      top5: [
        { phrase: 'asap', requests: 1, share: 0.25 },
        { phrase: 'pls', requests: 1, share: 0.25 },
      ],
    });
    expect(r.placeholders).toEqual({
      toolRequests: 4,
      anyShare: 0.5,
      distinctUsed: 1,
      top: { phrase: 'Priya', requests: 2, share: 0.5 },
      top5: [{ phrase: 'Priya', requests: 2, share: 0.5 }],
    });
    expect(realismJson(await measureRealism(mini, tables))).toBe(realismJson(r));
  });

  it('matches phrases on word boundaries, case-insensitively, after blanking fillers', () => {
    expect(expandRequest('Show me the BILLS', tables)).toBe('Show me the BILLS invoice invoices');
    expect(expandRequest('show me the billsx', tables)).toBe('show me the billsx');
    const t: RealismTables = { ...tables, objects: [{ phrases: ['so'], words: 'zzz' }] };
    expect(expandRequest('ok so what', t)).toBe('ok so what'); // "so" is inside the filler "ok so"
  });
});

describe('generatorTables', () => {
  const t = generatorTables();
  it('holds the lead-ins, sign-offs, invented values and vocabulary of the generator', () => {
    expect(t.fillers.length).toBeGreaterThan(150);
    expect(t.fillers).toContain('ok so');
    expect(t.placeholders).toContain('Priya'); // a first name: placeholder values are composed of parts
    expect(t.placeholders).toContain('Okafor');
    expect(t.placeholders).toContain('OPS'); // a ticket prefix (OPS-118)
    expect(t.placeholders).not.toContain('urgent'); // a filler already
    expect(t.placeholders).not.toContain('status'); // field names are vocabulary
    expect(expandRequest('any potential buyer in k8s?', t)).toContain('lead leads');
    expect(expandRequest('any potential buyer in k8s?', t)).toContain('Kubernetes');
    expect(expandRequest('show me every potential buyer we have', t)).toMatch(/ list/);
  });
});

describe('measureRealism on a generated dataset', () => {
  it('reports the recall@5 that backpack eval computes (bm25, no floor)', async () => {
    const g = generate(resolveParams('tiny', 3));
    const r = await measureRealism(g.dataset);
    const run = await runEval(
      { name: 'tiny', source: { kind: 'dataset', ref: 'tiny', split: null }, catalog: g.dataset.catalog, cases: g.dataset.cases, catalogSha256: '' },
      makeConfig(['bm25'], [5], { bm25: null }, null),
    );
    const m = run.results.retrievers.bm25!.metrics;
    expect(r.overall.bm25RecallAt5).toBe(Math.round((m.overall['recall@5'] as number) * 10_000) / 10_000);
    for (const [s, x] of Object.entries(r.slices)) {
      const want = m.slices[s]?.['recall@5'];
      expect(x.bm25RecallAt5, s).toBe(typeof want === 'number' ? Math.round(want * 10_000) / 10_000 : null);
    }
    expect(r.overall.expansionLeak).toBeGreaterThan(0);
  });
});

describe('realism.json in a dataset folder', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  const meta = {
    name: 'mini',
    generator: null,
    seed: null,
    preset: null,
    params: {},
    counts: { tools: 3, skills: 0, cases: 7, servers: 0, plugins: 0, namespaces: 3, noToolCases: 3, sessions: 0 },
    slices: {},
    splits: {},
  };

  it('is listed in the manifest with its sha256, read back, and shown by inspect; a folder without it still reads', async () => {
    const r = await measureRealism(mini, tables);
    const dir = join(mkdtempSync(join(tmpdir(), 'backpack-realism-')), 'ds');
    dirs.push(dir);
    const m = writeDataset(dir, mini, meta, () => {}, { 'realism.json': realismJson(r) });
    const bytes = readFileSync(join(dir, 'realism.json'));
    expect(m.files['realism.json']).toEqual({ sha256: sha256(bytes), bytes: bytes.length });
    const d = readDataset(dir);
    expect(readRealism(d.dir)).toEqual(r);
    const text = formatSummary(summarize(d.name, d.catalog, d.cases, d.manifest, r));
    expect(text).toMatch(/realism \(realism\.json\)/);
    expect(text).toMatch(/paraphrase\s+3\s+0\.667\s+0\.000\s+0\.000\s+1\.000\s+\+1\.000/);
    expect(text).toMatch(/fillers\s+in 50\.0% of 4 tool requests; top: "asap" 25\.0%, "pls" 25\.0%/);
    expect(text).toMatch(/no-tool\s+2 distinct of 3 requests \(0\.667\)/);
    expect(summarize(d.name, d.catalog, d.cases, d.manifest).realism).toBeUndefined();

    const old = join(mkdtempSync(join(tmpdir(), 'backpack-realism-')), 'old');
    dirs.push(old);
    writeDataset(old, mini, meta);
    expect(readDataset(old).cases).toHaveLength(7);
    expect(readRealism(old)).toBeNull();

    writeFileSync(join(dir, 'realism.json'), '{"schemaVersion": 99, "overall": {}}');
    expect(() => readRealism(dir)).toThrow(InputError);
    expect(() => readDataset(dir)).toThrow(/sha256/);
  });
});
