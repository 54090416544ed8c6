// The console with an admin token in force: without it, it says where to find one and disables its controls; the token
// comes from the URL fragment once (or the prompt), is kept, and rides on every call.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Request } from 'playwright-core';
import { startEmulator, type RunningEmulator } from '../../src/index.js';
import { launchChromium, type Chromium } from '../helpers/chromium.js';
import { CONSOLE_PATH, overflow, PHONE, screenshot } from './console-kit.js';
import type { PageGlobals } from './page-types.js';

const TOKEN = 'console-admin-token-123';
const KEY = 'media-emulator-admin-token';

describe('the console with an admin token', () => {
  let browser: Chromium;
  let running: RunningEmulator;

  beforeAll(async () => {
    browser = await launchChromium();
    running = await startEmulator({ seed: 5, timing: 'manual', adminToken: TOKEN });
  });
  afterAll(async () => {
    await browser?.close();
    await running?.close();
  });

  it('without a token, says one is required and where to find it, and disables what cannot work until it is given', async () => {
    const page = await browser.context.newPage();
    page.setDefaultTimeout(10_000);
    await page.goto(`${running.url}${CONSOLE_PATH}`);
    // The context keeps local storage between pages: start from a browser that never saw the token.
    await page.evaluate((k) => (globalThis as unknown as PageGlobals).localStorage.removeItem(k), KEY);
    await page.reload();
    const status = page.locator('#server-status');
    await status.filter({ hasText: 'Admin token required' }).waitFor();
    expect(await status.textContent()).toContain('docker logs');
    expect(await status.textContent()).not.toContain('not reachable');
    expect(await page.locator('#token-help').textContent()).toMatch(/Admin token:[\s\S]*docker logs/);
    const chips = page.locator('#status-filters .chip');
    expect(await chips.allTextContents()).toEqual(['all', 'pending', 'running', 'completed', 'failed']);
    const locked = [
      '#status-filters .chip',
      '#advance-next',
      '#clock-toggle',
      '[data-advance]',
      '#topup-form button',
      '#reset',
    ];
    for (const selector of locked)
      for (const control of await page.locator(selector).all()) expect(await control.isDisabled(), selector).toBe(true);
    await screenshot(page, 'no-token');
    const field = page.getByLabel('Admin token', { exact: true });
    expect(await field.isEnabled()).toBe(true);
    await field.fill(TOKEN);
    await field.press('Enter');
    await status.filter({ hasText: 'renderer' }).waitFor();
    await chips
      .first()
      .filter({ hasText: /^all \d+$/ })
      .waitFor();
    // All but "Advance to the next transition", which the clock panel itself disables while nothing is due.
    for (const selector of locked.filter((s) => s !== '#advance-next'))
      for (const control of await page.locator(selector).all()) expect(await control.isEnabled(), selector).toBe(true);
    await page.close();
  });

  it('reads #token= once, removes it from the address bar, keeps it, and sends it as a Bearer token', async () => {
    const page = await browser.context.newPage();
    page.setDefaultTimeout(10_000);
    const calls: Request[] = [];
    page.on('request', (r) => new URL(r.url()).pathname.startsWith('/_emulator/') && calls.push(r));
    await page.goto(`${running.url}${CONSOLE_PATH}#token=${TOKEN}`);
    await page.locator('#server-status', { hasText: 'renderer' }).waitFor();
    const where = await page.evaluate(() => {
      const g = globalThis as unknown as PageGlobals;
      return { hash: g.location.hash, href: g.location.href };
    });
    expect(where.hash).toBe('');
    expect(where.href).not.toContain(TOKEN);
    expect(await page.evaluate((k) => (globalThis as unknown as PageGlobals).localStorage.getItem(k), KEY)).toBe(TOKEN);
    const api = calls.filter((r) => !new URL(r.url()).pathname.startsWith('/_emulator/console'));
    expect(api.length).toBeGreaterThan(0);
    for (const r of api) expect(await r.headerValue('authorization')).toBe(`Bearer ${TOKEN}`);
    expect(await page.locator('#token-section').isHidden()).toBe(true);
    // A reload without the fragment still works: the token was kept.
    await page.reload();
    await page.locator('#server-status', { hasText: 'renderer' }).waitFor();
    expect(await page.locator('#token-section').isHidden()).toBe(true);
    await page.close();
  });

  it('asks for the token when the saved one is refused, and works once it is given', async () => {
    const page = await browser.context.newPage();
    page.setDefaultTimeout(10_000);
    await page.setViewportSize(PHONE);
    await page.goto(`${running.url}${CONSOLE_PATH}#token=wrong-token`);
    const field = page.getByLabel('Admin token', { exact: true });
    await field.waitFor();
    await page.locator('#token-message', { hasText: 'The saved token was refused' }).waitFor();
    expect(await overflow(page)).toBe(0);
    await screenshot(page, 'phone-token-prompt');
    await field.fill(TOKEN);
    await field.press('Enter');
    await page.locator('#server-status', { hasText: 'renderer' }).waitFor();
    await page.locator('.marker code').first().waitFor();
    expect(await page.locator('#token-section').isHidden()).toBe(true);
    await page.close();
  });
});
