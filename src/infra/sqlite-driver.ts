// One SQLite connection over two bindings: Node's built-in node:sqlite where Node has it (22.13+), better-sqlite3 elsewhere.
import { createRequire } from 'node:module';
import { connectionOver, type NativeDatabase, type SqlConnection, type SqliteDriverName } from './sql-connection.js';

/**
 * Why two: better-sqlite3 12 wraps its statements in node::ObjectWrap, which Node 24 aborts on (a CHECK in
 * RemoveEnvironmentCleanupHook when a statement is collected at exit or outside a context), and better-sqlite3 13,
 * which fixes that, needs Node 22. node:sqlite is built in from 22.13 but absent on Node 20, which the project supports.
 * Both are synchronous, so a request's check, charge and commit stay one step with no `await` between them.
 * better-sqlite3 is an optional dependency: where its install fails (no prebuilt binary, no compiler), npm drops it and
 * carries on, so on Node 22.13+ nothing needs it; where Node lacks node:sqlite too, the start says so in one line.
 */
export type { SqlConnection, SqliteDriverName, SqlStatement, SqlValue } from './sql-connection.js';
export { sqliteErrorCode } from './sql-connection.js';

type NodeSqlite = { DatabaseSync: new (path: string, options: { timeout: number }) => NativeDatabase };
type BetterSqlite3 = new (path: string, options: { timeout: number }) => NativeDatabase;

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
  return connectionOver(db, driver);
}
