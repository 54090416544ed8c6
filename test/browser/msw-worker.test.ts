// The msw handler pack in real Chromium: a page bundles it with setupWorker; it submits, polls and plays the MP4 for the
// requested length, a 503 fault then a retry with the same Idempotency-Key charges once, and the wallet survives a reload.
// Fault patterns compile with re2js, which the page fetches as a chunk of its own when its handlers are created.
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Chromium, launchChromium } from '../helpers/chromium.js';
import { client, MODEL_A, makeEmulator } from '../helpers/emulator.js';
import { type PageServer, servePages } from '../helpers/page-server.js';

const require = createRequire(import.meta.url);

/** Runs `script` (a function body, as text) in the page with `api` = mswPage's and `arg`. */
const inPage = <T>(page: Page, script: string, arg: unknown = null): Promise<T> =>
  page.evaluate(
    ([source, value]) =>
      new Function('api', 'arg', `return (async () => { ${source} })()`)(
        (globalThis as unknown as { mswPage: unknown }).mswPage,
        value,
      ),
    [script, arg] as const,
  ) as Promise<T>;

/** fetch with the seeded key, from the page: JSON in, { status, body } out. */
const CALL = `
  const call = async (method, path, body, headers = {}) => {
    const response = await fetch(path, {
      method,
      headers: { Authorization: 'Bearer ' + arg.apiKey, 'Content-Type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  };`;

describe('media-gen-emulator/msw with setupWorker in Chromium', () => {
  let browser: Chromium;
  let server: PageServer;
  let root: string;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'msw-page-'));
    await build({
      entryPoints: [new URL('./msw-page/msw-page.ts', import.meta.url).pathname],
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'browser',
      outdir: root,
      logLevel: 'error',
    });
    copyFileSync(require.resolve('sql.js/dist/sql-wasm-browser.wasm'), join(root, 'sql-wasm-browser.wasm'));
    copyFileSync(require.resolve('msw/mockServiceWorker.js'), join(root, 'mockServiceWorker.js'));
    for (const name of ['fallback.mp4', 'fallback.png', 'fallback.m4a'])
      copyFileSync(new URL(`../../fixtures/${name}`, import.meta.url).pathname, join(root, name));
    writeFileSync(
      join(root, 'index.html'),
      '<!doctype html><title>msw page</title><script type="module" src="./msw-page.js"></script>',
    );
    server = await servePages(root, (path) => process.env.MSW_PAGE_DEBUG && console.log('served:', path));
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  async function openPage(persist: boolean, page?: Page) {
    const opened = page ?? (await browser.context.newPage());
    const errors: string[] = [];
    opened.on('pageerror', (error) => errors.push(error.message));
    opened.on('console', (message) => process.env.MSW_PAGE_DEBUG && console.log('page:', message.text()));
    const note = (what: string) => process.env.MSW_PAGE_DEBUG && console.log('test:', what);
    if (page) await page.reload();
    else await opened.goto(`${server.origin}/`);
    note('loaded');
    await opened.waitForFunction(() => 'mswPage' in globalThis);
    note('script ran');
    const started = await inPage<{ apiKey: string; firstAnswerMs: number }>(opened, 'return api.start(arg);', {
      persist,
    });
    note('started');
    return { page: opened, apiKey: started.apiKey, errors };
  }

  it('submits, polls to completion on the emulator clock, and plays the MP4 for the requested duration', async () => {
    const { page, apiKey, errors } = await openPage(false);
    const result = await inPage<{ status: string; duration: number; submitted: number }>(
      page,
      `${CALL}
      const submitted = await call('POST', '/v1/media/generations',
        { model_slug: arg.model, prompt: 'a fox in the snow', params: { duration: '6' }, max_credits: 100000 },
        { 'Idempotency-Key': 'browser-fox-0001' });
      const id = submitted.body.generation.id;
      let generation = submitted.body.generation;
      for (let polls = 0; polls < 50 && generation.status !== 'completed' && generation.status !== 'failed'; polls++) {
        await api.control().advance('10s');
        generation = (await call('GET', '/v1/media/generations/' + id)).body.generation;
      }
      const duration = generation.status === 'completed' ? await api.videoDuration(generation.outputs[0].url) : -1;
      return { status: generation.status, duration, submitted: submitted.status };`,
      { apiKey, model: MODEL_A },
    );
    expect(result.submitted).toBe(202);
    expect(result.status).toBe('completed');
    expect(result.duration).toBeCloseTo(6, 1);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('answers a 503 fault, then the retry with the same Idempotency-Key charges once', async () => {
    const { page, apiKey } = await openPage(false);
    const result = await inPage<{ statuses: number[]; charged: number; price: number }>(
      page,
      `${CALL}
      const before = (await call('GET', '/v1/media/usage')).body.wallet_balance;
      await api.control().faults.add({ match: { route: '/v1/media/generations', method: 'POST' }, times: 1,
        action: { type: 'status', status: 503 } });
      const body = { model_slug: arg.model, prompt: 'a retried heron', max_credits: 100000 };
      const headers = { 'Idempotency-Key': 'retry-heron-0001' };
      const first = await call('POST', '/v1/media/generations', body, headers);
      const second = await call('POST', '/v1/media/generations', body, headers);
      const third = await call('POST', '/v1/media/generations', body, headers);
      const after = (await call('GET', '/v1/media/usage')).body.wallet_balance;
      return { statuses: [first.status, second.status, third.status], charged: before - after,
        price: second.body.generation.charged_credits };`,
      { apiKey, model: MODEL_A },
    );
    expect(result.statuses).toEqual([503, 202, 202]);
    expect(result.charged).toBeGreaterThan(0);
    expect(result.charged).toBe(result.price);
    await page.close();
  });

  it('keeps the wallet across a reload with persist: true (IndexedDB)', async () => {
    const first = await openPage(true);
    const spent = await inPage<{ status: number; balance: number }>(
      first.page,
      `${CALL}
      const submitted = await call('POST', '/v1/media/generations',
        { model_slug: arg.model, prompt: 'a kept otter', max_credits: 100000 }, { 'Idempotency-Key': 'kept-otter-0001' });
      const usage = await call('GET', '/v1/media/usage');
      return { status: submitted.status, balance: usage.body.wallet_balance };`,
      { apiKey: first.apiKey, model: MODEL_A },
    );
    expect(spent.status).toBe(202);
    // Reloaded at once after the answer: the handler answers only once the change is kept in IndexedDB.
    const again = await openPage(true, first.page);
    const balance = await inPage<number>(
      again.page,
      `${CALL} return (await call('GET', '/v1/media/usage')).body.wallet_balance;`,
      { apiKey: again.apiKey },
    );
    expect(balance).toBe(spent.balance);
    expect(balance).toBeLessThan(1_000_000);
    await again.page.close();
  });

  it('refuses a bad fault pattern as the server does, and a kept rule with a pattern fires again after a reload', async () => {
    const bad = { match: { prompt: '(unclosed' }, action: { type: 'status', status: 418 } };
    const server = await client(makeEmulator()).post('/_emulator/faults', bad);
    expect(server.status).toBe(422);
    const rule = {
      id: 'kept-heron',
      match: { route: '/v1/media/generations', prompt: '/^kept\\s+heron$/i' },
      action: { type: 'status', status: 429 },
    };
    // Without a scenario or kept state, the page's first change over HTTP is what fetches re2js.
    const fresh = await openPage(false);
    const refused = await inPage<{ status: number; body: unknown }>(
      fresh.page,
      `${CALL} return call('POST', '/_emulator/faults', arg.bad);`,
      { apiKey: fresh.apiKey, bad },
    );
    expect(refused).toEqual({ status: 422, body: server.body });
    expect(fresh.errors).toEqual([]);
    await fresh.page.close();
    const first = await openPage(true);
    const added = await inPage<number>(
      first.page,
      `${CALL} return (await call('POST', '/_emulator/faults', arg.rule)).status;`,
      { apiKey: first.apiKey, rule },
    );
    expect(added).toBe(201);
    // The rule comes back from IndexedDB and is compiled again before the first request is answered.
    const again = await openPage(true, first.page);
    const statuses = await inPage<number[]>(
      again.page,
      `${CALL}
      const submit = (prompt, key) => call('POST', '/v1/media/generations',
        { model_slug: arg.model, prompt, max_credits: 100000 }, { 'Idempotency-Key': key });
      const hit = await submit('KEPT   heron', 'kept-heron-0001');
      const miss = await submit('a kept heron', 'kept-heron-0002');
      await call('DELETE', '/_emulator/faults/kept-heron');
      return [hit.status, miss.status];`,
      { apiKey: again.apiKey, model: MODEL_A },
    );
    expect(statuses).toEqual([429, 202]);
    expect(again.errors).toEqual([]);
    await again.page.close();
  });
});
