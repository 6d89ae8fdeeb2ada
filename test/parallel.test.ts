import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeDataset } from '../src/catalog/dataset-files.ts';
import { loadEvalInput } from '../src/eval/input.ts';
import { claimOrder } from '../src/eval/parallel.ts';
import type { DatasetSource } from '../src/eval/results.ts';
import { makeConfig, runEval, type EvalRun } from '../src/eval/run.ts';
import { tempDir, tinyInput } from './helpers.ts';

/** A run without what varies from run to run: timings, latencies, per-case milliseconds. */
function comparable(run: EvalRun): unknown {
  const strip = (entries: Record<string, { latency?: unknown }> | undefined) =>
    entries && Object.fromEntries(Object.entries(entries).map(([k, v]) => [k, { ...v, latency: undefined }]));
  return {
    results: { ...run.results, timings: undefined, retrievers: strip(run.results.retrievers), profiles: strip(run.results.profiles) },
    details: Object.fromEntries(Object.entries(run.details).map(([k, list]) => [k, list.map((d) => ({ ...d, ms: 0 }))])),
  };
}

// Budget: 90 s a test (measured 2026-12-07 on 2 cores: at most 8.9 s quiet — the strategies on one
// thread and on worker threads, each loading the sources — and 40 s at load 12–17).
describe('strategies on worker threads', { timeout: 90_000 }, () => {
  const dir = join(tempDir('parallel'), 'tiny');
  const { g } = tinyInput(11);
  writeDataset(dir, g.dataset, g.manifest);
  const source: DatasetSource = { kind: 'dataset', ref: dir, split: null };

  it('gives the same results and details as one thread, in configuration order', async () => {
    const input = loadEvalInput(source);
    const config = makeConfig(['bm25', 'namespace', 'hybrid'], [1, 5], {}, null, false, ['static', 'claude-code', 'hermes']);
    const seen: string[] = [];
    const one = await runEval(input, config);
    const two = await runEval(input, config, { workers: 2, workerSource: source, progress: (name) => seen.push(name) });
    expect(JSON.stringify(comparable(two))).toBe(JSON.stringify(comparable(one)));
    expect(Object.keys(two.results.retrievers)).toEqual(['bm25', 'namespace', 'hybrid']);
    expect(Object.keys(two.results.profiles!)).toEqual(['static', 'claude-code', 'hermes']);
    expect(Object.keys(two.details)).toEqual(['bm25', 'namespace', 'hybrid', 'static', 'claude-code', 'hermes']);
    // progress names the strategies running (on this thread, or on both)
    expect(seen.some((s) => /hybrid|claude-code|hermes|bm25|namespace|static/.test(s))).toBe(true);
  });

  it('refuses a worker input that is not the one evaluated, and reports the failure', async () => {
    const input = loadEvalInput(source);
    const other = join(tempDir('parallel-other'), 'tiny');
    const g2 = tinyInput(12).g;
    writeDataset(other, g2.dataset, g2.manifest);
    const config = makeConfig(['bm25', 'namespace'], [1], {}, null);
    await expect(runEval(input, config, { workers: 2, workerSource: { kind: 'dataset', ref: other, split: null } })).rejects.toThrow(
      /not the one being evaluated/,
    );
  });

  it('starts the heaviest strategies first, ties in configuration order', () => {
    const tasks = ['bm25', 'static', 'hybrid', 'codex', 'claude-code'].map((name) => ({ kind: 'retriever' as const, name }));
    expect(claimOrder(tasks).map((i) => tasks[i]!.name)).toEqual(['hybrid', 'claude-code', 'static', 'codex', 'bm25']);
  });
});
