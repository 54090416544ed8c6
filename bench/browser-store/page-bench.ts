// What the bench page measures for one library: the first query from a cold start, then the store's commits.
import { setUpPageDatabase } from '../../src/infra/sqlite-browser.js';
import { type SqliteStore, sqliteStoreOver } from '../../src/infra/sqlite-store.js';
import type { WasmSqlite } from '../../src/infra/sqlite-wasm-driver.js';
import { type SubmissionRows, submissionBatches } from './submission-batches.js';

export interface FirstQuery {
  /** From the loader's call to the library ready: its chunk imported, the .wasm fetched and instantiated. */
  loadMs: number;
  /** From the same call to the first row read through the store (pragmas and schema on the way). */
  firstQueryMs: number;
  schema: string | undefined;
}

export interface PageBench {
  firstQuery(): Promise<FirstQuery>;
  /** Microseconds per submission's commit, `n` of them into a new store. */
  commitMicros(rows: SubmissionRows, n: number): Promise<number>;
}

/** The store over a new in-memory database, set up as a page sets it up. */
const newStore = (sqlite: WasmSqlite): SqliteStore => sqliteStoreOver(setUpPageDatabase(sqlite.open()), 'page');

export function pageBench(load: () => Promise<WasmSqlite>): PageBench {
  let loaded: Promise<WasmSqlite> | undefined;
  return {
    async firstQuery() {
      const start = performance.now();
      loaded = load();
      const sqlite = await loaded;
      const ready = performance.now();
      const store = newStore(sqlite);
      const schema = store.meta('schema');
      const done = performance.now();
      store.close();
      return { loadMs: ready - start, firstQueryMs: done - start, schema };
    },
    async commitMicros(rows, n) {
      loaded ??= load();
      const store = newStore(await loaded);
      const batches = submissionBatches(rows, n);
      const start = performance.now();
      for (const batch of batches) store.commit(batch);
      const micros = ((performance.now() - start) * 1000) / n;
      store.close();
      return micros;
    },
  };
}
