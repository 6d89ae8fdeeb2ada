/**
 * One size of the scale benchmark, in its own process (spawned by `bench/scale.bench.ts` with a
 * large heap and `--expose-gc`, so each size has its own clean peak RSS):
 *
 *   node --max-old-space-size=16384 --expose-gc --import tsx bench/scale/one-size.ts TOOLS [CASES] [REQUESTS]
 *
 * Steps: generate `monster` seed 7 with `--tools TOOLS` (fixed skills and cases, so the requests are
 * comparable across sizes); keep the catalog and the first REQUESTS tool-labelled requests; then for
 * `bm25` and `embed`, one at a time: index (timed), memory, top-10 latency of every request (each
 * timed alone), then drop the retriever before the next. Prints the result as one JSON line
 * prefixed with {@link RESULT_PREFIX}; progress goes to stderr.
 *
 * Memory: after a forced full GC (twice), `process.memoryUsage()`. `heapUsed` is the JS heap;
 * typed arrays' backing stores (BM25 postings) live outside it, in `external` (`arrayBuffers`), and
 * so does the embedding kernel's WebAssembly memory (in `external`, not `arrayBuffers`). An index's
 * size is therefore reported as the growth of heapUsed + external across `index()`, and RSS beside it.
 */
import { constants, PerformanceObserver } from 'node:perf_hooks';
import v8 from 'node:v8';
import vm from 'node:vm';
import { pathToFileURL } from 'node:url';
import type { Catalog } from '../../src/catalog/types.ts';
import { generate, resolveParams } from '../../src/generate/index.ts';
import { createEmbed, REGISTRY_RECIPE } from '../../src/retrievers/embed/index.ts';
import { createRetriever } from '../../src/retrievers/registry.ts';
import { hasDenseScores, type Retriever } from '../../src/retrievers/types.ts';

export const RESULT_PREFIX = '@@scale ';
/** Skills at every size: the preset's 2,500 exceed what a 5,000-tool company (9 servers) can hold (230). */
export const SCALE_SKILLS = 200;
export const SCALE_CASES = 6_000;
export const SCALE_REQUESTS = 2_000;
/** Requests run (untimed) before the timed ones, and tools indexed once before the timed index, to warm the JIT and load the model. */
const WARM_REQUESTS = 200;
const WARM_TOOLS = 1_000;

export interface MemorySample {
  heapUsedMb: number;
  externalMb: number;
  arrayBuffersMb: number;
  rssMb: number;
}

export interface RetrieverFigures {
  indexMs: number;
  /** CPU time (user + system, all threads) of `index()`: less sensitive than wall time to other processes on the machine. */
  indexCpuMs: number;
  /** Main-thread GC pauses during `index()` (part of `indexMs`), and how many were full GCs. */
  indexGcMs: number;
  indexFullGcs: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  meanMs: number;
  /** Absolute JS heap used after `index()` (after GC), catalog and requests included. */
  heapMb: number;
  /** Growth of heapUsed + external across `index()`: the index's own size (JS objects and typed arrays). */
  indexMb: number;
  /** Growth of RSS across `index()` (noisy: freed pages of the previous retriever are reused). */
  rssDeltaMb: number;
  memory: MemorySample;
  /** Mean number of hits returned (≤ 10). */
  meanHits: number;
  /** Retriever-specific counters (postings, terms; texts encoded, cache hits). */
  stats?: object;
  /** Mean tools scored per request (BM25: those sharing a query term; exact dense: every tool), over the first 200 requests. */
  scoredPerRequest: number;
}

export interface SizeResult {
  tools: number;
  cases: number;
  skills: number;
  servers: number;
  requests: number;
  generateMs: number;
  /** CPU time (user + system, all threads) of the generation. */
  generateCpuMs: number;
  /** Main-thread GC pauses during the generation (part of `generateMs`), and how many were full GCs. */
  generateGcMs: number;
  generateFullGcs: number;
  /** JS heap used after GC with the modules loaded, before generating. */
  baselineHeapMb: number;
  /** JS heap used after GC holding the catalog and the request texts (the rest of the dataset dropped). */
  catalogHeapMb: number;
  catalogMemory: MemorySample;
  bm25: RetrieverFigures;
  embed: RetrieverFigures & {
    /** Model load and first encode (warm-up, outside `indexMs`). */
    modelLoadMs: number;
    /** p50 latency over the same requests of an embed index of only 1,000 tools: the request-encoding floor. */
    encodeFloorP50Ms: number;
  };
  peakRssMb: number;
  totalMs: number;
}

const mb = (bytes: number): number => Math.round((bytes / 2 ** 20) * 10) / 10;
const round = (x: number, digits = 3): number => Math.round(x * 10 ** digits) / 10 ** digits;

let gcFn: (() => void) | undefined;
/** A full GC: `--expose-gc` if given, else the v8 flag set at run time. */
function gc(): void {
  if (gcFn === undefined) {
    const g = (globalThis as { gc?: () => void }).gc;
    if (typeof g === 'function') gcFn = g;
    else {
      v8.setFlagsFromString('--expose-gc');
      gcFn = vm.runInNewContext('gc') as () => void;
    }
  }
  gcFn();
}

/** Every GC pause of the process (start on the `performance.now()` clock, duration, full or not). */
const pauses: Array<{ start: number; ms: number; full: boolean }> = [];
let observer: PerformanceObserver | undefined;
function observeGc(): void {
  if (observer) return;
  observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries())
      pauses.push({ start: e.startTime, ms: e.duration, full: (e.detail as { kind?: number } | undefined)?.kind === constants.NODE_PERFORMANCE_GC_MAJOR });
  });
  observer.observe({ entryTypes: ['gc'] });
}

export interface Timing {
  ms: number;
  /** CPU time (user + system, all threads, so concurrent GC threads too). */
  cpuMs: number;
  /** Main-thread GC pauses inside the stage (wall ms): part of `ms`. */
  gcMs: number;
  /** Full (mark-compact) GCs inside the stage. */
  fullGcs: number;
}

/** Wall, CPU and GC-pause milliseconds of `f`. */
async function timed<T>(f: () => T | Promise<T>): Promise<Timing & { value: T }> {
  observeGc();
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const value = await f();
  const t1 = performance.now();
  const c = process.cpuUsage(c0);
  await new Promise((resolve) => setTimeout(resolve, 20)); // GC entries are delivered asynchronously
  const inside = pauses.filter((p) => p.start >= t0 && p.start < t1);
  return {
    value,
    ms: Math.round(t1 - t0),
    cpuMs: Math.round((c.user + c.system) / 1000),
    gcMs: Math.round(inside.reduce((a, p) => a + p.ms, 0)),
    fullGcs: inside.filter((p) => p.full).length,
  };
}

function memory(): MemorySample {
  gc();
  gc();
  const m = process.memoryUsage();
  return { heapUsedMb: mb(m.heapUsed), externalMb: mb(m.external), arrayBuffersMb: mb(m.arrayBuffers), rssMb: mb(m.rss) };
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

function log(msg: string): void {
  process.stderr.write(`[scale ${process.argv[2]}] ${msg}\n`);
}

async function latencies(
  r: Retriever,
  requests: readonly string[],
): Promise<{ p50Ms: number; p90Ms: number; p99Ms: number; meanMs: number; meanHits: number }> {
  for (const q of requests.slice(0, WARM_REQUESTS)) await r.search(q, { k: 10 });
  const times: number[] = [];
  let hits = 0;
  for (const q of requests) {
    const t = performance.now();
    const h = await r.search(q, { k: 10 });
    times.push(performance.now() - t);
    hits += h.length;
  }
  const mean = times.reduce((a, b) => a + b, 0) / times.length;
  times.sort((a, b) => a - b);
  return {
    p50Ms: round(percentile(times, 50)),
    p90Ms: round(percentile(times, 90)),
    p99Ms: round(percentile(times, 99)),
    meanMs: round(mean),
    meanHits: round(hits / requests.length, 2),
  };
}

async function measure(r: Retriever, catalog: Catalog, requests: readonly string[]): Promise<RetrieverFigures> {
  const before = memory();
  const { ms: indexMs, cpuMs: indexCpuMs, gcMs: indexGcMs, fullGcs: indexFullGcs } = await timed(() => r.index(catalog));
  const after = memory();
  log(`${r.name}: indexed in ${indexMs} ms (CPU ${indexCpuMs} ms, GC pauses ${indexGcMs} ms, ${indexFullGcs} full GCs)`);
  const lat = await latencies(r, requests);
  log(`${r.name}: p50 ${lat.p50Ms} ms, p99 ${lat.p99Ms} ms`);
  const stats = typeof (r as { stats?: () => object }).stats === 'function' ? (r as unknown as { stats: () => object }).stats() : undefined;
  return {
    indexMs,
    indexCpuMs,
    indexGcMs,
    indexFullGcs,
    ...lat,
    heapMb: after.heapUsedMb,
    indexMb: round(after.heapUsedMb + after.externalMb - (before.heapUsedMb + before.externalMb), 1),
    rssDeltaMb: round(after.rssMb - before.rssMb, 1),
    memory: after,
    ...(stats !== undefined ? { stats } : {}),
    scoredPerRequest: await scored(r, requests.slice(0, WARM_REQUESTS)),
  };
}

/** Mean tools a search scores per request, from `denseScores` (`returned` marks them); NaN without it. */
async function scored(r: Retriever, requests: readonly string[]): Promise<number> {
  if (!hasDenseScores(r)) return NaN;
  let total = 0;
  for (const q of requests) {
    const { returned } = await r.denseScores(q, {});
    for (let i = 0; i < returned.length; i++) total += returned[i]!;
  }
  return Math.round(total / requests.length);
}

/** The figures of one catalog size. */
export async function runSize(tools: number, cases = SCALE_CASES, requestCount = SCALE_REQUESTS): Promise<SizeResult> {
  const t0 = performance.now();
  const baseline = memory();

  const params = resolveParams('monster', 7, { tools, skills: SCALE_SKILLS, cases });
  const gen = await timed(() => generate(params));
  let generated: ReturnType<typeof generate> | undefined = gen.value;
  gen.value = undefined as unknown as ReturnType<typeof generate>;
  const { ms: generateMs, cpuMs: generateCpuMs, gcMs: generateGcMs, fullGcs: generateFullGcs } = gen;
  const catalog = generated.dataset.catalog;
  const labelled = generated.dataset.cases.filter((c) => (c.expectedTools?.length ?? 0) > 0);
  if (labelled.length < requestCount) throw new Error(`only ${labelled.length} tool-labelled cases at ${tools} tools; asked for ${requestCount}`);
  const requests = labelled.slice(0, requestCount).map((c) => c.request);
  const caseCount = generated.dataset.cases.length;
  generated = undefined; // keep only the catalog and the request texts
  const catalogMemory = memory();
  log(
    `generated ${catalog.tools.length} tools in ${generateMs} ms (CPU ${generateCpuMs} ms, GC pauses ${generateGcMs} ms); heap ${catalogMemory.heapUsedMb} MB`,
  );

  // Warm-up on a slice (JIT; the embedding model load), outside every timed figure.
  const slice: Catalog = { ...catalog, tools: catalog.tools.slice(0, WARM_TOOLS) };
  {
    const warm = createRetriever('bm25');
    await warm.index(slice);
    for (const q of requests.slice(0, WARM_REQUESTS)) await warm.search(q, { k: 10 });
  }
  // The registry's `embed` (same recipe, default model) with the vector cache off: a cold encode of every tool.
  const makeEmbed = () => createEmbed('embed', { recipe: REGISTRY_RECIPE, cacheDir: null });
  const floor = makeEmbed();
  const { ms: modelLoadMs } = await timed(() => floor.index(slice));
  const floorLat = await latencies(floor, requests);

  let bm25: Retriever | undefined = createRetriever('bm25');
  const bm25Figures = await measure(bm25, catalog, requests);
  bm25 = undefined;

  let embed: Retriever | undefined = makeEmbed();
  const embedFigures = await measure(embed, catalog, requests);
  embed = undefined;

  const peakRssMb = Math.round(process.resourceUsage().maxRSS / 1024);
  return {
    tools: catalog.tools.length,
    cases: caseCount,
    skills: catalog.skills.length,
    servers: catalog.servers.length,
    requests: requests.length,
    generateMs,
    generateCpuMs,
    generateGcMs,
    generateFullGcs,
    baselineHeapMb: baseline.heapUsedMb,
    catalogHeapMb: catalogMemory.heapUsedMb,
    catalogMemory,
    bm25: bm25Figures,
    embed: { ...embedFigures, modelLoadMs, encodeFloorP50Ms: floorLat.p50Ms },
    peakRssMb,
    totalMs: Math.round(performance.now() - t0),
  };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [tools, cases, requests] = process.argv.slice(2).map(Number);
  if (!Number.isSafeInteger(tools)) {
    console.error('usage: one-size.ts TOOLS [CASES] [REQUESTS]');
    process.exit(2);
  }
  const result = await runSize(tools!, cases || SCALE_CASES, requests || SCALE_REQUESTS);
  process.stdout.write(RESULT_PREFIX + JSON.stringify(result) + '\n');
}
