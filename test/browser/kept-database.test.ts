// The store's database in real Chromium: sql.js loaded on first use, kept across a reload in IndexedDB when asked, dropped by reset().
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Chromium, launchChromium } from '../helpers/chromium.js';
import { type PageServer, servePages } from '../helpers/page-server.js';
import type { storePage } from './kept-database-page.js';

type StorePage = typeof storePage;
/** Runs `work` in the page against its storePage (page.evaluate: the function is sent as text, so it names no helper). */
const inPage = <T, A>(page: Page, work: (store: StorePage, arg: A) => T | Promise<T>, arg: A): Promise<T> =>
  page.evaluate(
    ([source, value]) =>
      new Function('store', 'arg', `return (${source})(store, arg)`)(
        (globalThis as unknown as { storePage: StorePage }).storePage,
        value,
      ),
    [work.toString(), arg] as const,
  ) as Promise<T>;

describe('the store in a browser page (sql.js, kept in IndexedDB)', () => {
  let browser: Chromium;
  let server: PageServer;
  let origin: string;
  let root: string;
  const requested: string[] = [];

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'kept-database-page-'));
    await build({
      entryPoints: [new URL('./kept-database-page.ts', import.meta.url).pathname],
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'browser',
      outdir: root,
      logLevel: 'error',
    });
    copyFileSync(
      createRequire(import.meta.url).resolve('sql.js/dist/sql-wasm-browser.wasm'),
      join(root, 'sql-wasm-browser.wasm'),
    );
    writeFileSync(
      join(root, 'index.html'),
      '<!doctype html><title>store</title><script type="module" src="./kept-database-page.js"></script>',
    );
    server = await servePages(root, (path) => requested.push(path.slice(1) || 'index.html'));
    origin = server.origin;
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  async function freshPage(): Promise<Page> {
    const page = await browser.context.newPage();
    await page.goto(`${origin}/`);
    await page.waitForFunction(() => 'storePage' in globalThis);
    return page;
  }

  async function reload(page: Page) {
    await page.reload();
    await page.waitForFunction(() => 'storePage' in globalThis);
  }

  it('fetches the WebAssembly only when the first database opens', async () => {
    const page = await freshPage();
    requested.length = 0;
    // The page and its script are loaded; the first database is not open yet.
    expect(await page.evaluate(() => typeof (globalThis as { storePage?: unknown }).storePage)).toBe('object');
    expect(requested).toEqual([]);
    await inPage(page, (store) => store.open('lazy', false), null);
    expect(requested.filter((file) => file.endsWith('.wasm'))).toEqual(['sql-wasm-browser.wasm']);
    await page.close();
  });

  it('reads back after a reload what was committed and flushed, and nothing without persistence', async () => {
    const page = await freshPage();
    await inPage(page, (store) => store.open('wallet', 'indexeddb'), null);
    await inPage(page, (store) => store.open('scratch', false), null);
    await inPage(
      page,
      (store) => {
        store.commit('wallet', 1, 'funding');
        store.commit('wallet', 2, 'charge');
        store.commit('scratch', 1, 'gone after a reload');
        return store.flush('wallet');
      },
      null,
    );
    await reload(page);
    await inPage(page, (store) => store.open('wallet', 'indexeddb'), null);
    await inPage(page, (store) => store.open('scratch', false), null);
    expect(await inPage(page, (store) => [store.rows('wallet'), store.rows('scratch')], null)).toEqual([
      {
        ledger: [
          { key: 1, json: '{"text":"funding"}' },
          { key: 2, json: '{"text":"charge"}' },
        ],
        clock: '2',
      },
      { ledger: [], clock: null },
    ]);
    await page.close();
  });

  it("keeps the last commit when the store closes its connection (the store of record's close)", async () => {
    const page = await freshPage();
    // A minute: only the close can write it.
    await inPage(page, (store) => store.open('closing', 'indexeddb', 60_000), null);
    await inPage(
      page,
      (store) => {
        store.commit('closing', 9, 'last before close');
        return store.closeStore('closing');
      },
      null,
    );
    expect(await inPage(page, (store) => store.keptLedgerKeys('closing'), null)).toEqual([9]);
    await page.close();
  });

  it('writes the image by itself keepAfterMs after a burst of commits', async () => {
    const page = await freshPage();
    await inPage(page, (store) => store.open('timed', 'indexeddb', 50), null);
    await inPage(
      page,
      (store) => {
        for (let key = 1; key <= 3; key++) store.commit('timed', key, 'burst');
      },
      null,
    );
    await expect.poll(() => inPage(page, (store) => store.keptLedgerKeys('timed'), null)).toEqual([1, 2, 3]);
    await page.close();
  });

  it('keeps a commit not yet written when the page goes away (pagehide)', async () => {
    const page = await freshPage();
    // A minute: only the page's going away can write it before the reload.
    await inPage(page, (store) => store.open('unflushed', 'indexeddb', 60_000), null);
    await inPage(page, (store) => store.commit('unflushed', 7, 'kept on pagehide'), null);
    await reload(page);
    await inPage(page, (store) => store.open('unflushed', 'indexeddb', 0), null);
    expect(await inPage(page, (store) => store.rows('unflushed'), null)).toEqual({
      ledger: [{ key: 7, json: '{"text":"kept on pagehide"}' }],
      clock: '7',
    });
    await page.close();
  });

  it('keeps each name apart, and reset() drops only its own image', async () => {
    const page = await freshPage();
    for (const name of ['first', 'second']) await inPage(page, (store, n) => store.open(n, 'indexeddb'), name);
    await inPage(
      page,
      (store) => {
        store.commit('first', 1, 'one');
        store.commit('second', 2, 'two');
        return Promise.all([store.flush('first'), store.flush('second')]);
      },
      null,
    );
    await inPage(page, (store) => store.reset('first'), null);
    await reload(page);
    for (const name of ['first', 'second']) await inPage(page, (store, n) => store.open(n, 'indexeddb'), name);
    expect(await inPage(page, (store) => [store.rows('first').ledger, store.rows('second').ledger], null)).toEqual([
      [],
      [{ key: 2, json: '{"text":"two"}' }],
    ]);
    await page.close();
  });

  it('refuses a kept image that is not a database in one sentence, leaves it, and opens empty once it is dropped', async () => {
    const page = await freshPage();
    await inPage(page, (store) => store.keepBytes('damaged', 'not a database, only text. '.repeat(200)), null);
    const refusal = await inPage(
      page,
      (store) =>
        store.open('damaged', 'indexeddb').then(
          () => 'opened',
          (error: Error) => `${error.name}: ${error.message}`,
        ),
      null,
    );
    expect(refusal).toBe(
      'KeptImageRefused: The database kept in IndexedDB as "damaged" is not a readable SQLite database (SQLITE_NOTADB); it was left untouched. Call dropKeptImage("damaged") to start empty.',
    );
    await inPage(
      page,
      async (store) => {
        await store.dropKeptImage('damaged');
        await store.open('damaged', 'indexeddb');
      },
      null,
    );
    expect(await inPage(page, (store) => store.rows('damaged'), null)).toEqual({ ledger: [], clock: null });
    await page.close();
  });
});
