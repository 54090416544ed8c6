// What the console browser tests share: an emulator on a manual clock, a page that records its requests, helpers.
import { mkdirSync } from 'node:fs';
import { expect } from 'vitest';
import type { Page, Request } from 'playwright-core';
import { startEmulator, type Control, type RunningEmulator } from '../../src/index.js';
import { launchChromium, type Chromium } from '../helpers/chromium.js';
import type { PageGlobals } from './page-types.js';

export const DESKTOP = { width: 1440, height: 900 };
export const PHONE = { width: 390, height: 844 };
/** The console refreshes every 2 s by default; tests ask for 250 ms so DOM waits resolve quickly. */
export const CONSOLE_PATH = '/_emulator/console?refresh=250';

export interface ConsoleSession {
  browser: Chromium;
  running: RunningEmulator & { control: Control };
  page: Page;
  /** Every request the page made, in order. */
  requests: Request[];
  /** Page errors and console errors: a test ends by expecting none. */
  problems: string[];
  close(): Promise<void>;
}

export async function openConsole(
  options: Parameters<typeof startEmulator>[0] = {},
  viewport = DESKTOP,
  hash = '',
): Promise<ConsoleSession> {
  const browser = await launchChromium();
  // startEmulator always sets the control client; the type says so for the tests.
  const running = (await startEmulator({ seed: 21, timing: 'manual', ...options })) as RunningEmulator & {
    control: Control;
  };
  const page = await browser.context.newPage();
  await page.setViewportSize(viewport);
  // Shorter than the test timeout, so a missing element fails with its locator named.
  page.setDefaultTimeout(10_000);
  const requests: Request[] = [];
  const problems: string[] = [];
  page.on('request', (r) => requests.push(r));
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (m) => {
    // A link the console knows is broken is never loaded, so the only failed loads are ones a test provoked on purpose.
    if (m.type() === 'error' && !/Failed to load resource/.test(m.text())) problems.push(`console: ${m.text()}`);
  });
  await page.goto(`${running.url}${CONSOLE_PATH}${hash}`);
  return {
    browser,
    running,
    page,
    requests,
    problems,
    async close() {
      await browser.close();
      await running.close();
    },
  };
}

/** Submits through the public API, as the app under development would (the console itself never does). */
export async function submit(running: RunningEmulator, prompt: string, n: number, model = 'motion-lite-v1') {
  const res = await fetch(`${running.url}/v1/media/generations`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${running.apiKey}`,
      'Content-Type': 'application/json',
      'Idempotency-Key': `console-test-${String(n).padStart(6, '0')}`,
    },
    body: JSON.stringify({ model_slug: model, prompt, params: { duration: '4' }, max_credits: 1000 }),
  });
  expect(res.status).toBe(202);
  return ((await res.json()) as { generation: { id: string; charged_credits: number } }).generation;
}

/** Waits until the console has finished `n` more refreshes: a DOM condition, not a sleep. */
export async function refreshes(page: Page, n: number) {
  const now = Number(await page.evaluate(() => (globalThis as unknown as PageGlobals).document.body.dataset.refreshes));
  await page.waitForFunction(
    (target) => Number((globalThis as unknown as PageGlobals).document.body.dataset.refreshes) >= target,
    now + n,
  );
}

/** Pixels the page is wider than the viewport (0 means no horizontal scroll). */
export async function overflow(page: Page): Promise<number> {
  return page.evaluate(() => {
    const d = (globalThis as unknown as PageGlobals).document.documentElement;
    return d.scrollWidth - d.clientWidth;
  });
}

export async function screenshot(page: Page, name: string, fullPage = false) {
  mkdirSync('test-output/console', { recursive: true });
  await page.screenshot({ path: `test-output/console/${name}.png`, fullPage });
}

export const mediaRequests = (requests: Request[]) =>
  requests.filter((r) => new URL(r.url()).pathname.startsWith('/v1/media'));
export const fileRequests = (requests: Request[], id: string) =>
  requests.filter((r) => new URL(r.url()).pathname.startsWith(`/files/${id}/`));
