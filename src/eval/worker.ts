/**
 * A worker thread of `parallel.ts`: load the same input as the thread that started it (checked by
 * catalog hash and case ids), then claim and evaluate strategies until none is left, posting each
 * outcome as it is done.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { useTokenCountCache } from '../tokens/count.ts';
import { loadEvalInput } from './input.ts';
import { claimAndRun, slotProgress, type WorkerJob, type WorkerMessage } from './parallel.ts';
import { casesOfShard } from './shard.ts';
import { StrategyRunner } from './strategy.ts';
import { isInputError } from '../util/errors.ts';

const job = (workerData as { job: WorkerJob }).job;
const post = (m: WorkerMessage) => parentPort!.postMessage(m);

const counts = useTokenCountCache(job.tokenCacheDir);
try {
  const t0 = performance.now();
  // what the starting thread registered at run time (its plugins and retrieval services), set up again here
  if (job.setup) await ((await import(job.setup.module)) as { setupWorker: (data: unknown) => Promise<void> }).setupWorker(job.setup.data);
  const input = loadEvalInput(job.source, undefined, job.contentChecked ? { contentChecked: new Set(job.contentChecked) } : {});
  const cases = casesOfShard(input.cases, job.shard);
  if (input.catalogSha256 !== job.catalogSha256 || cases.length !== job.caseIds.length || cases.some((c, i) => c.id !== job.caseIds[i])) {
    throw new Error(`the input loaded from ${JSON.stringify(job.source)} is not the one being evaluated (catalog or cases differ)`);
  }
  const counter = new Int32Array(job.counter);
  const own = slotProgress(new Int32Array(job.progress), job.slot);
  const runner = new StrategyRunner(input, cases, job.config, {
    ...(job.traces ? { traces: job.traces } : {}),
    ...(job.retrieverOptions ? { retrieverOptions: job.retrieverOptions } : {}),
    ...(job.profileOptions ? { profileOptions: job.profileOptions } : {}),
    ...(job.calibration ? { calibration: job.calibration } : {}),
    ...own.options,
    thread: job.slot,
  });
  // this thread's copy of the input: loaded and checked before its first strategy (timings.json names it)
  const loadMs = Math.round(performance.now() - t0);
  await claimAndRun(runner, job.order, job.tasks, counter, (index, outcome) => post({ kind: 'outcome', index, outcome }), own.onTask);
  own.clear();
  counts.flush();
  post({ kind: 'done', loadMs });
} catch (err) {
  post({
    kind: 'error',
    message: isInputError(err) ? err.describe('cli') : err instanceof Error ? err.message : String(err),
    ...(err instanceof Error && err.stack ? { stack: err.stack } : {}),
    ...(isInputError(err) ? { input: true } : {}),
  });
}
