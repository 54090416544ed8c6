// The clip maker (app/) in a real Chromium against a real emulator, scripted over HTTP with connectEmulator: a 503 and a
// retry with the same Idempotency-Key (charged once), a content_policy failure and its refund, an expired link re-read.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { connectEmulator, type Control } from 'media-gen-emulator';
import { launchBrowser } from './chromium.js';
import { type EmulatorProcess, startEmulatorProcess } from './emulator-process.js';
import { serveApp } from './static-server.js';

describe('the clip maker against the emulator', () => {
  let emulator: EmulatorProcess;
  let control: Control;
  let app: Awaited<ReturnType<typeof serveApp>>;
  let browser: Browser;

  beforeAll(async () => {
    emulator = await startEmulatorProcess();
    control = connectEmulator(emulator.url, { adminToken: process.env.EMULATOR_ADMIN_TOKEN });
    app = await serveApp();
    browser = await launchBrowser();
  });
  beforeEach(async () => {
    // Every test starts from the seed with a frozen clock: only the test moves time (waitFor, advance), never a sleep.
    await control.reset();
    await control.setTiming({ profile: 'manual' });
    await control.freeze();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await emulator?.stop();
  });

  async function openApp(): Promise<Page> {
    const page = await browser.newPage();
    const query = new URLSearchParams({ api: emulator.url, key: emulator.apiKey, poll: '100' });
    await page.goto(`${app.origin}/?${query}`);
    return page;
  }

  async function generate(page: Page, prompt: string): Promise<string> {
    await page.getByLabel('Prompt').fill(prompt);
    await page.getByRole('button', { name: 'Generate' }).click();
    const status = page.locator('#status[data-generation-id]');
    await status.waitFor();
    return (await status.getAttribute('data-generation-id'))!;
  }

  /** The player has a decodable frame of a clip of the expected length. */
  const playable = (page: Page) =>
    page.waitForFunction(() => {
      const video = document.querySelector('video')!;
      return !video.hidden && video.readyState >= 2 && Math.abs(video.duration - 4) < 0.1;
    });

  it('retries a 503 with the same Idempotency-Key, is charged once and plays the MP4', async () => {
    await control.faults.add({
      match: { method: 'POST', route: '/v1/media/generations' },
      times: 1,
      action: { type: 'status', status: 503, retry_after: '1s' },
    });
    const page = await openApp();
    const id = await generate(page, 'a red fox in the snow');

    expect((await control.waitFor(id, 'completed')).billing_status).toBe('charged');
    await playable(page);
    expect(await page.locator('#status').textContent()).toBe(`Done: ${id}.`);

    const posts = await control.journal({ path: '/v1/media/generations', method: 'POST' });
    expect(posts.map((e) => e.status)).toEqual([503, 202]);
    expect(posts[1].idempotency_key).toBe(posts[0].idempotency_key);
    const charges = (await control.ledger({ generation_id: id })).filter((e) => e.type === 'charge');
    expect(charges).toHaveLength(1);
  });

  it('shows a content_policy failure and gives the credits back', async () => {
    await control.faults.add({
      match: { route: '/v1/media/generations', prompt: 'forbidden' },
      action: { type: 'fail', at: 'running', code: 'content_policy', refund: 'full' },
    });
    const page = await openApp();
    const id = await generate(page, 'a forbidden scene');

    const failed = await control.waitFor(id, 'failed');
    expect(failed).toMatchObject({ error: { code: 'content_policy' }, billing_status: 'refunded' });
    await page.locator('#status[data-state="failed"]').waitFor();
    expect(await page.locator('#status').textContent()).toBe('Failed: content_policy (billing: refunded).');
    const [account] = await control.accounts();
    expect(account.balance).toBe(1_000_000);
    await page.getByText('Balance: 1000000 credits').waitFor();
  });

  it('re-reads the generation when its signed link has expired, and plays the fresh link', async () => {
    const page = await openApp();
    const id = await generate(page, 'a lighthouse at dusk');
    await control.waitFor(id, 'completed');
    await playable(page);
    const firstLink = await page.locator('video').getAttribute('src');

    await control.advance('2h'); // signed links last one hour of emulator time
    expect((await fetch(firstLink!)).status).toBe(403);

    // The user comes back later: a new browser context (no media cache) with the same local storage.
    const later = await browser.newContext({ storageState: await page.context().storageState() });
    const back = await later.newPage();
    await back.goto(page.url());
    await back.getByText(`Done: ${id} (link refreshed).`).waitFor();
    await playable(back);
    expect(await back.locator('video').getAttribute('src')).not.toBe(firstLink);
    await later.close();
  });
});
