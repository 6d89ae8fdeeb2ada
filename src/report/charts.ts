/**
 * The charts of a results file as chart.js configurations: plain JSON (no functions), so the HTML
 * report embeds them as data and the PNG renderer draws the same ones. Deterministic: datasets in
 * strategy order, colours by position in one palette, titles and axis labels always set.
 *
 * Charts (ids are also the PNG file names):
 * - `recall-at-k`: recall@k per ranking strategy;
 * - `recall-vs-tokens`: each profile's `visible` against the tokens it puts in front of the model per case;
 * - `slices`: headline recall per slice, for up to 8 strategies (best first);
 * - `token-table`: tokens of the tool block by tool count (the seed article's table, measured);
 * - `skills`: skill discoverability against listing tokens, at each skill count;
 * - `sessions`: exposed-set churn per strategy, per-turn against sticky retrieval.
 * A chart whose section the run did not produce is left out.
 */
import type { Results } from '../eval/results.ts';
import { headline, overall, sliceNames, strategies, type StrategyView } from './view.ts';

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
  return i < PALETTE.length ? { borderColor: c, backgroundColor: c, pointStyle: 'circle' } : { borderColor: c, backgroundColor: c, pointStyle: 'rectRot', borderDash: [10, 6] };
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

/** The best `n` strategies by `value` (descending, then name), in that order. */
function best(all: readonly StrategyView[], value: (s: StrategyView) => number | undefined, n: number): StrategyView[] {
  return [...all]
    .map((s) => ({ s, v: value(s) ?? -1 }))
    .sort((a, b) => b.v - a.v || (a.s.name < b.s.name ? -1 : 1))
    .slice(0, n)
    .map((x) => x.s);
}

const FONT = { size: 16 };

function options(title: string, x: { title: string; type?: string; min?: number; max?: number }, y: { title: string; type?: string; min?: number; max?: number }, extra: Record<string, unknown> = {}): Record<string, unknown> {
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
    plugins: { title: { display: true, text: title, font: { size: 20, weight: 'bold' } }, legend: { position: 'right', labels: { font: { size: 14 }, usePointStyle: true } } },
    scales: { x: axis(x), y: axis(y) },
    ...extra,
  };
}

function recallAtK(r: Results, ranking: readonly StrategyView[]): ChartSpec | undefined {
  if (!ranking.length) return undefined;
  const ks = r.config.ks;
  const metric = headline(r);
  const series = mergeIdentical(best(ranking, (s) => overall(s, metric), 8).map((s) => ({ name: s.name, data: ks.map((k) => overall(s, `recall@${k}`) ?? null) })));
  return {
    id: 'recall-at-k',
    title: 'Recall@k by strategy',
    caption: `Share of the gold tools among the first k a strategy ranks (overall), for the 8 best by ${metric}; strategies with identical figures share a line. Higher is better; profiles stop at their own search limit.`,
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

function recallVsTokens(r: Results, all: readonly StrategyView[]): ChartSpec | undefined {
  const profiles = all.filter((s) => s.profile && s.profile.tokens.perCase > 0);
  if (!profiles.length) return undefined;
  return {
    id: 'recall-vs-tokens',
    title: 'What reaches the model against what it costs',
    caption: 'Each profile: share of gold tools in front of the model after one search (visible) against the tokens it shows per request (before search + the search), log scale. Up and left is better.',
    config: {
      type: 'scatter',
      data: {
        datasets: mergeIdentical(profiles.map((s) => ({ name: s.name, data: [{ x: Math.round(s.profile!.tokens.perCase), y: overall(s, 'visible') ?? 0 }] }))).map((s, i) => ({
          label: s.name,
          data: s.data,
          ...seriesStyle(i),
          pointRadius: 10,
          pointHoverRadius: 12,
        })),
      },
      options: options(`Visible gold tools vs tokens per request — ${r.dataset.name}`, { title: 'tokens per request (o200k, log scale)', type: 'logarithmic' }, { title: 'visible (share of gold tools)', min: 0, max: 1 }),
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
    (s) => s.results.metrics.overall[metric],
    8,
  );
  if (!chosen.length) return undefined;
  const series = mergeIdentical(chosen.map((s) => ({ name: s.name, data: names.map((n) => s.results.metrics.slices[n]?.[metric] ?? null) })));
  return {
    id: 'slices',
    title: `${metric} per slice`,
    caption: `${metric} per slice of the cases, for the 8 best ranking strategies (strategies with identical figures share a bar).`,
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
          { label: 'Anthropic tools JSON', data: rows.map((x) => ({ x: x.tools, y: x.blockTokens.anthropic })), borderColor: colour(0), backgroundColor: colour(0), borderWidth: 3, pointRadius: 5 },
          { label: 'OpenAI function tools', data: rows.map((x) => ({ x: x.tools, y: x.blockTokens.openai })), borderColor: colour(1), backgroundColor: colour(1), borderWidth: 3, pointRadius: 5 },
          { label: 'assumed 150 / tool', data: rows.map((x) => ({ x: x.tools, y: 150 * x.tools })), borderColor: colour(9), backgroundColor: colour(9), borderWidth: 2, borderDash: [6, 4], pointRadius: 0 },
        ],
      },
      options: options(`Tool block tokens by tool count — ${r.dataset.name}`, { title: 'tools in the block', type: 'linear', min: 0 }, { title: 'tokens (o200k)', min: 0 }),
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
          data: sizes.map((z) => ({ x: Math.max(1, z.listings[n as keyof typeof z.listings].tokens), y: z.listings[n as keyof typeof z.listings].discoverability.withDescription ?? 0, skills: z.skills })),
          showLine: true,
          borderColor: colour(i),
          backgroundColor: colour(i),
          borderWidth: 2,
          pointStyle: sizes.map((_, j) => (j === 0 ? 'circle' : 'rectRot')),
          pointRadius: sizes.map((_, j) => (j === 0 ? 8 : 12)),
        })),
      },
      options: options(`Skill discoverability vs tokens (${sizes.map((z) => z.skills.toLocaleString('en-US')).join(' and ')} skills)`, { title: 'listing tokens (o200k, log scale)', type: 'logarithmic' }, { title: 'discoverability', min: 0, max: 1 }),
    },
  };
}

function sessions(r: Results, all: readonly StrategyView[]): ChartSpec | undefined {
  const withSessions = all.filter((s) => s.results.sessions && s.ranks);
  if (!withSessions.length) return undefined;
  return {
    id: 'sessions',
    title: 'Exposed-set churn in multi-turn sessions',
    caption: 'Share of session turns whose exposed tool set changed from the turn before (each change breaks the cached prefix; 0 = the set never changed), per-turn retrieval against sticky-per-task retrieval.',
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

/** Every chart the results support, in report order. */
export function chartsOf(r: Results): ChartSpec[] {
  const all = strategies(r);
  const ranking = all.filter((s) => s.ranks);
  return [recallAtK(r, ranking), recallVsTokens(r, all), slices(r, all), tokenTable(r), skills(r), sessions(r, all)].filter((c): c is ChartSpec => c !== undefined);
}
