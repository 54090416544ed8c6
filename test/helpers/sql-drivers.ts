// The SQLite bindings the store's tests run over: the one this Node picks (node:sqlite or better-sqlite3, on a file) and sql.js (the browser's, in memory).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SqlConnection } from '../../src/infra/sql-connection.js';
import { setUpPageDatabase } from '../../src/infra/sqlite-browser.js';
import { openSqliteStore } from '../../src/infra/sqlite-connection.js';
import { openSqlConnection } from '../../src/infra/sqlite-driver.js';
import { type SqliteStore, sqliteStoreOver } from '../../src/infra/sqlite-store.js';
import { loadWasmSqlite } from '../../src/infra/sqlite-wasm-driver.js';

export interface SqlDriverUnderTest {
  /** How the test names it. */
  name: string;
  /** A bare connection to a new database: no pragmas, no schema. */
  raw(): SqlConnection;
  /** The store of record's SQLite over a new database, set up as the host sets it up. */
  store(): Promise<SqliteStore>;
  /** The store over a database that `write` wrote through a bare connection first (an older emulator's). */
  storeAfter(write: (db: SqlConnection) => void): Promise<SqliteStore>;
  /** Closes what is open and removes the files. */
  cleanUp(): void;
}

/** Node's binding on files in a folder of its own, opened as `--state-file` opens them. */
function nodeFiles(): SqlDriverUnderTest {
  let folder: string | undefined;
  const open: { close(): void }[] = [];
  let files = 0;
  const newPath = () => {
    folder ??= mkdtempSync(join(tmpdir(), 'sql-driver-'));
    return join(folder, `state-${++files}.db`);
  };
  const kept = <T extends { close(): void }>(opened: T) => {
    open.push(opened);
    return opened;
  };
  return {
    name: process.getBuiltinModule?.('node:sqlite') ? 'node:sqlite' : 'better-sqlite3',
    raw: () => kept(openSqlConnection(newPath())),
    store: async () => kept(openSqliteStore({ path: newPath(), sync: 'normal' })),
    async storeAfter(write) {
      const path = newPath();
      const older = openSqlConnection(path);
      write(older);
      older.close();
      return kept(openSqliteStore({ path, sync: 'normal' }));
    },
    cleanUp() {
      for (const opened of open.splice(0)) opened.close();
      if (folder) rmSync(folder, { recursive: true, force: true });
      folder = undefined;
    },
  };
}

/** sql.js in memory, set up as a page sets it up (sqlite-browser.ts); an older database comes as its image. */
async function wasmInMemory(): Promise<SqlDriverUnderTest> {
  const sqlite = await loadWasmSqlite();
  const open: { close(): void }[] = [];
  const kept = <T extends { close(): void }>(opened: T) => {
    open.push(opened);
    return opened;
  };
  const storeOn = async (image?: Uint8Array) => kept(sqliteStoreOver(setUpPageDatabase(sqlite.open(image)), 'memory'));
  return {
    name: 'sql.js',
    raw: () => kept(sqlite.open()),
    store: () => storeOn(),
    async storeAfter(write) {
      const older = sqlite.open();
      write(older);
      const image = older.image();
      older.close();
      return storeOn(image);
    },
    cleanUp() {
      for (const opened of open.splice(0)) opened.close();
    },
  };
}

/** Every binding the store runs over, for `describe.each`. */
export const SQL_DRIVERS: SqlDriverUnderTest[] = [nodeFiles(), await wasmInMemory()];
