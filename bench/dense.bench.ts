/**
 * Benchmark: dense exact top-10 (`VectorIndex` in `src/retrievers/embed/kernel.ts`) over 50,000
 * vectors, against this machine's memory bandwidth measured in the same run.
 *
 * - bandwidth: a single-thread streaming read of a buffer far beyond the caches, in WebAssembly
 *   SIMD like the kernel (`bandwidth.ts`); the best read method is the limit.
 * - cases: the default model's dimension (`models/glove-static-30k/config.json`, 100) and 384 (a
 *   sentence model's), float32 and int8 rows, one query per request (p50 / p99 over every query)
 *   and `searchBatch` of 32 and 128 queries (time per request = batch time ÷ batch size, median
 *   over the batches). Vectors and queries: random Gaussian, normalised, from a fixed seed.
 * - bytes per query = the index's stored rows (`vectorBytes`, rows padded to the kernel's step),
 *   all of which a query streams; achieved GB/s = bytes per query ÷ time per query; fraction of
 *   bandwidth = achieved ÷ measured bandwidth. A batch reads each row once for up to
 *   BATCH_BLOCK queries, so its (effective) rate can exceed the bandwidth: that is the point. So
 *   can a single query's when the index fits in the last-level cache (reported as `lastLevelCache`;
 *   100 dims × 50,000 float32 is 22 MB).
 * - batched faster per request: each batch case's wall time per query over the whole case below the
 *   single-query case's (`meanPerQueryMs`), and the same in process CPU time (`cpuPerQueryMs`,
 *   which time-sharing with other processes does not inflate; see `loadAverage`).
 *
 * Writes `reports/bench/dense.json` and prints a table. Run by `npm run bench -- dense`; never
 * asserted in tests. Environment: BACKPACK_BENCH_QUERIES (default 512, per case),
 * BACKPACK_BENCH_ROWS (default 50000), BACKPACK_BENCH_BANDWIDTH_MB (default 512).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { BATCH_BLOCK, VectorIndex, type VectorType } from '../src/retrievers/embed/kernel.ts';
import { measureBandwidth } from './bandwidth.ts';
import { suiteHeader, type TaskResult } from './report.ts';
import { prng } from '../test/prng.ts';

const ROWS = Number(process.env.BACKPACK_BENCH_ROWS ?? 50_000);
const QUERIES = Math.max(500, Number(process.env.BACKPACK_BENCH_QUERIES ?? 512));
const BANDWIDTH_BYTES = Number(process.env.BACKPACK_BENCH_BANDWIDTH_MB ?? 512) * 2 ** 20;
const K = 10;
const BATCHES = [32, 128];
const SEED = 20240601;

const modelConfig = JSON.parse(readFileSync(join(process.cwd(), 'models', 'glove-static-30k', 'config.json'), 'utf8')) as { hidden_size: number };
const DIMS = [modelConfig.hidden_size, 384];

/** `count` unit vectors of `dims` Gaussian values (Box–Muller), row-major. */
function unitVectors(count: number, dims: number, rand: () => number): Float32Array {
  const out = new Float32Array(count * dims);
  for (let i = 0; i < count; i++) {
    let norm = 0;
    for (let j = 0; j < dims; j++) {
      const g = Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
      out[i * dims + j] = g;
      norm += g * g;
    }
    const inv = 1 / Math.sqrt(norm || 1);
    for (let j = 0; j < dims; j++) out[i * dims + j]! *= inv;
  }
  return out;
}

/** The last-level cache as Linux reports it (a VM may report the host's), or null. */
function lastLevelCache(): string | null {
  for (const level of [3, 2]) {
    const f = `/sys/devices/system/cpu/cpu0/cache/index${level}/size`;
    if (existsSync(f)) return `L${level} ${readFileSync(f, 'utf8').trim()}`;
  }
  return null;
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;

interface Case {
  dims: number;
  rows: number;
  type: VectorType;
  mode: 'single' | 'batch';
  batch: number;
  queries: number;
  p50Ms?: number;
  p99Ms?: number;
  /** single: the p50; batch: the median over batches of batch time ÷ batch size. */
  perQueryMs: number;
  /** Wall time of the whole case ÷ queries answered (throughput; what `batchedFasterPerRequest` compares). */
  meanPerQueryMs: number;
  /** Process CPU time per query over the case (user + system): insensitive to time-sharing with other processes. */
  cpuPerQueryMs: number;
  bytesPerQuery: number;
  achievedGBps: number;
  /** A batch reads each row once per block of queries: its rate is effective, not a read rate. */
  effective: boolean;
  fractionOfBandwidth: number;
  kernel: string;
  samples: number[];
}

let sink = 0;
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const loadBefore = loadavg()[0]!;
const bandwidthBefore = measureBandwidth(BANDWIDTH_BYTES);
const cases: Case[] = [];

for (const dims of DIMS) {
  const rand = prng(SEED + dims);
  const vectors = unitVectors(ROWS, dims, rand);
  const queries = Array.from({ length: QUERIES }, () => unitVectors(1, dims, rand));
  const rank = new Uint32Array(ROWS).map((_, i) => i);
  for (const type of ['float32', 'int8'] as VectorType[]) {
    const index = new VectorIndex(vectors, dims, rank, type);
    const bytesPerQuery = index.vectorBytes;
    const push = (mode: Case['mode'], batch: number, samples: number[], perQueryMs: number, cpuPerQueryMs: number, extra: Partial<Case>) => {
      const achievedGBps = bytesPerQuery / (perQueryMs / 1000) / 1e9;
      const meanPerQueryMs = samples.reduce((a, b) => a + b, 0) / samples.length;
      cases.push({
        dims,
        rows: ROWS,
        type,
        mode,
        batch,
        queries: samples.length * batch,
        ...extra,
        perQueryMs,
        meanPerQueryMs,
        cpuPerQueryMs,
        bytesPerQuery,
        achievedGBps,
        effective: mode === 'batch',
        fractionOfBandwidth: 0,
        kernel: index.kernel,
        samples,
      });
    };
    // Warm up (WebAssembly tier-up, JIT) on both paths.
    for (let i = 0; i < 20; i++) sink += index.search(queries[i]!, K).length;
    for (const b of BATCHES) sink += index.searchBatch(queries.slice(0, b), K).length;
    // One query per request.
    const single: number[] = [];
    let cpu0 = cpuMs();
    for (const q of queries) {
      const t0 = performance.now();
      sink += index.search(q, K)[0]!.index;
      single.push(performance.now() - t0);
    }
    const singleCpu = (cpuMs() - cpu0) / single.length;
    const sorted = [...single].sort((a, b) => a - b);
    push('single', 1, single, quantile(sorted, 0.5), singleCpu, { p50Ms: quantile(sorted, 0.5), p99Ms: quantile(sorted, 0.99) });
    // Batches: every query, twice, in batches of b.
    for (const b of BATCHES) {
      const per: number[] = [];
      cpu0 = cpuMs();
      for (let pass = 0; pass < 2; pass++) {
        for (let s = 0; s + b <= QUERIES; s += b) {
          const batch = queries.slice(s, s + b);
          const t0 = performance.now();
          sink += index.searchBatch(batch, K).length;
          per.push((performance.now() - t0) / b);
        }
      }
      push(
        'batch',
        b,
        per,
        quantile(
          [...per].sort((x, y) => x - y),
          0.5,
        ),
        (cpuMs() - cpu0) / (per.length * b),
        {},
      );
    }
  }
}

const bandwidthAfter = measureBandwidth(BANDWIDTH_BYTES);
const bandwidth = bandwidthAfter.gbps > bandwidthBefore.gbps ? bandwidthAfter : bandwidthBefore;
for (const c of cases) c.fractionOfBandwidth = c.achievedGBps / bandwidth.gbps;
if (sink === -1) console.log(sink);

const find = (dims: number, type: VectorType, mode: Case['mode'], batch: number) =>
  cases.find((c) => c.dims === dims && c.type === type && c.mode === mode && c.batch === batch)!;
const headline = find(384, 'float32', 'single', 1);
// Per request, batched against one at a time: wall time per query over each whole case (a median
// would favour the short single queries, which time-sharing with other processes interrupts less
// often than a long batch), and CPU time per query (insensitive to time-sharing).
const batchCases = cases.filter((c) => c.mode === 'batch');
const batchedFaster = batchCases.every((c) => c.meanPerQueryMs < find(c.dims, c.type, 'single', 1).meanPerQueryMs);
const batchedFasterCpu = batchCases.every((c) => c.cpuPerQueryMs < find(c.dims, c.type, 'single', 1).cpuPerQueryMs);
const round = (x: number, d = 4) => Number(x.toFixed(d));

const tasks: TaskResult[] = cases.map((c) => {
  const s = [...c.samples].sort((a, b) => a - b);
  return {
    name: `top-${K} ${c.rows}×${c.dims} ${c.type} ${c.mode === 'single' ? 'single' : `batch ${c.batch}`} (per query)`,
    runs: s.length,
    meanMs: s.reduce((a, b) => a + b, 0) / s.length,
    p50Ms: quantile(s, 0.5),
    minMs: s[0]!,
    maxMs: s[s.length - 1]!,
    items: 1,
  };
});

const report = {
  ...suiteHeader('dense', 'unknown'),
  /** An index smaller than this may be read from cache rather than memory: its fraction can exceed 1. */
  lastLevelCache: lastLevelCache(),
  k: K,
  vectors: `random Gaussian, normalised (mulberry32 seed ${SEED} + dims), ${QUERIES} queries per case; dims ${DIMS[0]} from models/glove-static-30k/config.json`,
  batchBlock: BATCH_BLOCK,
  /** 1-minute load average before and after: above the cpu count, other processes shared the cores. */
  loadAverage: { before: round(loadBefore, 2), after: round(loadavg()[0]!, 2) },
  bandwidth: {
    gbps: round(bandwidth.gbps, 2),
    method: bandwidth.method,
    bytes: bandwidth.bytes,
    note: 'single thread, best of 5 passes, measured before and after the cases (the higher is kept)',
    before: bandwidthBefore.methods.map((m) => ({ ...m, gbps: round(m.gbps, 2) })),
    after: bandwidthAfter.methods.map((m) => ({ ...m, gbps: round(m.gbps, 2) })),
  },
  cases: cases.map(({ samples: _samples, ...c }) => ({
    ...c,
    p50Ms: c.p50Ms === undefined ? undefined : round(c.p50Ms),
    p99Ms: c.p99Ms === undefined ? undefined : round(c.p99Ms),
    perQueryMs: round(c.perQueryMs),
    meanPerQueryMs: round(c.meanPerQueryMs),
    cpuPerQueryMs: round(c.cpuPerQueryMs),
    achievedGBps: round(c.achievedGBps, 2),
    fractionOfBandwidth: round(c.fractionOfBandwidth, 3),
  })),
  fractionOfBandwidth: round(headline.fractionOfBandwidth, 3),
  target: { within2xOfBandwidth: headline.fractionOfBandwidth >= 0.5, batchedFasterPerRequest: batchedFaster, batchedFasterPerRequestCpu: batchedFasterCpu },
  tasks,
  peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
};

const dir = join(process.cwd(), 'reports', 'bench');
mkdirSync(dir, { recursive: true });
writeFileSync(join(dir, 'dense.json'), JSON.stringify(report, null, 2) + '\n');

console.log(`\ndense: exact top-${K} over ${ROWS.toLocaleString('en')} vectors (${report.cpuModel}, ${report.cpus} cpus, node ${report.node})`);
console.log(
  `bandwidth ${report.bandwidth.gbps} GB/s (${bandwidth.method}, ${(bandwidth.bytes / 2 ** 20).toFixed(0)} MiB); load average ${report.loadAverage.before} → ${report.loadAverage.after}`,
);
console.table(
  cases.map((c) => ({
    dims: c.dims,
    type: c.type,
    mode: c.mode === 'single' ? 'single' : `batch ${c.batch}`,
    'ms/query': c.perQueryMs.toFixed(3),
    'mean ms': c.meanPerQueryMs.toFixed(3),
    'p50 ms': c.p50Ms?.toFixed(3) ?? '',
    'p99 ms': c.p99Ms?.toFixed(3) ?? '',
    'cpu ms/query': c.cpuPerQueryMs.toFixed(3),
    'MB/query': (c.bytesPerQuery / 1e6).toFixed(1),
    'GB/s': `${c.achievedGBps.toFixed(1)}${c.effective ? ' (eff.)' : ''}`,
    'of bandwidth': c.fractionOfBandwidth.toFixed(2),
  })),
);
console.log(
  `384-d float32 single query: ${(headline.fractionOfBandwidth * 100).toFixed(0)}% of bandwidth (target ≥ 50%: ${report.target.within2xOfBandwidth ? 'met' : 'NOT met'}); batched faster per request: ${batchedFaster ? 'yes' : 'NO'} (wall), ${batchedFasterCpu ? 'yes' : 'NO'} (cpu)`,
);
console.log(`peak RSS ${report.peakRssMb} MB  →  reports/bench/dense.json`);
