/**
 * Benchmark: `backpack import` on about 200 MB of Claude Code transcripts, in memory (read,
 * join, redact, build the catalog and the cases) and with the dataset written. The transcripts are
 * the real sessions of fixtures/transcripts/claude-code (subagent files included), copied under
 * new session ids until they make 200 MB. Reports time per run, MB/s and the process's peak
 * memory. Run by `npm run bench -- import`; never asserted in tests.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { Bench } from 'tinybench';
import { writeDataset } from '../src/catalog/dataset-files.ts';
import { importTranscripts } from '../src/importers/import.ts';
import { reportSuite, suiteResult } from './report.ts';

const iterations = Number(process.env.BACKPACK_BENCH_ITERATIONS ?? 3);
const TARGET_BYTES = Number(process.env.BACKPACK_BENCH_IMPORT_MB ?? 200) * 1024 * 1024;
const root = mkdtempSync(join(tmpdir(), 'backpack-bench-import-'));
const src = join(root, 'projects');
const fixtures = join(process.cwd(), 'fixtures', 'transcripts', 'claude-code');

const files = (dir: string): string[] =>
  readdirSync(dir)
    .sort()
    .flatMap((n) => (statSync(join(dir, n)).isDirectory() ? files(join(dir, n)) : n.endsWith('.jsonl') ? [join(dir, n)] : []));

// copy the fixtures under fresh session ids (every uuid-like id of a copy rewritten) until TARGET_BYTES
const originals = files(fixtures).map((f) => ({ rel: relative(fixtures, f), text: readFileSync(f, 'utf8') }));
let bytes = 0;
for (let copy = 0; bytes < TARGET_BYTES; copy++) {
  const tag = copy.toString(16).padStart(8, '0');
  for (const { rel, text } of originals) {
    // new session ids, and another year (a copy with the same times and texts would be read as a resumed session's copy)
    const renamed = (s: string) =>
      s.replace(/[0-9a-f]{8}-([0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/g, `${tag}-$1`).replace(/"timestamp":"\d{4}-/g, `"timestamp":"${1800 + copy}-`);
    const path = join(src, `copy-${tag}`, renamed(rel));
    mkdirSync(dirname(path), { recursive: true });
    const out = renamed(text);
    writeFileSync(path, out);
    bytes += Buffer.byteLength(out);
  }
}
const mb = bytes / 1024 / 1024;
const sizes: Record<string, number> = {};
const bench = new Bench({ name: 'import', iterations, time: 0, warmup: false });
const opts = { gold: { kind: 'all' as const }, seed: 7, testShare: 0.5, redact: [], name: 'bench' };

bench
  .add(`import ${Math.round(mb)} MB of Claude Code transcripts (in memory)`, () => {
    const r = importTranscripts([src], opts);
    sizes[`import ${Math.round(mb)} MB of Claude Code transcripts (in memory)`] = r.dataset.cases.length;
  })
  .add(`import + write ${Math.round(mb)} MB`, () => {
    const r = importTranscripts([src], opts);
    writeDataset(join(root, 'ds'), r.dataset, r.manifest);
    sizes[`import + write ${Math.round(mb)} MB`] = r.dataset.cases.length;
  });

await bench.run();
rmSync(root, { recursive: true, force: true });
const result = suiteResult('import', bench.tasks, sizes);
for (const t of result.tasks) console.log(`${t.name}: ${(mb / (t.meanMs / 1000)).toFixed(1)} MB/s, ${t.items} cases`);
reportSuite(result);
