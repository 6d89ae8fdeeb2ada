/**
 * One strategy (a retriever or a profile) evaluated over a run's cases: index, search every case
 * through the policy layer, the other session mode, then its metrics, sessions and (profiles)
 * exposure and tokens. Strategies are independent of one another, which is what lets a run spread
 * them over threads (`parallel.ts`); the token meters are shared by the strategies one runner
 * evaluates, so each definition is counted once per thread.
 */
import { indexCounters, wireIndexProgress } from '../retrievers/composite.ts';
import type { Case, Catalog, Tool } from '../catalog/types.ts';
import { createProfile } from '../profiles/registry.ts';
import { queryFor } from '../profiles/keyword-query.ts';
import { DEFAULT_CONTEXT_WINDOW, type Caller, type Profile, type ProfileOptions, type QueryStyle } from '../profiles/types.ts';
import { Policy } from '../retrievers/policy.ts';
import { createRetriever } from '../retrievers/registry.ts';
import { isCalibrating, isDescribable, isPrefetching, type Hit, type Retriever, type RetrieverOptions } from '../retrievers/types.ts';
import { DEFAULT_COUNTER, type TokenCounterName } from '../tokens/count.ts';
import type { Provider } from '../tokens/serialize.ts';
import { calibrateFloor, type CalibrationSet } from './calibrate.ts';
import type { EvalInput } from './input.ts';
import { floorValue, isAutoFloor, type AutoFloor } from './results.ts';
import { catalogFacts, DEFAULT_CACHE_PRICES, exposureMeans, percentile, profileTokens, retrieverResults, SESSION_TURNS, withoutRanking, type EvalConfig, type ExposureSummary, type ProfileResults, type QueryDetail, type RetrieverResults } from './results.ts';
import { callFigures, caseCalls } from './calls.ts';
import { ownChurn, strategySessions } from './sessions.ts';
import { retrieverTokens, TokenMeter } from './tokens.ts';
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
}

/** Cases whose requests a prefetching retriever prepares at once. */
const PREFETCH_BLOCK = 64;

/** The strategies of a run, retrievers first, in the configuration's order. */
export function strategyTasks(config: EvalConfig): StrategyTask[] {
  return [...config.retrievers.map((name) => ({ kind: 'retriever' as const, name })), ...(config.profiles ?? []).map((name) => ({ kind: 'profile' as const, name }))];
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
    this.makeProfile = opts.createProfile ?? ((name: string) => createProfile(name, { ...shared, ...(config.contextWindow !== undefined ? { contextWindow: config.contextWindow } : {}), ...opts.profileOptions }));
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
    const retriever = this.create(name);
    const t0 = performance.now();
    if (opts.indexProgress) wireIndexProgress(retriever, (done, total) => opts.indexProgress!(name, done, total));
    await retriever.index(input.catalog);
    await this.calibrateScores(retriever);
    const indexMs = performance.now() - t0;
    const style = config.queryStyle ?? 'raw';
    const auto = await this.autoFloor(name, retriever, config.depth, style);
    const floor = auto ? floorValue(auto) : floorValue(config.floors[name]);
    const list = await searchCases(name, retriever, null, cases, input, config, opts, floor, style);
    await otherMode(name, retriever, null, cases, list, input, config, opts, floor, style);
    const sessions = strategySessions(cases, list, { sticky: isSticky(config, null), placement: 'prefix', cache: config.cache ?? DEFAULT_CACHE_PRICES, retrieverTokens: retrieverTokens(this.meterFor('anthropic', DEFAULT_COUNTER)) });
    const result = { ...retrieverResults(cases, list, this.facts, config, isDescribable(retriever) ? retriever.describe() : {}, latencyOf(list, cases, indexMs, retriever), opts.traces), ...(sessions ? { sessions } : {}) };
    return { task, result, details: list, ...(auto ? { floor: auto } : {}) };
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
    return calibrateFloor(searcher, this.input.catalog, this.opts.calibration, depth, setting.target, (request) => queryFor(request, style));
  }

  private async profile(task: StrategyTask): Promise<StrategyOutcome> {
    const { input, cases, config, opts } = this;
    const name = task.name;
    const profile = this.makeProfile(name);
    const t0 = performance.now();
    if (opts.indexProgress) wireIndexProgress(profile, (done, total) => opts.indexProgress!(name, done, total));
    await profile.index(input.catalog);
    const indexMs = performance.now() - t0;
    const searcher = profile.searcher();
    await this.calibrateScores(searcher);
    const exposure = new ExposureTally(profile, new Policy(input.catalog), input.catalog, searcher !== null, this.meterFor);
    const style = config.queryStyle ?? profile.queryStyle;
    const auto = await this.autoFloor(name, searcher, Math.min(config.depth, exposure.searchLimit), style);
    // A floor the run configures (a score, none, auto) wins; a profile's documented default applies only when the run says nothing about it.
    const floor = auto ? floorValue(auto) : Object.prototype.hasOwnProperty.call(config.floors, name) ? floorValue(config.floors[name]) : profile.defaultFloor;
    const list = await searchCases(name, searcher, exposure, cases, input, config, opts, floor, style);
    await otherMode(name, searcher, () => new ExposureTally(profile, new Policy(input.catalog), input.catalog, searcher !== null, this.meterFor), cases, list, input, config, opts, floor, style);
    const r = retrieverResults(cases, list, this.facts, config, profile.describe(), latencyOf(list, cases, indexMs, searcher ?? profile), opts.traces);
    const sessions = strategySessions(cases, list, { sticky: isSticky(config, exposure), placement: profile.placement ?? 'history', cache: config.cache ?? DEFAULT_CACHE_PRICES });
    const result: ProfileResults = {
      ...(searcher ? r : withoutRanking(r)),
      ...(sessions ? { sessions } : {}),
      exposure: { ...exposure.summary(list), queryStyle: style },
      tokens: profileTokens(list, r.metrics.overall, exposure.unrestrictedTokens(), exposure.tokenMeta(), config.cache ?? DEFAULT_CACHE_PRICES, ownChurn(sessions, isSticky(config, exposure)), config.contextWindow ?? DEFAULT_CONTEXT_WINDOW),
      calls: callFigures(cases, list, profile.calls, SESSION_TURNS),
    };
    return { task, result, details: list, ...(auto ? { floor: auto } : {}) };
  }
}

/**
 * Every case of the run through the policy layer with `searcher` (none: nothing is searched), in
 * dataset order. With an exposure tally (profiles), each case also records the gold tools the
 * profile sends eagerly, and the tally adds up what was put in front of the model.
 */
async function searchCases(name: string, searcher: Retriever | null, exposure: ExposureTally | null, cases: readonly Case[], input: EvalInput, config: EvalConfig, opts: StrategyOptions, floor: number | undefined, style: QueryStyle, stickyOverride?: boolean): Promise<QueryDetail[]> {
  // A fresh policy per strategy: sticky sessions must not carry one strategy's tool sets into the next.
  // A profile's tally has its own (fresh) one: searches and exposure then share the caller masks, so
  // a profile can recognise the mask a search was made under (hermes-retry's retried searches).
  const policy = exposure ? exposure.policy : new Policy(input.catalog);
  const sticky = stickyOverride ?? isSticky(config, exposure);
  const depth = exposure ? Math.min(config.depth, exposure.searchLimit) : config.depth;
  const list: QueryDetail[] = [];
  // A retriever that prefetches prepares each block of 64 cases' requests in one pass (the same
  // results); the block's prefetch time is shared out evenly over its searched cases' `ms`, so
  // latencies stay comparable with a retriever that does everything in `search`.
  const prefetcher = searcher && depth > 0 && isPrefetching(searcher) ? searcher : null;
  let prefetchShare = 0;
  opts.progress?.(name, 0, cases.length);
  for (let i = 0; i < cases.length; i++) {
    const c = cases[i]!;
    if (prefetcher && i % PREFETCH_BLOCK === 0) {
      const upcoming = cases.slice(i, i + PREFETCH_BLOCK).filter((x) => x.expectedTools !== undefined).map((x) => queryFor(x.request, style)).filter((q) => q !== '');
      const p0 = performance.now();
      if (upcoming.length) await prefetcher.prefetch(upcoming);
      prefetchShare = upcoming.length ? (performance.now() - p0) / upcoming.length : 0;
    }
    if (c.expectedTools === undefined) {
      // A skill-only case is not labelled for tools: nothing to search for.
      list.push({ caseId: c.id, ranked: [], pinned: [], leaks: [], ms: 0 });
      continue;
    }
    const caller = {
      ...(c.callerScopes ? { callerScopes: c.callerScopes } : {}),
      ...(c.role !== undefined ? { role: c.role } : {}),
      ...(c.sessionId !== undefined ? { session: { id: c.sessionId, turn: c.turn ?? 0 } } : {}),
    };
    // The query the search receives: the request, or the keywords a model writes (none: the model issues no search).
    const query = queryFor(c.request, style);
    const q0 = performance.now();
    const found =
      searcher && depth > 0 && query !== ''
        ? await policy.expose(searcher, query, caller, { depth, ...(floor !== undefined ? { floor } : {}), ...(sticky ? { sticky: true } : {}) })
        : query === '' && searcher && depth > 0
          ? policy.unsearched(caller, { ...(sticky ? { sticky: true } : {}) })
          : { ranked: [], pinned: [], leaks: [] };
    const ms = performance.now() - q0 + prefetchShare;
    const below = 'belowFloor' in found ? found.belowFloor : undefined;
    const detail: QueryDetail = {
      caseId: c.id,
      ranked: found.ranked.map((h) => [h.id, h.score]),
      ...(below?.length ? { belowFloor: below.map((h): [string, number] => [h.id, h.score]) } : {}),
      pinned: found.pinned,
      leaks: found.leaks,
      ...('kept' in found && found.kept ? { kept: true } : {}),
      ms: round3(ms),
    };
    if (exposure) {
      const { exposureLeaks, ...shown } = exposure.record(c, caller, found.ranked, query, detail.kept === true);
      Object.assign(detail, shown);
      // tools put in front of the model outside the caller's scopes are leaks too, wherever they were shown
      if (exposureLeaks.length) detail.leaks = [...new Set([...detail.leaks, ...exposureLeaks])];
    }
    list.push(detail);
    if ((i & 63) === 63 || i === cases.length - 1) opts.progress?.(name, i + 1, cases.length);
  }
  return list;
}

function isSticky(config: EvalConfig, exposure: ExposureTally | null): boolean {
  return config.sticky === true || exposure?.sticky === true;
}

/**
 * The session cases once more under the other stickiness (per-turn if the run was sticky, sticky if
 * not), so every strategy's sessions are measured both ways; the result is attached to the details
 * (`alt`), from which the session figures are computed (also after a merge).
 */
async function otherMode(name: string, searcher: Retriever | null, makeTally: (() => ExposureTally) | null, cases: readonly Case[], list: QueryDetail[], input: EvalInput, config: EvalConfig, opts: StrategyOptions, floor: number | undefined, style: QueryStyle): Promise<void> {
  const sessionCases = cases.filter((c) => c.sessionId !== undefined && c.expectedTools !== undefined);
  if (!sessionCases.length) return;
  const tally = makeTally ? makeTally() : null;
  const alt = await searchCases(name, searcher, tally, sessionCases, input, config, { ...opts, progress: undefined }, floor, style, !isSticky(config, tally));
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

/** The run's token meter for a provider serialization and a counter (shared: each definition is counted once per run). */
type MeterFor = (provider: Provider, counter: TokenCounterName) => TokenMeter;

/** Per-caller figures before any search: what is in front of the model (eager or code-mode callable) as a mask by catalog position, and its tokens. */
interface BeforeEntry {
  /** Eager or callable tools (a mask, not a set of ids: there may be hundreds of callers). */
  shown: Uint8Array;
  /** Eager definitions. */
  count: number;
  /** Non-pinned tools shown (eager or callable). */
  unpinned: number;
  tokens: number;
  estimate: number | undefined;
  /** Tokens of definitions on the wire that the model does not read (undefined: none). */
  wire: number | undefined;
  /** Tools outside the caller's scopes that the profile shows before any search (eager, callable, on the wire, named in the advertisement). */
  leaks: string[];
}

/** Per-caller exposure of a profile (computed once per scope set and role), the case figures and their tokens. */
class ExposureTally {
  readonly sticky: boolean;
  readonly searchLimit: number;
  private readonly cache = new Map<string, BeforeEntry>();
  private readonly position = new Map<string, number>();
  private readonly tools: readonly Tool[];
  private readonly meter: TokenMeter;
  private readonly estimator: TokenMeter | undefined;
  private readonly placement: 'history' | 'prefix';

  constructor(
    private readonly profile: Profile,
    readonly policy: Policy,
    catalog: Catalog,
    private readonly searches: boolean,
    meterFor: MeterFor,
  ) {
    this.sticky = profile.sticky === true;
    this.searchLimit = profile.searchLimit;
    this.placement = profile.placement ?? 'history';
    catalog.tools.forEach((t, i) => this.position.set(t.id, i));
    this.tools = catalog.tools;
    this.meter = meterFor(profile.provider ?? 'anthropic', DEFAULT_COUNTER);
    this.estimator = profile.estimator ? meterFor(profile.provider ?? 'anthropic', profile.estimator) : undefined;
  }

  private callerOf(caller: { callerScopes?: readonly string[]; role?: string }): Caller {
    const allowed = this.policy.allowedMask(caller.callerScopes);
    return { ...(allowed ? { allowed } : {}), ...(caller.callerScopes ? { callerScopes: caller.callerScopes } : {}), ...(caller.role !== undefined ? { role: caller.role } : {}) };
  }

  private before(caller: { callerScopes?: readonly string[]; role?: string }): BeforeEntry {
    const key = Policy.callerKey(caller);
    let entry = this.cache.get(key);
    if (!entry) {
      const who = this.callerOf(caller);
      const b = this.profile.beforeSearch(who);
      const eager = this.idMask(b.eager);
      const shown = b.callable?.length ? this.idMask(b.callable, eager.slice()) : eager;
      let unpinned = 0;
      for (let p = 0; p < shown.length; p++) if (shown[p] === 1 && !this.tools[p]!.pinned) unpinned++;
      let wire: number | undefined;
      if (b.wire?.length) {
        wire = 0;
        for (const id of b.wire) wire += this.meter.toolTokens(id);
      }
      const allowed = who.allowed;
      const leaks = allowed ? this.outside(allowed, [...b.eager, ...(b.callable ?? []), ...(b.wire ?? []), ...this.namedIn(b.advertisement)]) : [];
      entry = { shown, count: b.eager.length, unpinned, tokens: this.meter.before(b, eager).total, estimate: this.estimator?.before(b, eager).total, wire, leaks };
      this.cache.set(key, entry);
    }
    return entry;
  }

  /** The catalog tools among `ids` that `allowed` forbids, each once, in order. */
  private outside(allowed: Uint8Array, ids: Iterable<string>): string[] {
    const out = new Set<string>();
    for (const id of ids) {
      const p = this.position.get(id);
      if (p !== undefined && allowed[p] !== 1) out.add(id);
    }
    return [...out];
  }

  /**
   * Catalog ids named in a text (an advertisement): its words, split at whitespace, quotes, brackets
   * and list punctuation, with a trailing `:` or `.` dropped, looked up in the catalog. A plain
   * word (letters only) that happens to be a tool id (`bash`, `read`) is more likely prose and is
   * not taken for a name: ids with a separator or a digit are (`mcp__github__create_issue`).
   */
  private namedIn(text: string): string[] {
    const out: string[] = [];
    if (!text) return out;
    for (const raw of text.split(/[\s"'`()[\]{}<>|*,;]+/)) {
      const word = raw.replace(/[:.]+$/, '');
      if (word && !/^\p{L}+$/u.test(word) && this.position.has(word)) out.push(word);
    }
    return out;
  }

  /**
   * Ids as a mask by position (set into `mask` when given). Eager and callable lists come in catalog
   * order (the profile contract), so one walk along the catalog finds them without a lookup per id;
   * an id out of order falls back to the position map.
   */
  private idMask(ids: readonly string[], mask = new Uint8Array(this.tools.length)): Uint8Array {
    const tools = this.tools;
    let j = 0;
    for (let p = 0; p < tools.length && j < ids.length; p++) {
      if (tools[p]!.id === ids[j]) {
        mask[p] = 1;
        j++;
      }
    }
    for (; j < ids.length; j++) mask[this.position.get(ids[j]!)!] = 1;
    return mask;
  }

  /**
   * One case's exposure: its gold tools in front of the model before the search (eager or callable),
   * those the search brought beyond its ranking, the case's exposure figures and its model calls.
   * `query` is what the search received (`''`: the model issued none); `kept`: a sticky turn kept
   * its set (no search).
   */
  record(c: Case, caller: { callerScopes?: readonly string[]; role?: string }, ranked: readonly Hit[], query: string, kept: boolean): Pick<QueryDetail, 'eager' | 'expanded' | 'exposure'> & { exposureLeaks: string[] } {
    const entry = this.before(caller);
    const who = this.callerOf(caller);
    const gold = [...new Set(c.expectedTools ?? [])];
    let loaded: readonly string[] = [];
    let chars = 0;
    let tokens = 0;
    let estimate = 0;
    let searches = 0;
    let opened = 0;
    let definedIds: string[] = [];
    // An empty query: the model had nothing to search for and issued no search, so nothing was
    // added, unless a sticky session kept its set in front of the model (then counted, no call).
    if (this.searches && (query !== '' || ranked.length > 0)) {
      const added = this.profile.afterSearch(ranked, who, query);
      loaded = added.loaded;
      definedIds = (added.definitions ?? []).map((d) => d.name);
      chars = added.text.length;
      tokens = this.meter.search(added);
      if (this.estimator) estimate = this.estimator.search(added);
      const searched = !kept && query !== '';
      searches = searched ? (added.searches ?? 1) : 0;
      opened = searched ? (added.namespacesOpened ?? 0) : 0;
    }
    const before = gold.filter((id) => entry.shown[this.position.get(id) ?? -1] === 1);
    const rankedIds = new Set(ranked.map((h) => h.id));
    const loadedSet = new Set(loaded);
    const expanded = gold.filter((id) => !rankedIds.has(id) && loadedSet.has(id) && !before.includes(id));
    let loadedUnpinned = 0;
    for (const id of loaded) if (!rankedIds.has(id) && !this.tools[this.position.get(id) ?? -1]?.pinned) loadedUnpinned++;
    const exposureLeaks = who.allowed ? [...new Set([...entry.leaks, ...this.outside(who.allowed, [...loaded, ...definedIds])])] : [];
    const calls = caseCalls(this.profile.calls, { gold, goldMode: c.goldMode ?? 'all', before, searched: [...rankedIds, ...loaded], searches, namespacesOpened: opened });
    return {
      exposureLeaks,
      eager: before,
      ...(expanded.length ? { expanded } : {}),
      exposure: {
        eagerTools: entry.count,
        eagerUnpinned: entry.unpinned,
        loadedTools: loaded.length,
        resultChars: chars,
        beforeTokens: entry.tokens,
        searchTokens: tokens,
        ...(entry.estimate !== undefined ? { estimate: { before: entry.estimate, search: estimate } } : {}),
        ...(entry.wire !== undefined ? { wireTokens: entry.wire } : {}),
        ...(loadedUnpinned ? { loadedUnpinned } : {}),
        calls,
      },
    };
  }

  /** Tokens before search for a caller with every scope and no role. */
  unrestrictedTokens(): { total: number; eager: number; metaTools: number; advertisement: number; estimate?: number; wire?: number } {
    const b = this.profile.beforeSearch({});
    const wire = b.wire?.length ? b.wire.reduce((a, id) => a + this.meter.toolTokens(id), 0) : undefined;
    return { ...this.meter.before(b), ...(this.estimator ? { estimate: this.estimator.before(b).total } : {}), ...(wire !== undefined ? { wire } : {}) };
  }

  tokenMeta(): { counter: string; provider: string; placement: 'history' | 'prefix'; search: boolean; estimator?: string } {
    return { counter: DEFAULT_COUNTER, provider: this.meter.provider, placement: this.placement, search: this.searches, ...(this.profile.estimator ? { estimator: this.profile.estimator } : {}) };
  }

  summary(details: readonly QueryDetail[]): ExposureSummary {
    const b = this.profile.beforeSearch({});
    return {
      searchLimit: this.searches ? this.searchLimit : 0,
      search: this.searches,
      // the profile's own form (an empty search tells it), not the last case's: a shard may search nothing
      form: this.searches ? this.profile.afterSearch([], {}, '').form : 'none',
      sticky: this.sticky,
      unrestricted: { eagerTools: b.eager.length, metaTools: b.metaTools.map((t) => t.name), advertisementChars: b.advertisement.length, advertisementBytes: Buffer.byteLength(b.advertisement) },
      perCase: exposureMeans(details),
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

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}
