import { describe, expect, it } from 'vitest';
import { makeTool } from '../catalog/model.ts';
import type { Case, Catalog } from '../catalog/types.ts';
import { nextUp } from '../metrics/abstention.ts';
import { rankStable } from '../retrievers/rank.ts';
import type { Hit, Retriever, SearchContext } from '../retrievers/types.ts';
import { clopperPearson } from '../metrics/clopper-pearson.ts';
import { calibrateFloor, calibrationInfo, calibrationSet, FEW_CALIBRATION_NO_TOOL_CASES, thinCalibrationWarnings } from './calibrate.ts';
import type { AutoFloor } from './results.ts';

const catalog: Catalog = {
  tools: [
    makeTool({ name: 'list_pods', source: 'mcp', server: 'k8s', summary: '', description: 'list pods', scopes: ['k8s:read'] }),
    makeTool({ name: 'delete_pod', source: 'mcp', server: 'k8s', summary: '', description: 'delete a pod', scopes: ['k8s:admin'] }),
    makeTool({ name: 'finish', source: 'core', summary: '', description: 'finish', pinned: true }),
  ],
  skills: [],
  servers: [],
  plugins: [],
};

/** Scores per request: request → tool id → score; honours the mask. Counts prefetches. */
class Table implements Retriever {
  readonly name = 'table';
  prefetched: string[][] = [];
  constructor(private readonly table: Record<string, Record<string, number>>) {}
  async index(): Promise<void> {}
  async prefetch(requests: readonly string[]): Promise<void> {
    this.prefetched.push([...requests]);
  }
  async search(request: string, ctx: SearchContext): Promise<Hit[]> {
    const scores = this.table[request] ?? {};
    return rankStable(
      catalog.tools.flatMap((t, i) => (scores[t.id] !== undefined && (!ctx.allowed || ctx.allowed[i] === 1) ? [{ id: t.id, score: scores[t.id]! }] : [])),
    ).slice(0, ctx.k);
  }
}

const noTool = (id: string, request: string, extra: Partial<Case> = {}): Case => ({ id, request, expectedTools: [], slices: ['no-tool'], ...extra });

const set = calibrationSet('split:train', [
  noTool('n1', 'hi'),
  noTool('n2', 'thanks'),
  noTool('n3', 'ok'),
  noTool('n4', 'bye', { callerScopes: ['k8s:read'] }),
  noTool('n5', 'weather'),
  { id: 'g1', request: 'list the pods', expectedTools: ['mcp__k8s__list_pods'], slices: [] },
  { id: 's1', request: 'a skill', expectedSkill: 'x', slices: ['skill'] },
]);

describe('calibrateFloor', () => {
  // Five no-tool requests. "hi" ranks the pinned finish first (skipped: pinned tools are never a
  // false positive), then delete_pod at 3. "bye" comes from a caller without k8s:admin, so its
  // best allowed tool is list_pods at 1. "weather" matches nothing.
  const retriever = new Table({
    hi: { finish: 9, mcp__k8s__delete_pod: 3 },
    thanks: { mcp__k8s__list_pods: 5 },
    ok: { mcp__k8s__list_pods: 4 },
    bye: { mcp__k8s__delete_pod: 8, mcp__k8s__list_pods: 1 },
    weather: {},
  });

  it('keeps the tool-labelled cases only, and records what they are', () => {
    expect(set.cases.map((c) => c.id)).toEqual(['n1', 'n2', 'n3', 'n4', 'n5', 'g1']);
    const info = calibrationInfo(set);
    expect(info).toMatchObject({ source: 'split:train', cases: 6, noToolCases: 5 });
    expect(calibrationInfo(calibrationSet('split:train', [noTool('n1', 'hi')])).sha256).not.toBe(info.sha256);
  });

  it('picks the lowest floor letting at most ⌊target·n⌋ no-tool cases through, scoped and without pinned tools', async () => {
    // tops: hi 3 (finish skipped), thanks 5, ok 4, bye 1 (delete_pod is outside its scopes), weather −∞
    // sorted 5 4 3 1 −∞; target 0.2 → m = 1 → floor just above 4: only "thanks" passes → 0.2
    const f = await calibrateFloor(retriever, catalog, set, 10, 0.2);
    const { falsePositiveRateInterval: interval, ...rest } = f;
    expect(rest).toEqual({
      mode: 'auto',
      target: 0.2,
      value: nextUp(4),
      calibratedOn: 'split:train',
      calibrationFalsePositiveRate: 0.2,
      calibrationNoToolCases: 5,
    });
    // 1 false positive of 5: Clopper–Pearson 95% 0.005051–0.716418 (exact binomial sums, by hand in Python)
    expect(interval!.map((x) => x.toFixed(6))).toEqual(['0.005051', '0.716418']);
    // target 0.4 → m = 2 → floor just above 3
    expect((await calibrateFloor(retriever, catalog, set, 10, 0.4)).value).toBe(nextUp(3));
    // target 0.8 → m = 4 → the 5th top is −∞: no floor is needed; four of five pass
    const none = await calibrateFloor(retriever, catalog, set, 10, 0.8);
    expect(none).toMatchObject({
      value: null,
      calibrationFalsePositiveRate: 0.8,
      reason: expect.stringMatching(/holds without a floor/),
    });
    // 4 of 5 pass with no floor: the interval of that rate, 0.283582–0.994949 (the mirror of 1 of 5)
    expect(none.falsePositiveRateInterval!.map((x) => x.toFixed(6))).toEqual(['0.283582', '0.994949']);
  });

  it('prefetches the no-tool requests, and says floors do not apply without a search', async () => {
    const r = new Table({});
    await calibrateFloor(r, catalog, set, 10, 0.1);
    expect(r.prefetched).toEqual([['hi', 'thanks', 'ok', 'bye', 'weather']]);
    const noSearch = await calibrateFloor(null, catalog, set, 10, 0.1);
    expect(noSearch).toMatchObject({
      value: null,
      calibrationFalsePositiveRate: null,
      reason: expect.stringMatching(/no search/),
    });
    expect(noSearch).not.toHaveProperty('falsePositiveRateInterval'); // no rate, no interval
    expect((await calibrateFloor(retriever, catalog, set, 0, 0.1)).value).toBeNull();
  });
});

describe('a run with calibration cases', () => {
  it('hands them to a retriever that fits its scores before it searches anything, and records the floors it calibrated', async () => {
    const { makeConfig, runEval } = await import('./run.ts');
    const order: string[] = [];
    let given: readonly string[] = [];
    const r = Object.assign(new Table({ hi: { mcp__k8s__list_pods: 2 }, 'list the pods': { mcp__k8s__list_pods: 7 } }), {
      async calibrate(cases: readonly { id: string }[]) {
        order.push('calibrate');
        given = cases.map((c) => c.id);
      },
    });
    const search = r.search.bind(r);
    r.search = async (q, ctx) => {
      order.push('search');
      return search(q, ctx);
    };
    const scored: Case[] = [noTool('t1', 'hi'), { id: 't2', request: 'list the pods', expectedTools: ['mcp__k8s__list_pods'], slices: [] }];
    const input = { name: 'cal', source: { kind: 'dataset' as const, ref: 'cal', split: 'test' }, catalog, cases: scored, catalogSha256: 'x' };
    const config = makeConfig(
      ['table'],
      [1, 5],
      { table: { mode: 'auto', target: 0, value: null, calibratedOn: '', calibrationFalsePositiveRate: null, calibrationNoToolCases: 0 } },
      null,
    );
    const run = await runEval(input, config, { create: () => r, calibration: set });
    expect(order[0]).toBe('calibrate');
    expect(given).toEqual(['n1', 'n2', 'n3', 'n4', 'n5', 'g1']);
    // calibration tops (this table): hi 2, the other four nothing; target 0 → the floor is just above 2,
    // so the scored "hi" (2) is dropped and "list the pods" (7) passes
    expect(run.results.config.floors.table).toMatchObject({ mode: 'auto', value: nextUp(2), calibrationFalsePositiveRate: 0 });
    expect(run.results.config.calibration).toMatchObject({ source: 'split:train', noToolCases: 5 });
    // five no-tool calibration cases: the floor's rate (0 of 5) is warned with its interval, 0–0.522
    expect(run.results.warnings).toEqual([
      expect.stringMatching(
        /^the floor of table was calibrated on 5 no-tool cases: its false-positive rate there, 0\.000 \(target 0\), has a 95% interval of 0\.000–0\.522/,
      ),
    ]);
    expect(run.results.retrievers.table!.metrics.overall).toMatchObject({ noToolFalsePositiveRate: 0, 'recall@1': 1 });
    expect(run.details.table!.map((d) => d.ranked.length)).toEqual([0, 1]);
    expect(run.details.table![0]!.belowFloor).toEqual([['mcp__k8s__list_pods', 2]]);
  });
});

describe('thinCalibrationWarnings', () => {
  const auto = (n: number, rate: number | null, interval?: [number, number]): AutoFloor => ({
    mode: 'auto',
    target: 0.1,
    value: rate === null ? null : 3,
    calibratedOn: 'split:train',
    calibrationFalsePositiveRate: rate,
    calibrationNoToolCases: n,
    ...(interval ? { falsePositiveRateInterval: interval } : {}),
  });

  it('warns once per calibrated floor picked on fewer than 100 no-tool cases, naming the count and the interval', () => {
    const w = thinCalibrationWarnings({
      codex: auto(30, 0.1, clopperPearson(3, 30)),
      bm25: auto(100, 0.1, clopperPearson(10, 100)), // 100 is enough
      fixed: 2.5,
      none: null,
      noSearch: auto(30, null), // floors do not apply: nothing to warn about
      old: auto(30, 0.1), // results written before the interval was recorded
    });
    expect(w).toEqual([
      'the floor of codex was calibrated on 30 no-tool cases: its false-positive rate there, 0.100 (target 0.1), has a 95% interval of 0.021–0.265, so on new requests it may be anywhere in it (100 or more no-tool calibration cases advised)',
    ]);
    expect(FEW_CALIBRATION_NO_TOOL_CASES).toBe(100);
  });
});
