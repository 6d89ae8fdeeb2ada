/**
 * The history database: a standard SQLite file (any `sqlite3` opens it) with three tables
 * (docs/history.md):
 *
 * - `meta(key, value)`: `schema_version` (this module's {@link HISTORY_SCHEMA_VERSION}) and
 *   `application` (`backpack history`);
 * - `runs`: one row per recorded run (its label is unique);
 * - `figures`: one row per (run, strategy, figure), with the value and its bootstrap 95% interval.
 *
 * sql.js keeps a database in memory: a change reads the whole file, applies itself in one
 * transaction, exports the database and replaces the file atomically (a temporary sibling renamed
 * over it), all under `<file>.lock`, so two writers at once never lose each other's run. Readers
 * take no lock: they see the file before or after a change, never half of one.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { writeFileAtomic } from '../util/atomic-write.ts';
import { InputError, setting } from '../util/errors.ts';
import { lockCacheFile } from '../util/file-lock.ts';
import { loadSqlJs, selectRows, type SqlDatabase, type SqlJs } from './sqlite.ts';

/** Bump when a table or column changes; a file of another version is refused, naming both. */
export const HISTORY_SCHEMA_VERSION = 1;

/** The database `history add` and `history show` use when `--db` is not given. */
export const DEFAULT_HISTORY_DB = 'backpack-history.sqlite';

/** How long `history add` waits for another writer of the same file before it gives up. */
export const HISTORY_LOCK_WAIT_MS = 60_000;

/** The columns of each table, in order (checked on every open: another layout is another schema). */
export const HISTORY_TABLES: Readonly<Record<string, readonly string[]>> = {
  meta: ['key', 'value'],
  runs: [
    'id',
    'label',
    'recorded_at',
    'dataset',
    'catalog_sha256',
    'cases_sha256',
    'config_hash',
    'backpack_version',
    'git_commit',
    'blessed',
    'bless_reason',
    'bless_date',
  ],
  figures: ['run_id', 'strategy', 'figure', 'value', 'ci_low', 'ci_high'],
};

const SCHEMA_SQL = `
CREATE TABLE meta (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
CREATE TABLE runs (
  id INTEGER PRIMARY KEY,
  label TEXT NOT NULL UNIQUE,
  recorded_at TEXT NOT NULL,
  dataset TEXT NOT NULL,
  catalog_sha256 TEXT NOT NULL,
  cases_sha256 TEXT,
  config_hash TEXT NOT NULL,
  backpack_version TEXT NOT NULL,
  git_commit TEXT,
  blessed INTEGER NOT NULL CHECK (blessed IN (0, 1)),
  bless_reason TEXT,
  bless_date TEXT
);
CREATE TABLE figures (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  strategy TEXT NOT NULL,
  figure TEXT NOT NULL,
  value REAL NOT NULL,
  ci_low REAL,
  ci_high REAL,
  PRIMARY KEY (run_id, strategy, figure)
);
CREATE INDEX runs_order ON runs (recorded_at, id);
`;

/** The 16 bytes every SQLite 3 database file starts with. */
const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

/** A new database with the history tables. */
function createSchema(db: SqlDatabase): void {
  db.exec(SCHEMA_SQL);
  db.run('INSERT INTO meta (key, value) VALUES (?, ?), (?, ?)', ['schema_version', String(HISTORY_SCHEMA_VERSION), 'application', 'backpack history']);
}

/** Throws an `InputError` naming `file` unless `db` has the history tables of this version. */
function checkSchema(db: SqlDatabase, file: string): void {
  const tables = selectRows(db, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").map((r) => String(r.name));
  const want = Object.keys(HISTORY_TABLES);
  const other = (why: string) =>
    new InputError(`is a SQLite database with another schema (${why}); history keeps its own file: give another ${setting('db')}`, { file });
  if (!tables.includes('meta')) throw other(`no meta table; its tables: ${tables.join(', ')}`);
  const version = selectRows(db, "SELECT value FROM meta WHERE key = 'schema_version'")[0]?.value;
  if (version === undefined) throw other('no schema_version in its meta table');
  if (String(version) !== String(HISTORY_SCHEMA_VERSION)) {
    throw new InputError(
      `is a history database of schema version ${String(version)}; this Backpack reads version ${HISTORY_SCHEMA_VERSION}${Number(version) > HISTORY_SCHEMA_VERSION ? ' (written by a newer Backpack)' : ''}`,
      { file },
    );
  }
  for (const t of want) {
    if (!tables.includes(t)) throw other(`no ${t} table`);
    const columns = selectRows(db, `PRAGMA table_info(${t})`).map((r) => String(r.name));
    if (columns.join(',') !== HISTORY_TABLES[t]!.join(',')) throw other(`table ${t} has columns ${columns.join(', ')}, not ${HISTORY_TABLES[t]!.join(', ')}`);
  }
}

/**
 * The database in `bytes` (the content of `file`), checked: an empty file is a new database,
 * anything that is not SQLite or has another schema is an `InputError` naming `file`. With
 * `create`, a database without any table (new or empty) gets the history tables.
 */
function openBytes(SQL: SqlJs, bytes: Uint8Array | null, file: string, create: boolean): SqlDatabase {
  if (bytes !== null && bytes.length > 0 && (bytes.length < 100 || !SQLITE_HEADER.equals(Buffer.from(bytes.subarray(0, 16))))) {
    throw new InputError(`is not a SQLite database (a history database is one: give another ${setting('db')})`, { file });
  }
  let db: SqlDatabase;
  try {
    db = new SQL.Database(bytes && bytes.length > 0 ? bytes : null);
    db.exec('PRAGMA foreign_keys = ON');
    const count = selectRows(db, "SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'")[0]!.n;
    if (count === 0 && create) createSchema(db);
  } catch (err) {
    throw new InputError(`is not a readable SQLite database: ${(err as Error).message}`, { file, cause: err });
  }
  try {
    checkSchema(db, file);
  } catch (err) {
    db.close();
    throw err;
  }
  return db;
}

/** The bytes of `file`, or null when it does not exist; a folder or an unreadable file is an `InputError`. */
function readBytes(file: string): Uint8Array | null {
  if (!existsSync(file)) return null;
  if (statSync(file).isDirectory()) throw new InputError('is a folder, not a history database file', { file });
  try {
    return new Uint8Array(readFileSync(file));
  } catch (err) {
    throw new InputError(`cannot read: ${(err as Error).message}`, { file });
  }
}

/**
 * Open the history database `file` for reading (no lock: writers replace the file atomically).
 * Throws an `InputError` naming the file when it is missing, not SQLite, or of another schema.
 * The caller closes the database.
 */
export async function openHistory(file: string): Promise<SqlDatabase> {
  const bytes = readBytes(file);
  if (bytes === null) throw new InputError('no such history database (record runs into it with backpack history add)', { file });
  return openBytes(await loadSqlJs(), bytes, file, false);
}

/**
 * Change the history database `file` (created when missing): under its lock, read it, run
 * `change` in one transaction, and replace the file with the result. Returns what `change`
 * returns. A writer that holds the lock longer than {@link HISTORY_LOCK_WAIT_MS} makes this one
 * fail (`InputError`); a lock left by a process that is gone is taken over with `warn`.
 */
export async function updateHistory<T>(file: string, change: (db: SqlDatabase) => T, warn: (message: string) => void = () => {}): Promise<T> {
  // Loaded before the lock: from the lock to its release, everything is synchronous, so writers in
  // one process (whose locks name the same holder) never interleave either.
  const SQL = await loadSqlJs();
  let release: (() => void) | null;
  try {
    release = lockCacheFile(file, warn, HISTORY_LOCK_WAIT_MS);
  } catch (err) {
    throw new InputError(`cannot lock the history database: ${(err as Error).message}`, { file });
  }
  if (release === null)
    throw new InputError(`another process has been writing this history database for ${HISTORY_LOCK_WAIT_MS / 1000} s; try again later`, { file });
  try {
    const db = openBytes(SQL, readBytes(file), file, true);
    try {
      db.exec('BEGIN');
      let out: T;
      try {
        out = change(db);
        db.exec('COMMIT');
      } catch (err) {
        db.exec('ROLLBACK');
        throw err;
      }
      try {
        writeFileAtomic(file, db.export());
      } catch (err) {
        throw new InputError(`cannot write: ${(err as Error).message}`, { file });
      }
      return out;
    } finally {
      db.close();
    }
  } finally {
    release();
  }
}
