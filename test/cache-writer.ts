/**
 * Writers of the concurrency tests (`cache-concurrency.test.ts`), run as worker threads (through
 * `src/eval/worker-bootstrap.mjs`) or as processes (`node --import tsx`, the job as argument):
 * - `rounds`: `rounds` times, open the token-count and vector caches of `dir` afresh (a load, while
 *   the others append), add this writer's own records and flush;
 * - `slow`: append `bytes` to `file` under its lock in two halves, `pauseMs` apart, setting
 *   `halfway[0]` to 1 between them (a write in progress, seen from outside).
 * Each reports the warnings it saw.
 */
import { appendFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { lockCacheFile } from '../src/util/file-lock.ts';
import { sha256Hex, VectorCache } from '../src/retrievers/embed/cache.ts';
import { TokenCountCache } from '../src/tokens/count-cache.ts';

export type WriterJob =
  | {
      kind: 'rounds';
      dir: string;
      name: string;
      rounds: number;
      /** When to start (ms since the epoch): every writer at once, whatever its start-up took. */
      start: number;
    }
  | { kind: 'slow'; file: string; bytes: Uint8Array; pauseMs: number; halfway: Int32Array };

const job: WriterJob = parentPort ? (workerData as { job: WriterJob }).job : (JSON.parse(process.argv[2]!) as WriterJob);
const warnings: string[] = [];
process.on('warning', (w) => warnings.push(`${w.name}: ${w.message}`));
const sleep = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Math.max(0, ms));

if (job.kind === 'rounds') {
  sleep(job.start - Date.now());
  for (let i = 0; i < job.rounds; i++) {
    const counts = new TokenCountCache(job.dir, 'o200k', 'tok@1');
    for (let j = 0; j < 5; j++) counts.count(`${job.name} ${i} ${j}`, (t) => t.length);
    counts.flush();
    const vectors = new VectorCache(job.dir, 'model');
    vectors.load();
    const texts = [0, 1, 2].map((j) => `${job.name} ${i} ${j}`);
    const data = new Float32Array(texts.length * 4);
    texts.forEach((t, k) =>
      data.set(
        Float32Array.from({ length: 4 }, (_, d) => t.length + d),
        k * 4,
      ),
    );
    vectors.add(texts.map(sha256Hex), data, 4);
  }
} else {
  const release = lockCacheFile(job.file, (m) => warnings.push(m))!;
  const half = job.bytes.length >> 1;
  appendFileSync(job.file, job.bytes.subarray(0, half));
  Atomics.store(job.halfway, 0, 1);
  Atomics.notify(job.halfway, 0);
  sleep(job.pauseMs);
  appendFileSync(job.file, job.bytes.subarray(half));
  release();
}
// Let the warnings emitted last reach the listener (they are delivered on the next tick).
await new Promise((r) => setImmediate(r));
const report = JSON.stringify({ warnings });
if (parentPort) parentPort.postMessage(report);
else process.stdout.write(report);
