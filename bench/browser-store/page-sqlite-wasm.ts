// The bench page's entry for @sqlite.org/sqlite-wasm: the library finds its sqlite3.wasm beside its own chunk.
import { loadOfficialSqliteWasm } from './official-sqlite-wasm.js';
import { pageBench } from './page-bench.js';

(globalThis as { bench?: unknown }).bench = pageBench(loadOfficialSqliteWasm);
