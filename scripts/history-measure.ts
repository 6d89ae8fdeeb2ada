/**
 * `node --import tsx scripts/history-measure.ts RESULTS_DIR [RUNS]`: how `backpack history add`
 * scales (docs/history.md). Records the results folder RUNS times (default 200) into a fresh
 * database in a temporary folder, in-process, and prints the time of the first, median and last
 * adds and the file size after each hundred, and the database's own share of an add (read,
 * open, export, rewrite the file: what grows with the history); then times one `backpack history add` as a process
 * on the full database (start-up included), as CI would run it.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { addRun } from '../src/history/add.ts';
import { updateHistory } from '../src/history/store.ts';
import { PACKAGE_ROOT } from '../src/util/version.ts';

const [results, count = '200'] = process.argv.slice(2);
if (!results) throw new Error('usage: scripts/history-measure.ts RESULTS_DIR [RUNS]');
const dir = mkdtempSync(join(tmpdir(), 'backpack-history-measure-'));
const db = join(dir, 'history.sqlite');
try {
  const ms: number[] = [];
  let figures = 0;
  for (let i = 0; i < Number(count); i++) {
    const t = performance.now();
    const r = await addRun({ results, db, label: `run-${i}`, gitCommit: null });
    ms.push(performance.now() - t);
    figures = r.record.figures.length;
    if ((i + 1) % 100 === 0) console.log(`${i + 1} runs: ${(statSync(db).size / 1024).toFixed(0)} KiB`);
  }
  const sorted = [...ms].sort((a, b) => a - b);
  console.log(
    `${figures} figures a run; add (in-process): first ${ms[0]!.toFixed(0)} ms, median ${sorted[sorted.length >> 1]!.toFixed(0)} ms, last ${ms[ms.length - 1]!.toFixed(0)} ms`,
  );
  const io: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    await updateHistory(db, () => 0);
    io.push(performance.now() - t0);
  }
  console.log(
    `the database's share of an add on ${count} runs (lock, read, open, export, write): ${Math.min(...io).toFixed(0)}–${Math.max(...io).toFixed(0)} ms`,
  );
  const t = performance.now();
  execFileSync(process.execPath, [join(PACKAGE_ROOT, 'bin', 'backpack.js'), 'history', 'add', results, '--label', 'cli', '--db', db], { stdio: 'ignore' });
  console.log(
    `one backpack history add as a process on ${count} runs: ${(performance.now() - t).toFixed(0)} ms; file ${(statSync(db).size / 1024).toFixed(0)} KiB`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
