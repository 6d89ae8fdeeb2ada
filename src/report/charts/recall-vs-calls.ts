/**
 * The `recall-vs-calls` chart: each profile's headline recall against the model calls its protocol
 * needs per success (a request whose gold reached the model; per request for results written before
 * that was counted), each profile's tokens per request in the legend.
 */
import type { Results } from '../../eval/results.ts';
import { headline, type StrategyView } from '../view.ts';
import { profileName, profilePoints, QUALITY_AXIS, qualityOf } from './profile-points.ts';
import { type ChartSpec, errorBarsOption, int, kOf, LABELS, options, type Styles, whiskerNote } from './shared.ts';

/** 470, 6.8k, 117k, 8.99M: a token count short enough for a legend. */
export function compactTokens(n: number): string {
  const x = Math.round(n);
  if (x < 1000) return String(x);
  if (x < 1e6) return `${x < 1e4 ? (x / 1e3).toFixed(1) : Math.round(x / 1e3)}k`;
  return `${(x / 1e6).toFixed(x < 1e7 ? 2 : 1)}M`;
}

export function recallVsCallsChart(r: Results, all: readonly StrategyView[], style: Styles): ChartSpec | undefined {
  const withCalls = all.filter((s) => s.profile?.calls !== undefined);
  if (!withCalls.length) return undefined;
  const metric = headline(r);
  // Calls per success (cases whose gold became visible), so showing nothing does not look cheap;
  // results written before it was counted are drawn per request, as they were.
  const perSuccess = withCalls.every((s) => s.profile!.calls!.perSuccess !== undefined);
  const callsOf = (s: StrategyView): number | null => (perSuccess ? (s.profile!.calls!.perSuccess ?? null) : s.profile!.calls!.perCase);
  const profiles = withCalls.filter((s) => callsOf(s) !== null);
  const notApplicable = withCalls.filter((s) => callsOf(s) === null).map((s) => s.name);
  if (!profiles.length) return undefined;
  const unit = perSuccess ? 'model calls per success' : 'model calls per request';
  const points = profiles.map((s) => {
    const q = qualityOf(s, metric);
    const x = callsOf(s)!;
    const tokens = s.profile!.tokens.perCase;
    return {
      q,
      x,
      legend: `${profileName(q)} · ${compactTokens(tokens)} tokens`,
      tip: `${s.name} — ${q.text}, ${Number(x.toFixed(2))} ${unit}${perSuccess ? ` (${Number(s.profile!.calls!.perCase.toFixed(2))} per request that needs a tool)` : ''}, ${int(tokens)} tokens per request`,
    };
  });
  const datasets = profilePoints(points, style);
  const maxX = Math.max(0, ...points.map((p) => p.x));
  const counted = perSuccess
    ? 'per success: the mean over the requests whose gold tools all reached the model, so a strategy that shows nothing, and so calls nothing, does not look cheap'
    : 'per request that needs a tool (results written before calls per success were counted)';
  return {
    id: 'recall-vs-calls',
    title: `What reaches the model against the model calls it takes (${metric}, k = ${kOf(metric)})`,
    caption: `Each profile: ${metric} (for a profile without a search, marked "visible": the share of gold tools in front of the model) against the model calls its protocol needs (searches with retries, describe or load calls, namespaces opened, then the tool calls or one code-mode run), ${counted}; the legend gives each profile's tokens per request. Up and left is better.${notApplicable.length ? ` Not applicable (no request's gold reached the model): ${notApplicable.join(', ')}.` : ''}${whiskerNote(datasets)}`,
    config: {
      type: 'scatter',
      data: { datasets },
      options: options(
        `${metric} vs ${unit} — ${r.dataset.name}, k = ${kOf(metric)}`,
        {
          title: perSuccess ? 'model calls per success (gold reached the model)' : 'model calls per request that needs a tool',
          type: 'linear',
          min: 0,
          max: Math.max(1, Math.ceil(maxX * 1.2)),
        },
        { title: QUALITY_AXIS(metric), min: 0, max: 1 },
        { ...LABELS, ...errorBarsOption(datasets) },
      ),
    },
  };
}
