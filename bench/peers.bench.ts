/**
 * Benchmark: Backpack's BM25 against JavaScript search libraries (minisearch, wink-bm25-text-search,
 * Orama, FlexSearch) on the monster catalog (50,560 tools) and 5,000 of its requests. Every
 * contestant indexes the same catalog and answers top-10 for the same requests, in this one process;
 * the peers index the same text per tool with Backpack's tokenizer (see `bench/peers/contestants.ts`).
 * Run by `npm run bench -- peers`; never asserted in tests. Writes `reports/bench/peers.json`.
 *
 * Per contestant:
 * - `indexMs`: median build time over `builds` builds, timed by tinybench (`Bench`, `iterations`
 *   builds, no warm-up); Backpack and FlexSearch build `BACKPACK_PEERS_BUILDS` (default 3) times,
 *   the slow-building peers once.
 * - `memoryMb`: (heapUsed + external) after the last build minus before it, each after two forced
 *   full GCs (`gc` obtained through `v8.setFlagsFromString('--expose-gc')` + `vm.runInNewContext('gc')`,
 *   since `scripts/bench.ts` starts suites without `--expose-gc`). `external` counts the typed
 *   arrays' backing stores, where Backpack keeps its postings. The catalog, the document texts and
 *   the peers' document objects are built before every baseline and so counted for nobody.
 * - `p50Ms`, `p99Ms`: our own loop, not tinybench: each request timed alone with
 *   `performance.now()` around one top-10 search (awaited if it returns a Promise), after one
 *   untimed warm-up pass over the first 200 requests.
 * - `throughputRps`: requests measured ÷ wall time of that same timed pass.
 * - `recallAt10`: mean recall@10 (`recallAtK`, each case's gold mode) over the measured requests
 *   with at least one expected tool; `backpackRecallAt10SameRequests` is Backpack bm25's on exactly
 *   those requests, for peers measured on a subset.
 * The two slowest peers (minisearch and Orama, tens of milliseconds a request on this corpus) are measured on
 * every 5th request (1,000 of 5,000, a fixed subset, the same for both) to keep the suite within a
 * few minutes on 2 cores; everyone else on all of them. `requestsMeasured` and `requestStride` say
 * which.
 *
 * Env: `BACKPACK_PEERS_REQUESTS` (default 5000), `BACKPACK_PEERS_BUILDS` (default 3),
 * `BACKPACK_PEERS_STRIDES` (default `minisearch=5,orama=5`; `key=n,…`, n = 1 measures every request),
 * `BACKPACK_PEERS_ONLY` (comma-separated contestant keys, for a quick look).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { Bench } from 'tinybench';
import { readDataset } from '../src/catalog/dataset-files.ts';
import type { Case, Dataset } from '../src/catalog/types.ts';
import { generate, resolveParams } from '../src/generate/index.ts';
import { recallAtK } from '../src/metrics/ranking.ts';
import { contestants, documentText, K, type Contestant, type Searcher } from './peers/contestants.ts';
import { suiteHeader } from './report.ts';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

function envInt(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const v = Number(raw);
  if (!Number.isSafeInteger(v) || v < min) throw new Error(`${name} must be a whole number ≥ ${min} (got ${JSON.stringify(raw)})`);
  return v;
}

const REQUESTS = envInt('BACKPACK_PEERS_REQUESTS', 5000, 1);
const BUILDS = envInt('BACKPACK_PEERS_BUILDS', 3, 1);
const STRIDES: Record<string, number> = {};
for (const part of (process.env.BACKPACK_PEERS_STRIDES ?? 'minisearch=5,orama=5').split(',')) {
  if (part.trim() === '') continue;
  const m = /^\s*([a-z0-9.-]+)\s*=\s*(\d+)\s*$/.exec(part);
  if (!m || Number(m[2]) < 1) throw new Error(`BACKPACK_PEERS_STRIDES: expected key=n (n ≥ 1), got ${JSON.stringify(part)}`);
  STRIDES[m[1]!] = Number(m[2]);
}
const WARMUP = 200;
const ONLY = (process.env.BACKPACK_PEERS_ONLY ?? '')
  .split(',')
  .map((s) => s.trim())
  .filter((s) => s !== '');
const DATASET_DIR = 'datasets/monster-7';

// ---- corpus and requests -------------------------------------------------------------------------

const loadStart = performance.now();
let dataset: Dataset;
let source: string;
if (existsSync(DATASET_DIR)) {
  dataset = readDataset(DATASET_DIR);
  source = DATASET_DIR;
} else {
  dataset = generate(resolveParams('monster', 7)).dataset;
  source = "generate(resolveParams('monster', 7)) in memory";
}
const catalog = dataset.catalog;
const cases: Case[] = dataset.cases.filter((c) => c.expectedTools !== undefined).slice(0, REQUESTS);
const requests = cases.map((c) => c.request);
const texts = catalog.tools.map(documentText);
console.log(`peers: ${catalog.tools.length} tools, ${requests.length} requests from ${source} (${Math.round(performance.now() - loadStart)} ms to load)`);

function versionOf(pkg: string): string {
  try {
    return (JSON.parse(readFileSync(join(process.cwd(), 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return '?';
  }
}
const versions: Record<string, string> = {};
for (const p of ['minisearch', 'wink-bm25-text-search', '@orama/orama', 'flexsearch', 'tinybench']) versions[p] = versionOf(p);

// ---- measurement ---------------------------------------------------------------------------------

/** Bytes of JS heap plus off-heap (typed-array) memory, after two full collections. */
function liveBytes(): number {
  gc();
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  const at = (sorted.length - 1) * p;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (at - lo);
}

const round = (x: number, digits: number): number => (Number.isFinite(x) ? Number(x.toFixed(digits)) : x);

interface LibraryResult {
  library: string;
  bm25: boolean;
  indexMs: number;
  indexBuilds: number;
  indexMsAll: number[];
  memoryMb: number;
  p50Ms: number;
  p99Ms: number;
  meanMs: number;
  maxMs: number;
  throughputRps: number;
  requestsMeasured: number;
  requestStride: number;
  recallAt10: number;
  recallCases: number;
  meanHitsReturned: number;
  emptyResults: number;
  searchReturnsPromise: boolean;
  notes: string;
}

/** The top-10 tool ids each contestant returned, by request position (for the Backpack-on-same-requests recall). */
const rankedBy = new Map<string, Map<number, string[]>>();

function recallOver(ranked: Map<number, string[]>, positions: readonly number[]): { recall: number; cases: number } {
  let sum = 0;
  let count = 0;
  for (const i of positions) {
    const c = cases[i]!;
    const gold = c.expectedTools!;
    if (gold.length === 0) continue;
    sum += recallAtK(ranked.get(i) ?? [], gold, K, c.goldMode ?? 'all');
    count++;
  }
  return { recall: count ? sum / count : NaN, cases: count };
}

async function measure(c: Contestant): Promise<LibraryResult> {
  // Index builds (tinybench), memory of the last one.
  let current: Searcher | undefined;
  let before = 0;
  let memoryBytes = NaN;
  const bench = new Bench({ name: `peers ${c.key} index`, iterations: c.builds, time: 0, warmup: false, retainSamples: true });
  bench.add(
    `${c.key} index`,
    async () => {
      current = await c.build();
    },
    {
      beforeEach() {
        current = undefined;
        before = liveBytes();
      },
      afterEach() {
        memoryBytes = liveBytes() - before;
      },
    },
  );
  await bench.run();
  const task = bench.tasks[0]!;
  const r = task.result as { latency?: { p50?: number; samples?: number[] }; error?: unknown; state?: string };
  if (r.error !== undefined) throw r.error;
  if (current === undefined) throw new Error(`${c.key}: no index was built`);
  const searcher: Searcher = current;
  const indexMs = r.latency?.p50 ?? NaN;
  const indexMsAll = (r.latency?.samples ?? []).map((x) => round(x, 1));
  console.log(`  ${c.key}: index ${indexMs.toFixed(0)} ms (median of ${c.builds}), +${(memoryBytes / 2 ** 20).toFixed(1)} MB`);

  // Warm-up: the first 200 requests, untimed.
  let returnsPromise = false;
  for (let i = 0; i < Math.min(WARMUP, requests.length); i++) {
    const res = searcher.search(requests[i]!);
    if (res instanceof Promise) {
      returnsPromise = true;
      await res;
    }
  }

  // Timed pass over the measured requests.
  const positions: number[] = [];
  for (let i = 0; i < requests.length; i += c.stride) positions.push(i);
  const lat = new Float64Array(positions.length);
  const ranked = new Map<number, string[]>();
  const passStart = performance.now();
  for (let j = 0; j < positions.length; j++) {
    const i = positions[j]!;
    const t0 = performance.now();
    let res = searcher.search(requests[i]!);
    if (res instanceof Promise) res = await res;
    lat[j] = performance.now() - t0;
    ranked.set(i, res);
  }
  const passMs = performance.now() - passStart;
  rankedBy.set(c.key, ranked);

  const sorted = lat.slice().sort();
  let sum = 0;
  for (const x of lat) sum += x;
  let hits = 0;
  let empty = 0;
  for (const res of ranked.values()) {
    hits += res.length;
    if (res.length === 0) empty++;
  }
  const { recall, cases: recallCases } = recallOver(ranked, positions);
  current = undefined;
  return {
    library: c.library,
    bm25: c.bm25,
    indexMs: round(indexMs, 1),
    indexBuilds: c.builds,
    indexMsAll,
    memoryMb: round(memoryBytes / 2 ** 20, 1),
    p50Ms: round(percentile(sorted, 0.5), 4),
    p99Ms: round(percentile(sorted, 0.99), 4),
    meanMs: round(sum / positions.length, 4),
    maxMs: round(sorted[sorted.length - 1] ?? NaN, 3),
    throughputRps: round(positions.length / (passMs / 1000), 1),
    requestsMeasured: positions.length,
    requestStride: c.stride,
    recallAt10: round(recall, 4),
    recallCases,
    meanHitsReturned: round(hits / positions.length, 2),
    emptyResults: empty,
    searchReturnsPromise: returnsPromise,
    notes: c.notes,
  };
}

// ---- run -----------------------------------------------------------------------------------------

const all = contestants({ catalog, texts, backpackBuilds: BUILDS, strides: STRIDES, versions });
const unknown = ONLY.filter((k) => !all.some((c) => c.key === k));
const unknownStride = Object.keys(STRIDES).filter((k) => !all.some((c) => c.key === k));
if (unknownStride.length)
  throw new Error(`BACKPACK_PEERS_STRIDES: unknown contestant(s) ${unknownStride.join(', ')}; contestants: ${all.map((c) => c.key).join(', ')}`);
if (unknown.length) throw new Error(`BACKPACK_PEERS_ONLY: unknown contestant(s) ${unknown.join(', ')}; contestants: ${all.map((c) => c.key).join(', ')}`);
const chosen = ONLY.length ? all.filter((c) => ONLY.includes(c.key)) : all;

const libraries: Record<string, LibraryResult & { backpackRecallAt10SameRequests?: number }> = {};
const suiteStart = performance.now();
for (const c of chosen) {
  const started = performance.now();
  libraries[c.key] = await measure(c);
  const l = libraries[c.key]!;
  console.log(
    `  ${c.key}: p50 ${l.p50Ms} ms, p99 ${l.p99Ms} ms, ${l.throughputRps} req/s over ${l.requestsMeasured} requests, recall@10 ${l.recallAt10} (${((performance.now() - started) / 1000).toFixed(0)} s)`,
  );
}

// Backpack bm25's recall on each contestant's own requests (they differ for the subset peers).
const reference = rankedBy.get('backpack-bm25');
if (reference) {
  for (const [key, l] of Object.entries(libraries)) {
    const positions = [...(rankedBy.get(key)?.keys() ?? [])];
    l.backpackRecallAt10SameRequests = round(recallOver(reference, positions).recall, 4);
  }
}

const PEERS: Array<[string, string]> = [
  ['minisearch', 'minisearch'],
  ['wink', 'wink-bm25-text-search'],
  ['orama', 'orama'],
  ['flexsearch', 'flexsearch'],
];

function ratiosAgainst(refKey: string): Record<string, number | null> {
  const ref = libraries[refKey];
  const out: Record<string, number | null> = {};
  for (const [short, key] of PEERS) {
    const peer = libraries[key];
    const ok = ref !== undefined && peer !== undefined;
    out[`${short}Throughput`] = ok ? round(ref.throughputRps / peer.throughputRps, 2) : null;
    out[`${short}Index`] = ok ? round(peer.indexMs / ref.indexMs, 2) : null;
    out[`${short}P50`] = ok ? round(peer.p50Ms / ref.p50Ms, 2) : null;
    out[`${short}P99`] = ok ? round(peer.p99Ms / ref.p99Ms, 2) : null;
    out[`${short}Memory`] = ok ? round(peer.memoryMb / ref.memoryMb, 2) : null;
  }
  return out;
}

const result = {
  ...suiteHeader('peers', 'unknown'),
  corpus: {
    dataset: 'monster-7',
    source,
    tools: catalog.tools.length,
    requests: requests.length,
    requestSelection: 'the first cases (dataset order) with expectedTools defined',
  },
  method: {
    k: K,
    warmupRequests: Math.min(WARMUP, requests.length),
    latency:
      'own loop: performance.now() around each single top-10 search (awaited if it returns a Promise), after an untimed warm-up over the first 200 requests; p50/p99 interpolated',
    throughput: 'requestsMeasured / wall time of the same timed pass',
    index: 'tinybench Bench (iterations = builds, no warm-up, time 0): median build time',
    memory:
      "(heapUsed + external) after the last build minus before it, both after two forced full GCs (gc via v8.setFlagsFromString('--expose-gc') + vm.runInNewContext('gc')); catalog, document texts and document objects are allocated before the baseline",
    recall: 'mean recallAtK(top-10, expectedTools, 10, goldMode) over measured requests with ≥ 1 expected tool',
    strides: Object.fromEntries(all.map((c) => [c.key, c.stride])),
    builds: BUILDS,
    documentText: "splitName(name) + ' ' + namespace + ' ' + summary + ' ' + description, one field",
    tokenizer: "Backpack's bm25 tokenizer for every peer (makeTokenizer(BM25_DEFAULT_OPTIONS.tokenizer))",
    versions,
  },
  libraries,
  ratios: { reference: 'backpack-bm25', ...ratiosAgainst('backpack-bm25') },
  ratiosSameDocument: { reference: 'backpack-bm25-samedoc', ...ratiosAgainst('backpack-bm25-samedoc') },
  suiteSeconds: round((performance.now() - suiteStart) / 1000, 1),
  peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
};

const dir = join(process.cwd(), 'reports', 'bench');
mkdirSync(dir, { recursive: true });
writeFileSync(join(dir, 'peers.json'), JSON.stringify(result, null, 2) + '\n');

const ref = libraries['backpack-bm25'];
console.log(`\npeers (${catalog.tools.length} tools, top-${K}; Backpack ÷ peer = how many times Backpack bm25's throughput)`);
console.table(
  Object.fromEntries(
    Object.entries(libraries).map(([key, l]) => [
      key,
      {
        bm25: l.bm25 ? 'yes' : 'no',
        'index ms': Math.round(l.indexMs),
        'mem MB': l.memoryMb,
        'p50 ms': l.p50Ms,
        'p99 ms': l.p99Ms,
        'req/s': Math.round(l.throughputRps),
        requests: l.requestsMeasured,
        'recall@10': l.recallAt10,
        'bp recall@10 same reqs': l.backpackRecallAt10SameRequests ?? '',
        'Backpack ÷ peer': ref ? round(ref.throughputRps / l.throughputRps, 2) : '',
      },
    ]),
  ),
);
console.log(`suite ${result.suiteSeconds} s, peak RSS ${result.peakRssMb} MB  →  reports/bench/peers.json`);
