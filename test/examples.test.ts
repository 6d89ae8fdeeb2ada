import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NameMatchRetriever } from '../examples/name-match-retriever.ts';
import { tsvReport } from '../examples/tsv-report.ts';
import { catalogHash } from '../src/catalog/manifest.ts';
import { makeConfig, runEval } from '../src/eval/run.ts';
import { generate, resolveParams } from '../src/generate/index.ts';
import { reportFormats, writeReportFile, writeReportFormats } from '../src/report/formats.ts';
import { createRetriever, registerRetriever, unregisterRetriever } from '../src/retrievers/registry.ts';
import { tempDir, tinyInput } from './helpers.ts';

describe('the one-file retriever of CONTRIBUTING.md', () => {
  registerRetriever('name-match', { description: 'request words found in tool names', create: (name) => new NameMatchRetriever(name) });
  afterAll(() => unregisterRetriever('name-match'));

  it('registers with one line and runs through the evaluation, scope-safe', async () => {
    const g = generate(resolveParams('tiny', 2)).dataset;
    const input = {
      name: 'tiny-2',
      source: { kind: 'dataset' as const, ref: 'tiny-2', split: null },
      catalog: g.catalog,
      cases: g.cases,
      catalogSha256: catalogHash(g.catalog),
    };
    const run = await runEval(input, makeConfig(['name-match', 'bm25'], [5], { 'name-match': null, bm25: null }, null), { create: (n) => createRetriever(n) });
    const m = run.results.retrievers['name-match']!.metrics.overall;
    expect(m.scopeLeakCount).toBe(0);
    expect(m['recall@5']).toBeGreaterThan(0.05);
    expect(m['recall@5']).toBeLessThan(run.results.retrievers.bm25!.metrics.overall['recall@5']!);
  });
});

describe('the one-file report format of CONTRIBUTING.md', () => {
  reportFormats.register('tsv', {
    description: 'one line per retriever: its overall recall@k',
    files: ['figures.tsv'],
    write: (job) => writeReportFile(job, 'figures.tsv', tsvReport(job.run.results)),
  });
  afterAll(() => reportFormats.unregister('tsv'));

  it('registers with one line and is written after the built-in formats', async () => {
    const { input } = tinyInput(2);
    const run = await runEval(input, makeConfig(['bm25', 'bm25-plain'], [1, 5], { bm25: null, 'bm25-plain': null }, null));
    const out = tempDir('tsv-report');
    expect(writeReportFormats(run, out, ['tsv', 'md'], {})).toEqual(['summary.md', 'figures.tsv']);
    const lines = readFileSync(join(out, 'figures.tsv'), 'utf8').trimEnd().split('\n');
    expect(lines[0]).toBe('retriever\trecall@1\trecall@5');
    expect(lines.slice(1).map((l) => l.split('\t')[0])).toEqual(['bm25', 'bm25-plain']);
    expect(Number(lines[1]!.split('\t')[2])).toBeCloseTo(run.results.retrievers.bm25!.metrics.overall['recall@5']!, 3);
  });
});
