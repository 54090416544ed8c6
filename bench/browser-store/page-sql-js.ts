// The bench page's entry for sql.js: its .wasm is copied beside the bundle.
import { loadWasmSqlite } from '../../src/infra/sqlite-wasm-driver.js';
import { pageBench } from './page-bench.js';

(globalThis as { bench?: unknown }).bench = pageBench(() =>
  loadWasmSqlite({ wasmUrl: new URL('./sql-wasm-browser.wasm', import.meta.url) }),
);
