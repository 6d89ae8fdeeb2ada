/**
 * Benchmark: how generation, indexing, request latency and memory grow with the catalog, at 5,000,
 * 50,000, 200,000 and 500,000 tools (`monster` preset, seed 7, `--tools N`). Run by
 * `npm run bench -- scale`; never asserted in tests.
 *
 * Each size runs in its own Node process (`bench/scale/one-size.ts`, one after another, never in
 * parallel) with `--max-old-space-size=16384 --expose-gc`, so it has the heap 500,000 tools need and
 * its own peak RSS. Fixed at every size: 200 skills (the preset's 2,500 do not fit a 5,000-tool
 * company), 6,000 cases, and the first 2,000 cases labelled with tools as the timed requests (top-10,
 * each timed alone after 200 untimed warm-up requests). `embed` is the registry's `embed` (recipe
 * `source+intent`, offline GloVe model) with the vector cache off (`cacheDir: null`): a cold encode of
 * every tool; the model is loaded before the timed index.
 *
 * Writes `reports/bench/scale.json` and `reports/bench/scale.png`, prints a table and the growth of
 * each figure from 50,000 to 500,000 tools (target: ≤ 12× for 10× the tools).
 * Environment: `BACKPACK_SCALE_SIZES=5000,50000` (other sizes), `BACKPACK_SCALE_REQUESTS=500`,
 * `BACKPACK_SCALE_NODE_FLAGS="--max-semi-space-size=64"` (extra V8 flags for the size processes; recorded
 * in the report; the default run uses none, so it measures what a user gets).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderPanels, scalePanels } from './scale/chart.ts';
import { RESULT_PREFIX, SCALE_CASES, SCALE_REQUESTS, SCALE_SKILLS, type SizeResult } from './scale/one-size.ts';
import { suiteHeader } from './report.ts';

const started = performance.now();
const sizes = (process.env.BACKPACK_SCALE_SIZES ?? '5000,50000,200000,500000').split(',').map((s) => Number(s.trim()));
const requests = Number(process.env.BACKPACK_SCALE_REQUESTS ?? SCALE_REQUESTS);
const nodeFlags = (process.env.BACKPACK_SCALE_NODE_FLAGS ?? '').split(/\s+/).filter((f) => f !== '');
const LIMIT = 12;
const BASE = 50_000;
const TOP = 500_000;
const child = fileURLToPath(new URL('./scale/one-size.ts', import.meta.url));

const results: SizeResult[] = [];
for (const n of sizes) {
  const t = performance.now();
  const r = spawnSync(
    process.execPath,
    ['--max-old-space-size=16384', '--expose-gc', ...nodeFlags, '--import', 'tsx', child, String(n), String(SCALE_CASES), String(requests)],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
      encoding: 'utf8',
      maxBuffer: 64 * 2 ** 20,
    },
  );
  const line = r.stdout?.split('\n').find((l) => l.startsWith(RESULT_PREFIX));
  if (r.status !== 0 || line === undefined) {
    console.error(`scale: the ${n}-tool run failed (exit ${r.status}${r.signal ? `, ${r.signal}` : ''})`);
    process.exit(1);
  }
  results.push(JSON.parse(line.slice(RESULT_PREFIX.length)) as SizeResult);
  console.error(`[scale] ${n} tools done in ${((performance.now() - t) / 1000).toFixed(1)} s`);
}

/** The figures compared across sizes: name → value of one size. */
const FIGURES: Record<string, (s: SizeResult) => number> = {
  generateMs: (s) => s.generateMs,
  generateCpuMs: (s) => s.generateCpuMs,
  /** Wall time less main-thread GC pauses: the work itself. */
  generateNonGcMs: (s) => s.generateMs - s.generateGcMs,
  bm25IndexMs: (s) => s.bm25.indexMs,
  bm25IndexCpuMs: (s) => s.bm25.indexCpuMs,
  bm25IndexNonGcMs: (s) => s.bm25.indexMs - s.bm25.indexGcMs,
  bm25P50Ms: (s) => s.bm25.p50Ms,
  bm25P99Ms: (s) => s.bm25.p99Ms,
  /** Tools scored per request: the work a BM25 search does (posting-list length). */
  bm25ScoredPerRequest: (s) => s.bm25.scoredPerRequest,
  embedIndexMs: (s) => s.embed.indexMs,
  embedIndexCpuMs: (s) => s.embed.indexCpuMs,
  embedIndexNonGcMs: (s) => s.embed.indexMs - s.embed.indexGcMs,
  embedP50Ms: (s) => s.embed.p50Ms,
  embedP99Ms: (s) => s.embed.p99Ms,
  catalogHeapMb: (s) => s.catalogHeapMb,
  /** JS heap used holding the catalog and the BM25 index. */
  heapMb: (s) => s.bm25.heapMb,
  bm25IndexMb: (s) => s.bm25.indexMb,
  embedIndexMb: (s) => s.embed.indexMb,
  peakRssMb: (s) => s.peakRssMb,
};

function growth(over: SizeResult | undefined, base: SizeResult | undefined): Record<string, number> | null {
  if (!over || !base) return null;
  const out: Record<string, number> = { tools: Math.round((over.tools / base.tools) * 100) / 100 };
  for (const [k, f] of Object.entries(FIGURES)) out[k] = Math.round((f(over) / f(base)) * 100) / 100;
  return out;
}

const base = results.find((s) => s.tools === BASE);
const top = results.find((s) => s.tools === TOP);
const g = growth(top, base);
const linear = g
  ? Object.fromEntries(
      Object.entries(g)
        .filter(([k]) => k !== 'tools')
        .map(([k, v]) => [k, v <= LIMIT]),
    )
  : null;

const report = {
  ...suiteHeader('scale'),
  nodeFlags: ['--max-old-space-size=16384', '--expose-gc', ...nodeFlags],
  method: {
    generator: `generate(resolveParams('monster', 7, { tools: N, skills: ${SCALE_SKILLS}, cases: ${SCALE_CASES} })): skills fixed (the preset's 2,500 exceed the 230 a 5,000-tool company can hold), cases fixed`,
    requests: `the first ${requests} cases with expectedTools non-empty, top-10, each timed alone (wall clock) after 200 untimed warm-up requests; the request texts differ by size (they name that catalog's tools), their number and generator do not`,
    bm25: "createRetriever('bm25')",
    embed:
      "createEmbed('embed', { recipe: 'source+intent', cacheDir: null }): the registry's embed with the vector cache off (cold encode of every tool); model loaded and JIT warmed on a 1,000-tool slice before the timed index",
    memory:
      'process.memoryUsage() after two forced full GCs (--expose-gc). heapMb / catalogHeapMb: JS heap used; indexMb: growth of heapUsed + external (typed-array backing stores and the WebAssembly memory of the embed kernel) across index(); rssDeltaMb: growth of RSS across index() (noisy: pages freed by the previous retriever are reused); peakRssMb: the size process maxRSS',
    isolation: 'each size in its own process (--max-old-space-size=16384 --expose-gc), sizes run one after another',
    cpuMs: 'process CPU time (user + system, all threads) of the stage: less sensitive than wall time to other load on the machine',
    gc: 'generateGcMs / indexGcMs: main-thread GC pauses (perf_hooks gc entries) that started inside the stage, fullGcs the mark-compacts among them; *NonGcMs figures = wall ms less those pauses',
    expectedLatencyGrowth:
      'bm25: proportional to the postings a request scans (bm25ScoredPerRequest, tools sharing a query term), about linear in the catalog; embed: exact top-k scans every vector, linear, plus a constant request-encoding cost (encodeFloorP50Ms)',
  },
  sizes: results,
  growth500kOver50k: g,
  linearLimit: LIMIT,
  linear,
  suiteMs: 0,
};

const dir = join(process.cwd(), 'reports', 'bench');
mkdirSync(dir, { recursive: true });
const tools = results.map((s) => s.tools);
const png = await renderPanels(scalePanels(results, requests), tools, BASE);
writeFileSync(join(dir, 'scale.png'), png);

const fmt = (x: number, d = 0): string => x.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });
console.log('\nscale');
console.table(
  results.map((s) => ({
    tools: fmt(s.tools),
    'gen s (GC)': `${fmt(s.generateMs / 1000, 1)} (${fmt(s.generateGcMs / 1000, 1)})`,
    'bm25 idx ms (GC)': `${fmt(s.bm25.indexMs)} (${fmt(s.bm25.indexGcMs)})`,
    'bm25 p50/p99 ms': `${fmt(s.bm25.p50Ms, 3)} / ${fmt(s.bm25.p99Ms, 3)}`,
    'embed idx s (GC)': `${fmt(s.embed.indexMs / 1000, 1)} (${fmt(s.embed.indexGcMs / 1000, 1)})`,
    'embed p50/p99 ms': `${fmt(s.embed.p50Ms, 2)} / ${fmt(s.embed.p99Ms, 2)}`,
    'catalog heap MB': fmt(s.catalogHeapMb),
    'bm25 idx MB': fmt(s.bm25.indexMb),
    'embed idx MB': fmt(s.embed.indexMb),
    'peak RSS MB': fmt(s.peakRssMb),
  })),
);
if (g && linear) {
  console.log(`growth ${TOP / 1000}k ÷ ${BASE / 1000}k (${g.tools}× the tools; linear if ≤ ${LIMIT}×):`);
  console.table(
    Object.entries(g)
      .filter(([k]) => k !== 'tools')
      .map(([figure, x]) => ({ figure, growth: `${x.toFixed(2)}×`, linear: linear[figure] ? 'yes' : 'NO' })),
  );
} else {
  console.log(`growth: needs both the ${BASE}- and ${TOP}-tool sizes`);
}
report.suiteMs = Math.round(performance.now() - started);
writeFileSync(join(dir, 'scale.json'), JSON.stringify(report, null, 2) + '\n');
console.log(`suite ${fmt(report.suiteMs / 1000, 0)} s  →  reports/bench/scale.json, reports/bench/scale.png`);
