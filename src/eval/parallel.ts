/**
 * Strategies spread over threads: this thread and `workers - 1` worker threads each load the same
 * input, then take the next strategy off one shared counter (an `Atomics.add` on shared memory, so
 * no thread waits for a message to get work) until none is left. Heavy strategies go first, so the
 * threads finish close together. Each strategy's result is computed exactly as in one thread and
 * put back in configuration order, so the results are identical, timings aside.
 *
 * Progress: every thread writes its current strategy, phase and case count into shared memory;
 * this thread reports the sum whenever it reports its own, and every 250 ms once it is idle.
 */
import { Worker } from 'node:worker_threads';
import type { Case } from '../catalog/types.ts';
import { strategyCapabilities } from '../profiles/registry.ts';
import { tokenCountCache } from '../tokens/count.ts';
import type { EvalInput } from './input.ts';
import type { DatasetSource, EvalConfig } from './results.ts';
import type { Shard } from './shard.ts';
import { StrategyRunner, type StrategyOptions, type StrategyOutcome, type StrategyTask } from './strategy.ts';
import type { Trace } from './traces.ts';
import { InputError } from '../util/errors.ts';

/** Task positions, heaviest first by the registries' `costHint` (default 1; ties in configuration order). */
export function claimOrder(tasks: readonly StrategyTask[]): number[] {
  const cost = tasks.map((t) => strategyCapabilities(t.name).costHint ?? 1);
  return tasks.map((_, i) => i).sort((a, b) => cost[b]! - cost[a]! || a - b);
}

/** What a worker thread is given (structured-cloned). */
export interface WorkerJob {
  source: DatasetSource;
  catalogSha256: string;
  /** sha256 of corpus files whose stored tool hashes the starting thread checked (`ReadOptions.contentChecked`). */
  contentChecked?: string[];
  caseIds: string[];
  shard: Shard | null;
  config: EvalConfig;
  traces?: ReadonlyMap<string, Trace>;
  retrieverOptions?: StrategyOptions['retrieverOptions'];
  profileOptions?: StrategyOptions['profileOptions'];
  calibration?: StrategyOptions['calibration'];
  tasks: StrategyTask[];
  order: number[];
  /** Int32Array(1): the next position of `order` to claim. */
  counter: SharedArrayBuffer;
  /** Int32Array(threads × SLOT): per thread, the task it runs (+1; 0 = none), phase (0 index, 1 search), done, total. */
  progress: SharedArrayBuffer;
  slot: number;
  /** The folder of this thread's token-count log (null: in memory), shared by the workers. */
  tokenCacheDir: string | null;
  /** What the worker runs before it loads the input (the command line's plugins and retrieval services, activated again). */
  setup?: WorkerSetup;
}

/**
 * A module a worker thread imports and whose `setupWorker(data)` it awaits before it evaluates: how
 * the starting thread's run-time registrations (plugins, retrieval services) reach the worker.
 * `module` is a URL; `data` is structured-cloned.
 */
export interface WorkerSetup {
  module: string;
  data: unknown;
}

/** What a worker thread posts back. */
export type WorkerMessage =
  | { kind: 'outcome'; index: number; outcome: StrategyOutcome }
  | { kind: 'done'; loadMs: number }
  | { kind: 'error'; message: string; stack?: string; input?: boolean };

export const SLOT = 4;

/** Claim tasks off the shared counter and run them on `runner` until none is left. */
export async function claimAndRun(
  runner: StrategyRunner,
  order: readonly number[],
  tasks: readonly StrategyTask[],
  counter: Int32Array,
  onOutcome: (index: number, outcome: StrategyOutcome) => void,
  onTask: (index: number) => void,
): Promise<void> {
  for (let j = Atomics.add(counter, 0, 1); j < order.length; j = Atomics.add(counter, 0, 1)) {
    const index = order[j]!;
    onTask(index);
    onOutcome(index, await runner.run(tasks[index]!));
  }
}

/** Progress callbacks that write this thread's slot. */
export function slotProgress(
  progress: Int32Array,
  slot: number,
  after: () => void = () => {},
): { onTask: (index: number) => void; options: Pick<StrategyOptions, 'progress' | 'indexProgress'>; clear: () => void } {
  const o = slot * SLOT;
  const set = (phase: number, done: number, total: number) => {
    Atomics.store(progress, o + 1, phase);
    Atomics.store(progress, o + 2, done);
    Atomics.store(progress, o + 3, total);
    after();
  };
  return {
    onTask: (index) => {
      Atomics.store(progress, o, index + 1);
      set(0, 0, 0);
    },
    options: { progress: (_name, done, total) => set(1, done, total), indexProgress: (_name, done, total) => set(0, done, total) },
    clear: () => {
      Atomics.store(progress, o, 0);
      set(0, 0, 0);
    },
  };
}

export interface ParallelRun {
  input: EvalInput;
  cases: readonly Case[];
  config: EvalConfig;
  opts: StrategyOptions & { shard?: Shard | null; workerSetup?: WorkerSetup };
  tasks: StrategyTask[];
  workers: number;
  source: DatasetSource;
}

/** Run `tasks` on this thread and `workers - 1` worker threads; outcomes in task order. */
export async function runInWorkers(run: ParallelRun): Promise<{ outcomes: StrategyOutcome[]; workerLoadMs: number[] }> {
  const { input, cases, config, opts, tasks, workers } = run;
  const order = claimOrder(tasks);
  const counter = new Int32Array(new SharedArrayBuffer(4));
  const progress = new Int32Array(new SharedArrayBuffer(4 * SLOT * workers));
  const outcomes: Array<StrategyOutcome | undefined> = new Array(tasks.length);
  const workerLoadMs: number[] = new Array(workers - 1).fill(0);
  const report = () => {
    if (!opts.progress) return;
    const running: string[] = [];
    let done = 0;
    let total = 0;
    for (let s = 0; s < workers; s++) {
      const task = Atomics.load(progress, s * SLOT);
      if (task === 0) continue;
      running.push(`${tasks[task - 1]!.name}${Atomics.load(progress, s * SLOT + 1) === 0 ? ' index' : ''}`);
      done += Atomics.load(progress, s * SLOT + 2);
      total += Atomics.load(progress, s * SLOT + 3);
    }
    if (running.length) opts.progress(running.join(' + '), done, Math.max(total, done));
  };
  const job: Omit<WorkerJob, 'slot'> = {
    source: run.source,
    catalogSha256: input.catalogSha256,
    ...(input.corpusSha256 !== undefined ? { contentChecked: [input.corpusSha256] } : {}),
    caseIds: cases.map((c) => c.id),
    shard: opts.shard ?? null,
    config,
    ...(opts.traces ? { traces: opts.traces } : {}),
    ...(opts.retrieverOptions ? { retrieverOptions: opts.retrieverOptions } : {}),
    ...(opts.profileOptions ? { profileOptions: opts.profileOptions } : {}),
    ...(opts.calibration ? { calibration: opts.calibration } : {}),
    tasks,
    order,
    counter: counter.buffer as SharedArrayBuffer,
    progress: progress.buffer as SharedArrayBuffer,
    tokenCacheDir: tokenCountCache().dir,
    ...(opts.workerSetup ? { setup: opts.workerSetup } : {}),
  };
  const threads: Worker[] = [];
  const finished: Array<Promise<void>> = [];
  for (let slot = 1; slot < workers; slot++) {
    // From the TypeScript sources (tests, a clone without a build) a worker registers tsx first
    // (worker-bootstrap.mjs); from the compiled dist/ it runs worker.js directly.
    const fromSource = import.meta.url.endsWith('.ts');
    const w = new Worker(new URL(fromSource ? './worker-bootstrap.mjs' : './worker.js', import.meta.url), {
      workerData: { entry: new URL('./worker.ts', import.meta.url).href, job: { ...job, slot } },
    });
    threads.push(w);
    finished.push(
      new Promise<void>((resolve, reject) => {
        let ok = false;
        w.on('message', (m: WorkerMessage) => {
          if (m.kind === 'outcome') outcomes[m.index] = m.outcome;
          else if (m.kind === 'done') {
            ok = true;
            workerLoadMs[slot - 1] = m.loadMs;
          } else if (m.input)
            reject(new InputError(m.message)); // bad input found on a worker (an endpoint that failed): exit 2, as on this thread
          else reject(Object.assign(new Error(`worker thread ${slot}: ${m.message}`), m.stack ? { stack: m.stack } : {}));
        });
        w.on('error', reject);
        w.on('exit', (code) => (ok ? resolve() : reject(new Error(`worker thread ${slot} stopped (exit code ${code}) before finishing`))));
      }),
    );
  }
  // A failure anywhere stops every thread (unhandled rejections of the others are absorbed).
  const all = Promise.all(finished);
  all.catch(() => {});
  try {
    const own = slotProgress(progress, 0, report);
    const runner = new StrategyRunner(input, cases, config, { ...opts, ...own.options, thread: 0 });
    await claimAndRun(runner, order, tasks, counter, (i, o) => (outcomes[i] = o), own.onTask);
    own.clear();
    const timer = setInterval(report, 250);
    try {
      await all;
    } finally {
      clearInterval(timer);
    }
  } catch (err) {
    Atomics.store(counter, 0, order.length); // nothing more to claim
    await Promise.all(threads.map((t) => t.terminate()));
    throw err;
  }
  const missing = outcomes.findIndex((o) => o === undefined);
  if (missing >= 0) throw new Error(`no result for strategy ${tasks[missing]!.name}`);
  return { outcomes: outcomes as StrategyOutcome[], workerLoadMs };
}
