// The console in Debian Chromium at 1440x900 and 390x844: generations, detail, broken outputs, clock; on a manual clock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PageGlobals, PageVideo } from './page-types.js';
import {
  type ConsoleSession,
  CONSOLE_PATH,
  DESKTOP,
  fileRequests,
  mediaRequests,
  openConsole,
  overflow,
  PHONE,
  refreshes,
  screenshot,
  submit,
} from './console-kit.js';

describe.each([
  ['desktop', DESKTOP],
  ['phone', PHONE],
])('the console on a %s', (name, viewport) => {
  let s: ConsoleSession;
  const ids: Record<string, string> = {};
  const shot = (what: string, full = false) => screenshot(s.page, `${name}-${what}`, full);
  const noOverflow = async () => expect(await overflow(s.page)).toBe(0);

  // Three finished generations (one fine, one with expired links, one with missing files), then 61 pending for hours
  // (so none renders): more than two pages, so paging past 50 is needed to reach the oldest.
  beforeAll(async () => {
    s = await openConsole({}, viewport);
    const { running } = s;
    ids.fine = (await submit(running, 'a red fox running through snow', 1)).id;
    ids.expired = (await submit(running, 'city at night [emulator:expired-urls]', 2)).id;
    ids.missing = (await submit(running, 'ocean waves [emulator:missing-outputs]', 3)).id;
    for (const id of [ids.fine, ids.expired, ids.missing]) await running.control.waitFor(id, 'completed');
    for (let n = 4; n <= 64; n++)
      ids[`batch${n}`] = (await submit(running, `batch item ${n} [emulator:pending=${n}h]`, n)).id;
    await s.page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: running.url });
  });
  afterAll(() => s?.close());

  it('lists generations first, newest on top, with badges, thumbnails and paging past 50', async () => {
    const { page } = s;
    await page.locator('#page-info', { hasText: '1–25 of 64' }).waitFor();
    expect(await page.locator('#generations-list .gen-row').count()).toBe(25);
    expect(await page.locator('.gen-row').first().getAttribute('data-key')).toBe(ids.batch64);
    // The list starts within the first screen.
    const top = await page.locator('#generations-list').boundingBox();
    expect(top!.y).toBeLessThan(viewport.height / 2);
    await noOverflow();
    await shot('list');
    await page.getByRole('button', { name: 'Older →' }).click();
    await page.locator('#page-info', { hasText: '26–50 of 64' }).waitFor();
    await page.getByRole('button', { name: 'Older →' }).click();
    await page.locator('#page-info', { hasText: '51–64 of 64' }).waitFor();
    const last = page.locator(`.gen-row[data-key="${ids.fine}"]`);
    await last.locator('.badge', { hasText: 'completed' }).waitFor();
    await last.locator('video').waitFor({ state: 'attached' });
    await page.locator(`.gen-row[data-key="${ids.expired}"] [data-broken="expired"]`, { hasText: '403' }).waitFor();
    await page.locator(`.gen-row[data-key="${ids.missing}"] [data-broken="missing"]`, { hasText: '404' }).waitFor();
    await shot('list-last-page');
    await noOverflow();
  });

  it('searches by id or prompt and filters by state', async () => {
    const { page } = s;
    const rows = page.locator('#generations-list .gen-row');
    await page.getByPlaceholder('Search id or prompt').fill('red fox');
    await page.locator('#page-info', { hasText: '1–1 of 1' }).waitFor();
    expect(await rows.first().getAttribute('data-key')).toBe(ids.fine);
    await page.getByPlaceholder('Search id or prompt').fill(ids.missing);
    await page.locator(`.gen-row[data-key="${ids.missing}"]`).waitFor();
    await page.getByPlaceholder('Search id or prompt').fill('');
    await page.locator('.chip', { hasText: /^completed/ }).click();
    await page.locator('#page-info', { hasText: '1–3 of 3' }).waitFor();
    expect(await rows.count()).toBe(3);
    await page.locator('.chip', { hasText: /^all/ }).click();
    await page.locator('#page-info', { hasText: '1–25 of 64' }).waitFor();
  });

  it('opens a detail view at its own URL with the timeline, ledger, signed URL, creating request and a player', async () => {
    const { page, running } = s;
    await page.goto(`${running.url}${CONSOLE_PATH}#/generation/${ids.fine}`);
    await page.locator('#detail-heading', { hasText: ids.fine }).waitFor();
    const times = page.locator('.detail-timeline li.done');
    await times.nth(2).waitFor();
    expect(await times.allInnerTexts()).toEqual([
      expect.stringMatching(/^pending\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/),
      expect.stringMatching(/^running\s+/),
      expect.stringMatching(/^completed\s+/),
    ]);
    await page.locator('.detail-ledger td', { hasText: '−88' }).waitFor();
    await page.locator('.signed-url', { hasText: `/files/${ids.fine}/0.mp4?expires=` }).waitFor();
    await page.locator('.link-expiry', { hasText: 'in 60 min on the emulator clock' }).waitFor();
    await page
      .locator('.detail-request', { hasText: 'POST /v1/media/generations' })
      .locator('.badge', { hasText: '202' })
      .waitFor();
    const state = await page.locator('.player-box video').evaluate(async (element) => {
      const v = element as unknown as PageVideo;
      v.muted = true;
      await v.play();
      while (v.readyState < 4) await new Promise((resolve) => setTimeout(resolve, 20));
      v.pause();
      v.currentTime = v.duration / 2;
      await new Promise((resolve) => v.addEventListener('seeked', resolve, { once: true }));
      return { duration: v.duration, currentTime: v.currentTime, error: v.error?.message ?? null };
    });
    expect(state).toMatchObject({ error: null, duration: expect.closeTo(4, 1), currentTime: expect.closeTo(2, 1) });
    await noOverflow();
    await shot('detail');
  });

  it('shows broken outputs as 403 expired and 404 missing badges and never fetches them in a loop', async () => {
    const { page, running } = s;
    await page.goto(`${running.url}${CONSOLE_PATH}#/generation/${ids.expired}`);
    await page.locator('#detail [data-broken="expired"]', { hasText: '403' }).waitFor();
    await refreshes(page, 8);
    await page.goto(`${running.url}${CONSOLE_PATH}#/generation/${ids.missing}`);
    await page.locator('#detail [data-broken="missing"]', { hasText: '404' }).waitFor();
    await refreshes(page, 8);
    expect(fileRequests(s.requests, ids.expired)).toEqual([]);
    expect(fileRequests(s.requests, ids.missing)).toEqual([]);
    await shot('detail-broken');
    // "Expire links now": the player becomes a badge, and the old link is not fetched again over many refreshes.
    await page.goto(`${running.url}${CONSOLE_PATH}#/generation/${ids.fine}`);
    await page.locator('.player-box video').waitFor();
    await page.getByRole('button', { name: 'Expire links now' }).click();
    await page.locator('#detail-message', { hasText: 'Links expired' }).waitFor();
    const before = fileRequests(s.requests, ids.fine).length;
    await refreshes(page, 10);
    expect(fileRequests(s.requests, ids.fine).length).toBe(before);
  });

  it('fails a generation with a chosen code, message and partial refund, and the message sits by the form', async () => {
    const { page, running } = s;
    const id = ids.batch10;
    await page.goto(`${running.url}${CONSOLE_PATH}#/generation/${id}`);
    const form = page.getByRole('form', { name: `Fail ${id}` });
    await form.waitFor();
    await form.getByLabel('Error code').selectOption('timeout');
    await form.getByLabel('Message').fill('The GPU fell over; try again.');
    await form.getByLabel('partial').check();
    await form.getByLabel('Credits to refund').fill('30');
    await noOverflow();
    await form.getByRole('button', { name: 'Fail generation' }).click();
    await page.locator('#detail-message', { hasText: `${id} failed with timeout: refunded 30 of 88` }).waitFor();
    await page.locator('.detail-badges .badge', { hasText: 'partially refunded' }).waitFor();
    await page.locator('.detail-error', { hasText: 'timeout: The GPU fell over; try again.' }).waitFor();
    await page.locator('.detail-ledger td', { hasText: '+30' }).waitFor();
    const g = await running.control.generation(id);
    expect(g).toMatchObject({ status: 'failed', refunded_credits: 30, net_credits: 58, error: { code: 'timeout' } });
    const message = await page.locator('#detail-message').boundingBox();
    const button = await page.getByRole('button', { name: 'Refund', exact: true }).boundingBox();
    expect(Math.abs(message!.y - button!.y)).toBeLessThan(viewport.height);
    await shot('detail-failed');
  });

  it('never calls /v1/media: a loaded rate-limit scenario keeps its 429s and the journal stays empty over 10 s', async () => {
    const { page, running } = s;
    await running.control.clearJournal();
    await running.control.scenario.load('rate-limited');
    await page.locator('#scenario-active', { hasText: 'rate-limited' }).waitFor();
    // Ten seconds of emulator time from the page itself, with refreshes in between.
    for (let i = 0; i < 10; i++) {
      await page.getByRole('button', { name: '+1 s' }).click();
      await refreshes(page, 1);
    }
    await refreshes(page, 4);
    expect(mediaRequests(s.requests)).toEqual([]);
    expect(await running.control.journal()).toEqual([]);
    const progress = await running.control.scenario.progress();
    expect(progress!.faults[0]).toMatchObject({ matched: 0, fired: 0, remaining: 3 });
    const paths = new Set(s.requests.map((r) => new URL(r.url()).pathname.split('/').slice(0, 3).join('/')));
    expect([...paths].every((p) => p.startsWith('/_emulator') || p.startsWith('/files'))).toBe(true);
    await running.control.scenario.unload();
  });

  it('advances the clock to the next transition from the clock timeline', async () => {
    const { page, running } = s;
    await page.goto(`${running.url}${CONSOLE_PATH}`);
    await page.locator('#upcoming li').first().waitFor();
    // biome-ignore lint/performance/useDomNodeTextContent: Playwright's Locator.innerText() (the rendered text), not the DOM property
    const next = await page.locator('#upcoming li').first().innerText();
    expect(next).toMatch(/→\s*running/);
    await page.getByRole('button', { name: 'Advance to the next transition' }).click();
    await page
      .locator('#clock-message', { hasText: /Advanced to the next transition: now .*, [1-9]\d* transitions?/ })
      .waitFor();
    expect((await running.control.generations({ status: 'running' })).length).toBeGreaterThan(0);
  });

  it('keeps dark mode, fits the viewport everywhere, and raised no script errors', async () => {
    const { page } = s;
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.evaluate(() => (globalThis as unknown as PageGlobals).scrollTo(0, 0));
    const background = await page.evaluate(() => {
      const g = globalThis as unknown as PageGlobals;
      return g.getComputedStyle(g.document.body).backgroundColor;
    });
    expect(background).toBe('rgb(15, 18, 22)');
    await shot('dark');
    await shot('full-page', true);
    await page.emulateMedia({ colorScheme: 'light' });
    await noOverflow();
    expect(mediaRequests(s.requests)).toEqual([]);
    expect(s.problems).toEqual([]);
  });
});
