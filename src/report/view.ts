/**
 * What reporters read: a `results.json` (never a retriever), normalised into one list of
 * strategies (retrievers, then profiles, in run order) with the figures the reports show.
 * Sections the run did not produce (profiles, tokens, skills, sessions) are simply absent, so a
 * report of one retriever and a report of twenty go through the same code.
 */
import { DEFAULT_CONTEXT_WINDOW, type ProfileResults, type Results, type RetrieverResults } from '../eval/results.ts';
import { REPORTED_RATES } from '../metrics/abstention.ts';
import { casesBehind, higherIsBetter, isMetricKind, metricLabel, METRICS } from '../metrics/ids.ts';

export interface StrategyView {
  name: string;
  kind: 'retriever' | 'profile';
  results: RetrieverResults;
  /** Profiles only. */
  profile?: ProfileResults;
  /** The profile offers a search on this catalog (ranking metrics exist); retrievers: true. */
  ranks: boolean;
}

export function strategies(r: Results): StrategyView[] {
  const out: StrategyView[] = Object.entries(r.retrievers).map(([name, results]) => ({ name, kind: 'retriever', results, ranks: true }));
  for (const [name, p] of Object.entries(r.profiles ?? {})) out.push({ name, kind: 'profile', results: p, profile: p, ranks: p.exposure.search });
  return out;
}

/** A metric of the overall table, or undefined. */
export function overall(s: StrategyView, metric: string): number | undefined {
  return s.results.metrics.overall[metric];
}

/** Slices present in any strategy's tables, sorted. */
export function sliceNames(r: Results): string[] {
  const names = new Set<string>();
  for (const s of strategies(r)) for (const k of Object.keys(s.results.metrics.slices)) names.add(k);
  return [...names].sort();
}

/** The headline metric of a strategy: recall@5 if it ranks (or the largest k ≤ 5), else `visible`. */
export function headline(r: Results): string {
  const ks = r.config.ks.filter((k) => k <= 5);
  return `recall@${ks.length ? ks[ks.length - 1] : r.config.ks[0]}`;
}

/** Kinds of a no-tool figure: defined only when the scored cases have a no-tool case. */
const NO_TOOL_KINDS = new Set<string>(['noToolFalsePositiveRate', 'searchNoToolFalsePositiveRate']);

/**
 * What the no-tool figures mean, in plain words (no markup, no Markdown punctuation), for the HTML
 * caption and the Markdown footnote.
 */
export const NO_TOOL_DEFINITION = `${metricLabel('noToolFalsePositiveRate')}: share of the no-tool requests, the cases that need no tool, where any non-pinned tool is in front of the model on that turn: listed eagerly, advertised with its schema, or returned by a search; for a retriever, any tool that passed the floor. A harness\u2019s own core tools, which it lists whatever the request, count as pinned (they are reported apart, with their tokens, as core tools); a profile that lists other tools eagerly (the whole catalog, a role\u2019s tools) therefore scores 1. ${metricLabel('searchNoToolFalsePositiveRate')}: the same counting only what a profile\u2019s search returned, for profiles with a search. Lower is better for both; n/a when the scored cases have no no-tool case.`;

// ---------------------------------------------------------------------------------------------
// Context fit of a profile

export interface ContextFit {
  /** Share 0..1 of the tool-labelled cases whose prompt fits the window. */
  share: number;
  /** The window, in tokens. */
  window: number;
  /** Tool-labelled cases whose prompt does not fit (absent when the results do not say). */
  overflowCases?: number;
}

function finite(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v);
}

/** A profile's context fit, when its results carry `tokens.fitsContext` (results written before it: undefined). */
export function contextFit(s: StrategyView, r?: Results): ContextFit | undefined {
  const t = s.profile?.tokens as unknown as { fitsContext?: unknown; contextWindow?: unknown; overflowCases?: unknown } | undefined;
  if (!t || !finite(t.fitsContext)) return undefined;
  const window = finite(t.contextWindow) ? t.contextWindow : finite(r?.config?.contextWindow) ? r!.config.contextWindow! : DEFAULT_CONTEXT_WINDOW;
  return { share: Math.min(1, Math.max(0, t.fitsContext)), window, ...(finite(t.overflowCases) ? { overflowCases: t.overflowCases } : {}) };
}

/** Whether a strategy's prompt fits the context window in every case (retrievers and older results: true). */
export function fitsWindow(s: StrategyView): boolean {
  const f = contextFit(s);
  return !f || f.share >= 1;
}

/** Whether a profile's prompt fits the window in no case at all: its quality figures do not apply. */
export function fitsNowhere(s: StrategyView): boolean {
  const f = contextFit(s);
  return f !== undefined && f.share <= 0;
}

function windowText(window: number): string {
  return `${Math.round(window).toLocaleString('en-US')}-token context window`;
}

/** Whole percent, rounded down (so 99.6% is not shown as 100%), "<1" below one percent. */
function percentDown(share: number): string {
  const p = Math.floor(share * 100);
  return p === 0 && share > 0 ? '<1' : String(p);
}

/** "does not fit the 200,000-token context window" / "fits 80% of cases in the 200,000-token context window" (undefined when it fits every case). */
export function fitNote(fit: ContextFit | undefined): string | undefined {
  if (!fit || fit.share >= 1) return undefined;
  if (fit.share <= 0) return `does not fit the ${windowText(fit.window)}`;
  return `fits ${percentDown(fit.share)}% of cases in the ${windowText(fit.window)}`;
}

/** A short mark for a table cell: "does not fit" / "fits 80% of cases" (undefined when it fits). */
export function fitMark(fit: ContextFit | undefined): string | undefined {
  if (!fit || fit.share >= 1) return undefined;
  return fit.share <= 0 ? 'does not fit' : `fits ${percentDown(fit.share)}% of cases`;
}

// ---------------------------------------------------------------------------------------------
// Figures that apply, and why the others do not

/** A figure or curve built on fewer cases than this (graded, or no-tool) is marked thin in every format. */
export const THIN_CASES = 10;

/**
 * Why a figure of a metric table is thin: it is a mean over fewer than {@link THIN_CASES} cases of
 * the kind it averages (graded, no-tool or multi-gold); undefined when it is not thin, does not
 * apply (0 cases: n/a says so) or is no mean over cases.
 */
export function thinness(table: Readonly<Record<string, number>> | undefined, metric: string): string | undefined {
  const kind = casesBehind(metric);
  const n = kind && table ? table[kind] : undefined;
  if (n === undefined || n === 0 || n >= THIN_CASES) return undefined;
  const what = kind === 'noToolCases' ? 'no-tool' : kind === 'multiGoldCases' ? 'multi-gold' : 'graded';
  return `thin: a mean over ${n} ${what} case${n === 1 ? '' : 's'} (fewer than ${THIN_CASES})`;
}

/** Why a strategy's operating curve (and what is read off it) is thin: fewer than {@link THIN_CASES} graded or no-tool cases behind it. */
export function curveThinness(s: StrategyView): string | undefined {
  const t = s.results.metrics?.overall;
  const parts = (['gradedCases', 'noToolCases'] as const)
    .filter((k) => isFiniteNum(t?.[k]) && t![k]! > 0 && t![k]! < THIN_CASES)
    .map((k) => `${t![k]} ${k === 'noToolCases' ? 'no-tool' : 'graded'}`);
  return parts.length ? `thin: drawn over ${parts.join(' and ')} cases (fewer than ${THIN_CASES})` : undefined;
}

function isFiniteNum(x: unknown): x is number {
  return typeof x === 'number' && Number.isFinite(x);
}

/** Why a no-tool figure does not apply. */
export const NO_NO_TOOL_CASE = 'the scored cases have no no-tool case';

/** Kinds a profile without a search still has. */
const PROFILE_KINDS = new Set<string>(['visible', 'noToolFalsePositiveRate', 'scopeLeakCount', 'cases', 'gradedCases', 'noToolCases', 'multiGoldCases']);

export type Figure =
  | { value: number; reason?: undefined }
  | { value?: undefined; reason: string /** The number the table holds, when it holds one that does not apply. */; raw?: number };

/**
 * A figure of a strategy's metric table (the overall one by default), or why it does not apply:
 * the key is absent (a profile without a search ranks nothing), null or not a number, a no-tool
 * figure when the table counts no no-tool case, or a quality figure of a profile whose prompt fits
 * the context window in no case. Only a figure with a `value` may be shown as a number, bolded or
 * chosen as best; the others are shown as "n/a".
 */
export function figure(s: StrategyView, metric: string, table: Readonly<Record<string, number>> | undefined = s.results.metrics?.overall): Figure {
  const raw: unknown = table?.[metric];
  const kind = metric.split('@')[0]!;
  if (raw === undefined && kind === 'searchNoToolFalsePositiveRate' && s.kind !== 'profile') return { reason: 'a figure of profiles only' };
  if (raw === undefined && !s.ranks && !PROFILE_KINDS.has(kind)) return { reason: 'the profile offers no search' };
  if (NO_TOOL_KINDS.has(kind) && table && table.noToolCases === 0) return { reason: NO_NO_TOOL_CASE };
  if (raw === undefined) return { reason: 'not in the results' };
  if (!finite(raw)) return { reason: 'no value' };
  if (fitsNowhere(s) && isMetricKind(kind) && METRICS[kind].group === 'quality' && kind !== 'scopeLeakCount') return { reason: fitNote(contextFit(s))!, raw };
  return { value: raw };
}

/** Whether a strategy may be named best or have a value bolded: it fits the context window in every case. */
export function mayBeBest(s: StrategyView): boolean {
  return fitsWindow(s);
}

/**
 * The best value of a column among the strategies that may be best and whose figure applies
 * (undefined when fewer than two apply, when they are all equal, or for counts).
 */
export function bestValue(
  all: readonly StrategyView[],
  metric: string,
  table: (s: StrategyView) => Readonly<Record<string, number>> | undefined = (s) => s.results.metrics?.overall,
): number | undefined {
  // An id that does not parse is taken as higher-is-better; a figure with no direction (a count, a part of another figure) has no best.
  const given = higherIsBetter(metric);
  if (given === null || metric.split('@')[0] === 'scopeLeakCount') return undefined;
  const dir = given ?? true;
  const values = all
    .filter(mayBeBest)
    .map((s) => figure(s, metric, table(s)).value)
    .filter(finite);
  if (values.length < 2 || values.every((v) => v === values[0])) return undefined;
  return dir ? Math.max(...values) : Math.min(...values);
}

/**
 * The best strategy by `metric` (highest; ties: run order) among those that rank and may be best;
 * when none has it, the highest `visible`. Profiles that do not fit the context window in every
 * case are never chosen. `among` narrows the candidates.
 */
export function bestStrategy(
  all: readonly StrategyView[],
  metric: string,
  among: (s: StrategyView) => boolean = () => true,
): { s: StrategyView; metric: string } | undefined {
  const { m, candidates } = bestCandidates(all, metric, among);
  const best = highest(candidates, m);
  return best ? { s: best, metric: m } : undefined;
}

/** Who may be best by `metric` (ranking strategies; else `visible`), and the metric they are compared on. */
function bestCandidates(all: readonly StrategyView[], metric: string, among: (s: StrategyView) => boolean): { m: string; candidates: StrategyView[] } {
  const pool = all.filter((s) => among(s) && mayBeBest(s));
  const ranking = pool.filter((s) => s.ranks && figure(s, metric).value !== undefined);
  const m = ranking.length ? metric : 'visible';
  return { m, candidates: ranking.length ? ranking : pool.filter((s) => figure(s, 'visible').value !== undefined) };
}

/** The highest by `m` (ties: run order). */
function highest(candidates: readonly StrategyView[], m: string): StrategyView | undefined {
  let best: StrategyView | undefined;
  for (const s of candidates) if (!best || figure(s, m).value! > figure(best, m).value!) best = s;
  return best;
}

/**
 * The highest strategy by `metric` (as {@link bestStrategy} picks it) and whether it is a clear
 * winner: named "best" only when the low end of its 95% interval is above the high end of the
 * runner-up's. Otherwise (intervals overlap, a tie, or results without intervals) there is no clear
 * winner, and the reports say so instead of naming one. Alone among the candidates it is clear.
 */
export interface Winner {
  s: StrategyView;
  metric: string;
  clear: boolean;
  runnerUp?: StrategyView;
  /** The 95% intervals of the two on `metric`, when the results have them. */
  interval?: [number, number];
  runnerUpInterval?: [number, number];
}

export function winner(all: readonly StrategyView[], metric: string, among: (s: StrategyView) => boolean = () => true): Winner | undefined {
  const { m, candidates } = bestCandidates(all, metric, among);
  const best = highest(candidates, m);
  if (!best) return undefined;
  const runnerUp = highest(
    candidates.filter((s) => s !== best),
    m,
  );
  if (!runnerUp) return { s: best, metric: m, clear: true };
  const ci = (s: StrategyView) => s.results.metrics?.ci95?.overall?.[m];
  const [a, b] = [ci(best), ci(runnerUp)];
  return {
    s: best,
    metric: m,
    runnerUp,
    clear: Boolean(a && b && a[0] > b[1]),
    ...(a ? { interval: a } : {}),
    ...(b ? { runnerUpInterval: b } : {}),
  };
}

/** Why a winner is not clear, in words (`its 95% interval 0.19–0.73 overlaps codex's 0.19–0.73`). */
export function noClearWinnerReason(w: Winner): string {
  const r = w.runnerUp!;
  if (!w.interval || !w.runnerUpInterval) return `these results carry no 95% intervals to tell it from ${r.name}'s ${figure(r, w.metric).value!.toFixed(3)}`;
  const f = (i: [number, number]) => `${i[0].toFixed(3)}–${i[1].toFixed(3)}`;
  return `its 95% interval ${f(w.interval)} overlaps ${r.name}'s ${f(w.runnerUpInterval)}`;
}

// ---------------------------------------------------------------------------------------------
// Floors and the operating curve (results written before them have neither: read defensively)

export type FloorView =
  | { kind: 'none' }
  | { kind: 'fixed'; value: number; notInHarness?: true }
  | {
      kind: 'auto';
      /** A what-if: the profile's harness has no floor (`config.floorsNotInHarness`). */
      notInHarness?: true;
      target: number | undefined;
      value: number | null;
      calibratedOn: string | undefined;
      fpRate: number | null;
      noToolCases: number | undefined;
      /** The 95% interval of `fpRate` (absent in results written before it was recorded). */
      fpInterval?: [number, number];
      reason?: string;
    };

/** The floor of a strategy as the run's config gives it (undefined: the config names none). */
export function floorOf(r: Results, name: string): FloorView | undefined {
  const floors = r.config?.floors as unknown as Record<string, unknown> | undefined;
  if (!floors || !Object.prototype.hasOwnProperty.call(floors, name)) return undefined;
  const f = floors[name];
  if (f === null || f === undefined) return { kind: 'none' };
  const whatIf = r.config.floorsNotInHarness;
  const notInHarness = Array.isArray(whatIf) && whatIf.includes(name) ? { notInHarness: true as const } : {};
  if (finite(f)) return { kind: 'fixed', value: f, ...notInHarness };
  if (typeof f === 'object' && (f as { mode?: unknown }).mode === 'auto') {
    const a = f as {
      target?: unknown;
      value?: unknown;
      calibratedOn?: unknown;
      calibrationFalsePositiveRate?: unknown;
      calibrationNoToolCases?: unknown;
      falsePositiveRateInterval?: unknown;
      reason?: unknown;
    };
    const iv = a.falsePositiveRateInterval;
    return {
      kind: 'auto',
      target: finite(a.target) ? a.target : undefined,
      value: finite(a.value) ? a.value : null,
      calibratedOn: typeof a.calibratedOn === 'string' ? a.calibratedOn : undefined,
      fpRate: finite(a.calibrationFalsePositiveRate) ? a.calibrationFalsePositiveRate : null,
      noToolCases: finite(a.calibrationNoToolCases) ? a.calibrationNoToolCases : undefined,
      ...(Array.isArray(iv) && iv.length === 2 && finite(iv[0]) && finite(iv[1]) ? { fpInterval: [iv[0], iv[1]] as [number, number] } : {}),
      ...(typeof a.reason === 'string' ? { reason: a.reason } : {}),
      ...notInHarness,
    };
  }
  return { kind: 'none' };
}

/** A floor score: at most 4 significant digits. */
export function floorNumber(v: number): string {
  return String(Number(v.toPrecision(4)));
}

/** ", 95% CI 0.021–0.265 over 30 no-tool cases", or "" without an interval. */
function intervalText(f: Extract<FloorView, { kind: 'auto' }>): string {
  if (!f.fpInterval) return '';
  const over = f.noToolCases !== undefined ? ` over ${f.noToolCases} no-tool case${f.noToolCases === 1 ? '' : 's'}` : '';
  return `, 95% CI ${f.fpInterval[0].toFixed(3)}–${f.fpInterval[1].toFixed(3)}${over}`;
}

/**
 * A floor as plain text (escape it for the format): "0.35", "none", or
 * "auto → 0.412 (target 0.05, calibrated on split:dev, FP there 0.048, 95% CI 0.021–0.265 over 30
 * no-tool cases)"; an auto floor that does not apply: "auto → none: <reason> (target 0.05,
 * calibrated on split:dev)". The interval is there when the results record it; a floor the profile's
 * harness does not have ends in " — floor not in the harness".
 */
export function floorText(f: FloorView | undefined): string {
  if (!f || f.kind === 'none') return 'none';
  return `${floorBody(f)}${f.notInHarness ? ` — ${NOT_IN_HARNESS}` : ''}`;
}

/** The label of a floor the profile's harness does not have (a what-if, `--floor name=…`). */
export const NOT_IN_HARNESS = 'floor not in the harness';

function floorBody(f: Exclude<FloorView, { kind: 'none' }>): string {
  if (f.kind === 'fixed') return floorNumber(f.value);
  const facts = [
    f.target !== undefined ? `target ${f.target}` : '',
    f.calibratedOn !== undefined ? `calibrated on ${f.calibratedOn}` : '',
    f.value !== null && f.fpRate !== null ? `FP there ${f.fpRate.toFixed(3)}${intervalText(f)}` : '',
  ].filter(Boolean);
  const head = f.value !== null ? `auto → ${floorNumber(f.value)}` : `auto → none${f.reason ? `: ${f.reason}` : ': floors do not apply'}`;
  return `${head}${facts.length ? ` (${facts.join(', ')})` : ''}`;
}

export interface CurvePointView {
  floor: number;
  recall5: number;
  fp: number;
  recall1?: number;
  searchFp?: number;
}

/** A strategy's operating curve (points with finite recall@5, FP rate and floor, in the file's order), or undefined when it has none. */
export function curveOf(s: StrategyView): CurvePointView[] | undefined {
  const a: unknown = (s.results as unknown as { abstention?: unknown }).abstention;
  if (!Array.isArray(a)) return undefined;
  const out: CurvePointView[] = [];
  for (const p of a as unknown[]) {
    if (!p || typeof p !== 'object') continue;
    const q = p as Record<string, unknown>;
    if (!finite(q.floor) || !finite(q['recall@5']) || !finite(q.noToolFalsePositiveRate)) continue;
    out.push({
      floor: q.floor,
      recall5: q['recall@5'],
      fp: q.noToolFalsePositiveRate,
      ...(finite(q['recall@1']) ? { recall1: q['recall@1'] } : {}),
      ...(finite(q.searchNoToolFalsePositiveRate) ? { searchFp: q.searchNoToolFalsePositiveRate } : {}),
    });
  }
  return out.length ? out : undefined;
}

/** The no-tool false-positive rates `recallAtFalsePositiveRate` reports, as its keys. */
export const FP_RATES: readonly string[] = REPORTED_RATES.map(String);

export interface RatePointView {
  recall5: number;
  floor: number | null;
  fp: number;
}

/**
 * recall@5 at each reported no-tool false-positive rate: undefined when the results do not carry
 * the field (older results), null when it is null (not applicable), else one entry per rate (null:
 * no floor reaches that rate).
 */
export function recallAtRatesOf(s: StrategyView): Record<string, RatePointView | null> | null | undefined {
  const raw: unknown = (s.results as unknown as { recallAtFalsePositiveRate?: unknown }).recallAtFalsePositiveRate;
  if (raw === undefined) return undefined;
  if (raw === null || typeof raw !== 'object') return null;
  const out: Record<string, RatePointView | null> = {};
  for (const k of FP_RATES) {
    const p = (raw as Record<string, unknown>)[k];
    const q = p && typeof p === 'object' ? (p as Record<string, unknown>) : undefined;
    out[k] =
      q && finite(q['recall@5']) && finite(q.noToolFalsePositiveRate)
        ? { recall5: q['recall@5'], floor: finite(q.floor) ? q.floor : null, fp: q.noToolFalsePositiveRate }
        : null;
  }
  return out;
}

/**
 * The point a strategy runs at under its calibrated floor: the curve's point for that floor, else
 * its overall recall@5 and no-tool FP rate. Undefined when its floor is not an auto floor with a value.
 */
export function operatingPoint(r: Results, s: StrategyView): { x: number; y: number; floor: number; onCurve: boolean } | undefined {
  const f = floorOf(r, s.name);
  if (f?.kind !== 'auto' || f.value === null) return undefined;
  const p = curveOf(s)?.find((c) => c.floor === f.value);
  if (p) return { x: p.fp, y: p.recall5, floor: f.value, onCurve: true };
  const y = s.results.metrics?.overall?.['recall@5'];
  const x = s.results.metrics?.overall?.noToolFalsePositiveRate;
  return finite(x) && finite(y) ? { x, y, floor: f.value, onCurve: false } : undefined;
}

/**
 * Where the run's strategies that are not built in come from, one line each: `name-boost: plugin
 * name-boost 1.0.0 (sha256 d39cd74a545b…)`, `acme-search: service https://…` (untrusted: escape it).
 */
export function originLines(r: Results): string[] {
  const entries = [...Object.entries(r.retrievers ?? {}), ...Object.entries(r.profiles ?? {})];
  const out: string[] = [];
  for (const [name, s] of entries) {
    const o = (s?.config as { origin?: Record<string, unknown> } | undefined)?.origin;
    if (o === null || typeof o !== 'object') continue;
    if (typeof o.plugin === 'string')
      out.push(`${name}: plugin ${o.plugin}${typeof o.version === 'string' ? ` ${o.version}` : ''} (sha256 ${String(o.sha256 ?? '').slice(0, 12)}…)`);
    else if (typeof o.service === 'string') out.push(`${name}: service ${o.service}`);
  }
  return out;
}

/** What `eval --re-sign` found changed, as one line. */
export function reSignedText(d: NonNullable<Results['dataset']['reSigned']>): string {
  const parts = (['added', 'removed', 'changed'] as const).filter((k) => d[k].length).map((k) => `${k} ${d[k].join(', ')}`);
  return parts.length ? `yes: ${parts.join('; ')}` : 'yes: nothing had changed';
}

/**
 * The strategy a section is about, as HTML: "the best strategy, <strong>X</strong> (highest m)"
 * when it is a clear winner, else "<strong>X</strong>, the highest by m (no clear winner: …)".
 * `esc` escapes the untrusted names.
 */
export function winnerHtml(w: Winner, esc: (s: string) => string): string {
  return w.clear
    ? `the best strategy, <strong>${esc(w.s.name)}</strong> (highest ${esc(w.metric)})`
    : `<strong>${esc(w.s.name)}</strong>, the highest by ${esc(w.metric)} (no clear winner: ${esc(noClearWinnerReason(w))})`;
}

/** The cases that expect a tool the catalog lacks, in words: `2 cases: commits, commits-2` (at most 5 named). */
export function goldRemovedCases(cases: readonly string[]): string {
  const named = cases.slice(0, 5).join(', ');
  return `${cases.length} case${cases.length === 1 ? '' : 's'}: ${named}${cases.length > 5 ? `, … ${cases.length - 5} more` : ''}`;
}
