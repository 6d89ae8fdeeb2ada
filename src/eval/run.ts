/**
 * The runner: every strategy (retrievers, then profiles) over every case of the (shard of the)
 * dataset, through the policy layer, then the metrics. Strategies run one after another here, or
 * spread over worker threads (`workers` > 1, `parallel.ts`): the results are the same either way,
 * timings aside. Deterministic except for timings.
 */
import { floorInDesign } from '../profiles/registry.ts';
import { DEFAULT_CONTEXT_WINDOW } from '../profiles/types.ts';
import { calibrationInfo, thinCalibrationWarnings } from './calibrate.ts';
import type { EvalInput } from './input.ts';
import { runInWorkers, type WorkerSetup } from './parallel.ts';
import { skillComparisonConfig, skillsOfRun } from './skills.ts';
import {
  casesHash,
  DEFAULT_CACHE_PRICES,
  envelope,
  goldRemovedOf,
  type DatasetSource,
  type EvalConfig,
  type FloorSetting,
  type ProfileResults,
  type QueryDetail,
  type Results,
} from './results.ts';
import { catalogTokenTable } from './profile-figures.ts';
import { casesOfShard, type Shard } from './shard.ts';
import { StrategyRunner, strategyTasks, type StrategyOptions, type StrategyOutcome, type StrategyTiming } from './strategy.ts';

export { peakRssMb } from './strategy.ts';

/** How `runEval` runs: shard, worker threads, calibration cases, retriever options, progress callbacks. */
export interface RunOptions extends StrategyOptions {
  shard?: Shard | null;
  /**
   * Threads to evaluate strategies on (this one included); default 1. More than one needs
   * `workerSource`, and spends one more copy of the catalog per thread.
   */
  workers?: number;
  /** Where worker threads load the same input from (the input must be exactly what `loadEvalInput` gives for it). */
  workerSource?: DatasetSource;
  /** What each worker thread runs first: the command line's plugins and retrieval services, activated again (`parallel.ts`). */
  workerSetup?: WorkerSetup;
}

/** An evaluation: the `results.json` envelope and, per strategy, one detail record a case (what a results folder holds). */
export interface EvalRun {
  results: Results;
  /** Per retriever, per case in dataset order. */
  details: Record<string, QueryDetail[]>;
  /** Where the evaluation's time went (for timings.json; never written to results.json); absent on a run read from a folder. */
  timings?: EvalTimings;
}

/** Where `runEval`'s wall time went, in milliseconds. */
export interface EvalTimings {
  /** The strategies, on every thread (from the first start to the last outcome). */
  strategiesMs: number;
  /** The skill comparison (skill listings against the searched skill index). */
  skillsMs: number;
  /** The tool-block token table. */
  tokenTableMs: number;
  /** The results envelope put together (the run's figures summed, floors and warnings recorded). */
  assembleMs: number;
  /** Per worker thread (threads 1…n−1): loading and checking its own copy of the input before its first strategy. */
  workerLoadMs: number[];
  /** Per strategy: its thread and phases. */
  strategies: Record<string, StrategyTiming>;
}

/** What a run's configuration is made from ({@link makeConfig}). */
export interface ConfigOptions {
  retrievers: readonly string[];
  /** Harness profiles (default none). */
  profiles?: readonly string[];
  /** Cut-offs for recall@k and friends (default 1, 3, 5, 10). */
  ks?: readonly number[];
  /** Floors by strategy name, as resolved (`eval/floors.ts`); default none. */
  floors?: Record<string, FloorSetting>;
  /** The sha256 of a replayed traces file (default null: none). */
  traces?: string | null;
  /** Sticky-per-task retrieval (default false). */
  sticky?: boolean;
}

/**
 * A run's configuration: the cut-offs ascending and unique, depth = max(ks, 10), profiles with
 * the default cache prices. Takes named options; the positional form (retrievers, ks, floors,
 * traces, sticky, profiles) is kept for programs written against it.
 */
export function makeConfig(options: ConfigOptions): EvalConfig;
export function makeConfig(
  retrievers: string[],
  ks: number[],
  floors: Record<string, FloorSetting>,
  traces: string | null,
  sticky?: boolean,
  profiles?: string[],
): EvalConfig;
export function makeConfig(
  first: ConfigOptions | string[],
  ks?: number[],
  floors?: Record<string, FloorSetting>,
  traces?: string | null,
  sticky?: boolean,
  profiles?: string[],
): EvalConfig {
  const o: ConfigOptions = Array.isArray(first)
    ? { retrievers: first, ks: ks ?? [], floors: floors ?? {}, traces: traces ?? null, sticky: sticky ?? false, profiles: profiles ?? [] }
    : first;
  const sorted = [...new Set(o.ks ?? DEFAULT_KS)].sort((a, b) => a - b);
  const named = o.profiles ?? [];
  return {
    retrievers: [...o.retrievers],
    ...(named.length ? { profiles: [...named], cache: { ...DEFAULT_CACHE_PRICES } } : {}),
    ks: sorted,
    depth: Math.max(10, sorted[sorted.length - 1] ?? 10),
    floors: o.floors ?? {},
    ...(o.sticky ? { sticky: true } : {}),
    traces: o.traces ?? null,
  };
}

/** The cut-offs a run reports when none are given. */
export const DEFAULT_KS: readonly number[] = [1, 3, 5, 10];

/**
 * Evaluate every strategy of `config` on `input`: each case searched through the policy layer,
 * scored, and summed into the results envelope (metrics, tokens, sessions, skills). Deterministic:
 * the same input and configuration give the same results and details on any number of threads.
 */
export async function runEval(input: EvalInput, config: EvalConfig, opts: RunOptions = {}): Promise<EvalRun> {
  const started = Date.now();
  const startedAt = new Date(started).toISOString();
  const cases = casesOfShard(input.cases, opts.shard ?? null);
  const tasks = strategyTasks(config);
  const workers = Math.max(1, Math.min(opts.workers ?? 1, tasks.length));
  let outcomes: StrategyOutcome[];
  let workerLoadMs: number[] = [];
  const t0 = performance.now();
  if (workers > 1 && opts.workerSource && !opts.create && !opts.createProfile) {
    ({ outcomes, workerLoadMs } = await runInWorkers({ input, cases, config, opts, tasks, workers, source: opts.workerSource }));
  } else {
    const runner = new StrategyRunner(input, cases, config, opts);
    outcomes = [];
    for (const task of tasks) outcomes.push(await runner.run(task));
  }
  const strategiesMs = performance.now() - t0;
  // Calibrated floors are chosen inside each strategy's evaluation; the results record them.
  const floors = { ...config.floors };
  for (const o of outcomes) if (o.floor) floors[o.task.name] = o.floor;
  // The input's warnings, then one per floor calibrated on too few no-tool cases.
  const warnings = [...(input.warnings ?? []), ...thinCalibrationWarnings(floors), ...outcomes.flatMap((o) => o.warnings ?? [])];
  const skillConfig = skillComparisonConfig(input.catalog, input.cases);
  // A floor on a profile whose harness has none is a what-if: the results say which.
  const whatIf = (config.profiles ?? []).filter((n) => !floorInDesign(n) && floors[n] !== null && floors[n] !== undefined);
  const finalConfig: EvalConfig = {
    ...config,
    floors,
    ...(whatIf.length ? { floorsNotInHarness: whatIf } : {}),
    ...(opts.calibration ? { calibration: calibrationInfo(opts.calibration) } : {}),
    ...(skillConfig ? { skills: skillConfig } : {}),
  };
  const retrievers: Results['retrievers'] = {};
  const profiles: NonNullable<Results['profiles']> = {};
  const details: Record<string, QueryDetail[]> = {};
  for (const o of outcomes) {
    if (o.task.kind === 'retriever') retrievers[o.task.name] = o.result;
    else profiles[o.task.name] = o.result as ProfileResults;
    details[o.task.name] = o.details;
  }
  // Over the whole input, also in a shard: the skill comparison searches skills, not tools, so it is
  // not sharded; every shard carries the run's (`merge` takes it from them).
  const t1 = performance.now();
  const skills = await skillsOfRun(input.catalog, input.cases, config.contextWindow ?? DEFAULT_CONTEXT_WINDOW, skillConfig);
  const t2 = performance.now();
  const tokenTable = catalogTokenTable(input.catalog);
  const t3 = performance.now();
  const results = envelope({
    dataset: {
      name: input.name,
      source: input.source,
      catalogSha256: input.catalogSha256,
      // with --renames, the hash of the cases as the file gave them: the run pairs with runs over the old catalog
      casesSha256: input.casesAsGivenSha256 ?? casesHash(input.cases),
      tools: input.catalog.tools.length,
      cases: cases.length,
      ...(input.reSigned ? { reSigned: input.reSigned } : {}),
      ...goldRemovedOf(input.catalog, input.cases),
      ...(input.goldRenamed ? { goldRenamed: input.goldRenamed } : {}),
    },
    ...(warnings.length ? { warnings } : {}),
    config: finalConfig,
    shard: opts.shard && opts.shard.count > 1 ? { ...opts.shard } : null,
    retrievers,
    ...(config.profiles?.length ? { profiles } : {}),
    tokenTable,
    ...(skills ? { skills } : {}),
    timings: { startedAt, durationMs: Date.now() - started },
  });
  const ms = (x: number) => Math.round(x * 10) / 10;
  const timings: EvalTimings = {
    strategiesMs: ms(strategiesMs),
    skillsMs: ms(t2 - t1),
    tokenTableMs: ms(t3 - t2),
    assembleMs: ms(t1 - t0 - strategiesMs + (performance.now() - t3)),
    workerLoadMs,
    strategies: Object.fromEntries(outcomes.map((o) => [o.task.name, o.timing])),
  };
  return { results, details, timings };
}
