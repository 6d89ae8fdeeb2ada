import { afterAll, describe, expect, it } from 'vitest';
import { NameMatchRetriever } from '../examples/name-match-retriever.ts';
import { catalogHash } from '../src/catalog/manifest.ts';
import { makeConfig, runEval } from '../src/eval/run.ts';
import { generate, resolveParams } from '../src/generate/index.ts';
import { createRetriever, registerRetriever, unregisterRetriever } from '../src/retrievers/registry.ts';

describe('the one-file retriever of CONTRIBUTING.md', () => {
  registerRetriever('name-match', { description: 'request words found in tool names', create: (name) => new NameMatchRetriever(name) });
  afterAll(() => unregisterRetriever('name-match'));

  it('registers with one line and runs through the evaluation, scope-safe', async () => {
    const g = generate(resolveParams('tiny', 2)).dataset;
    const input = { name: 'tiny-2', source: { kind: 'dataset' as const, ref: 'tiny-2', split: null }, catalog: g.catalog, cases: g.cases, catalogSha256: catalogHash(g.catalog) };
    const run = await runEval(input, makeConfig(['name-match', 'bm25'], [5], { 'name-match': null, bm25: null }, null), { create: (n) => createRetriever(n) });
    const m = run.results.retrievers['name-match']!.metrics.overall;
    expect(m.scopeLeakCount).toBe(0);
    expect(m['recall@5']).toBeGreaterThan(0.05);
    expect(m['recall@5']).toBeLessThan(run.results.retrievers.bm25!.metrics.overall['recall@5']!);
  });
});
