/**
 * The kill series (issue 34, point 8): `run`, `eval`, `report`, `merge` and `history add`, each
 * started as a process of its own over the output of an earlier complete run and killed (SIGKILL:
 * no chance to clean up) at a random moment of its work, many times. After every kill, once the
 * next command has repaired an interrupted swap (as each does first), the output is the previous
 * complete one or the new complete one, never a mix and never unreadable.
 *
 * Part of `npm run fuzz` (which sets BACKPACK_FUZZ_KILLS=1), not of `npm test`: 100 processes are
 * minutes on 2 cores. The moments are drawn from a seeded generator (BACKPACK_FUZZ_SEED), uniform in
 * [0, 1.2 × the command's own complete time], so some kills land before it writes anything, some in
 * the middle, some after it is done. BACKPACK_FUZZ_KILL_TRIALS sets the trials per command (default 20).
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertReplaceable, isBackpackManifest, listFiles, readDataset } from '../../src/catalog/dataset-files.ts';
import { recoverInterruptedSwap, readRunDir } from '../../src/eval/files.ts';
import { assertReportFolder } from '../../src/report/report-folder.ts';
import { sha256 } from '../../src/util/hash.ts';
import { BACKPACK_BIN, runCli, tempDir } from '../helpers.ts';
import { prng } from '../prng.ts';
import { tinyRunArgs } from '../run-args.ts';

const ON = process.env.BACKPACK_FUZZ_KILLS === '1';
const TRIALS = Number(process.env.BACKPACK_FUZZ_KILL_TRIALS ?? 20);
const SEED = Number(process.env.BACKPACK_FUZZ_SEED ?? 20261207);
if (!ON) console.log('kill series: skipped (npm run fuzz runs it: BACKPACK_FUZZ_KILLS=1)');

const tmp = tempDir('kill-series');
const rng = prng(SEED);

/** A command as a process, killed after `afterMs` (never, when undefined); resolves with how it ended and how long it ran. */
function started(args: readonly string[], afterMs?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number; err: string }> {
  return new Promise((done, fail) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [BACKPACK_BIN, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (b: Buffer) => (err += b.toString()));
    const timer = afterMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), afterMs);
    child.on('error', fail);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      done({ code, signal, ms: performance.now() - t0, err });
    });
  });
}

/** A results folder's identity: its files and results.json without timings, latencies and paths (readRunDir checks it whole and consistent). */
function resultsState(dir: string): string {
  const { results } = readRunDir(dir);
  const { dataset, ...rest } = results;
  const { source: _s, ...identity } = dataset;
  const files = listFiles(dir).filter((f) => !f.startsWith('report/') && f !== 'timings.json');
  return sha256(
    JSON.stringify([files, JSON.stringify({ ...rest, dataset: identity }, (k, v: unknown) => (k === 'timings' || k === 'latency' ? undefined : v))]),
  );
}

/** A report folder's identity: its files and their bytes. */
function reportState(dir: string): string {
  return sha256(JSON.stringify(listFiles(dir).map((f) => [f, sha256(readFileSync(join(dir, f)))])));
}

/** A history database's identity: the runs and series it shows (without the time each run was recorded). */
async function historyState(db: string): Promise<string> {
  const r = await runCli('history', 'show', '--db', db, '--json');
  expect(r.code, r.err).toBe(0);
  return sha256(JSON.stringify(JSON.parse(r.out), (k, v: unknown) => (k === 'recordedAt' || k === 'addedAt' ? undefined : v)));
}

interface Series {
  name: string;
  /** Copy the previous output to a fresh place; returns the arguments of the new command writing there and the place. */
  prepare(trial: number): { args: string[]; at: string };
  /** What the next command does first (put an interrupted swap back), then the output's identity. */
  state(at: string): string | Promise<string>;
  previous: string;
  next: string;
  /** Other states that are whole (run: the new dataset beside the previous results, between its two swaps). */
  between?: string[];
  /** The new command's complete time, ms (the moments are drawn up to 1.2 × it). */
  ms: number;
}

const tally: Record<string, { previous: number; next: number; finished: number }> = {};

describe.skipIf(!ON)('kill series: every output is the previous or the new complete one after a kill at a random moment', { timeout: 1_800_000 }, () => {
  const data = join(tmp, 'data');
  const series: Series[] = [];

  beforeAll(async () => {
    expect((await runCli('generate', '--preset', 'tiny', '--seed', '5', '--out', data, '--quiet')).code).toBe(0);
    const evalArgs = (retrievers: string, out: string, more: string[] = []) => [
      'eval',
      '--dataset',
      data,
      '--retrievers',
      retrievers,
      '--workers',
      '1',
      '--out',
      out,
      '--quiet',
      ...more,
    ];

    // eval: bm25 before, bm25 and bm25-plain after
    const ePrev = join(tmp, 'eval-prev');
    const eNext = join(tmp, 'eval-next');
    expect((await runCli(...evalArgs('bm25', ePrev))).code).toBe(0);
    const eTimed = await started(evalArgs('bm25,bm25-plain', eNext));
    expect(eTimed.code, eTimed.err).toBe(0);
    series.push({
      name: 'eval',
      prepare: (i) => {
        const at = join(tmp, 'eval', String(i));
        cpSync(ePrev, at, { recursive: true });
        return { args: evalArgs('bm25,bm25-plain', at), at };
      },
      state: (at) => {
        recoverInterruptedSwap(at);
        return resultsState(at);
      },
      previous: resultsState(ePrev),
      next: resultsState(eNext),
      ms: eTimed.ms,
    });

    // run: the tiny preset, seed 5 before, seed 6 after (dataset and results)
    const runArgs = (seed: number, dataset: string, results: string) => tinyRunArgs(seed, dataset, results, 'html,md');
    const rPrev = { dataset: join(tmp, 'run-prev', 'dataset'), results: join(tmp, 'run-prev', 'results') };
    const rNext = { dataset: join(tmp, 'run-next', 'dataset'), results: join(tmp, 'run-next', 'results') };
    expect((await runCli(...runArgs(5, rPrev.dataset, rPrev.results))).code).toBe(0);
    const rTimed = await started(runArgs(6, rNext.dataset, rNext.results));
    expect(rTimed.code, rTimed.err).toBe(0);
    // two folders, each swapped whole: the dataset first, the results (with their report) last
    const runState = (base: string) => {
      assertReplaceable(join(base, 'dataset'), 'dataset', (d) => isBackpackManifest(join(d, 'manifest.json')));
      recoverInterruptedSwap(join(base, 'results'));
      const d = readDataset(join(base, 'dataset'));
      // the report of a run names its timings, which differ run to run: whole, with the files of a report
      const report = join(base, 'results', 'report');
      expect(readFileSync(join(report, 'report.html'), 'utf8').trimEnd().endsWith('</html>'), `${report}: report.html is whole`).toBe(true);
      return `${sha256(JSON.stringify(d.manifest!.files))} ${resultsState(join(base, 'results'))} ${sha256(listFiles(report).join('\n'))}`;
    };
    const [prevDataset, prevResults] = (() => {
      const st = runState(join(tmp, 'run-prev'));
      return [st.slice(0, 64), st.slice(65)];
    })();
    const nextDataset = runState(join(tmp, 'run-next')).slice(0, 64);
    series.push({
      name: 'run',
      prepare: (i) => {
        const at = join(tmp, 'run', String(i));
        cpSync(join(tmp, 'run-prev'), at, { recursive: true });
        return { args: runArgs(6, join(at, 'dataset'), join(at, 'results')), at };
      },
      state: runState,
      previous: `${prevDataset} ${prevResults}`,
      next: runState(join(tmp, 'run-next')),
      between: [`${nextDataset} ${prevResults}`],
      ms: rTimed.ms,
    });

    // report: of the eval before, then of the eval after, into one folder
    const pPrev = join(tmp, 'report-prev');
    const pNext = join(tmp, 'report-next');
    expect((await runCli('report', ePrev, '--out', pPrev, '--format', 'html,md,junit')).code).toBe(0);
    const pTimed = await started(['report', eNext, '--out', pNext, '--format', 'html,md,junit']);
    expect(pTimed.code, pTimed.err).toBe(0);
    series.push({
      name: 'report',
      prepare: (i) => {
        const at = join(tmp, 'report', String(i));
        cpSync(pPrev, at, { recursive: true });
        return { args: ['report', eNext, '--out', at, '--format', 'html,md,junit'], at };
      },
      state: (at) => {
        assertReportFolder(at);
        return reportState(at);
      },
      previous: reportState(pPrev),
      next: reportState(pNext),
      ms: pTimed.ms,
    });

    // merge: the shards of the bm25 eval before, of the bm25 and bm25-plain eval after
    const shard = (retrievers: string, i: number) => join(tmp, `shard-${retrievers}-${i}`);
    for (const r of ['bm25', 'bm25,bm25-plain'])
      for (const i of [1, 2]) expect((await runCli(...evalArgs(r, shard(r, i), ['--shard', `${i}/2`]))).code).toBe(0);
    const mPrev = join(tmp, 'merge-prev');
    const mNext = join(tmp, 'merge-next');
    expect((await runCli('merge', shard('bm25', 1), shard('bm25', 2), '--out', mPrev)).code).toBe(0);
    const mArgs = (out: string) => ['merge', shard('bm25,bm25-plain', 1), shard('bm25,bm25-plain', 2), '--out', out];
    const mTimed = await started(mArgs(mNext));
    expect(mTimed.code, mTimed.err).toBe(0);
    series.push({
      name: 'merge',
      prepare: (i) => {
        const at = join(tmp, 'merge', String(i));
        cpSync(mPrev, at, { recursive: true });
        return { args: mArgs(at), at };
      },
      state: (at) => {
        recoverInterruptedSwap(at);
        return resultsState(at);
      },
      previous: resultsState(mPrev),
      next: resultsState(mNext),
      ms: mTimed.ms,
    });

    // history add: a database with the eval before, then the eval after added
    const hPrev = join(tmp, 'history-prev.sqlite');
    const hNext = join(tmp, 'history-next.sqlite');
    expect((await runCli('history', 'add', ePrev, '--db', hPrev, '--label', 'before')).code).toBe(0);
    cpSync(hPrev, hNext);
    const hTimed = await started(['history', 'add', eNext, '--db', hNext, '--label', 'after']);
    expect(hTimed.code, hTimed.err).toBe(0);
    series.push({
      name: 'history add',
      prepare: (i) => {
        const at = join(tmp, `history-${i}.sqlite`);
        cpSync(hPrev, at);
        return { args: ['history', 'add', eNext, '--db', at, '--label', 'after'], at };
      },
      state: historyState,
      previous: await historyState(hPrev),
      next: await historyState(hNext),
      ms: hTimed.ms,
    });
    for (const s of series) expect(s.next, `${s.name}: the new output differs from the previous one`).not.toBe(s.previous);
  }, 600_000);

  afterAll(() => {
    if (!ON) return;
    const line = Object.entries(tally)
      .map(([name, t]) => `${name}: ${t.previous} previous, ${t.next} new (${t.finished} finished before the kill)`)
      .join('; ');
    console.log(`kill series (seed ${SEED}, ${TRIALS} trials each): ${line}`);
  });

  for (const name of ['run', 'eval', 'report', 'merge', 'history add']) {
    it(`${name}: ${TRIALS} kills at random moments`, async () => {
      const s = series.find((x) => x.name === name)!;
      const t = (tally[name] = { previous: 0, next: 0, finished: 0 });
      for (let i = 0; i < TRIALS; i++) {
        const { args, at } = s.prepare(i);
        const moment = Math.round(rng() * 1.2 * s.ms);
        const r = await started(args, moment);
        if (r.signal !== 'SIGKILL') {
          expect(r.code, `${name}, trial ${i}: ${r.err}`).toBe(0);
          t.finished++;
        }
        const state = await s.state(at);
        expect(
          [s.previous, s.next, ...(s.between ?? [])],
          `${name}, trial ${i}, killed after ${moment} ms: the output is one whole run (${state} of ${[s.previous, s.next, ...(s.between ?? [])].join(' | ')})`,
        ).toContain(state);
        if (state === s.next) t.next++;
        else t.previous++;
        if (r.signal !== 'SIGKILL') expect(state, `${name}, trial ${i}: finished, so new`).toBe(s.next);
        // nothing left beside it once repaired: no temporary or old copies
        const parent = join(at, '..');
        if (existsSync(parent))
          expect(
            readdirSync(parent).filter((n) => /\.(tmp|old)-\d+/.test(n) && n.startsWith(at.split('/').pop()!)),
            `${name}, trial ${i}`,
          ).toEqual([]);
      }
    });
  }
});
