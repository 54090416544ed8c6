// The SQL connection every SQLite binding gives the store (Node's two, the browser's WebAssembly one): types, error codes, one wrapper.
// Nothing here imports a node: module, so the browser's binding (sqlite-wasm-driver.ts) shares it.

export type SqliteDriverName = 'node:sqlite' | 'better-sqlite3' | 'sql.js';

export type SqlValue = string | number | bigint | null;

/** A prepared statement with positional `?` parameters (node:sqlite refuses named ones it was not given). */
export interface SqlStatement {
  run(...params: SqlValue[]): void;
  get<Row>(...params: SqlValue[]): Row | undefined;
  all<Row>(...params: SqlValue[]): Row[];
}

export interface SqlConnection {
  readonly driver: SqliteDriverName;
  exec(sql: string): void;
  prepare(sql: string): SqlStatement;
  /** Runs `work` between BEGIN and COMMIT; when it or the commit throws, rolls back and rethrows. */
  transaction<T>(work: () => T): T;
  /** Makes a deterministic scalar function of JavaScript callable from this connection's SQL. */
  defineFunction(name: string, fn: (...args: SqlValue[]) => SqlValue): void;
  close(): void;
}

/** A statement as a binding gives it: rows as objects keyed by column. */
export interface NativeStatement {
  run(...params: SqlValue[]): unknown;
  get(...params: SqlValue[]): unknown;
  all(...params: SqlValue[]): unknown[];
}

/** What every binding's database object offers (node:sqlite and better-sqlite3 natively, the WebAssembly one adapted). */
export interface NativeDatabase {
  exec(sql: string): unknown;
  prepare(sql: string): NativeStatement;
  function(name: string, options: { deterministic: boolean }, fn: (...args: SqlValue[]) => SqlValue): unknown;
  close(): void;
}

/** SQLite's primary result codes that matter here, by number (node:sqlite reports `errcode`, better-sqlite3 names). */
const PRIMARY_CODES: Record<number, string> = {
  1: 'SQLITE_ERROR',
  5: 'SQLITE_BUSY',
  6: 'SQLITE_LOCKED',
  7: 'SQLITE_NOMEM',
  8: 'SQLITE_READONLY',
  10: 'SQLITE_IOERR',
  11: 'SQLITE_CORRUPT',
  13: 'SQLITE_FULL',
  14: 'SQLITE_CANTOPEN',
  19: 'SQLITE_CONSTRAINT',
  26: 'SQLITE_NOTADB',
};

/**
 * The primary SQLite result code of an error from any binding ('SQLITE_FULL', 'SQLITE_IOERR', ...), or '' when it
 * is not SQLite's: node:sqlite and the WebAssembly binding give the code as a number (`errcode`, extended or
 * primary), better-sqlite3 as a name (SQLITE_IOERR_WRITE).
 */
export function sqliteErrorCode(error: unknown): string {
  const { code, errcode } = (error ?? {}) as { code?: unknown; errcode?: unknown };
  if (typeof errcode === 'number') return PRIMARY_CODES[errcode & 0xff] ?? `SQLITE_${errcode & 0xff}`;
  if (typeof code !== 'string' || !code.startsWith('SQLITE_')) return '';
  return Object.values(PRIMARY_CODES).find((name) => code === name || code.startsWith(`${name}_`)) ?? code;
}

/** The one connection over a binding's open database: the same statements, transactions and functions on every host. */
export function connectionOver(db: NativeDatabase, driver: SqliteDriverName): SqlConnection {
  let open = true;
  let inTransaction = false;
  // Prepared once: exec() would parse these again on every commit, a few µs each on the submission's path.
  const begin = db.prepare('BEGIN');
  const commit = db.prepare('COMMIT');
  const rollback = db.prepare('ROLLBACK');
  return {
    driver,
    exec: (sql) => void db.exec(sql),
    prepare(sql) {
      const statement = db.prepare(sql);
      return {
        run: (...params) => void statement.run(...params),
        get: <Row>(...params: SqlValue[]) => statement.get(...params) as Row | undefined,
        all: <Row>(...params: SqlValue[]) => statement.all(...params) as Row[],
      };
    },
    transaction(work) {
      // Inside a transaction already: part of it, committed or rolled back with it.
      if (inTransaction) return work();
      begin.run();
      inTransaction = true;
      try {
        const result = work();
        commit.run();
        return result;
      } catch (error) {
        // SQLite may already have rolled back by itself (SQLITE_FULL during COMMIT does); then ROLLBACK says so, harmlessly.
        try {
          rollback.run();
        } catch {}
        throw error;
      } finally {
        inTransaction = false;
      }
    },
    defineFunction: (name, fn) => void db.function(name, { deterministic: true }, fn),
    close() {
      if (open) db.close();
      open = false;
    },
  };
}
