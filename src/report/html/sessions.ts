/** The Sessions section: multi-turn sessions under per-turn and sticky-per-task retrieval. */
import { escapeHtml as esc } from '../../util/escape.ts';
import type { StrategyView } from '../view.ts';
import { fmtInt } from './format.ts';
import { absent, NOT_IN_RUN, numCell, section, table, type Column } from './table.ts';

/** The Sessions section. */
export function sessionsSection(all: readonly StrategyView[]): string {
  const title = 'Session churn';
  const withSessions = all.filter((s) => s.results.sessions);
  if (!withSessions.length) return section('sessions', title, '', absent(`${NOT_IN_RUN}: the cases have no multi-turn sessions.`));
  const columns: Column[] = [
    { label: 'strategy' },
    { label: 'sessions', num: true },
    { label: 'turns', num: true },
    { label: 'per-turn recall@5', num: true },
    { label: 'per-turn churn', title: 'share of turns whose exposed set changed', num: true, lowFirst: true },
    { label: 'per-turn tokens (cached)', title: 'mean per session', num: true, lowFirst: true },
    { label: 'sticky recall@5', num: true },
    { label: 'sticky churn', num: true, lowFirst: true },
    { label: 'sticky kept', title: 'share of turns that kept the session set', num: true },
    { label: 'sticky tokens (cached)', num: true, lowFirst: true },
  ];
  const rows = withSessions.map((s) => {
    const x = s.results.sessions!;
    return [
      { html: `${esc(s.name)}${s.ranks ? '' : ' <span class="tag" title="a profile without a search: its set never changes">no search</span>'}` },
      numCell(x.sessions, fmtInt),
      numCell(x.turns, fmtInt),
      numCell(x.perTurn.recall5),
      numCell(x.perTurn.churn),
      numCell(x.perTurn.tokensCached, fmtInt),
      numCell(x.sticky.recall5),
      numCell(x.sticky.churn),
      numCell(x.sticky.keptRate),
      numCell(x.sticky.tokensCached, fmtInt),
    ];
  });
  const intro =
    'Multi-turn sessions under per-turn retrieval and under sticky-per-task retrieval: every change of the exposed tool set breaks the cached prompt prefix.';
  return section('sessions', title, intro, table(columns, rows, { sortable: true, id: 'sessions-table' }));
}
