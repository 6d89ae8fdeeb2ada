/** The Never surfaced section: tools no case brought into a strategy's top k. */
import { escapeHtml as esc } from '../../util/escape.ts';
import type { StrategyView } from '../view.ts';
import { fmtInt } from './format.ts';
import { absent, NOT_IN_RUN, numCell, section, table, text, type Column } from './table.ts';

/** How many gold tool ids a row lists. */

const NEVER_SURFACED_IDS = 20;

/** The Never surfaced section. */
export function neverSurfacedSection(all: readonly StrategyView[]): string {
  const title = 'Never-surfaced gold tools';
  if (!all.length) return section('never-surfaced', title, '', absent());
  const columns: Column[] = [
    { label: 'strategy' },
    { label: 'k', num: true },
    { label: 'tools never surfaced', title: 'catalog tools (pinned excluded) no case brought into the top k', num: true },
    { label: 'gold, never surfaced', title: 'tools that are gold for some case yet no case brought into the top k', num: true },
    { label: `gold tool ids (up to ${NEVER_SURFACED_IDS})` },
  ];
  const rows = all.map((s) => {
    const n = s.results.neverSurfaced;
    if (!n) return [text(s.name), numCell(undefined), numCell(undefined), numCell(undefined), text(NOT_IN_RUN)];
    const ids = n.gold
      .slice(0, NEVER_SURFACED_IDS)
      .map((id) => `<code>${esc(id)}</code>`)
      .join(' ');
    const more = n.gold.length > NEVER_SURFACED_IDS ? ` <span class="more">+${esc(fmtInt(n.gold.length - NEVER_SURFACED_IDS))} more</span>` : '';
    const noSearch = s.ranks ? '' : '<span class="note">no search: nothing is ever surfaced by one; read <em>visible</em></span>';
    return [
      text(s.name),
      numCell(n.k, fmtInt),
      numCell(n.count, fmtInt),
      numCell(n.gold.length, fmtInt),
      { html: noSearch || ids + more || '<span class="none">none</span>' },
    ];
  });
  const intro =
    'Tools no case brought into the top k: a gold tool here is one the strategy can never find for anybody — the place to look first (its description, its name, its examples).';
  return section('never-surfaced', title, intro, table(columns, rows, { className: 'wrap-last' }));
}
