/**
 * `timings.json`'s evaluate breakdown (issue 33, item 2): by hand on made-up timings, then on a
 * real `backpack run` — every strategy has its thread and phases, every thread's strategies are
 * named, the largest items come first.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { evaluateBreakdown, type RunTimings } from '../src/cli/run-command.ts';
import type { EvalTimings } from '../src/eval/run.ts';
import { STRATEGY_PHASES, type StrategyPhase } from '../src/eval/strategy.ts';
import { runCli, tempDir } from './helpers.ts';

const phases = (p: Partial<Record<StrategyPhase, number>>): Record<StrategyPhase, number> => ({
  index: 0,
  calibration: 0,
  search: 0,
  sessions: 0,
  tokens: 0,
  figures: 0,
  ...p,
});

describe('the evaluate breakdown', () => {
  it('counts the busiest thread (its input load included), the skills, the token table and the assembly, by hand', () => {
    const t: EvalTimings = {
      strategiesMs: 1000,
      skillsMs: 200,
      tokenTableMs: 50,
      assembleMs: 10,
      workerLoadMs: [100],
      strategies: {
        a: { thread: 0, startedMs: 0, endedMs: 0, phases: phases({ index: 300, search: 400 }) }, // thread 0: 700
        b: { thread: 1, startedMs: 0, endedMs: 0, phases: phases({ search: 500, figures: 250 }) }, // thread 1: 100 + 750 = 850
      },
    };
    const e = evaluateBreakdown(t, 1300)!;
    expect(e.threads).toEqual([
      { thread: 0, busyMs: 700, strategies: ['a'] },
      { thread: 1, busyMs: 850, strategies: ['b'] },
    ]);
    // 850 (busiest thread) + 200 + 50 + 10 = 1110 of 1300
    expect(e.namedMs).toBe(1110);
    expect(e.namedShare).toBe(0.854);
    expect(e.largest.map((x) => x.item)).toEqual([
      'b search',
      'a search',
      'a index',
      'b figures',
      'skill comparison',
      'thread 1: input loaded',
      'token table',
      'results assembled',
    ]);
    // a busiest thread longer than the strategies' wall (clock skew) counts the wall only
    expect(evaluateBreakdown({ ...t, strategiesMs: 800 }, 1300)!.namedMs).toBe(800 + 260);
    expect(evaluateBreakdown(undefined, 5)).toBeUndefined();
  });

  it('is in the timings.json of a real run: every strategy with its thread and phases, the largest items first', async () => {
    const dir = tempDir('run-timings');
    const r = await runCli(
      'run',
      '--preset',
      'tiny',
      '--seed',
      '5',
      '--out',
      join(dir, 'data'),
      '--results',
      join(dir, 'run'),
      '--retrievers',
      'bm25',
      '--profiles',
      'static,codex',
      '--workers',
      '2',
      '--format',
      'md',
      '--quiet',
    );
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^evaluate: \d+% named; largest .+ \d+\.\d s/m);
    const t = JSON.parse(readFileSync(join(dir, 'run', 'timings.json'), 'utf8')) as RunTimings;
    for (const name of ['bm25', 'static', 'codex']) {
      expect(Object.keys(t.strategies[name]!.phases!), name).toEqual([...STRATEGY_PHASES]);
      expect([0, 1]).toContain(t.strategies[name]!.thread);
    }
    const e = t.evaluate!;
    expect(e.evaluateMs).toBe(t.stages.evaluateMs);
    expect(e.threads.flatMap((x) => x.strategies).sort()).toEqual(['bm25', 'codex', 'static']);
    expect(e.workerLoadMs).toHaveLength(1);
    const ms = e.largest.map((x) => x.ms);
    expect(ms).toEqual([...ms].sort((a, b) => b - a));
    expect(e.largest.length).toBeLessThanOrEqual(10);
  });
});
