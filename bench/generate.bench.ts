/**
 * Benchmark: generating the monster company (50,000+ tools, 2,500 skills, 6,000 cases) in memory,
 * and writing it as a dataset folder. Reports time per run and the process's peak memory. Run by
 * `npm run bench`; never asserted in tests.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Bench } from 'tinybench';
import { writeDataset } from '../src/catalog/dataset-files.ts';
import { generate, resolveParams } from '../src/generate/index.ts';
import { reportSuite, suiteResult } from './report.ts';

const iterations = Number(process.env.BACKPACK_BENCH_ITERATIONS ?? 3);
const out = mkdtempSync(join(tmpdir(), 'backpack-bench-'));
const bench = new Bench({ name: 'generate', iterations, time: 0, warmup: false });
const sizes: Record<string, number> = {};

bench
  .add('generate small (in memory)', () => {
    const g = generate(resolveParams('small', 7));
    sizes['generate small (in memory)'] = g.dataset.catalog.tools.length;
  })
  .add('generate monster (in memory)', () => {
    const g = generate(resolveParams('monster', 7));
    sizes['generate monster (in memory)'] = g.dataset.catalog.tools.length;
  })
  .add('generate + write monster', () => {
    const g = generate(resolveParams('monster', 7));
    writeDataset(join(out, 'monster-7'), g.dataset, g.manifest);
    sizes['generate + write monster'] = g.dataset.catalog.tools.length;
  });

await bench.run();
rmSync(out, { recursive: true, force: true });

reportSuite(suiteResult('generate', bench.tasks, sizes));
