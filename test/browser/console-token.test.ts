// The console with an admin token in force: the token comes from the URL fragment once, is kept, and rides on every call.
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
