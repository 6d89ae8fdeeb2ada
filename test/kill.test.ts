/**
 * `backpack run` killed (SIGKILL, no chance to clean up) at each of its stages leaves the previous
 * complete run or the new complete one: the dataset folder and the results folder (results,
 * report, timings) each hold one whole run once the next command has repaired an interrupted swap,
 * as it does first. The kill points are the failpoints of `src/util/failpoint.ts`. Each killed run
 * is a process of its own; the complete runs they are compared with, and the run after a kill, run
 * in-process (`runCli`, the `main` bin/backpack.js calls), without a process start each.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { assertReplaceable, isBackpackManifest, listFiles, readDataset } from '../src/catalog/dataset-files.ts';
import { readRunDir, recoverInterruptedSwap } from '../src/eval/files.ts';
import { sha256 } from '../src/util/hash.ts';
import { BACKPACK_BIN, runCli, tempDir } from './helpers.ts';
import { tinyRunArgs } from './run-args.ts';

const tmp = tempDir('kill');

/** Where `run` can be killed, in the order it reaches them (a `swap` is reached once for the dataset, once for the results). */
const STAGES = ['dataset-write', 'swap@1', 'load', 'evaluate', 'results', 'report', 'timings', 'swap@2'] as const;

/** The arguments of `backpack run` on the tiny preset into `dataset` and `results`. */
const runArgs = (seed: number, dataset: string, results: string): string[] => tinyRunArgs(seed, dataset, results);

/** `backpack run` (runArgs) as a real process, killed at `failpoint`. */
function killedRun(
  seed: number,
  dataset: string,
  results: string,
  failpoint: string,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; err: string }> {
  const env = { ...process.env, BACKPACK_FAILPOINT: failpoint };
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BACKPACK_BIN, ...runArgs(seed, dataset, results)], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (b: Buffer) => (err += b.toString()));
    child.on('error', fail);
    child.on('close', (code, signal) => done({ code, signal, err }));
  });
}

/** `backpack run` (runArgs) run to the end in-process: the complete runs the killed ones are compared with, and the run after a kill. */
const completeRun = (seed: number, dataset: string, results: string) => runCli(...runArgs(seed, dataset, results));

/** What identifies a complete results folder's run: its file list, and the sha256 of results.json without timings, latencies and paths. */
function resultsState(dir: string): { files: string[]; results: string } {
  const { results } = readRunDir(dir);
  const { dataset, ...rest } = results;
  const { source: _s, ...identity } = dataset;
  const html = readFileSync(join(dir, 'report', 'report.html'), 'utf8');
  expect(html.trimEnd().endsWith('</html>'), `${dir}: report.html is whole`).toBe(true);
  expect(JSON.parse(readFileSync(join(dir, 'timings.json'), 'utf8')).stages, `${dir}: timings.json is whole`).toBeDefined();
  const untimed = JSON.stringify({ ...rest, dataset: identity }, (key, value: unknown) => (key === 'timings' || key === 'latency' ? undefined : value));
  return { files: listFiles(dir), results: sha256(untimed) };
}

/** What identifies a complete dataset folder: its manifest's files and catalog hash, every file verified on read. */
function datasetState(dir: string): string {
  const d = readDataset(dir);
  return JSON.stringify({ files: d.manifest!.files, catalogSha256: d.manifest!.catalogSha256 });
}

/** Which run each folder holds after a kill at each point: the dataset is new from its swap on, the results only after theirs. */
const EXPECTED: Record<(typeof STAGES)[number], { dataset: 'previous' | 'new'; results: 'previous' | 'new' }> = {
  'dataset-write': { dataset: 'previous', results: 'previous' },
  'swap@1': { dataset: 'previous', results: 'previous' },
  load: { dataset: 'new', results: 'previous' },
  evaluate: { dataset: 'new', results: 'previous' },
  results: { dataset: 'new', results: 'previous' },
  report: { dataset: 'new', results: 'previous' },
  timings: { dataset: 'new', results: 'previous' },
  'swap@2': { dataset: 'new', results: 'previous' },
};

// One kill at a time: eight runs at once on a 2-core machine made each wait for the others, and a
// loaded machine made them miss the global timeout; one after another, each takes a few seconds.
// Budget: 120 s a kill, each a process of its own (measured 2026-12-07 on 2 cores: 2–7 s quiet,
// 30–61 s at load 12–17), and 120 s for the two complete runs before them (7–18 s quiet, 36 s at load 10–13).
const KILL_BUDGET = 120_000;
describe('backpack run killed at each stage', { timeout: KILL_BUDGET }, () => {
  // the previous run (seed 5) and, for reference, the new one (seed 6) run to the end
  const before = { dataset: join(tmp, 'before', 'dataset'), results: join(tmp, 'before', 'results') };
  const after = { dataset: join(tmp, 'after', 'dataset'), results: join(tmp, 'after', 'results') };
  let previous: { dataset: string; results: { files: string[]; results: string } };
  let next: typeof previous;
  beforeAll(async () => {
    const b = await completeRun(5, before.dataset, before.results);
    const a = await completeRun(6, after.dataset, after.results);
    expect(b.code, b.err).toBe(0);
    expect(a.code, a.err).toBe(0);
    previous = { dataset: datasetState(before.dataset), results: resultsState(before.results) };
    // --format html,md,junit: the report without PNG charts
    expect(previous.results.files.some((f) => f.endsWith('.png'))).toBe(false);
    expect(previous.results.files).toEqual(expect.arrayContaining(['report/report.html', 'report/summary.md', 'report/junit.xml']));
    next = { dataset: datasetState(after.dataset), results: resultsState(after.results) };
    expect(next.results.results).not.toBe(previous.results.results);
  }, KILL_BUDGET);

  for (const stage of STAGES) {
    it(`at ${stage}: ${EXPECTED[stage].dataset} dataset, ${EXPECTED[stage].results} results, each whole`, async () => {
      // a copy of the previous run, then the new run into it, killed at that stage
      const dataset = join(tmp, stage, 'dataset');
      const results = join(tmp, stage, 'results');
      cpSync(before.dataset, dataset, { recursive: true });
      cpSync(before.results, results, { recursive: true });
      const r = await killedRun(6, dataset, results, stage);
      expect(r.signal, `killed (${r.err})`).toBe('SIGKILL');
      // what the next command does first: an interrupted swap is put back
      assertReplaceable(dataset, 'dataset', (d) => isBackpackManifest(join(d, 'manifest.json')));
      recoverInterruptedSwap(results);
      const d = datasetState(dataset);
      expect([previous.dataset, next.dataset], 'the dataset is one whole run').toContain(d);
      const s = resultsState(results);
      expect([previous.results.files.join('\n'), next.results.files.join('\n')], "the results folder has a whole run's files").toContain(s.files.join('\n'));
      expect([previous.results.results, next.results.results], "results.json is one whole run's").toContain(s.results);
      expect({ dataset: d === next.dataset ? 'new' : 'previous', results: s.results === next.results.results ? 'new' : 'previous' }).toEqual(EXPECTED[stage]);
    });
  }

  // A test of its own (each has its budget): the folders the kill at `report` left.
  it('after the kill at report, the next run completes, takes over the stale lock and leaves nothing behind', async () => {
    const dataset = join(tmp, 'report', 'dataset');
    const results = join(tmp, 'report', 'results');
    expect(existsSync(`${results}.lock`), 'the killed run left its lock').toBe(true);
    const again = await completeRun(6, dataset, results);
    expect(again.code, again.err).toBe(0);
    expect(again.err).toMatch(/stale lock/);
    expect(resultsState(results).results).toBe(next.results.results);
    expect(readdirSync(join(tmp, 'report')).sort()).toEqual(['dataset', 'results']);
    expect(existsSync(`${results}.lock`)).toBe(false);
  });
});
