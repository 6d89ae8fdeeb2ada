/**
 * The `recall-vs-tokens` chart: each profile's headline recall (`visible` for a profile without a
 * search, marked) against the tokens it puts in front of the model per request, log scale, with the
 * context window as a dashed vertical line.
 */
import type { Results } from '../../eval/results.ts';
import { contextFit, fitNote, headline, mayBeBest, type StrategyView } from '../view.ts';
import { profileName, profilePoints, QUALITY_AXIS, qualityOf } from './profile-points.ts';
import { type ChartSpec, errorBarsOption, int, kOf, LABELS, logBounds, options, type Styles, whiskerNote } from './shared.ts';

/** The context windows the profiles were checked against (distinct, ascending). */
function contextWindows(r: Results, profiles: readonly StrategyView[]): number[] {
  const ws = new Set<number>();
  for (const s of profiles) {
    const w = contextFit(s, r)?.window ?? s.profile?.tokens.contextWindow;
    if (typeof w === 'number' && Number.isFinite(w) && w > 0) ws.add(w);
  }
  return [...ws].sort((a, b) => a - b);
}

export function recallVsTokensChart(r: Results, all: readonly StrategyView[], style: Styles): ChartSpec | undefined {
  const profiles = all.filter((s) => s.profile && s.profile.tokens.perCase > 0);
  if (!profiles.length) return undefined;
  const metric = headline(r);
  const over = profiles.filter((s) => !mayBeBest(s));
  const windows = contextWindows(r, profiles);
  const points = profiles.map((s) => {
    const q = qualityOf(s, metric);
    const x = Math.round(s.profile!.tokens.perCase);
    const note = fitNote(contextFit(s, r));
    return { q, x, legend: profileName(q), tip: `${s.name} — ${q.text}, ${int(x)} tokens per request${note ? `; ${note}` : ''}` };
  });
  const datasets = profilePoints(points, style);
  const bounds = logBounds([...points.map((p) => p.x), ...windows]);
  return {
    id: 'recall-vs-tokens',
    title: `What reaches the model against what it costs (${metric}, k = ${kOf(metric)})`,
    caption: `Each profile: ${metric}, the share of gold tools in its top ${kOf(metric)} after one search (for a profile without a search, marked "visible": the share of gold tools in front of the model), against the tokens it puts in front of the model per request (before search + the search; o200k, log scale). Retrievers are not drawn: they only rank, and results.json gives them no token cost. The dashed vertical line is the context window. Up and left is better.${whiskerNote(datasets)}${over.length ? ` A profile marked "does not fit" or "fits N% of cases" has a prompt larger than the context window in the other cases: there nothing reaches the model, and its figures count them as misses (${over.map((s) => `${s.name}: ${fitNote(contextFit(s, r))}`).join('; ')}).` : ''}`,
    config: {
      type: 'scatter',
      data: { datasets },
      options: options(
        `${metric} vs tokens per request — ${r.dataset.name}, k = ${kOf(metric)}`,
        { title: 'tokens in front of the model per request (o200k, log scale)', type: 'logarithmic', ...bounds },
        { title: QUALITY_AXIS(metric), min: 0, max: 1 },
        {
          ...LABELS,
          ...errorBarsOption(datasets),
          backpackLines: { x: windows.map((w) => ({ value: w, label: `${int(w)}-token context window` })) },
        },
      ),
    },
  };
}
