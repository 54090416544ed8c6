// CORS from a real browser: a page on another origin calls the API with a preflight and plays a signed file with Range requests.
import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/index.js';
import { launchChromium, type Chromium } from '../helpers/chromium.js';
import { type PageServer, serveBlankPage } from '../helpers/page-server.js';
import type { PageGlobals } from './page-types.js';
import { createEmulatorWith, runtimeOf } from '../../src/testing.js';

interface Seen {
  method: string;
  url: string;
  origin?: string;
  range?: string;
}

describe('CORS in a real browser', () => {
  let browser: Chromium;
  let emulator: Emulator;
  let emulatorUrl: string;
  let app: PageServer | undefined;
  let appOrigin: string;
  const seen: Seen[] = [];
  let generationId = '';

  beforeAll(async () => {
    browser = await launchChromium();
    // The front-end app: another port is another origin, which is all CORS needs.
    app = await serveBlankPage('front-end app');
    appOrigin = app.origin;
    emulator = createEmulatorWith({ seed: 3, timing: 'manual', corsOrigins: [appOrigin] });
    await emulator.ready;
    const { url, server } = await emulator.listen(0, '127.0.0.1');
    emulatorUrl = url;
    // A second listener sees every request the browser really sent, preflights included.
    server.on('request', (req: IncomingMessage) =>
      seen.push({ method: req.method ?? '', url: req.url ?? '', origin: req.headers.origin, range: req.headers.range }),
    );
  });

  afterAll(async () => {
    await browser?.close();
    await emulator?.close();
    // When beforeAll failed early (no Chromium) there is no server, and waiting for its close would never end.
    await app?.close();
  });

  it('lets a page on an allowed origin submit with Authorization and Idempotency-Key after a real preflight', async () => {
    const page = await browser.context.newPage();
    await page.goto(appOrigin);
    const result = await page.evaluate(
      async ({ api, key }) => {
        const res = await fetch(`${api}/v1/media/generations`, {
          method: 'POST',
          headers: {
            Authorization: `Bearer ${key}`,
            'Content-Type': 'application/json',
            'Idempotency-Key': 'browser-cors-0001',
          },
          body: JSON.stringify({
            model_slug: 'motion-lite-v1',
            prompt: 'a lighthouse at dusk',
            params: { duration: '4' },
            max_credits: 1000,
          }),
        });
        const body = (await res.json()) as { generation: { id: string; status: string } };
        return { status: res.status, body, length: res.headers.get('content-length') };
      },
      { api: emulatorUrl, key: emulator.apiKey },
    );
    expect(result.status).toBe(202);
    expect(result.body.generation.status).toBe('pending');
    generationId = result.body.generation.id;
    expect(Number(result.length)).toBeGreaterThan(0);
    const preflight = seen.find((s) => s.method === 'OPTIONS' && s.url === '/v1/media/generations');
    expect(preflight?.origin).toBe(appOrigin);
    await page.close();
  });

  it('lets the page read Retry-After when a key is over its daily ceiling', async () => {
    const ctx = runtimeOf(emulator).context();
    ctx.accounts.createKey(
      { accountId: emulator.accountId, secret: 'sk-media-browser-ceiling', dailyCreditLimit: 10 },
      ctx.clock.now(),
    );
    const page = await browser.context.newPage();
    await page.goto(appOrigin);
    const refused = await page.evaluate(async (api) => {
      const res = await fetch(`${api}/v1/media/generations`, {
        method: 'POST',
        headers: {
          Authorization: 'Bearer sk-media-browser-ceiling',
          'Content-Type': 'application/json',
          'Idempotency-Key': 'browser-cors-ceiling',
        },
        body: JSON.stringify({ model_slug: 'motion-lite-v1', prompt: 'too expensive today', max_credits: 1000 }),
      });
      const body = (await res.json()) as { error?: { code: string } };
      return { status: res.status, retryAfter: res.headers.get('retry-after'), code: body.error?.code };
    }, emulatorUrl);
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.code).toMatch(/limit|ceiling/);
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    await page.close();
  });

  it('plays a signed output in a cross-origin <video crossorigin> and seeks with Range requests', async () => {
    expect(generationId).not.toBe('');
    await emulator.advance(10 * 60_000);
    const read = await fetch(`${emulatorUrl}/v1/media/generations/${generationId}`, {
      headers: { Authorization: `Bearer ${emulator.apiKey}` },
    });
    const { generation } = (await read.json()) as {
      generation: { status: string; outputs: { url: string; duration_seconds: number }[] };
    };
    expect(generation.status).toBe('completed');
    const output = generation.outputs[0];

    const page = await browser.context.newPage();
    await page.goto(appOrigin);
    const played = await page.evaluate(async (src) => {
      const { document } = globalThis as unknown as PageGlobals;
      const video = document.createElement('video');
      video.crossOrigin = 'anonymous'; // a CORS-mode load: refused unless the file answers with Access-Control-Allow-Origin
      video.muted = true;
      video.preload = 'auto';
      video.src = src;
      document.body.append(video);
      await new Promise((resolve, reject) => {
        video.addEventListener('loadedmetadata', resolve, { once: true });
        video.addEventListener(
          'error',
          () => reject(new Error(`video error ${video.error?.code}: ${video.error?.message}`)),
          { once: true },
        );
      });
      video.currentTime = video.duration / 2;
      await new Promise((resolve) => video.addEventListener('seeked', resolve, { once: true }));
      const ranged = await fetch(src, { headers: { Range: 'bytes=0-99' } });
      return {
        duration: video.duration,
        currentTime: video.currentTime,
        status: ranged.status,
        contentRange: ranged.headers.get('content-range'),
        bytes: (await ranged.arrayBuffer()).byteLength,
      };
    }, output.url);

    expect(played.duration).toBeCloseTo(output.duration_seconds, 1);
    expect(played.currentTime).toBeCloseTo(output.duration_seconds / 2, 0);
    expect(played.status).toBe(206);
    expect(played.contentRange).toMatch(/^bytes 0-99\/\d+$/);
    expect(played.bytes).toBe(100);
    const fileRequests = seen.filter((s) => s.url.startsWith('/files/') && s.method === 'GET');
    expect(fileRequests.some((s) => s.origin === appOrigin && s.range?.startsWith('bytes='))).toBe(true);
    await page.close();
  });

  it('refuses a page whose origin is not in the list, as the browser enforces it', async () => {
    const stranger = await serveBlankPage('other');
    const strangerOrigin = stranger.origin;
    try {
      const page = await browser.context.newPage();
      await page.goto(strangerOrigin);
      const outcome = await page.evaluate(
        async ({ api, key }) => {
          try {
            await fetch(`${api}/v1/media/models`, { headers: { Authorization: `Bearer ${key}` } });
            return 'allowed';
          } catch (error) {
            return (error as Error).name;
          }
        },
        { api: emulatorUrl, key: emulator.apiKey },
      );
      expect(outcome).toBe('TypeError');
      await page.close();
    } finally {
      await stranger.close();
    }
  });
});
