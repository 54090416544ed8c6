// @sqlite.org/sqlite-wasm under the store's SqlConnection, for bench/browser-store.ts only: the library measured against sql.js.
import type { Database } from '@sqlite.org/sqlite-wasm';
import {
  connectionOver,
  type NativeDatabase,
  type SqliteDriverName,
  type SqlValue,
} from '../../src/infra/sql-connection.js';
import type { WasmSqlConnection, WasmSqlite } from '../../src/infra/sqlite-wasm-driver.js';

/** oo1's database under the names node:sqlite gives its own (errors keep SQLite's code as `resultCode`). */
function nativeOver(db: Database): NativeDatabase {
  return {
    exec: (sql) => db.exec(sql),
    prepare(sql) {
      const statement = db.prepare(sql);
      const bound = <T>(params: SqlValue[], read: () => T): T => {
        if (params.length > 0) statement.bind(params as (string | number | null)[]);
        try {
          return read();
        } finally {
          statement.reset(true);
        }
      };
      return {
        run: (...params) => bound(params, () => statement.step()),
        get: (...params) => bound(params, () => (statement.step() ? statement.get({}) : undefined)),
        all: (...params) =>
          bound(params, () => {
            const rows: Record<string, unknown>[] = [];
            while (statement.step()) rows.push(statement.get({}));
            return rows;
          }),
      };
    },
    function: (name, options, fn) =>
      db.createFunction({
        name,
        arity: fn.length,
        deterministic: options.deterministic,
        xFunc: (_context: number, ...args: SqlValue[]) => fn(...args),
      } as unknown as Parameters<Database['createFunction']>[0]),
    close: () => db.close(),
  };
}

/** Loads the library (its .wasm from beside its JavaScript, as it resolves it by itself) and opens in-memory databases. */
export async function loadOfficialSqliteWasm(): Promise<WasmSqlite> {
  const { default: init } = await import('@sqlite.org/sqlite-wasm');
  const sqlite3 = await init();
  return {
    open(image?: Uint8Array): WasmSqlConnection {
      if (image) throw new Error('images are not measured here');
      const db = new sqlite3.oo1.DB(':memory:', 'c');
      // The union names the shipped bindings; this one is measured only.
      const connection = connectionOver(nativeOver(db), '@sqlite.org/sqlite-wasm' as SqliteDriverName);
      return Object.assign(connection, { image: () => sqlite3.capi.sqlite3_js_db_export(db) });
    },
  };
}
