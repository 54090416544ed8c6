// The store's SQLite in a browser: sql.js (SQLite compiled to WebAssembly) loaded lazily, then synchronous connections.
import type { BindParams, Database, SqlJsStatic, Statement } from 'sql.js';
import { connectionOver, type NativeDatabase, type SqlConnection, type SqlValue } from './sql-connection.js';

/**
 * Why sql.js and not @sqlite.org/sqlite-wasm, and the figures: docs/architecture.md, "The store in a browser".
 * The handlers of msw's setupWorker run on the page's main thread, so the connection must be synchronous there: a
 * database in sql.js's in-memory file system, kept across reloads, if asked, as an image in IndexedDB
 * (sqlite-browser.ts).
 */
export interface WasmSqlConnection extends SqlConnection {
  /** The database file's bytes, SQLite's own format: the image a page keeps. Not inside a write transaction. */
  image(): Uint8Array;
}

export interface WasmSqlite {
  /** A new in-memory database, or one read from a kept `image`; every call on it is synchronous. */
  open(image?: Uint8Array): WasmSqlConnection;
}

export interface WasmLoadOptions {
  /**
   * Where the browser fetches sql.js's `sql-wasm-browser.wasm` from: the URL the page's bundler gave the asset. In
   * Node, sql.js reads its own file and this is not needed.
   */
  wasmUrl?: string | URL;
}

/** sql.js throws a plain Error with SQLite's message only: the code it was raised for is kept as `errcode`, as node:sqlite has it. */
function keepErrorCodes(db: Database) {
  const raise = db.handleError.bind(db) as (code: number) => null;
  (db as unknown as { handleError(code: number): null }).handleError = (code: number) => {
    try {
      return raise(code);
    } catch (error) {
      throw Object.assign(error as Error, { errcode: code });
    }
  };
}

/** sql.js's statement with positional parameters, answering rows as objects, and reset after every use (no read left open). */
function statementOver(statement: Statement) {
  const bound = <T>(params: SqlValue[], read: () => T): T => {
    statement.bind(params as BindParams);
    try {
      return read();
    } finally {
      statement.reset();
    }
  };
  return {
    run: (...params: SqlValue[]) => bound(params, () => statement.step()),
    get: (...params: SqlValue[]) => bound(params, () => (statement.step() ? statement.getAsObject() : undefined)),
    all: (...params: SqlValue[]) =>
      bound(params, () => {
        const rows: Record<string, unknown>[] = [];
        while (statement.step()) rows.push(statement.getAsObject());
        return rows;
      }),
  };
}

/** sql.js's database under the names node:sqlite and better-sqlite3 give theirs. */
function nativeOver(db: Database): NativeDatabase {
  keepErrorCodes(db);
  return {
    exec: (sql) => db.run(sql),
    prepare: (sql) => statementOver(db.prepare(sql)),
    // sql.js registers functions without SQLITE_DETERMINISTIC: the store's (folded_contains) is used in WHERE
    // clauses only, never in an index, where SQLite would require the flag.
    function: (name, _options, fn) => db.create_function(name, fn as (...args: unknown[]) => SqlValue),
    close: () => db.close(),
  };
}

function openOver(sql: SqlJsStatic, image?: Uint8Array): WasmSqlConnection {
  const db = new sql.Database(image);
  return Object.assign(connectionOver(nativeOver(db), 'sql.js'), { image: () => db.export() });
}

/**
 * Fetches and instantiates the WebAssembly, then opens databases synchronously. The dynamic import puts sql.js's
 * JavaScript in a chunk of its own, fetched only now. sql.js instantiates once per page (or Node process) and answers
 * every later call with that instance, so the first call's `wasmUrl` is the one used; each database is its own.
 */
export async function loadWasmSqlite(options: WasmLoadOptions = {}): Promise<WasmSqlite> {
  const { default: initSqlJs } = await import('sql.js');
  const { wasmUrl } = options;
  const sql = await initSqlJs(wasmUrl ? { locateFile: () => String(wasmUrl) } : {});
  return { open: (image) => openOver(sql, image) };
}
