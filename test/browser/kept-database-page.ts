// The page of kept-database.test.ts, bundled by esbuild: the store over sql.js in a real browser, kept in IndexedDB or not.
import { createStore, get, set } from 'idb-keyval';
import {
  type BrowserDatabase,
  dropKeptImage,
  KEPT_IMAGES_AT,
  openBrowserDatabase,
} from '../../src/infra/sqlite-browser.js';
import { type SqliteStore, sqliteStoreOver } from '../../src/infra/sqlite-store.js';
import { loadWasmSqlite, type WasmSqlite } from '../../src/infra/sqlite-wasm-driver.js';

const open = new Map<string, { database: BrowserDatabase; store: SqliteStore }>();
let sqlite: Promise<WasmSqlite> | undefined;
const opened = (name: string) => {
  const found = open.get(name);
  if (!found) throw new Error(`${name} is not open`);
  return found;
};

/** What the test calls through page.evaluate: each name is one emulator's database. */
export const storePage = {
  warnings: [] as string[],
  async open(name: string, persist: 'indexeddb' | false, keepAfterMs?: number) {
    // Loaded when first asked, as the handlers will load it before their first answer.
    sqlite ??= loadWasmSqlite({ wasmUrl: new URL('./sql-wasm-browser.wasm', import.meta.url) });
    const warn = (line: string) => void storePage.warnings.push(line);
    const database = await openBrowserDatabase(await sqlite, { name, persist, keepAfterMs, warn });
    open.set(name, { database, store: sqliteStoreOver(database.connection, name) });
  },
  /** One acknowledged change: a ledger row and the clock, committed together. */
  commit(name: string, key: number, text: string) {
    opened(name).store.commit({
      meta: { clock: String(key) },
      upsert: { ledger: [{ key, json: JSON.stringify({ text }) }] },
    });
  },
  rows: (name: string) => ({
    ledger: opened(name).store.documents('ledger'),
    clock: opened(name).store.meta('clock') ?? null,
  }),
  flush: (name: string) => opened(name).database.flush(),
  reset: (name: string) => opened(name).database.reset(),
  /** Closes the store as the store of record does (synchronously), then waits for the last image to be written. */
  closeStore: async (name: string) => {
    const { store, database } = opened(name);
    open.delete(name);
    store.close();
    await database.flush();
  },
  /** Whatever bytes, kept where the images are: a damaged or foreign image. */
  keepBytes: (name: string, text: string) =>
    set(name, new TextEncoder().encode(text), createStore(KEPT_IMAGES_AT.database, KEPT_IMAGES_AT.objectStore)),
  /** The ledger keys in the image kept now (read from IndexedDB into a database of its own), or null when none is kept. */
  async keptLedgerKeys(name: string) {
    const image = await get<Uint8Array>(name, createStore(KEPT_IMAGES_AT.database, KEPT_IMAGES_AT.objectStore));
    if (!image) return null;
    const db = (await (sqlite as Promise<WasmSqlite>)).open(image);
    const keys = db
      .prepare('SELECT key FROM ledger ORDER BY key')
      .all<{ key: number }>()
      .map((row) => row.key);
    db.close();
    return keys;
  },
  dropKeptImage,
};

(globalThis as { storePage?: typeof storePage }).storePage = storePage;
