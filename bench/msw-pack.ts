// The msw handler pack (issue 38): its JavaScript min+gzip without the .wasm, the first answer after worker.start() in
// headless Chromium, and POST /v1/media/estimate through setupServer against the CLI over loopback. Prints a Markdown
// table for bench/RESULTS.md; never fails on a figure. `node --import tsx bench/msw-pack.ts` on Node 22.12+ (msw 3);
// `--size` prints the sizes alone, with the minified bytes by package.
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type Metafile } from 'esbuild';
import { http } from 'msw';
import { setupServer } from 'msw/node';
import { fetchHost } from '../src/http/fetch/fetch-host.js';
import { createMediaHandlers } from '../src/msw/node.js';
import { createEmulatorWith, pipelineOf } from '../src/testing.js';
import { launchChromium } from '../test/helpers/chromium.js';
import { servePages } from '../test/helpers/page-server.js';

const require = createRequire(import.meta.url);
const ROUNDS = Number(process.env.MSW_BENCH_ROUNDS ?? 5);
const SECONDS = Number(process.env.MSW_BENCH_SECONDS ?? 5);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** Minified bytes per package (node_modules/<name>) or source folder (src/<dir>), over every chunk. */
function bytesByPart(metafile: Metafile): [string, number][] {
  const parts = new Map<string, number>();
  for (const output of Object.values(metafile.outputs))
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      const inPackage = input.lastIndexOf('node_modules/');
      const path = inPackage >= 0 ? input.slice(inPackage + 'node_modules/'.length).split('/') : input.split('/');
      const scoped = path[0].startsWith('@');
      const name = inPackage >= 0 ? path.slice(0, scoped ? 2 : 1).join('/') : path.slice(0, 2).join('/');
      parts.set(name, (parts.get(name) ?? 0) + bytesInOutput);
    }
  return [...parts].sort((a, b) => b[1] - a[1]);
}

/**
 * The pack as a page bundles it (minified, split), msw left out or in, every JavaScript file gzipped: the entry chunk
 * alone, what loads with it (the chunks it imports statically, transitively), and every chunk the pack can load.
 */
async function bundleSize(withMsw: boolean) {
  const outdir = join(tmpdir(), 'msw-pack-size');
  const result = await build({
    entryPoints: ['src/msw/browser.ts'],
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    minify: true,
    write: false,
    metafile: true,
    outdir,
    external: withMsw ? [] : ['msw', 'msw/*'],
    logLevel: 'error',
  });
  const gz = new Map(result.outputFiles.map((f) => [relative(process.cwd(), f.path), gzipSync(f.contents).length]));
  const entryName = relative(process.cwd(), join(outdir, 'browser.js'));
  const atImport = new Set<string>();
  const visit = (name: string) => {
    if (atImport.has(name)) return;
    atImport.add(name);
    for (const imported of result.metafile.outputs[name]?.imports ?? [])
      if (imported.kind === 'import-statement' && !imported.external) visit(imported.path);
  };
  visit(entryName);
  const sum = (names: Iterable<string>) => [...names].reduce((total, name) => total + (gz.get(name) ?? 0), 0);
  return {
    entry: gz.get(entryName) ?? 0,
    atImport: sum(atImport),
    total: sum([...gz.keys()].filter((name) => name.endsWith('.js'))),
    parts: bytesByPart(result.metafile),
  };
}

const sizeTable = (
  withoutMsw: Awaited<ReturnType<typeof bundleSize>>,
  withMsw: Awaited<ReturnType<typeof bundleSize>>,
) => `| The pack's JavaScript, min+gzip, without the .wasm and msw: entry chunk / loaded on import / every chunk, lazy ones included | ${kb(withoutMsw.entry)} / ${kb(withoutMsw.atImport)} / ${kb(withoutMsw.total)} | ≤ 150 KB |
| The same with msw bundled in | ${kb(withMsw.entry)} / ${kb(withMsw.atImport)} / ${kb(withMsw.total)} | – |
`;

/** POST /v1/media/estimate, `connections` requests in flight, for SECONDS: answers per second. */
async function estimateRate(
  url: string,
  apiKey: string,
  connections = 10,
  send: (url: string, init: RequestInit) => Promise<Response> = fetch,
): Promise<number> {
  // bench/throughput.ts's estimate body.
  const body = JSON.stringify({
    model_slug: 'motion-lite-v1',
    prompt: 'a fox in the snow',
    params: { duration: '8', quality: '720p' },
  });
  const headers = { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' };
  const until = performance.now() + SECONDS * 1000;
  let answered = 0;
  const worker = async () => {
    while (performance.now() < until) {
      const response = await send(`${url}/v1/media/estimate`, { method: 'POST', headers, body });
      if (response.status !== 200) throw new Error(`estimate answered ${response.status}`);
      await response.arrayBuffer();
      answered++;
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  return answered / SECONDS;
}

async function cliRate(): Promise<number> {
  const child = spawn(process.execPath, ['dist/cli/main.js', '--port', '0', '--timing', 'manual'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    child.stdout.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const found = /http:\/\/127\.0\.0\.1:\d+/.exec(seen);
      if (found) resolve(found[0]);
    });
    child.once('exit', () => reject(new Error(`the CLI exited before listening: ${seen}`)));
  });
  try {
    await estimateRate(url, 'sk-media-local-emulator-key', 10); // warm-up
    return await estimateRate(url, 'sk-media-local-emulator-key');
  } finally {
    child.kill();
  }
}

async function setupServerRate(): Promise<number> {
  const pack = await createMediaHandlers({ baseUrl: 'http://bench.test', timing: 'manual' });
  const server = setupServer(...pack.handlers);
  server.listen({ onUnhandledFrame: 'error' });
  try {
    await estimateRate('http://bench.test', pack.apiKey, 10);
    return await estimateRate('http://bench.test', pack.apiKey);
  } finally {
    server.close();
    await pack.close();
  }
}

/**
 * msw's own ceiling: the same requests through setupServer to a handler that only reads the body and returns the
 * estimate's answer bytes, fixed. No handler can answer faster through msw's Node interception.
 */
async function mswCeilingRate(): Promise<number> {
  const pack = await createMediaHandlers({ baseUrl: 'http://bench.test', timing: 'manual' });
  const probe = setupServer(...pack.handlers);
  probe.listen({ onUnhandledFrame: 'error' });
  const sample = await fetch('http://bench.test/v1/media/estimate', {
    method: 'POST',
    headers: { Authorization: `Bearer ${pack.apiKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ model_slug: 'motion-lite-v1', prompt: 'a fox', params: { duration: '8', quality: '720p' } }),
  });
  const fixed = await sample.arrayBuffer();
  probe.close();
  await pack.close();
  const server = setupServer(
    http.post('http://bench.test/v1/media/estimate', async ({ request }) => {
      await request.arrayBuffer();
      return new Response(fixed, { headers: { 'Content-Type': 'application/json' } });
    }),
  );
  server.listen({ onUnhandledFrame: 'error' });
  try {
    await estimateRate('http://bench.test', 'any', 10);
    return await estimateRate('http://bench.test', 'any');
  } finally {
    server.close();
  }
}

/** The same requests handed to the fetch host directly (no msw, no interception): what msw's own part costs. */
async function fetchHostRate(): Promise<number> {
  const emulator = createEmulatorWith({ timing: 'manual', publicBaseUrl: 'http://bench.test' });
  await emulator.start();
  const answer = fetchHost(pipelineOf(emulator), { log: () => undefined });
  try {
    const direct = (url: string, init: RequestInit) => answer(new Request(url, init));
    await estimateRate('http://bench.test', emulator.apiKey, 10, direct);
    return await estimateRate('http://bench.test', emulator.apiKey, 10, direct);
  } finally {
    await emulator.close();
  }
}

async function firstAnswers(): Promise<{ first: number[]; cold: number[] }> {
  const root = mkdtempSync(join(tmpdir(), 'msw-pack-bench-'));
  await build({
    entryPoints: ['test/browser/msw-page/msw-page.ts'],
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    minify: true,
    outdir: root,
    logLevel: 'error',
  });
  copyFileSync(require.resolve('sql.js/dist/sql-wasm-browser.wasm'), join(root, 'sql-wasm-browser.wasm'));
  copyFileSync(require.resolve('msw/mockServiceWorker.js'), join(root, 'mockServiceWorker.js'));
  writeFileSync(join(root, 'index.html'), '<!doctype html><script type="module" src="./msw-page.js"></script>');
  const pages = await servePages(root);
  const browser = await launchChromium();
  const first: number[] = [];
  const cold: number[] = [];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const page = await browser.context.newPage();
      await page.goto(`${pages.origin}/`);
      await page.waitForFunction(() => 'mswPage' in globalThis);
      const started = (await page.evaluate(() =>
        (globalThis as unknown as { mswPage: { start(o: object): Promise<unknown> } }).mswPage.start({
          persist: false,
        }),
      )) as { firstAnswerMs: number; coldMs: number };
      first.push(started.firstAnswerMs);
      cold.push(started.coldMs);
      // The next round registers the worker again, as a first visit does.
      await page.evaluate(
        'navigator.serviceWorker.getRegistrations().then((all) => Promise.all(all.map((r) => r.unregister())))',
      );
      await page.close();
    }
  } finally {
    await browser.close();
    await pages.close();
    rmSync(root, { recursive: true, force: true });
  }
  return { first, cold };
}

const withoutMsw = await bundleSize(false);
const withMsw = await bundleSize(true);
if (process.argv.includes('--size')) {
  // The sizes alone, and the minified bytes by package (msw left out), largest first.
  process.stdout.write(`| Measure | Figure | Target |
| --- | --- | --- |
${sizeTable(withoutMsw, withMsw)}
Minified, by part: ${withoutMsw.parts
    .filter(([, bytes]) => bytes >= 1024)
    .map(([name, bytes]) => `${name} ${kb(bytes)}`)
    .join(', ')}
`);
  process.exit(0);
}
const answers = await firstAnswers();
const cli = median(await Promise.all([cliRate()]).then(async (first) => [...first, await cliRate(), await cliRate()]));
const inProcess = median([await setupServerRate(), await setupServerRate(), await setupServerRate()]);
const ceiling = median([await mswCeilingRate(), await mswCeilingRate(), await mswCeilingRate()]);
const direct = median([await fetchHostRate(), await fetchHostRate(), await fetchHostRate()]);
process.stdout.write(`| Measure | Figure | Target |
| --- | --- | --- |
${sizeTable(withoutMsw, withMsw)}| First answer after worker.start() in Chromium (median of ${ROUNDS}; all) | ${median(answers.first).toFixed(0)} ms (${answers.first.map((v) => v.toFixed(0)).join(', ')}) | ≤ 500 ms |
| createMediaHandlers() (sql.js and its .wasm fetched) to the first answer (median of ${ROUNDS}; all) | ${median(answers.cold).toFixed(0)} ms (${answers.cold.map((v) => v.toFixed(0)).join(', ')}) | – |
| POST /v1/media/estimate, setupServer in-process vs the CLI over loopback (10 in flight, fetch, median of 3 × ${SECONDS} s) | ${inProcess.toFixed(0)} vs ${cli.toFixed(0)} req/s: ${(inProcess / cli).toFixed(2)}× | ≥ 0.5× |
| msw's own ceiling: the same requests through setupServer to a handler returning the estimate's bytes, fixed, vs the CLI; the pack / that ceiling | ${ceiling.toFixed(0)} req/s: ${(ceiling / cli).toFixed(2)}×; ${(inProcess / ceiling).toFixed(2)}× | – |
| The same requests handed to the fetch host directly (no msw), vs the CLI | ${direct.toFixed(0)} req/s: ${(direct / cli).toFixed(2)}× | – |
`);
