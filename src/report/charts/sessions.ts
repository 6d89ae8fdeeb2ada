/**
 * The `sessions` chart: exposed-set churn in multi-turn sessions per strategy, per-turn retrieval
 * against sticky-per-task retrieval.
 */
import type { Results } from '../../eval/results.ts';
import type { StrategyView } from '../view.ts';
import { type ChartSpec, options, rate, type Styles } from './shared.ts';

export function sessionsChart(r: Results, all: readonly StrategyView[], style: Styles): ChartSpec | undefined {
  const withSessions = all.filter((s) => s.results.sessions && s.ranks);
  if (!withSessions.length) return undefined;
  const modes = ['per-turn retrieval', 'sticky per task'];
  return {
    id: 'sessions',
    title: 'Exposed-set churn in multi-turn sessions',
    caption:
      'Share of session turns whose exposed tool set changed from the turn before (each change breaks the cached prefix; 0 = the set never changed), per-turn retrieval against sticky-per-task retrieval, one bar per strategy. Lower is better.',
    config: {
      type: 'bar',
      data: {
        labels: modes,
        datasets: withSessions.map((s) => {
          const data = [s.results.sessions!.perTurn.churn, s.results.sessions!.sticky.churn];
          return {
            label: s.name,
            strategy: s.name,
            data,
            backgroundColor: style(s.name).colour,
            borderColor: style(s.name).colour,
            tips: modes.map((m, i) => `${s.name} — ${m}: ${rate(data[i]!)} of turns changed the exposed set`),
          };
        }),
      },
      options: options(
        `Session churn — ${r.dataset.name}`,
        { title: 'retrieval in a session' },
        { title: 'share of turns with a changed tool set', min: 0, max: 1 },
      ),
    },
  };
}
