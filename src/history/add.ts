/**
 * `backpack history add`: record the figures of a results folder into the history database, one
 * row in `runs` and one row per figure in `figures`. A label already recorded is refused unless
 * `replace` is set; a replaced run keeps its place among runs recorded at the same time.
 */
import { InputError, setting } from '../util/errors.ts';
import { readRunDir } from '../eval/files.ts';
import { runRecord, type RunRecord } from './record.ts';
import type { SqlDatabase } from './sqlite.ts';
import { updateHistory } from './store.ts';

/** Options of {@link addRun}. */
export interface AddOptions {
  /** The results folder (written by eval, merge or run). */
  results: string;
  /** The history database file (created when missing). */
  db: string;
  label: string;
  /** A regression file: record exactly its pinned figures, and its bless log's verdict on the catalog. */
  expect?: string;
  /** Replace a run already recorded under the label (default: refuse). */
  replace?: boolean;
  /** The commit to record (default: HEAD of the working folder's checkout). */
  gitCommit?: string | null;
}

/** What {@link addRun} did. */
export interface AddReport {
  record: RunRecord;
  /** Whether a run of the same label was replaced. */
  replaced: boolean;
  /** Runs in the database after the change. */
  runs: number;
}

/** Write `record` into `db` (inside the caller's transaction); returns whether it replaced a run. */
export function insertRun(db: SqlDatabase, record: RunRecord, replace: boolean, file: string): boolean {
  const found = db.exec('SELECT id FROM runs WHERE label = ?', [record.label])[0]?.values[0]?.[0];
  if (found !== undefined && !replace)
    throw new InputError(
      `already has a run labelled ${JSON.stringify(record.label)}: give another ${setting('label')}, or ${setting('replace')} to record this run in its place`,
      {
        file,
      },
    );
  const facts = [
    record.recordedAt,
    record.dataset,
    record.catalogSha256,
    record.casesSha256,
    record.configHash,
    record.backpackVersion,
    record.gitCommit,
    record.blessed ? 1 : 0,
    record.blessReason,
    record.blessDate,
  ];
  let id: number;
  if (found !== undefined) {
    id = Number(found);
    db.run('DELETE FROM figures WHERE run_id = ?', [id]);
    db.run(
      `UPDATE runs SET recorded_at = ?, dataset = ?, catalog_sha256 = ?, cases_sha256 = ?, config_hash = ?, backpack_version = ?,
       git_commit = ?, blessed = ?, bless_reason = ?, bless_date = ? WHERE id = ?`,
      [...facts, id],
    );
  } else {
    db.run(
      `INSERT INTO runs (label, recorded_at, dataset, catalog_sha256, cases_sha256, config_hash, backpack_version, git_commit, blessed, bless_reason, bless_date)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [record.label, ...facts],
    );
    id = Number(db.exec('SELECT last_insert_rowid()')[0]!.values[0]![0]);
  }
  const st = db.prepare('INSERT INTO figures (run_id, strategy, figure, value, ci_low, ci_high) VALUES (?, ?, ?, ?, ?, ?)');
  try {
    for (const f of record.figures) st.run([id, f.strategy, f.figure, f.value, f.ciLow, f.ciHigh]);
  } finally {
    st.free();
  }
  return found !== undefined;
}

/**
 * Record a run: read and validate the results folder, pick its figures (see record.ts), and write
 * them into the database under its lock. Throws `InputError` on a bad folder, regression file,
 * label or database file.
 */
export async function addRun(opts: AddOptions, warn: (message: string) => void = () => {}): Promise<AddReport> {
  const run = readRunDir(opts.results, warn);
  const record = runRecord(
    run.results,
    {
      label: opts.label,
      ...(opts.expect !== undefined ? { expect: opts.expect } : {}),
      ...(opts.gitCommit !== undefined ? { gitCommit: opts.gitCommit } : {}),
    },
    (m) => warn(`warning: ${m}\n`),
  );
  return updateHistory(
    opts.db,
    (db) => {
      const replaced = insertRun(db, record, opts.replace === true, opts.db);
      const runs = Number(db.exec('SELECT count(*) FROM runs')[0]!.values[0]![0]);
      return { record, replaced, runs };
    },
    (m) => warn(`warning: ${m}\n`),
  );
}
