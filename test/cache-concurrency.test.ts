/**
 * Caches shared by concurrent writers (issue 18, items 2 and 7): worker threads (one pid, each
 * with its own cache objects) and processes (shards) load, append and flush the same token-count
 * and vector logs at once. Every record survives, whole and aligned, and no one reports a record
 * in the middle of another's write as corrupt, nor takes over a live writer's lock.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { sha256Hex, VectorCache } from '../src/retrievers/embed/cache.ts';
import { TokenCountCache } from '../src/tokens/count-cache.ts';
import { PACKAGE_ROOT } from '../src/util/version.ts';
import { warningsOf } from './cache-damage.ts';
import type { WriterJob } from './cache-writer.ts';
import { tempDir } from './helpers.ts';

const WRITER = join(PACKAGE_ROOT, 'test', 'cache-writer.ts');

function inThread(job: WriterJob): Promise<{ warnings: string[] }> {
  return new Promise((resolve, reject) => {
    const w = new Worker(new URL('../src/eval/worker-bootstrap.mjs', import.meta.url), {
      workerData: { entry: new URL('./cache-writer.ts', import.meta.url).href, job },
    });
    w.on('message', (m: string) => resolve(JSON.parse(m)));
    w.on('error', reject);
    w.on('exit', (code) => code !== 0 && reject(new Error(`writer thread exited ${code}`)));
  });
}

function inProcess(job: WriterJob): Promise<{ warnings: string[] }> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, ['--import', 'tsx', WRITER, JSON.stringify(job)], { cwd: PACKAGE_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    p.stdout.on('data', (d: Buffer) => (out += d.toString()));
    p.stderr.on('data', (d: Buffer) => (err += d.toString()));
    p.on('error', reject);
    p.on('close', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`writer process exited ${code}: ${err}`))));
  });
}

/** One folder for every test here, removed after them (a `tempDir` made inside a test is never removed). */
const root = tempDir('cache-concurrency');

describe('caches shared by concurrent writers', () => {
  it('threads and processes appending at once: every record whole, no corruption reported, no lock taken over', async () => {
    const dir = mkdtempSync(join(root, 'concurrency-'));
    const rounds = 60;
    const start = Date.now() + 3000; // the processes take about a second to start
    const jobs = ['t1', 't2', 't3', 'p1', 'p2'].map((name) => ({ kind: 'rounds' as const, dir, name, rounds, start }));
    const reports = await Promise.all(jobs.map((j) => (j.name.startsWith('t') ? inThread(j) : inProcess(j))));
    expect(reports.flatMap((r) => r.warnings)).toEqual([]);

    const { value, warnings } = warningsOf(() => {
      const counts = new TokenCountCache(dir, 'o200k', 'tok@1');
      const vectors = new VectorCache(dir, 'model');
      vectors.load();
      return { counts, vectors };
    });
    expect(warnings).toEqual([]);
    const { counts, vectors } = value;
    expect(counts.size).toBe(jobs.length * rounds * 5);
    expect(vectors.size).toBe(jobs.length * rounds * 3);
    expect(statSync(join(dir, 'o200k', 'counts.bin')).size).toBe(jobs.length * rounds * 5 * 24);
    expect(statSync(join(vectors.folder, 'vectors.bin')).size).toBe(jobs.length * rounds * 3 * (36 + 16));
    for (const { name } of jobs) {
      for (let i = 0; i < rounds; i += 7) {
        const t = `${name} ${i} 1`;
        expect(counts.count(t, () => -1)).toBe(t.length);
        expect([...vectors.get(sha256Hex(t))!]).toEqual([0, 1, 2, 3].map((j) => t.length + j));
      }
    }
  });
});

describe('a write in progress', () => {
  it('is not a corrupt record: a load that sees half a record waits for the writer and reads it whole', async () => {
    const dir = mkdtempSync(join(root, 'slow-'));
    const counts = new TokenCountCache(dir, 'o200k', 'tok@1');
    ['a', 'b', 'c'].forEach((t) => counts.count(t, (x) => x.length));
    counts.flush();
    const one = mkdtempSync(join(root, 'slow-one-'));
    const other = new TokenCountCache(one, 'o200k', 'tok@1');
    other.count('the slow one', () => 42);
    other.flush();
    const file = join(dir, 'o200k', 'counts.bin');
    const halfway = new Int32Array(new SharedArrayBuffer(4));
    const writer = inThread({ kind: 'slow', file, bytes: readFileSync(join(one, 'o200k', 'counts.bin')), pauseMs: 400, halfway });
    while (Atomics.load(halfway, 0) === 0) await new Promise((r) => setTimeout(r, 5));
    expect(statSync(file).size).toBe(3 * 24 + 12); // half a record on disk, its writer holding the lock
    const { value, warnings } = warningsOf(() => {
      const c = new TokenCountCache(dir, 'o200k', 'tok@1');
      return [c.size, c.count('the slow one', () => -1)];
    });
    expect(warnings).toEqual([]);
    expect(value).toEqual([4, 42]);
    expect(await writer).toEqual({ warnings: [] });
    expect(statSync(file).size).toBe(4 * 24);
  });
});
