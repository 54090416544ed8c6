// The store in a browser (issue 38): sql.js against @sqlite.org/sqlite-wasm, by JavaScript and .wasm size, first query in headless Chromium, and the cost of a submission's commit against Node's binding.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { startEmulator } from '../src/index.js';
import { openSqliteStore } from '../src/infra/sqlite-connection.js';
import { openSqlConnection } from '../src/infra/sqlite-driver.js';
import type { DocumentRow } from '../src/infra/sqlite-store.js';
import { loadWasmSqlite } from '../src/infra/sqlite-wasm-driver.js';
import { launchChromium } from '../test/helpers/chromium.js';
import { servePages } from '../test/helpers/page-server.js';
import { loadOfficialSqliteWasm } from './browser-store/official-sqlite-wasm.js';
import { type FirstQuery, type PageBench, pageBench } from './browser-store/page-bench.js';
import { type SubmissionRows, submissionBatches } from './browser-store/submission-batches.js';

const ROUNDS = Number(process.env.BROWSER_STORE_ROUNDS ?? 7);
const COMMITS = Number(process.env.BROWSER_STORE_COMMITS ?? 5000);
/** Rounds of COMMITS commits per library, in the page and in Node: the median says the cost, the minimum the cost with the machine least busy. */
const COMMIT_ROUNDS = Math.min(ROUNDS, 5);
const require = createRequire(import.meta.url);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ')[0];

/** One real submission's rows, read back from the state file of an emulator that served it. */
async function realSubmission(): Promise<SubmissionRows> {
  const dir = mkdtempSync(join(tmpdir(), 'browser-store-bench-'));
  const stateFile = join(dir, 'state.db');
  const running = await startEmulator({ stateFile, timing: 'manual', seed: 1 });
  const answer = await fetch(`${running.url}/v1/media/generations`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${running.apiKey}`,
      'Content-Type': 'application/json',
      'Idempotency-Key': '6f1c2a9e-0d43-4c35-9b7e-2f1f8d0c9a11',
    },
    body: JSON.stringify({ model_slug: 'motion-lite-v1', prompt: 'a lighthouse at dusk', max_credits: 1000 }),
  });
  if (answer.status !== 202) throw new Error(`the submission answered ${answer.status}: ${await answer.text()}`);
  await running.close();
  const db = openSqlConnection(stateFile);
  const one = <Row>(sql: string) => db.prepare(sql).get<Row>() as Row;
  const generation = one<Record<string, string | number | null>>('SELECT * FROM generations');
  const rows: SubmissionRows = {
    generation: {
      key: String(generation.key),
      seq: Number(generation.seq),
      accountId: String(generation.account_id),
      status: String(generation.status),
      createdAt: Number(generation.created_at),
      dueAt: Number(generation.manual_due_at ?? generation.due_at),
      manualOnly: generation.manual_due_at !== null,
      json: String(generation.json),
    },
    ledger: one<{ key: number; json: string }>('SELECT key, json FROM ledger ORDER BY key DESC LIMIT 1'),
    idempotency: one<DocumentRow>('SELECT key, created_at AS createdAt, json FROM idempotency'),
    meta: Object.fromEntries(
      db
        .prepare("SELECT key, value FROM meta WHERE key IN ('ids', 'ledger_totals')")
        .all<{ key: string; value: string }>()
        .map((row) => [row.key, row.value]),
    ),
  };
  db.close();
  rmSync(dir, { recursive: true, force: true });
  return rows;
}

interface Library {
  name: string;
  entry: string;
  wasm: string;
  /** The library's own JavaScript: the chunk its dynamic import became. */
  chunk?: { raw: number; gzip: number; brotli: number };
  /** The page's own code: the driver and the store's SQL modules. */
  main?: { raw: number; gzip: number };
}

const LIBRARIES: Library[] = [
  { name: 'sql.js', entry: 'page-sql-js', wasm: require.resolve('sql.js/dist/sql-wasm-browser.wasm') },
  {
    name: '@sqlite.org/sqlite-wasm',
    entry: 'page-sqlite-wasm',
    wasm: join(dirname(require.resolve('@sqlite.org/sqlite-wasm/package.json')), 'dist/sqlite3.wasm'),
  },
];

const sizes = (path: string) => {
  const bytes = readFileSync(path);
  return { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length, brotli: brotliCompressSync(bytes).length };
};

/** Each library's page bundled alone, minified, its dynamic import split into a chunk; its .wasm copied beside it. */
async function bundle(out: string) {
  for (const library of LIBRARIES) {
    const dir = join(out, library.entry);
    const result = await build({
      entryPoints: [join(import.meta.dirname, 'browser-store', `${library.entry}.ts`)],
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'browser',
      minify: true,
      outdir: dir,
      metafile: true,
      logLevel: 'warning',
    });
    for (const [file, output] of Object.entries(result.metafile.outputs)) {
      if (!file.endsWith('.js')) continue;
      const measured = sizes(file);
      const ofLibrary = Object.keys(output.inputs).some((input) => input.includes(`node_modules/${library.name}/`));
      // Anything else (the entry, esbuild's small shared runtime chunk) is loaded with the page.
      if (ofLibrary) library.chunk = measured;
      else
        library.main = {
          raw: (library.main?.raw ?? 0) + measured.raw,
          gzip: (library.main?.gzip ?? 0) + measured.gzip,
        };
    }
    copyFileSync(library.wasm, join(dir, basename(library.wasm)));
    writeFileSync(
      join(dir, 'index.html'),
      `<!doctype html><title>${library.name}</title><script type="module" src="./${library.entry}.js"></script>`,
    );
  }
}

const rows = await realSubmission();
const out = mkdtempSync(join(tmpdir(), 'browser-store-pages-'));
await bundle(out);
const server = await servePages(out);
const { origin } = server;
const chromium = await launchChromium();
const firsts = new Map<string, FirstQuery[]>(LIBRARIES.map((l) => [l.name, []]));
const pageCommits = new Map<string, number[]>(LIBRARIES.map((l) => [l.name, []]));
console.log(`load ${load()} at the start`);
for (let round = 0; round < ROUNDS; round++) {
  // Alternating which goes first, so both see the same machine.
  for (const library of round % 2 ? [...LIBRARIES].reverse() : LIBRARIES) {
    const page = await chromium.context.newPage();
    await page.goto(`${origin}/${library.entry}/`);
    await page.waitForFunction(() => 'bench' in globalThis);
    const first = await page.evaluate(() => (globalThis as unknown as { bench: PageBench }).bench.firstQuery());
    if (first.schema !== '1') throw new Error(`${library.name}: the store's schema did not answer (${first.schema})`);
    firsts.get(library.name)?.push(first);
    if (round < COMMIT_ROUNDS)
      pageCommits
        .get(library.name)
        ?.push(
          await page.evaluate(([r, n]) => (globalThis as unknown as { bench: PageBench }).bench.commitMicros(r, n), [
            rows,
            COMMITS,
          ] as const),
        );
    await page.close();
  }
}
await chromium.close();
await server.close();
rmSync(out, { recursive: true, force: true });

/** Node: the same commits through Node's binding (the private store, as an emulator without --state-file) and both libraries. */
const nodeStore = () => openSqliteStore({ path: '', sync: 'off' });
const nodeCommits = new Map<string, number[]>();
const inNode: [string, PageBench | undefined][] = [
  [openSqlConnection('').driver, undefined],
  ['sql.js', pageBench(loadWasmSqlite)],
  ['@sqlite.org/sqlite-wasm', pageBench(loadOfficialSqliteWasm)],
];
for (let round = 0; round < COMMIT_ROUNDS; round++) {
  for (const [name, bench] of inNode) {
    let micros: number;
    if (bench) micros = await bench.commitMicros(rows, COMMITS);
    else {
      const store = nodeStore();
      const batches = submissionBatches(rows, COMMITS);
      const start = performance.now();
      for (const batch of batches) store.commit(batch);
      micros = ((performance.now() - start) * 1000) / COMMITS;
      store.close();
    }
    nodeCommits.set(name, [...(nodeCommits.get(name) ?? []), micros]);
  }
}

const node = inNode[0][0];
const nodeMicros = median(nodeCommits.get(node) ?? []);
console.log(`\nload ${load()} at the end; ${ROUNDS} cold pages per library, ${COMMITS} commits per round\n`);
console.log(
  '| Measure | sql.js | @sqlite.org/sqlite-wasm |\n| --- | --- | --- |\n' +
    [
      ['JS glue, min (its lazy chunk)', (l: Library) => kb(l.chunk?.raw ?? 0)],
      ['JS glue, min+gzip', (l: Library) => kb(l.chunk?.gzip ?? 0)],
      ['JS glue, min+brotli', (l: Library) => kb(l.chunk?.brotli ?? 0)],
      ['page entry (driver + store SQL), min+gzip', (l: Library) => kb(l.main?.gzip ?? 0)],
      ['.wasm', (l: Library) => kb(sizes(l.wasm).raw)],
      ['.wasm, gzip / brotli', (l: Library) => `${kb(sizes(l.wasm).gzip)} / ${kb(sizes(l.wasm).brotli)}`],
      [
        'Chromium, cold: loader call to library ready (median; min-max)',
        (l: Library) =>
          spread(
            (firsts.get(l.name) ?? []).map((f) => f.loadMs),
            'ms',
          ),
      ],
      [
        'Chromium, cold: loader call to first row through the store (median; min-max)',
        (l: Library) =>
          spread(
            (firsts.get(l.name) ?? []).map((f) => f.firstQueryMs),
            'ms',
          ),
      ],
      [
        `Chromium: a submission's commit (median of ${COMMIT_ROUNDS} rounds; min-max)`,
        (l: Library) => spread(pageCommits.get(l.name) ?? [], 'µs'),
      ],
      [
        `Node ${process.versions.node}: a submission's commit (median of ${COMMIT_ROUNDS} rounds; ${node}: ${nodeMicros.toFixed(1)} µs, min ${Math.min(...(nodeCommits.get(node) ?? [])).toFixed(1)} µs)`,
        (l: Library) => {
          const micros = median(nodeCommits.get(l.name) ?? []);
          return `${spread(nodeCommits.get(l.name) ?? [], 'µs')}: ${(micros / nodeMicros).toFixed(2)}× ${node}`;
        },
      ],
    ]
      .map(([label, cell]) => `| ${label} | ${LIBRARIES.map(cell as (l: Library) => string).join(' | ')} |`)
      .join('\n'),
);

function spread(values: number[], unit: string) {
  const digits = unit === 'ms' ? 0 : 1;
  return `${median(values).toFixed(digits)} ${unit} (${Math.min(...values).toFixed(digits)}-${Math.max(...values).toFixed(digits)})`;
}
