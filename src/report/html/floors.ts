/** The Floors section: recall@5 at a few no-tool false-positive rates, and the floor each strategy ran with. */
import type { Results } from '../../eval/results.ts';
import { escapeHtml as esc } from '../../util/escape.ts';
import { curveOf, curveThinness, figure, floorNumber, floorOf, floorText, FP_RATES, NO_TOOL_DEFINITION, recallAtRatesOf, type StrategyView } from '../view.ts';
import { fmtRate } from './format.ts';
import { absent, figureCell, fitTag, NOT_IN_RUN, section, table, text, thinTag, type Cell, type Column } from './table.ts';

/** The Floors section: recall@5 at no-tool false-positive rates 0.05, 0.1, 0.2 and the floor each strategy ran with. */
export function floorsSection(r: Results, all: readonly StrategyView[]): string {
  const title = 'Floors and no-tool false positives';
  const has = all.some((s) => recallAtRatesOf(s) !== undefined || curveOf(s) !== undefined || floorOf(r, s.name)?.kind === 'auto');
  if (!has) return section('floors', title, '', absent(`${NOT_IN_RUN}: results written before operating curves and calibrated floors.`));
  const columns: Column[] = [
    { label: 'strategy' },
    { label: 'floor', title: 'the floor the strategy ran with: a fixed score, calibrated (auto), or none' },
    ...FP_RATES.map((k) => ({
      label: `recall@5 at FP ≤ ${k} (in-sample)`,
      title: `recall@5 with the lowest floor whose no-tool false-positive rate is at most ${k}, read off the scored cases' own curve: in-sample (the floor is chosen on the cases it is scored on), unlike a calibrated floor`,
      num: true,
    })),
  ];
  const rows = all.map((s) => {
    const rates = recallAtRatesOf(s);
    const cells = FP_RATES.map((k): Cell => {
      if (rates === undefined) return figureCell({ reason: 'not in the results' });
      if (rates === null) return figureCell({ reason: 'no operating curve: the strategy has no search, or the scored cases have no no-tool case' });
      const p = rates[k];
      if (!p) return figureCell({ reason: `no floor brings the no-tool false-positive rate to ${k}` });
      const fig = figure(s, 'recall@5', { 'recall@5': p.recall5 });
      if (fig.value === undefined) return figureCell(fig);
      const thin = curveThinness(s);
      return {
        html: `${esc(fmtRate(p.recall5))} <span class="note">floor ${esc(p.floor === null ? 'none' : floorNumber(p.floor))}, FP ${esc(fmtRate(p.fp))}</span>${thinTag(thin)}`,
        v: p.recall5,
        num: true,
        ...(thin ? { title: thin } : {}),
      };
    });
    return [{ html: `${esc(s.name)}${fitTag(s, r)}` }, text(floorText(floorOf(r, s.name))), ...cells];
  });
  const intro = `What each strategy keeps of recall@5 when its floor is set so that at most 5%, 10% or 20% of the requests that need no tool are shown one (read off its operating curve${all.some((s) => curveOf(s)) ? ', <a href="#figure-operating-curve">the chart above</a>' : ''}): pick a strategy and floor together. These figures are <strong>in-sample</strong>: the floor is read off the same cases it is scored on, so they are optimistic beside a floor calibrated on other cases (the floor column, <code>auto</code>), whose figures are the overview's. ${esc(NO_TOOL_DEFINITION)}`;
  return section('floors', title, intro, table(columns, rows, { sortable: true, id: 'floors-table', className: 'floors' }));
}
