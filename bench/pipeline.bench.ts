/**
 * Benchmark: the README's main job (`backpack run`) end to end, as a user runs it, in a child
 * process per run (so each has its own peak memory), into temporary folders with a temporary cache
 * folder (`BACKPACK_CACHE_DIR`), so "cold" is really cold and the user's caches are untouched.
 *
 *   cold         no dataset, no vectors, no token counts: generate, index, evaluate, report
 *   warm         the same again: dataset, vectors and token counts cached
 *   warm-1       warm on one thread (`--workers 1`): the worker-thread speed-up is warm-1 ÷ warm
 *   shards       `eval --shard 1/2`, `--shard 2/2` and `merge` against one unsharded `eval`, for the
 *                CI-matrix recipe in docs/sharding.md (merge overhead)
 *
 * Each run's stages (and, since issue 33, the evaluate stage's breakdown: every strategy's phases,
 * the ten largest items) come from the `timings.json` that `run` writes. Writes reports/bench/pipeline.json.
 * Never asserted in tests. `BACKPACK_PIPELINE_SKIP_SHARDS=1` leaves out the shard runs.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunTimings } from '../src/cli/main.ts';
import { suiteHeader } from './report.ts';

const root = process.cwd();
const work = mkdtempSync(join(tmpdir(), 'backpack-pipeline-'));
const env = { ...process.env, BACKPACK_CACHE_DIR: join(work, 'cache') };
const dataset = join(work, 'monster-7');

interface Timed {
  wallSeconds: number;
  code: number | null;
}

function backpack(args: string[]): Timed {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [join(root, 'bin', 'backpack.js'), ...args], { env, cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  const wallSeconds = (performance.now() - t0) / 1000;
  if (r.status !== 0) throw new Error(`backpack ${args.join(' ')} exited with ${r.status}`);
  return { wallSeconds: round(wallSeconds, 2), code: r.status };
}

function mainJob(label: string, extra: string[] = []): Timed & { timings: RunTimings; p50Ms: Record<string, number> } {
  const results = join(work, `results-${label}`);
  console.log(`pipeline: ${label}…`);
  const t = backpack(['run', '--out', dataset, '--results', results, '--quiet', ...extra]);
  const timings = JSON.parse(readFileSync(join(results, 'timings.json'), 'utf8')) as RunTimings;
  // each strategy's per-request p50 as results.json records it (the prefetch share included)
  const recorded = JSON.parse(readFileSync(join(results, 'results.json'), 'utf8')) as {
    retrievers: Record<string, { latency: { p50Ms: number } }>;
    profiles?: Record<string, { latency: { p50Ms: number } }>;
  };
  const p50Ms = Object.fromEntries(Object.entries({ ...recorded.retrievers, ...recorded.profiles }).map(([name, r]) => [name, r.latency.p50Ms]));
  console.log(`  ${t.wallSeconds} s, peak ${timings.peakRssMb} MB, ${timings.workers} thread(s)`);
  return { ...t, timings, p50Ms };
}

function round(x: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

const load = loadavg()[0]!;
try {
  const cold = mainJob('cold');
  const warm = mainJob('warm');
  const warmOne = mainJob('warm-1', ['--workers', '1']);
  let shards: Record<string, unknown> | null = null;
  if (process.env.BACKPACK_PIPELINE_SKIP_SHARDS !== '1') {
    const strategies = ['--retrievers', 'bm25,hybrid', '--profiles', 'codex,claude-code'];
    console.log('pipeline: unsharded eval, two shards, merge…');
    const whole = backpack(['eval', '--dataset', dataset, ...strategies, '--out', join(work, 'eval-whole'), '--quiet']);
    const one = backpack(['eval', '--dataset', dataset, ...strategies, '--shard', '1/2', '--out', join(work, 'eval-1'), '--quiet']);
    const two = backpack(['eval', '--dataset', dataset, ...strategies, '--shard', '2/2', '--out', join(work, 'eval-2'), '--quiet']);
    const merge = backpack(['merge', join(work, 'eval-1'), join(work, 'eval-2'), '--out', join(work, 'eval-merged')]);
    const same =
      readFileSync(join(work, 'eval-merged', 'runs', 'hybrid.trec'), 'utf8') === readFileSync(join(work, 'eval-whole', 'runs', 'hybrid.trec'), 'utf8');
    shards = {
      strategies: strategies.join(' '),
      unshardedSeconds: whole.wallSeconds,
      shardSeconds: [one.wallSeconds, two.wallSeconds],
      mergeSeconds: merge.wallSeconds,
      /** A two-machine matrix's critical path: the slower shard, then the merge. */
      criticalPathSeconds: round(Math.max(one.wallSeconds, two.wallSeconds) + merge.wallSeconds, 2),
      mergedEqualsUnsharded: same,
    };
  }
  const result = {
    ...suiteHeader('pipeline'),
    loadAverageAtStart: round(load, 2),
    coldSeconds: cold.wallSeconds,
    warmSeconds: warm.wallSeconds,
    warmOneThreadSeconds: warmOne.wallSeconds,
    workersSpeedup: round(warmOne.wallSeconds / warm.wallSeconds, 2),
    evaluateSpeedup: round((warmOne.timings.stages.evaluateMs ?? NaN) / (warm.timings.stages.evaluateMs ?? NaN), 2),
    peakRssMb: Math.max(cold.timings.peakRssMb, warm.timings.peakRssMb),
    /** The warm run's per-request p50 of the calibrated hybrid (results.json's latency). */
    hybridP50Ms: warm.p50Ms.hybrid ?? null,
    /** The warm run's ten largest items of the evaluate stage (timings.json `evaluate.largest`). */
    largestWarm: warm.timings.evaluate?.largest ?? null,
    runs: { cold, warm, 'warm-1': warmOne },
    shards,
  };
  mkdirSync(join(root, 'reports', 'bench'), { recursive: true });
  writeFileSync(join(root, 'reports', 'bench', 'pipeline.json'), `${JSON.stringify(result, null, 2)}\n`);
  console.log('\npipeline');
  console.table({
    cold: { seconds: cold.wallSeconds, threads: cold.timings.workers, 'peak MB': cold.timings.peakRssMb, ...stageSeconds(cold.timings) },
    warm: { seconds: warm.wallSeconds, threads: warm.timings.workers, 'peak MB': warm.timings.peakRssMb, ...stageSeconds(warm.timings) },
    'warm, 1 thread': {
      seconds: warmOne.wallSeconds,
      threads: warmOne.timings.workers,
      'peak MB': warmOne.timings.peakRssMb,
      ...stageSeconds(warmOne.timings),
    },
  });
  console.log(`worker threads: ${result.workersSpeedup}× end to end, ${result.evaluateSpeedup}× on the evaluation stage`);
  // where the warm evaluate stage went (timings.json's evaluate breakdown)
  const e = warm.timings.evaluate;
  if (e)
    console.log(`warm evaluate: ${Math.round(e.namedShare * 100)}% named; largest ${e.largest.map((x) => `${x.item} ${round(x.ms / 1000, 1)} s`).join(', ')}`);
  if (shards) console.log(`shards: ${JSON.stringify(shards)}`);
  console.log('→ reports/bench/pipeline.json');
} finally {
  rmSync(work, { recursive: true, force: true });
}

function stageSeconds(t: RunTimings): Record<string, number | string> {
  return Object.fromEntries(Object.entries(t.stages).map(([k, v]) => [k.replace(/Ms$/, ' s'), v === null ? '–' : round(v / 1000, 1)]));
}
