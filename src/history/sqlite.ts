/**
 * SQLite through sql.js: SQLite compiled to WebAssembly, so nothing is compiled or downloaded when
 * Backpack installs (docs/history.md says why). The WebAssembly binary is read from the installed
 * package (`sql.js/dist/sql-wasm.wasm`), never fetched. sql.js is loaded on first use, once per
 * process, so commands that keep no history do not pay for it.
 *
 * Only the slice of sql.js's API used here is typed.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/** A value SQLite stores and returns (sql.js gives BLOBs as Uint8Array). */
export type SqlValue = number | string | Uint8Array | null;

/** One prepared statement of {@link SqlDatabase}. */
export interface SqlStatement {
  bind(values?: SqlValue[]): boolean;
  step(): boolean;
  get(): SqlValue[];
  getColumnNames(): string[];
  run(values?: SqlValue[]): void;
  free(): boolean;
}

/** An in-memory SQLite database (sql.js's `Database`). */
export interface SqlDatabase {
  run(sql: string, values?: SqlValue[]): SqlDatabase;
  exec(sql: string, values?: SqlValue[]): Array<{ columns: string[]; values: SqlValue[][] }>;
  prepare(sql: string, values?: SqlValue[]): SqlStatement;
  export(): Uint8Array;
  close(): void;
}

/** The sql.js module: a constructor of databases, empty or from a file's bytes. */
export interface SqlJs {
  Database: new (data?: Uint8Array | null) => SqlDatabase;
}

let loading: Promise<SqlJs> | undefined;

/** sql.js, initialised once with the WebAssembly binary of the installed package. */
export function loadSqlJs(): Promise<SqlJs> {
  if (!loading) {
    const require = createRequire(import.meta.url);
    const init = require('sql.js') as (config: { wasmBinary: Uint8Array }) => Promise<SqlJs>;
    const wasmBinary = new Uint8Array(readFileSync(require.resolve('sql.js/dist/sql-wasm.wasm')));
    loading = init({ wasmBinary });
  }
  return loading;
}

/** Every row of a query, as objects keyed by column name. */
export function selectRows(db: SqlDatabase, sql: string, values: SqlValue[] = []): Array<Record<string, SqlValue>> {
  const st = db.prepare(sql);
  try {
    st.bind(values);
    const rows: Array<Record<string, SqlValue>> = [];
    const columns = st.getColumnNames();
    while (st.step()) {
      const v = st.get();
      rows.push(Object.fromEntries(columns.map((c, i) => [c, v[i] ?? null])));
    }
    return rows;
  } finally {
    st.free();
  }
}
