/**
 * The figures a regression file may pin, and where each is read in `results.json`:
 *
 * - a metric id of the overall table (`top1`, `recall@5`, `noToolFalsePositiveRate`,
 *   `scopeLeakCount`, `visible`, …; the counts `cases`, `gradedCases`, … as sanity figures) —
 *   `retrievers.<name>.metrics.overall[id]` or `profiles.<name>.metrics.overall[id]`;
 * - a metric id of one slice's table, `slices.<slice>.<id>` (`slices.paraphrase.recall@5`) —
 *   `….metrics.slices[slice][id]`;
 * - a token figure of a profile, `tokens.<field>` — `profiles.<name>.tokens.<field>`.
 *
 * Timings (`indexMs`, `p50Ms`, `p95Ms`, `peakRssMb`) are refused: they vary run to run, and the
 * gate only checks deterministic figures.
 */
import type { Results } from '../eval/results.ts';
import type { StrategyExpectation } from './schema.ts';
import { didYouMean } from '../util/suggest.ts';
import { METRICS, parseMetricId, type MetricId } from '../metrics/ids.ts';

/** Which way a figure should move: `none` for counts (any change beyond tolerance is a change for the worse). */
export type Direction = 'higher' | 'lower' | 'none';

/** Token figures of a profile the gate reads, and which way is better. */
export const TOKEN_FIGURES = {
  beforeSearch: 'lower',
  beforeSearchPerCase: 'lower',
  perSearch: 'lower',
  perCase: 'lower',
  session12Uncached: 'lower',
  session12Cached: 'lower',
  cacheInvalidation: 'lower',
  visiblePer1kTokens: 'higher',
  recall5Per1kTokens: 'higher',
} as const satisfies Record<string, Direction>;

export type TokenField = keyof typeof TOKEN_FIGURES;

/** The token figures `bless` pins for a new profile. */
export const DEFAULT_TOKEN_FIGURES: readonly TokenField[] = ['beforeSearch', 'perSearch', 'session12Uncached', 'session12Cached'];

export type Figure =
  | {
      kind: 'metric';
      key: string;
      metric: MetricId;
      direction: Direction /** The slice whose table it is read from; absent: the overall table. */;
      slice?: string;
    }
  | { kind: 'tokens'; key: string; field: TokenField; direction: Direction };

const TOKEN_PREFIX = 'tokens.';
const SLICE_PREFIX = 'slices.';

/** Parse a figure key of a regression file; throws an Error (with a "did you mean") on an unknown one. */
export function parseFigure(key: string): Figure {
  if (key.startsWith(TOKEN_PREFIX)) {
    const field = key.slice(TOKEN_PREFIX.length);
    if (!Object.prototype.hasOwnProperty.call(TOKEN_FIGURES, field)) {
      throw new Error(
        `unknown token figure "${key}"${didYouMean(field, Object.keys(TOKEN_FIGURES))} (token figures: ${Object.keys(TOKEN_FIGURES)
          .map((f) => TOKEN_PREFIX + f)
          .join(', ')})`,
      );
    }
    return { kind: 'tokens', key, field: field as TokenField, direction: TOKEN_FIGURES[field as TokenField] };
  }
  // slices.<slice>.<metric id>: a slice's own table (metric ids hold no dot; a slice name may)
  const sliced = key.startsWith(SLICE_PREFIX) ? key.slice(SLICE_PREFIX.length) : undefined;
  const dot = sliced?.lastIndexOf('.') ?? -1;
  if (sliced !== undefined && dot <= 0) throw new Error(`slice figure "${key}" must be slices.<slice>.<metric id> (e.g. slices.paraphrase.recall@5)`);
  const id = sliced !== undefined ? sliced.slice(dot + 1) : key;
  const metric = parseMetricId(id);
  const info = METRICS[metric.kind];
  if (info.group === 'cost') throw new Error(`"${key}" is a timing, which varies from run to run: the gate checks deterministic figures only`);
  const direction = info.higherIsBetter === null ? 'none' : info.higherIsBetter ? 'higher' : 'lower';
  return { kind: 'metric', key, metric, direction, ...(sliced !== undefined ? { slice: sliced.slice(0, dot) } : {}) };
}

/** The metric id of a metric figure (`recall@5` for `slices.paraphrase.recall@5`). */
export function metricKey(f: Extract<Figure, { kind: 'metric' }>): string {
  return f.slice === undefined ? f.key : f.key.slice(SLICE_PREFIX.length + f.slice.length + 1);
}

/** Whether a figure is the mean of a per-case score (so a paired test over cases applies to it). */
export function isPerCaseMean(f: Figure): boolean {
  // a slice's figure is a mean over its own cases: the paired test runs over all of them
  if (f.kind !== 'metric' || f.slice !== undefined) return false;
  return METRICS[f.metric.kind].group === 'quality' && f.metric.kind !== 'scopeLeakCount';
}

/** The strategies of a results file (retrievers, then profiles), by name. */
export function strategyNames(r: Results): string[] {
  return [...Object.keys(r.retrievers), ...Object.keys(r.profiles ?? {})];
}

/**
 * The value of a figure for one strategy of a results file: `undefined` when the strategy lacks it
 * (a profile without search has no `top1`; a retriever has no token figures).
 */
export function figureValue(r: Results, strategy: string, f: Figure): number | undefined {
  const own = Object.prototype.hasOwnProperty;
  const s = own.call(r.retrievers, strategy) ? r.retrievers[strategy] : r.profiles && own.call(r.profiles, strategy) ? r.profiles[strategy] : undefined;
  if (!s) return undefined;
  let v: unknown;
  if (f.kind === 'metric') v = (f.slice === undefined ? s.metrics?.overall : s.metrics?.slices?.[f.slice])?.[metricKey(f)];
  else v = (s as { tokens?: Record<string, unknown> }).tokens?.[f.field];
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** Where a strategy of the results came from when it is not built in (its `config.origin`), as the regression file records it. */
export function strategyOrigin(r: Results, name: string): StrategyExpectation['origin'] | undefined {
  const entry = r.retrievers[name] ?? r.profiles?.[name];
  const o = (entry?.config as { origin?: unknown } | undefined)?.origin as Record<string, unknown> | undefined;
  if (o === null || typeof o !== 'object') return undefined;
  if (typeof o.plugin === 'string' && typeof o.sha256 === 'string')
    return { plugin: o.plugin, ...(typeof o.version === 'string' ? { version: o.version } : {}), sha256: o.sha256 };
  if (typeof o.service === 'string') return { service: o.service };
  return undefined;
}

/** One line naming an origin: `plugin keyword-boost 1.0.0 (sha256 3f2a…)`, `service http://…`. */
export function describeOrigin(o: NonNullable<StrategyExpectation['origin']>): string {
  return 'plugin' in o ? `plugin ${o.plugin}${o.version !== undefined ? ` ${o.version}` : ''} (sha256 ${o.sha256.slice(0, 12)}…)` : `service ${o.service}`;
}

/** Whether two origins are the same (both absent counts as the same). */
export function sameOrigin(a: StrategyExpectation['origin'], b: StrategyExpectation['origin']): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}
