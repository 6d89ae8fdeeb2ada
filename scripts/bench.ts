/**
 * `npm run bench`: runs every `bench/*.bench.ts` suite in its own Node process (so each suite's
 * peak memory is its own), or only those named: `npm run bench -- generate`; then writes
 * `reports/bench/summary.json` from whatever suite results are there (`bench/summary.ts`).
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const dir = join(process.cwd(), 'bench');
const all = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .sort();
const wanted = process.argv.slice(2);
const unknown = wanted.filter((w) => !all.includes(`${w}.bench.ts`));
if (unknown.length) {
  console.error(`unknown suite(s): ${unknown.join(', ')}; suites: ${all.map((f) => f.replace('.bench.ts', '')).join(', ')}`);
  process.exit(2);
}
let failed = 0;
for (const f of all) {
  if (wanted.length && !wanted.includes(f.replace('.bench.ts', ''))) continue;
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(dir, f)], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
const summary = spawnSync(process.execPath, ['--import', 'tsx', join(dir, 'summary.ts')], { stdio: 'inherit' });
process.exit(failed || summary.status !== 0 ? 1 : 0);
