/**
 * `evaluate()` of the programmatic API and `backpack eval` with the same settings give the same
 * results (timings and latencies aside): one floor rule (eval/floors.ts) — a profile's documented
 * default floor stands when no floor is given, a floor for every strategy reaches only the designs
 * that have one.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { evaluate } from '../src/index.ts';
import type { Results } from '../src/eval/results.ts';
import { runCli, tempDir } from './helpers.ts';

const tmp = tempDir('api-evaluate');
const data = join(tmp, 'data');
const STRATEGIES = { retrievers: ['bm25'], profiles: ['semantic-retrieval', 'codex'] };

/** results.json without what varies run to run. */
const untimed = (r: Results): string => JSON.stringify(r, (k, v: unknown) => (k === 'timings' || k === 'latency' ? undefined : v));

async function cli(out: string, ...extra: string[]): Promise<Results> {
  const r = await runCli(
    'eval',
    '--dataset',
    data,
    '--split',
    'test',
    '--retrievers',
    'bm25',
    '--profiles',
    STRATEGIES.profiles.join(','),
    '--out',
    out,
    '--quiet',
    ...extra,
  );
  expect(r.code, r.err).toBe(0);
  return JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as Results;
}

describe('evaluate() and backpack eval', () => {
  beforeAll(async () => {
    expect((await runCli('generate', '--preset', 'tiny', '--seed', '4', '--out', data, '--quiet')).code).toBe(0);
  });

  it('give the same results without a floor: semantic-retrieval keeps its documented default floor in both', async () => {
    const fromCli = await cli(join(tmp, 'cli'));
    const { run } = await evaluate({ dataset: data, split: 'test', ...STRATEGIES });
    expect(typeof fromCli.config.floors['semantic-retrieval']).toBe('number');
    expect(run.results.config.floors['semantic-retrieval']).toBe(fromCli.config.floors['semantic-retrieval']);
    expect(untimed(JSON.parse(JSON.stringify(run.results)) as Results)).toBe(untimed(fromCli));
  });

  it('give the same results with one floor for every strategy: the harness profile (codex) keeps none', async () => {
    const fromCli = await cli(join(tmp, 'cli-floor'), '--floor', '2');
    const { run } = await evaluate({ dataset: data, split: 'test', ...STRATEGIES, floor: 2 });
    expect(run.results.config.floors).toEqual({ bm25: 2, 'semantic-retrieval': 2, codex: null });
    expect(untimed(JSON.parse(JSON.stringify(run.results)) as Results)).toBe(untimed(fromCli));
    await expect(evaluate({ dataset: data, split: 'test', ...STRATEGIES, floor: { nope: 1 } })).rejects.toThrow(
      /floor: "nope" is not one of the strategies evaluated/,
    );
  });

  it("give the same results calibrated on the train split: semantic-retrieval's default floor calibrated in both, and the same errors", async () => {
    const fromCli = await cli(join(tmp, 'cli-calibrated'), '--calibrate-on', 'train');
    const { run } = await evaluate({ dataset: data, split: 'test', ...STRATEGIES, calibrateOn: 'train' });
    expect(run.results.config.floors['semantic-retrieval']).toMatchObject({ mode: 'auto', calibratedOn: 'split:train' });
    expect(run.results.config.calibration).toMatchObject({ source: 'split:train' });
    expect(untimed(JSON.parse(JSON.stringify(run.results)) as Results)).toBe(untimed(fromCli));
    // the same refusal, naming the setting as each side calls it
    await expect(evaluate({ dataset: data, split: 'test', ...STRATEGIES, calibrateOn: 'test' })).rejects.toThrow(/^calibrateOn test \(split "test"\) overlaps/);
    const r = await runCli('eval', '--dataset', data, '--split', 'test', '--calibrate-on', 'test', '--out', join(tmp, 'cli-overlap'), '--quiet');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--calibrate-on test \(split "test"\) overlaps/);
  });
});
