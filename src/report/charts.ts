/**
 * The charts of a results file as chart.js configurations: plain JSON (no functions), so the HTML
 * report embeds them as data and the PNG renderer draws the same ones. Deterministic: datasets in
 * strategy order, colours by position in one palette, titles and axis labels always set.
 *
 * Charts (ids are also the PNG file names):
 * - `recall-at-k`: recall@k per ranking strategy;
 * - `operating-curve`: recall@5 against the no-tool false-positive rate as the floor rises, one
 *   line per strategy with an `abstention` curve, its calibrated floor (`--floor auto`) marked;
 * - `recall-vs-tokens`: each profile's `visible` against the tokens it puts in front of the model per case;
 * - `recall-vs-calls`: each profile's `visible` against the model calls its protocol needs per case;
 * - `slices`: headline recall per slice, for up to 8 strategies (best first);
 * - `token-table`: tokens of the tool block by tool count (the seed article's table, measured);
 * - `skills`: skill discoverability against listing tokens, at each skill count;
 * - `sessions`: exposed-set churn per strategy, per-turn against sticky retrieval.
 * A chart whose section the run did not produce is left out.
 *
 * "Best" never means a profile that does not fit the context window (`tokens.fitsContext < 1`):
 * the charts that pick the 8 best (`recall-at-k`, `slices`) rank such a profile after every one
 * that fits, leave out one that fits in no case (its quality figures do not apply), and label it
 * ("fits 80% of cases", "does not fit") wherever it is drawn.
 */
import type { Results } from '../eval/results.ts';
import {
  curveOf,
  figure,
  fitMark,
  fitNote,
  fitsNowhere,
  floorNumber,
  headline,
  mayBeBest,
  operatingPoint,
  overall,
  sliceNames,
  strategies,
  contextFit,
  type StrategyView,
} from './view.ts';

export interface ChartSpec {
  id: string;
  title: string;
  /** One sentence under the chart: how to read it. */
  caption: string;
  /** A chart.js configuration (JSON-serialisable). */
  config: { type: string; data: { labels?: Array<string | number>; datasets: Array<Record<string, unknown>> }; options: Record<string, unknown> };
}

/** Tableau 10: distinguishable, print-safe. */
export const PALETTE = ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f', '#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#bab0ac'];

export function colour(i: number): string {
  return PALETTE[i % PALETTE.length]!;
}

/** Line and point style of the i-th series: past the palette, dashed lines and diamonds, so no two series look alike. */
function seriesStyle(i: number): Record<string, unknown> {
  const c = colour(i);
  return i < PALETTE.length
    ? { borderColor: c, backgroundColor: c, pointStyle: 'circle' }
    : { borderColor: c, backgroundColor: c, pointStyle: 'rectRot', borderDash: [10, 6] };
}

/** Strategies whose series are identical share one, labelled "a / b" (a line hidden under another says nothing). */
function mergeIdentical<T>(items: ReadonlyArray<{ name: string; data: T }>): Array<{ name: string; data: T }> {
  const out: Array<{ name: string; data: T; key: string }> = [];
  for (const it of items) {
    const key = JSON.stringify(it.data);
    const same = out.find((o) => o.key === key);
    if (same) same.name = `${same.name} / ${it.name}`;
    else out.push({ name: it.name, data: it.data, key });
  }
  return out.map(({ name, data }) => ({ name, data }));
}

/** One large point a profile, for a scatter chart; profiles at the same point share it (as {@link mergeIdentical}). */
function profilePoints(points: ReadonlyArray<{ name: string; x: number; y: number }>): Array<Record<string, unknown>> {
  return mergeIdentical(points.map((p) => ({ name: p.name, data: [{ x: p.x, y: p.y }] }))).map((s, i) => ({
    label: s.name,
    data: s.data,
    ...seriesStyle(i),
    pointRadius: 10,
    pointHoverRadius: 12,
  }));
}

/**
 * The best `n` strategies by `value` (descending, then name), in that order: those that fit the
 * context window first, then those that fit only some cases; those that fit in no case are left out.
 */
function best(all: readonly StrategyView[], value: (s: StrategyView) => number | undefined, n: number): StrategyView[] {
  return all
    .filter((s) => !fitsNowhere(s))
    .map((s) => ({ s, fits: mayBeBest(s) ? 1 : 0, v: value(s) ?? -1 }))
    .sort((a, b) => b.fits - a.fits || b.v - a.v || (a.s.name < b.s.name ? -1 : 1))
    .slice(0, n)
    .map((x) => x.s);
}

/** A strategy's name in a legend, with its context-fit mark when it does not fit every case. */
function seriesName(s: StrategyView): string {
  const mark = fitMark(contextFit(s));
  return mark ? `${s.name} (${mark})` : s.name;
}

const FONT = { size: 16 };

function options(
  title: string,
  x: { title: string; type?: string; min?: number; max?: number },
  y: { title: string; type?: string; min?: number; max?: number },
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  const axis = (a: { title: string; type?: string; min?: number; max?: number }) => ({
    ...(a.type ? { type: a.type } : {}),
    ...(a.min !== undefined ? { min: a.min } : {}),
    ...(a.max !== undefined ? { max: a.max } : {}),
    title: { display: true, text: a.title, font: FONT },
    ticks: { font: { size: 14 }, maxRotation: 0, autoSkipPadding: 16 },
  });
  return {
    responsive: false,
    animation: false,
    plugins: {
      title: { display: true, text: title, font: { size: 20, weight: 'bold' } },
      legend: { position: 'right', labels: { font: { size: 14 }, usePointStyle: true } },
    },
    scales: { x: axis(x), y: axis(y) },
    ...extra,
  };
}

function recallAtK(r: Results, ranking: readonly StrategyView[]): ChartSpec | undefined {
  if (!ranking.length) return undefined;
  const ks = r.config.ks;
  const metric = headline(r);
  const series = mergeIdentical(
    best(ranking, (s) => figure(s, metric).value, 8).map((s) => ({ name: seriesName(s), data: ks.map((k) => figure(s, `recall@${k}`).value ?? null) })),
  );
  if (!series.length) return undefined;
  return {
    id: 'recall-at-k',
    title: 'Recall@k by strategy',
    caption: `Share of the gold tools among the first k a strategy ranks (overall), for the 8 best by ${metric}; strategies with identical figures share a line. Higher is better; profiles stop at their own search limit.${fitCaption(ranking)}`,
    config: {
      type: 'line',
      data: {
        labels: ks.map((k) => `k=${k}`),
        datasets: series.map((s, i) => ({ label: s.name, data: s.data, ...seriesStyle(i), borderWidth: 3, pointRadius: 5, tension: 0 })),
      },
      options: options(`Recall@k by strategy — ${r.dataset.name}`, { title: 'cut-off k' }, { title: 'recall@k', min: 0 }),
    },
  };
}

/** What the captions of the charts that pick the best say about profiles that do not fit the context window (empty when all fit). */
function fitCaption(shown: readonly StrategyView[], partialAre = 'are ranked after those that fit'): string {
  const partial = shown.filter((s) => !mayBeBest(s) && !fitsNowhere(s)).map((s) => s.name);
  const none = shown.filter(fitsNowhere).map((s) => s.name);
  return [
    partial.length ? ` Profiles whose prompt fits the context window in only some cases (${partial.join(', ')}) ${partialAre}.` : '',
    none.length ? ` Left out, their prompt fitting the context window in no case: ${none.join(', ')}.` : '',
  ].join('');
}

function recallVsTokens(r: Results, all: readonly StrategyView[]): ChartSpec | undefined {
  const profiles = all.filter((s) => s.profile && s.profile.tokens.perCase > 0);
  if (!profiles.length) return undefined;
  const over = profiles.filter((s) => !mayBeBest(s));
  return {
    id: 'recall-vs-tokens',
    title: 'What reaches the model against what it costs',
    caption: `Each profile: share of gold tools in front of the model after one search (visible) against the tokens it shows per request (before search + the search), log scale. Up and left is better.${over.length ? ` A profile marked "does not fit" or "fits N% of cases" has a prompt larger than the context window in the other cases: there nothing reaches the model, and visible counts them as misses (${over.map((s) => `${s.name}: ${fitNote(contextFit(s, r))}`).join('; ')}).` : ''}`,
    config: {
      type: 'scatter',
      data: {
        datasets: profilePoints(profiles.map((s) => ({ name: seriesName(s), x: Math.round(s.profile!.tokens.perCase), y: overall(s, 'visible') ?? 0 }))),
      },
      options: options(
        `Visible gold tools vs tokens per request — ${r.dataset.name}`,
        { title: 'tokens per request (o200k, log scale)', type: 'logarithmic' },
        { title: 'visible (share of gold tools)', min: 0, max: 1 },
      ),
    },
  };
}

/** 470, 6.8k, 117k, 8.99M: a token count short enough for a legend. */
export function compactTokens(n: number): string {
  const x = Math.round(n);
  if (x < 1000) return String(x);
  if (x < 1e6) return `${x < 1e4 ? (x / 1e3).toFixed(1) : Math.round(x / 1e3)}k`;
  return `${(x / 1e6).toFixed(x < 1e7 ? 2 : 1)}M`;
}

function recallVsCalls(r: Results, all: readonly StrategyView[]): ChartSpec | undefined {
  const profiles = all.filter((s) => s.profile?.calls !== undefined);
  if (!profiles.length) return undefined;
  const label = (s: StrategyView): string => `${seriesName(s)} · ${compactTokens(s.profile!.tokens.perCase)} tokens`;
  return {
    id: 'recall-vs-calls',
    title: 'What reaches the model against the model calls it takes',
    caption:
      "Each profile: share of gold tools in front of the model (visible) against the model calls its protocol needs per request that needs a tool (searches with retries, describe or load calls, namespaces opened, then the tool calls or one code-mode run); the legend gives each profile's tokens per request. Up and left is better; calls are counted right or wrong, so a strategy that shows nothing costs no call.",
    config: {
      type: 'scatter',
      data: {
        datasets: profilePoints(profiles.map((s) => ({ name: label(s), x: s.profile!.calls!.perCase, y: overall(s, 'visible') ?? 0 }))),
      },
      options: options(
        `Visible gold tools vs model calls per request — ${r.dataset.name}`,
        { title: 'model calls per request that needs a tool', type: 'linear', min: 0 },
        { title: 'visible (share of gold tools)', min: 0, max: 1 },
      ),
    },
  };
}

function slices(r: Results, all: readonly StrategyView[]): ChartSpec | undefined {
  const metric = headline(r);
  const names = sliceNames(r).filter((s) => s !== 'no-tool' && s !== 'skill');
  if (!names.length) return undefined;
  // Strategies that rank (a profile without a search has no recall), up to 8, best overall first;
  // identical series share a bar.
  const chosen = best(
    all.filter((s) => s.ranks),
    (s) => figure(s, metric).value,
    8,
  );
  if (!chosen.length) return undefined;
  const series = mergeIdentical(
    chosen.map((s) => ({ name: seriesName(s), data: names.map((n) => figure(s, metric, s.results.metrics.slices[n]).value ?? null) })),
  );
  return {
    id: 'slices',
    title: `${metric} per slice`,
    caption: `${metric} per slice of the cases, for the 8 best ranking strategies (strategies with identical figures share a bar).${fitCaption(all.filter((s) => s.ranks))}`,
    config: {
      type: 'bar',
      data: {
        labels: names,
        datasets: series.map((s, i) => ({ label: s.name, data: s.data, backgroundColor: colour(i) })),
      },
      options: options(`${metric} per slice — ${r.dataset.name}`, { title: 'slice' }, { title: metric, min: 0, max: 1 }),
    },
  };
}

function tokenTable(r: Results): ChartSpec | undefined {
  const rows = r.tokenTable?.rows;
  if (!rows?.length) return undefined;
  return {
    id: 'token-table',
    title: 'Tool block tokens by tool count',
    caption: `Tokens of the serialized tool block for n tools sampled evenly from this catalog (o200k), against the seed article's assumed 150 per tool; a 12-turn conversation pays it 12 times uncached.`,
    config: {
      type: 'line',
      data: {
        datasets: [
          {
            label: 'Anthropic tools JSON',
            data: rows.map((x) => ({ x: x.tools, y: x.blockTokens.anthropic })),
            borderColor: colour(0),
            backgroundColor: colour(0),
            borderWidth: 3,
            pointRadius: 5,
          },
          {
            label: 'OpenAI function tools',
            data: rows.map((x) => ({ x: x.tools, y: x.blockTokens.openai })),
            borderColor: colour(1),
            backgroundColor: colour(1),
            borderWidth: 3,
            pointRadius: 5,
          },
          {
            label: 'assumed 150 / tool',
            data: rows.map((x) => ({ x: x.tools, y: 150 * x.tools })),
            borderColor: colour(9),
            backgroundColor: colour(9),
            borderWidth: 2,
            borderDash: [6, 4],
            pointRadius: 0,
          },
        ],
      },
      options: options(
        `Tool block tokens by tool count — ${r.dataset.name}`,
        { title: 'tools in the block', type: 'linear', min: 0 },
        { title: 'tokens (o200k)', min: 0 },
      ),
    },
  };
}

function skills(r: Results): ChartSpec | undefined {
  const sizes = r.skills?.sizes;
  if (!sizes?.length) return undefined;
  const names = Object.keys(sizes[0]!.listings);
  return {
    id: 'skills',
    title: 'Skill discoverability vs listing tokens',
    caption: `Share of skill requests whose gold skill is visible with its description (the searched index: after one search), against the tokens of the listing; ${sizes.map((z, i) => `${i === 0 ? 'circle' : 'diamond'} = ${z.skills.toLocaleString('en-US')} skills`).join(', ')}. Up and left is better.`,
    config: {
      type: 'scatter',
      data: {
        datasets: names.map((n, i) => ({
          label: n,
          data: sizes.map((z) => ({
            x: Math.max(1, z.listings[n as keyof typeof z.listings].tokens),
            y: z.listings[n as keyof typeof z.listings].discoverability.withDescription ?? 0,
            skills: z.skills,
          })),
          showLine: true,
          borderColor: colour(i),
          backgroundColor: colour(i),
          borderWidth: 2,
          pointStyle: sizes.map((_, j) => (j === 0 ? 'circle' : 'rectRot')),
          pointRadius: sizes.map((_, j) => (j === 0 ? 8 : 12)),
        })),
      },
      options: options(
        `Skill discoverability vs tokens (${sizes.map((z) => z.skills.toLocaleString('en-US')).join(' and ')} skills)`,
        { title: 'listing tokens (o200k, log scale)', type: 'logarithmic' },
        { title: 'discoverability', min: 0, max: 1 },
      ),
    },
  };
}

function sessions(r: Results, all: readonly StrategyView[]): ChartSpec | undefined {
  const withSessions = all.filter((s) => s.results.sessions && s.ranks);
  if (!withSessions.length) return undefined;
  return {
    id: 'sessions',
    title: 'Exposed-set churn in multi-turn sessions',
    caption:
      'Share of session turns whose exposed tool set changed from the turn before (each change breaks the cached prefix; 0 = the set never changed), per-turn retrieval against sticky-per-task retrieval.',
    config: {
      type: 'bar',
      data: {
        labels: withSessions.map((s) => s.name),
        datasets: [
          { label: 'per-turn retrieval', data: withSessions.map((s) => s.results.sessions!.perTurn.churn), backgroundColor: colour(0) },
          { label: 'sticky per task', data: withSessions.map((s) => s.results.sessions!.sticky.churn), backgroundColor: colour(1) },
        ],
      },
      options: options(`Session churn — ${r.dataset.name}`, { title: 'strategy' }, { title: 'share of turns with a changed set', min: 0, max: 1 }),
    },
  };
}

export const OPERATING_CURVE_CAPTION =
  'Each line is one strategy as its floor score rises: a higher floor drops low-scoring tools, so the strategy shows a tool on fewer requests that need none (x: no-tool false-positive rate, the share of no-tool requests where any non-pinned tool is in front of the model, eager or returned by a search) and keeps fewer gold tools in its top 5 (y: recall@5). Pick a strategy and floor together: further up and left is better. A triangle marks the floor calibrated with --floor auto, where the strategy runs. A profile that lists tools eagerly stays at x = 1 whatever the floor.';

/** recall@5 against the no-tool false-positive rate along each strategy's `abstention` curve, its calibrated floor marked. */
function operatingCurve(r: Results, all: readonly StrategyView[]): ChartSpec | undefined {
  // A profile whose prompt fits the context window in no case has no curve that applies (its figures are n/a).
  const withCurve = all.map((s) => ({ s, curve: curveOf(s) })).filter((x) => x.curve !== undefined && !fitsNowhere(x.s));
  if (!withCurve.length) return undefined;
  // Strategies with identical curves share a line, labelled "a / b" (as mergeIdentical, keeping who is in it).
  const groups: Array<{ key: string; names: string[]; members: StrategyView[]; data: Array<{ x: number; y: number; floor: number }> }> = [];
  for (const { s, curve } of withCurve) {
    const key = JSON.stringify([mayBeBest(s), curve!.map((p) => [p.fp, p.recall5])]);
    const same = groups.find((g) => g.key === key);
    if (same) {
      same.names.push(seriesName(s));
      same.members.push(s);
    } else groups.push({ key, names: [seriesName(s)], members: [s], data: curve!.map((p) => ({ x: p.fp, y: p.recall5, floor: p.floor })) });
  }
  // A profile that fits only some cases: a dashed line (its label says how many fit).
  const datasets: Array<Record<string, unknown>> = groups.map((g, i) => ({
    label: g.names.join(' / '),
    data: g.data,
    showLine: true,
    ...seriesStyle(i),
    ...(mayBeBest(g.members[0]!) ? {} : { borderDash: [4, 6] }),
    borderWidth: 3,
    pointRadius: 3,
    pointHoverRadius: 6,
    tension: 0,
  }));
  groups.forEach((g, i) => {
    for (const s of g.members) {
      const p = operatingPoint(r, s);
      if (!p) continue;
      datasets.push({
        label: `${seriesName(s)}: calibrated floor ${floorNumber(p.floor)}`,
        data: [{ x: p.x, y: p.y, floor: p.floor }],
        showLine: false,
        pointStyle: 'triangle',
        pointRadius: 12,
        pointHoverRadius: 14,
        borderWidth: 2,
        borderColor: '#1d1f23',
        backgroundColor: colour(i),
      });
    }
  });
  return {
    id: 'operating-curve',
    title: 'Operating curve: recall@5 against no-tool false positives',
    caption: `${OPERATING_CURVE_CAPTION}${fitCaption(
      all.filter((s) => curveOf(s) !== undefined),
      'are drawn dashed',
    )}`,
    config: {
      type: 'scatter',
      data: { datasets },
      options: options(
        `Operating curve: recall@5 vs no-tool false positives — ${r.dataset.name}`,
        { title: 'no-tool false-positive rate (share of no-tool requests shown a non-pinned tool)', type: 'linear', min: 0, max: 1 },
        { title: 'recall@5', min: 0, max: 1 },
      ),
    },
  };
}

/** Every chart the results support, in report order. */
export function chartsOf(r: Results): ChartSpec[] {
  const all = strategies(r);
  const ranking = all.filter((s) => s.ranks);
  return [
    recallAtK(r, ranking),
    operatingCurve(r, all),
    recallVsTokens(r, all),
    recallVsCalls(r, all),
    slices(r, all),
    tokenTable(r),
    skills(r),
    sessions(r, all),
  ].filter((c): c is ChartSpec => c !== undefined);
}
