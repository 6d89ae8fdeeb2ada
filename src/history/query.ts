/**
 * Reading the history back: the runs in recorded order (by `recorded_at`, the run's start time,
 * then by the order they were added), and one series per (strategy, figure) with the value of
 * each run that has it and its change from the series' previous run.
 */
import { InputError } from '../util/errors.ts';
import { didYouMean } from '../util/suggest.ts';
import type { RunRecord } from './record.ts';
import { selectRows, type SqlDatabase, type SqlValue } from './sqlite.ts';

/** One recorded run (a row of `runs`). */
export type HistoryRun = Omit<RunRecord, 'figures'>;

/** One run's value in a series. */
export interface SeriesPoint {
  label: string;
  value: number;
  ciLow: number | null;
  ciHigh: number | null;
  /** value − the previous point's value; null for the first point. */
  change: number | null;
  blessed: boolean;
}

/** The values of one figure of one strategy over the runs that have it, in recorded order. */
export interface Series {
  strategy: string;
  figure: string;
  points: SeriesPoint[];
}

/** What `history show` draws. */
export interface HistoryView {
  runs: HistoryRun[];
  series: Series[];
}

/** Which series to read: all, or those of one strategy and/or one figure. */
export interface SeriesFilter {
  strategy?: string;
  figure?: string;
}

const text = (v: SqlValue): string => String(v);
const textOrNull = (v: SqlValue): string | null => (v === null ? null : String(v));
const numberOrNull = (v: SqlValue): number | null => (v === null ? null : Number(v));

/** Throws an `InputError` naming `file` when `wanted` is not among `have`. */
function checkNamed(what: string, wanted: string | undefined, have: readonly string[], file: string): void {
  if (wanted === undefined || have.includes(wanted)) return;
  const list = have.length > 12 ? `${have.slice(0, 12).join(', ')}, …` : have.join(', ');
  throw new InputError(`no ${what} ${JSON.stringify(wanted)} in the history${didYouMean(wanted, have)}${have.length ? ` (${what}s: ${list})` : ''}`, {
    file,
  });
}

/** The runs and series of the database, filtered; an unknown strategy or figure is an `InputError` naming `file`. */
export function readView(db: SqlDatabase, filter: SeriesFilter, file: string): HistoryView {
  const runs: HistoryRun[] = selectRows(db, 'SELECT * FROM runs ORDER BY recorded_at, id').map((r) => ({
    label: text(r.label!),
    recordedAt: text(r.recorded_at!),
    dataset: text(r.dataset!),
    catalogSha256: text(r.catalog_sha256!),
    casesSha256: textOrNull(r.cases_sha256!),
    configHash: text(r.config_hash!),
    backpackVersion: text(r.backpack_version!),
    gitCommit: textOrNull(r.git_commit!),
    blessed: Number(r.blessed) === 1,
    blessReason: textOrNull(r.bless_reason!),
    blessDate: textOrNull(r.bless_date!),
  }));
  const strategies = selectRows(db, 'SELECT DISTINCT strategy FROM figures ORDER BY strategy').map((r) => text(r.strategy!));
  checkNamed('strategy', filter.strategy, strategies, file);
  const figures = selectRows(db, `SELECT DISTINCT figure FROM figures${filter.strategy !== undefined ? ' WHERE strategy = ?' : ''} ORDER BY figure`, [
    ...(filter.strategy !== undefined ? [filter.strategy] : []),
  ]).map((r) => text(r.figure!));
  checkNamed('figure', filter.figure, figures, file);

  const where = [...(filter.strategy !== undefined ? ['f.strategy = ?'] : []), ...(filter.figure !== undefined ? ['f.figure = ?'] : [])];
  const rows = selectRows(
    db,
    `SELECT f.strategy, f.figure, r.label, r.blessed, f.value, f.ci_low, f.ci_high FROM figures f JOIN runs r ON r.id = f.run_id
     ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY f.strategy, f.figure, r.recorded_at, r.id`,
    [...(filter.strategy !== undefined ? [filter.strategy] : []), ...(filter.figure !== undefined ? [filter.figure] : [])],
  );
  const series: Series[] = [];
  for (const r of rows) {
    let s = series[series.length - 1];
    if (!s || s.strategy !== r.strategy || s.figure !== r.figure) series.push((s = { strategy: text(r.strategy!), figure: text(r.figure!), points: [] }));
    const value = Number(r.value);
    const prev = s.points[s.points.length - 1];
    s.points.push({
      label: text(r.label!),
      value,
      ciLow: numberOrNull(r.ci_low!),
      ciHigh: numberOrNull(r.ci_high!),
      change: prev ? value - prev.value : null,
      blessed: Number(r.blessed) === 1,
    });
  }
  return { runs, series };
}
