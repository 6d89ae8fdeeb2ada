/**
 * One strategy (a retriever or a profile) evaluated over a run's cases: index, search every case
 * through the policy layer, the other session mode, then its metrics, sessions and (profiles)
 * exposure and tokens. Strategies are independent of one another, which is what lets a run spread
 * them over threads (`parallel.ts`); the token meters are shared by the strategies one runner
 * evaluates, so each definition is counted once per thread.
 */
import { profileResult, retrieverResult } from './assemble.ts';
import { ExposureTally, type MeterFor } from './exposure-tally.ts';
import { indexCounters, wireIndexProgress } from '../retrievers/composite.ts';
import type { Case } from '../catalog/types.ts';
import { createProfile } from '../profiles/registry.ts';
import { round3, type SearchPlan, searchCases } from './search.ts';
import type { Profile, ProfileOptions, QueryStyle } from '../profiles/types.ts';
import { Policy } from '../retrievers/policy.ts';
import { createRetriever } from '../retrievers/registry.ts';
import { isCalibrating, isDescribable, reportsWarnings, type Retriever, type RetrieverOptions } from '../retrievers/types.ts';
import { originOf } from '../retrievers/origins.ts';
import { DEFAULT_COUNTER } from '../tokens/count.ts';
import { calibrateFloor, type CalibrationSet } from './calibrate.ts';
import type { EvalInput } from './input.ts';
import { floorValue, isAutoFloor, type AutoFloor } from './results.ts';
import { catalogFacts, DEFAULT_CACHE_PRICES, percentile, type EvalConfig, type ProfileResults, type QueryDetail, type RetrieverResults } from './results.ts';
import { retrieverTokens, TokenMeter } from './tokens.ts';
import { recordTurnTokens } from './sessions.ts';
import type { Trace } from './traces.ts';

export interface StrategyOptions {
  traces?: ReadonlyMap<string, Trace>;
  /** Called as cases are searched: (strategy, done, total). */
  progress?: (retriever: string, done: number, total: number) => void;
  /** Build retrievers (tests pass their own); default: the registry. */
  create?: (name: string) => Retriever;
  /** Build profiles (tests pass their own); default: the profile registry. */
  createProfile?: (name: string) => Profile;
  /** Options for the registry's retrievers (`--model`); profiles get them too. */
  retrieverOptions?: RetrieverOptions;
  /** Options only profiles use (`--context-window`). */
  profileOptions?: ProfileOptions;
  /** Called while a retriever builds its index, when it reports progress: (strategy, done, total). */
  indexProgress?: (retriever: string, done: number, total: number) => void;
  /** Calibration cases (`--calibrate-on`): calibrated floors and retrievers that fit their scores use them, never the scored cases. */
  calibration?: CalibrationSet;
  /** The thread this runner is on (0: the main one), recorded in each outcome's timing. */
  thread?: number;
}

/** The phases a strategy's evaluation is timed in (timings.json; never results.json). */
export const STRATEGY_PHASES = ['index', 'calibration', 'search', 'sessions', 'tokens', 'figures'] as const;
export type StrategyPhase = (typeof STRATEGY_PHASES)[number];

/**
 * Where one strategy's evaluation spent its time, in milliseconds: `index` (the catalog indexed,
 * a profile's exposure set up), `calibration` (a fusion fitted, a floor calibrated), `search` (the
 * scored cases searched), `sessions` (the session cases searched again under the other
 * stickiness), `tokens` (tokens in front of the model counted: per turn, eager listings), `figures`
 * (metrics, intervals, curves and the other figures of its results entry). `startedMs` and
 * `endedMs` are epoch milliseconds, comparable across threads.
 */
export interface StrategyTiming {
  thread: number;
  startedMs: number;
  endedMs: number;
  phases: Record<StrategyPhase, number>;
}

/** A stopwatch that adds the time since its last lap to a phase. */
function phaseClock(): { lap: (phase: StrategyPhase) => void; phases: Record<StrategyPhase, number> } {
  const phases = Object.fromEntries(STRATEGY_PHASES.map((p) => [p, 0])) as Record<StrategyPhase, number>;
  let t = performance.now();
  return {
    phases,
    lap: (phase) => {
      const now = performance.now();
      phases[phase] += now - t;
      t = now;
    },
  };
}

/** Epoch milliseconds with sub-millisecond precision, comparable across threads. */
const epochMs = (): number => performance.timeOrigin + performance.now();

/** A timing's phases rounded to 0.1 ms. */
function rounded(phases: Record<StrategyPhase, number>): Record<StrategyPhase, number> {
  return Object.fromEntries(Object.entries(phases).map(([k, v]) => [k, Math.round(v * 10) / 10])) as Record<StrategyPhase, number>;
}

export type StrategyKind = 'retriever' | 'profile';

export interface StrategyTask {
  kind: StrategyKind;
  name: string;
}

/** What evaluating one strategy gives: its entry of `results.json` and its per-case details. */
export interface StrategyOutcome {
  task: StrategyTask;
  result: RetrieverResults | ProfileResults;
  details: QueryDetail[];
  /** The strategy's calibrated floor, when its floor is `auto`. */
  floor?: AutoFloor;
  /** Where its time went (timings.json only). */
  timing: StrategyTiming;
  /** What its searcher reported about its searches (a service that broke its protocol), for the run's warnings. */
  warnings?: string[];
}

/** A strategy's own configuration as results record it: its `describe()`, and where it comes from when it is not built in. */
function ownConfig(name: string, described: Record<string, unknown>): Record<string, unknown> {
  const origin = originOf(name);
  return origin ? { ...described, origin } : described;
}

/** The warnings a strategy's searcher (or the strategy itself) reports, if any. */
function warningsOf(...xs: Array<object | null>): { warnings?: string[] } {
  const out = xs.flatMap((x) => (x !== null && reportsWarnings(x) ? x.warnings() : []));
  return out.length ? { warnings: [...new Set(out)] } : {};
}

/** The strategies of a run, retrievers first, in the configuration's order. */
export function strategyTasks(config: EvalConfig): StrategyTask[] {
  return [
    ...config.retrievers.map((name) => ({ kind: 'retriever' as const, name })),
    ...(config.profiles ?? []).map((name) => ({ kind: 'profile' as const, name })),
  ];
}

export class StrategyRunner {
  private readonly facts: ReturnType<typeof catalogFacts>;
  private readonly create: (name: string) => Retriever;
  private readonly makeProfile: (name: string) => Profile;
  /** One meter per (provider, counter) for every strategy this runner evaluates: counting 50,000 definitions takes seconds. */
  private readonly meters = new Map<string, TokenMeter>();

  constructor(
    private readonly input: EvalInput,
    /** The cases of the run (of its shard), in dataset order. */
    readonly cases: readonly Case[],
    private readonly config: EvalConfig,
    private readonly opts: StrategyOptions = {},
  ) {
    this.facts = catalogFacts(input.catalog);
    const shared = { ...(input.roles ? { roles: input.roles } : {}), ...opts.retrieverOptions };
    this.create = opts.create ?? ((name: string) => createRetriever(name, shared));
    this.makeProfile =
      opts.createProfile ??
      ((name: string) =>
        createProfile(name, { ...shared, ...(config.contextWindow !== undefined ? { contextWindow: config.contextWindow } : {}), ...opts.profileOptions }));
  }

  private readonly meterFor: MeterFor = (provider, counter) => {
    const key = `${provider}\u0000${counter}`;
    let m = this.meters.get(key);
    if (!m) this.meters.set(key, (m = new TokenMeter(this.input.catalog, provider, counter)));
    return m;
  };

  run(task: StrategyTask): Promise<StrategyOutcome> {
    return task.kind === 'retriever' ? this.retriever(task) : this.profile(task);
  }

  private async retriever(task: StrategyTask): Promise<StrategyOutcome> {
    const { input, cases, config, opts } = this;
    const name = task.name;
    const startedMs = epochMs();
    const clock = phaseClock();
    const retriever = this.create(name);
    const indexMs = await this.timedIndex(name, retriever, clock, () => this.calibrateScores(retriever));
    const style = config.queryStyle ?? 'raw';
    const auto = await this.autoFloor(name, retriever, config.depth, style);
    clock.lap('calibration');
    const floor = auto ? floorValue(auto) : floorValue(config.floors[name]);
    const plan: SearchPlan = {
      name,
      searcher: retriever,
      exposure: null,
      policy: new Policy(input.catalog),
      depth: config.depth,
      floor,
      style,
      sticky: isSticky(config, null),
    };
    const list = await searchCases(cases, { ...plan, ...(opts.progress ? { progress: opts.progress } : {}) });
    clock.lap('search');
    await otherMode(cases, list, plan, () => ({ exposure: null, policy: new Policy(input.catalog) }));
    clock.lap('sessions');
    recordTurnTokens(cases, list, retrieverTokens(this.meterFor('anthropic', DEFAULT_COUNTER)));
    clock.lap('tokens');
    const result = retrieverResult({
      cases,
      details: list,
      facts: this.facts,
      config,
      own: ownConfig(name, isDescribable(retriever) ? retriever.describe() : {}),
      latency: latencyOf(list, cases, indexMs, retriever),
      ...(opts.traces ? { traces: opts.traces } : {}),
      sessions: {
        sticky: isSticky(config, null),
        placement: 'prefix',
        cache: config.cache ?? DEFAULT_CACHE_PRICES,
      },
    });
    clock.lap('figures');
    return { task, result, details: list, ...(auto ? { floor: auto } : {}), timing: this.timing(startedMs, clock.phases), ...warningsOf(retriever) };
  }

  private timing(startedMs: number, phases: Record<StrategyPhase, number>): StrategyTiming {
    return { thread: this.opts.thread ?? 0, startedMs: Math.round(startedMs), endedMs: Math.round(epochMs()), phases: rounded(phases) };
  }

  /** Index the catalog for strategy `name` (its progress reported to `opts.indexProgress`), then `prepare`: the milliseconds both took (the clock's index and calibration phases). */
  private async timedIndex(name: string, strategy: Retriever | Profile, clock: ReturnType<typeof phaseClock>, prepare?: () => Promise<void>): Promise<number> {
    const t0 = performance.now();
    const report = this.opts.indexProgress;
    if (report) wireIndexProgress(strategy, (done, total) => report(name, done, total));
    await strategy.index(this.input.catalog);
    clock.lap('index');
    await prepare?.();
    clock.lap('calibration');
    return performance.now() - t0;
  }

  /** Let a retriever that fits its score scale see the calibration cases (before any search). */
  private async calibrateScores(searcher: Retriever | null): Promise<void> {
    if (searcher && this.opts.calibration && isCalibrating(searcher)) await searcher.calibrate(this.opts.calibration.cases);
  }

  /** The calibrated floor of a strategy whose floor is `auto` (undefined otherwise). */
  private async autoFloor(name: string, searcher: Retriever | null, depth: number, style: QueryStyle): Promise<AutoFloor | undefined> {
    const setting = this.config.floors[name];
    if (!isAutoFloor(setting)) return undefined;
    if (!this.opts.calibration) throw new Error(`the floor of ${name} is auto, but no calibration cases were given`);
    return calibrateFloor(searcher, this.input.catalog, this.opts.calibration, depth, setting.target, style);
  }

  private async profile(task: StrategyTask): Promise<StrategyOutcome> {
    const { input, cases, config, opts } = this;
    const name = task.name;
    const startedMs = epochMs();
    const clock = phaseClock();
    const profile = this.makeProfile(name);
    const indexMs = await this.timedIndex(name, profile, clock);
    const searcher = profile.searcher();
    await this.calibrateScores(searcher);
    clock.lap('calibration');
    const exposure = new ExposureTally(profile, new Policy(input.catalog), input.catalog, searcher !== null, this.meterFor);
    clock.lap('index');
    const style = config.queryStyle ?? profile.queryStyle;
    const auto = await this.autoFloor(name, searcher, Math.min(config.depth, exposure.searchLimit), style);
    clock.lap('calibration');
    // A floor the run configures (a score, none, auto) wins; a profile's documented default applies only when the run says nothing about it.
    const floor = auto ? floorValue(auto) : Object.prototype.hasOwnProperty.call(config.floors, name) ? floorValue(config.floors[name]) : profile.defaultFloor;
    // A profile's tally has its own (fresh) policy: searches and exposure then share the caller
    // masks, so a profile can recognise the mask a search was made under (hermes-retry's retried searches).
    const tally = () => new ExposureTally(profile, new Policy(input.catalog), input.catalog, searcher !== null, this.meterFor);
    const plan: SearchPlan = {
      name,
      searcher,
      exposure,
      policy: exposure.policy,
      depth: Math.min(config.depth, exposure.searchLimit),
      floor,
      style,
      sticky: isSticky(config, exposure),
    };
    const list = await searchCases(cases, { ...plan, ...(opts.progress ? { progress: opts.progress } : {}) });
    clock.lap('search');
    await otherMode(cases, list, plan, () => {
      const t = tally();
      return { exposure: t, policy: t.policy };
    });
    clock.lap('sessions');
    // in the order the result's fields were always computed: the description and latency, then the exposure
    const own = ownConfig(name, profile.describe());
    const latency = latencyOf(list, cases, indexMs, searcher ?? profile);
    const exposed = { ...exposure.summary(list), queryStyle: style };
    const before = exposure.unrestrictedTokens();
    const meta = exposure.tokenMeta();
    clock.lap('tokens');
    const result = profileResult({
      cases,
      details: list,
      facts: this.facts,
      config,
      own,
      latency,
      ...(opts.traces ? { traces: opts.traces } : {}),
      sessions: { sticky: isSticky(config, exposure), placement: profile.placement ?? 'history', cache: config.cache ?? DEFAULT_CACHE_PRICES },
      searches: searcher !== null,
      exposure: exposed,
      before,
      meta,
      tokenCache: config.cache ?? DEFAULT_CACHE_PRICES,
      protocol: profile.calls,
    });
    clock.lap('figures');
    return {
      task,
      result,
      details: list,
      ...(auto ? { floor: auto } : {}),
      timing: this.timing(startedMs, clock.phases),
      ...warningsOf(profile, searcher),
    };
  }
}

function isSticky(config: EvalConfig, exposure: ExposureTally | null): boolean {
  return config.sticky === true || exposure?.sticky === true;
}

/**
 * The session cases once more under the other stickiness (per-turn if the run was sticky, sticky if
 * not), with a fresh policy (and tally), so every strategy's sessions are measured both ways; the
 * result is attached to the details (`alt`), from which the session figures are computed (also after
 * a merge).
 */
async function otherMode(cases: readonly Case[], list: QueryDetail[], plan: SearchPlan, fresh: () => Pick<SearchPlan, 'exposure' | 'policy'>): Promise<void> {
  const sessionCases = cases.filter((c) => c.sessionId !== undefined && c.expectedTools !== undefined);
  if (!sessionCases.length) return;
  const alt = await searchCases(sessionCases, { ...plan, ...fresh(), sticky: !plan.sticky });
  const byId = new Map(alt.map((d) => [d.caseId, d]));
  for (const d of list) {
    const a = byId.get(d.caseId);
    if (!a) continue;
    d.alt = {
      ranked: a.ranked.map(([id]) => id),
      ...(a.kept ? { kept: true } : {}),
      ...(a.exposure ? { beforeTokens: a.exposure.beforeTokens, searchTokens: a.exposure.searchTokens } : {}),
    };
  }
}

function latencyOf(list: readonly QueryDetail[], cases: readonly Case[], indexMs: number, indexed: object): RetrieverResults['latency'] {
  const ms = list.filter((_, j) => cases[j]!.expectedTools !== undefined).map((d) => d.ms);
  return { indexMs: round3(indexMs), p50Ms: percentile(ms, 0.5), p95Ms: percentile(ms, 0.95), peakRssMb: peakRssMb(), ...indexCounters(indexed) };
}

export function peakRssMb(): number {
  return Math.round(process.resourceUsage().maxRSS / 1024);
}
