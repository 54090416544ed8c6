// docs/frontend.md's "flaky download" recipe in Chromium: the video's first download fails (a fault rule on /files/*),
// the page reads the generation again for a fresh link, and the video plays.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Control, Emulator } from '../../src/index.js';
import { createEmulatorWith } from '../../src/testing.js';
import { launchChromium, type Chromium } from '../helpers/chromium.js';
import { type PageServer, serveBlankPage } from '../helpers/page-server.js';
import type { PageGlobals } from './page-types.js';

describe('a flaky download in a real browser', () => {
  let browser: Chromium;
  let emulator: Emulator;
  let api: string;
  let app: PageServer | undefined;

  beforeAll(async () => {
    browser = await launchChromium();
    app = await serveBlankPage('player');
    emulator = createEmulatorWith({ seed: 5, timing: 'manual', corsOrigins: [app.origin] });
    await emulator.ready;
    api = (await emulator.listen(0, '127.0.0.1')).url;
    (emulator.control as Control).setBaseUrl(api);
  });

  afterAll(async () => {
    await browser?.close();
    await emulator?.close();
    await app?.close();
  });

  it('fails once, refreshes the link by reading the generation again, and plays', async () => {
    const control = emulator.control as Control;
    const auth = { Authorization: `Bearer ${emulator.apiKey}`, 'Content-Type': 'application/json' };
    const submitted = await fetch(`${api}/v1/media/generations`, {
      method: 'POST',
      headers: { ...auth, 'Idempotency-Key': 'flaky-download-1' },
      body: JSON.stringify({
        model_slug: 'motion-lite-v1',
        prompt: 'a kite over the dunes',
        params: { duration: '4' },
        max_credits: 1000,
      }),
    });
    const { generation } = (await submitted.json()) as { generation: { id: string } };
    await control.advance('10m');
    await control.waitFor(generation.id, 'completed');
    // The recipe's rule: the next download answers 503, once.
    const rule = await control.faults.add({
      match: { route: '/files/*', generation_id: generation.id },
      times: 1,
      action: { type: 'status', status: 503 },
    });

    const page = await browser.context.newPage();
    await page.goto(app?.origin ?? '');
    const played = await page.evaluate(
      async ({ api, key, id }) => {
        const { document } = globalThis as unknown as PageGlobals;
        let reads = 0;
        let errors = 0;
        // The recipe (docs/frontend.md): a link that fails is refreshed by reading the generation again.
        const fresh = async () => {
          reads += 1;
          const res = await fetch(`${api}/v1/media/generations/${id}`, { headers: { Authorization: `Bearer ${key}` } });
          const body = (await res.json()) as { generation: { outputs: { url: string }[] } };
          return body.generation.outputs[0].url;
        };
        const video = document.createElement('video');
        video.muted = true;
        video.preload = 'auto';
        document.body.append(video);
        const loaded = new Promise<void>((resolve) => video.addEventListener('loadedmetadata', () => resolve()));
        let retries = 1;
        video.addEventListener('error', async () => {
          errors += 1;
          if (retries-- > 0) video.src = await fresh();
        });
        video.src = await fresh();
        await loaded;
        return { duration: video.duration, reads, errors };
      },
      { api, key: emulator.apiKey, id: generation.id },
    );
    await page.close();

    expect(played.errors).toBe(1);
    expect(played.reads).toBe(2);
    expect(played.duration).toBeCloseTo(4, 0);
    // The journal records a download once it has ended, which the browser's reading of the second one may not have yet
    // when the video's metadata is in (seen under load): wait for it rather than read once.
    const downloads = await vi.waitFor(
      async () => {
        const listed = await control.journal({ path: '/files/*' });
        if (listed.length < 2) throw new Error(`the journal holds ${listed.length} download(s) of the two or more`);
        return listed;
      },
      { timeout: 15_000, interval: 50 },
    );
    expect(downloads[0]).toMatchObject({ status: 503, fault_id: rule.id, generation_id: generation.id });
    expect(downloads.slice(1).every((d) => d.status === 200 || d.status === 206)).toBe(true);
    expect(downloads.length).toBeGreaterThan(1);
  });
});
