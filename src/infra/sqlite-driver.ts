// One SQLite connection over two bindings: Node's built-in node:sqlite where Node has it (22.13+), better-sqlite3 elsewhere.
import { createRequire } from 'node:module';

/**
 * Why two: better-sqlite3 12 wraps its statements in node::ObjectWrap, which Node 24 aborts on (a CHECK in
 * RemoveEnvironmentCleanupHook when a statement is collected at exit or outside a context), and better-sqlite3 13,
 * which fixes that, needs Node 22. node:sqlite is built in from 22.13 but absent on Node 20, which the project supports.
 * Both are synchronous, so a request's check, charge and commit stay one step with no `await` between them.
 * better-sqlite3 is an optional dependency: where its install fails (no prebuilt binary, no compiler), npm drops it and
 * carries on, so on Node 22.13+ nothing needs it; where Node lacks node:sqlite too, the start says so in one line.
 */
export type SqliteDriverName = 'node:sqlite' | 'better-sqlite3';

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

interface NativeStatement {
  run(...params: SqlValue[]): unknown;
  get(...params: SqlValue[]): unknown;
  all(...params: SqlValue[]): unknown[];
}

/** What both bindings' database objects offer, under the names each gives them. */
interface NativeDatabase {
  exec(sql: string): unknown;
  prepare(sql: string): NativeStatement;
  function(name: string, options: { deterministic: boolean }, fn: (...args: SqlValue[]) => SqlValue): unknown;
  close(): void;
}

type NodeSqlite = { DatabaseSync: new (path: string, options: { timeout: number }) => NativeDatabase };
type BetterSqlite3 = new (path: string, options: { timeout: number }) => NativeDatabase;

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
 * The primary SQLite result code of an error from either binding ('SQLITE_FULL', 'SQLITE_IOERR', ...), or '' when it
 * is not SQLite's: node:sqlite gives the extended code as a number, better-sqlite3 as a name (SQLITE_IOERR_WRITE).
 */
export function sqliteErrorCode(error: unknown): string {
  const { code, errcode } = (error ?? {}) as { code?: unknown; errcode?: unknown };
  if (typeof errcode === 'number') return PRIMARY_CODES[errcode & 0xff] ?? `SQLITE_${errcode & 0xff}`;
  if (typeof code !== 'string' || !code.startsWith('SQLITE_')) return '';
  return Object.values(PRIMARY_CODES).find((name) => code === name || code.startsWith(`${name}_`)) ?? code;
}

/** node:sqlite when this Node has it unflagged; Node 22 announces it with an ExperimentalWarning, said once in our docs instead. */
function loadNodeSqlite(): NodeSqlite | undefined {
  const emitWarning = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    if (!String(warning).startsWith('SQLite is an experimental feature'))
      (emitWarning as (...args: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    return process.getBuiltinModule?.('node:sqlite') as NodeSqlite | undefined;
  } finally {
    process.emitWarning = emitWarning;
  }
}

/** This Node has neither node:sqlite nor a working better-sqlite3: the message is one line that says what to do. */
export class SqliteUnavailable extends Error {}

/** The better-sqlite3 addon, or SqliteUnavailable saying why it cannot load (not installed, or its binary missing). */
function loadBetterSqlite3(): BetterSqlite3 {
  try {
    return createRequire(import.meta.url)('better-sqlite3') as BetterSqlite3;
  } catch (error) {
    const missing =
      (error as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND' && /'better-sqlite3'/.test(String(error));
    const why = missing ? 'is not installed' : `did not load (${String((error as Error).message).split('\n')[0]})`;
    throw new SqliteUnavailable(
      `SQLite: Node ${process.versions.node} has no node:sqlite (built in from Node 22.13), and better-sqlite3, the optional dependency that stands in for it, ${why}. Use Node 22.13+ or 24, or run npm install where better-sqlite3 can fetch its prebuilt binary or build it (python3, make and g++).`,
    );
  }
}

/** Opens (or creates) the database at `path` ('' for SQLite's private temporary database); throws the binding's error. */
export function openSqlConnection(path: string): SqlConnection {
  const nodeSqlite = loadNodeSqlite();
  const driver: SqliteDriverName = nodeSqlite ? 'node:sqlite' : 'better-sqlite3';
  const db: NativeDatabase = nodeSqlite
    ? new nodeSqlite.DatabaseSync(path, { timeout: 0 })
    : new (loadBetterSqlite3())(path, { timeout: 0 });
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
