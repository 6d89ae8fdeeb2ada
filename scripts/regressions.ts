/**
 * The project's own expected figures: what Backpack's retrievers score on MetaTool (real data)
 * and on the `small` generated preset (seed 7). `npm run regressions:update` rewrites
 * `regressions/*.json`; `test/regressions.test.ts` fails when a change moves any figure, so a
 * change in retrieval quality is always a visible, reviewed diff.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { catalogHash } from '../src/catalog/manifest.ts';
import type { EvalInput } from '../src/eval/input.ts';
import { loadEvalInput } from '../src/eval/input.ts';
import { makeConfig, runEval } from '../src/eval/run.ts';
import { generate, resolveParams } from '../src/generate/index.ts';
import { PACKAGE_ROOT } from '../src/version.ts';

export interface Figures {
  suite: string;
  catalogSha256: string;
  configHash: string;
  cases: number;
  retrievers: Record<string, { overall: Record<string, number>; slices: Record<string, Record<string, number>> }>;
}

export const SUITES: Record<string, () => EvalInput> = {
  metatool: () => loadEvalInput({ kind: 'dataset', ref: join(PACKAGE_ROOT, 'datasets', 'metatool'), split: null }),
  'small-7': () => {
    const g = generate(resolveParams('small', 7));
    return { name: 'small-7', source: { kind: 'dataset', ref: 'small-7', split: null }, catalog: g.dataset.catalog, cases: g.dataset.cases, catalogSha256: catalogHash(g.dataset.catalog) };
  },
};

export const RETRIEVERS_CHECKED = ['bm25', 'bm25-plain'];

export function figuresFile(suite: string): string {
  return join(PACKAGE_ROOT, 'regressions', `${suite}.json`);
}

export async function computeFigures(suite: string): Promise<Figures> {
  const input = SUITES[suite]!();
  const config = makeConfig(RETRIEVERS_CHECKED, [1, 3, 5, 10], Object.fromEntries(RETRIEVERS_CHECKED.map((r) => [r, null])), null);
  const run = await runEval(input, config);
  return {
    suite,
    catalogSha256: input.catalogSha256,
    configHash: run.results.configHash,
    cases: input.cases.length,
    retrievers: Object.fromEntries(Object.entries(run.results.retrievers).map(([n, r]) => [n, { overall: r.metrics.overall, slices: r.metrics.slices }])),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const suite of Object.keys(SUITES)) {
    const f = await computeFigures(suite);
    writeFileSync(figuresFile(suite), `${JSON.stringify(f, null, 2)}\n`);
    const o = f.retrievers.bm25!.overall;
    console.log(`${suite}: bm25 top1 ${o.top1?.toFixed(4)} recall@5 ${o['recall@5']?.toFixed(4)} → regressions/${suite}.json`);
  }
}
