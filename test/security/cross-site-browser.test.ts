// In a real browser: a page on another origin can neither read key secrets nor change the balance, with or
// without a preflight, while the public API stays usable from it.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/index.js';
import { createEmulatorWith, runtimeOf } from '../../src/testing.js';
import { type Chromium, launchChromium } from '../helpers/chromium.js';

describe('a page on another origin in Chromium', () => {
  let browser: Chromium;
  let emulator: Emulator;
  let url: string;
  let page: Server;
  let pageOrigin: string;

  beforeAll(async () => {
    browser = await launchChromium();
    page = createServer((_req, res) =>
      res.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><title>other site</title>'),
    );
    await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
    pageOrigin = `http://localhost:${(page.address() as AddressInfo).port}`;
    emulator = createEmulatorWith({ seed: 5, timing: 'manual', ffmpegPath: false });
    ({ url } = await emulator.listen(0, '127.0.0.1'));
  });

  afterAll(async () => {
    await browser?.close();
    await emulator?.close();
    // When beforeAll failed before the page server existed (no Chromium), `page?.close(resolve)` would never call
    // resolve, and this hook would wait out its 60 s timeout.
    if (page) {
      page.closeAllConnections();
      await new Promise((resolve) => page.close(resolve));
    }
  });

  it('cannot read the keys, cannot set the balance to 0, cannot reset, and can still call the public API', async () => {
    // Something a reset would undo: one accepted generation.
    const submitted = await fetch(`${url}/v1/media/generations`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${emulator.apiKey}`,
        'Content-Type': 'application/json',
        'Idempotency-Key': 'cross-site-1',
      },
      body: JSON.stringify({ model_slug: 'still-sketch-v1', prompt: 'before the attack', max_credits: 100 }),
    });
    expect(submitted.status).toBe(202);
    const before = runtimeOf(emulator).context().ledger.balance(emulator.accountId);
    const tab = await browser.context.newPage();
    await tab.goto(pageOrigin);
    const results = await tab.evaluate(
      async ({ api, key }) => {
        const attempt = async (f: () => Promise<Response>) => {
          try {
            const res = await f();
            return res.type === 'opaque' ? 'opaque' : `${res.status} ${(await res.text()).slice(0, 200)}`;
          } catch (error) {
            return `blocked: ${(error as Error).name}`;
          }
        };
        return {
          readKeys: await attempt(() => fetch(`${api}/_emulator/keys`)),
          setBalance: await attempt(() =>
            fetch(`${api}/_emulator/accounts/acct_local/balance`, {
              method: 'POST',
              headers: { 'Content-Type': 'application/json' },
              body: '{"set":0}',
            }),
          ),
          simpleBalance: await attempt(() =>
            fetch(`${api}/_emulator/accounts/acct_local/balance`, {
              method: 'POST',
              mode: 'no-cors',
              headers: { 'Content-Type': 'text/plain' },
              body: '{"set":0}',
            }),
          ),
          simpleReset: await attempt(() => fetch(`${api}/_emulator/reset`, { method: 'POST', mode: 'no-cors' })),
          models: await attempt(() => fetch(`${api}/v1/media/models`, { headers: { Authorization: `Bearer ${key}` } })),
        };
      },
      { api: url, key: emulator.apiKey },
    );
    expect(results.readKeys).toBe('blocked: TypeError');
    expect(results.setBalance).toBe('blocked: TypeError');
    expect(results.simpleBalance).toBe('opaque');
    expect(results.simpleReset).toBe('opaque');
    expect(results.models.startsWith('200 ')).toBe(true);
    // The opaque requests did reach the server: the guard refused them, so nothing changed.
    expect(runtimeOf(emulator).context().ledger.balance(emulator.accountId)).toBe(before);
    expect(runtimeOf(emulator).context().generations.size).toBe(1);
  });
});
