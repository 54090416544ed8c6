// The console in a real browser: live rows, a playable and seekable output, a failure with refund from the page, a screenshot.
import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startEmulator, type RunningEmulator } from '../../src/index.js';
import { launchChromium, type Chromium } from './chromium.js';
import type { PageGlobals, PageVideo } from './page-types.js';

const SCREENSHOT = 'test-output/console.png';

interface PublicGeneration {
  id: string;
  status: string;
  charged_credits: number;
  outputs: { url: string; duration_seconds: number }[];
}

describe('the console page', () => {
  let browser: Chromium;
  let running: RunningEmulator;
  let page: Page;
  const problems: string[] = [];

  // A frozen clock (manual timing): each state is held until the page itself advances the clock, so nothing races.
  beforeAll(async () => {
    browser = await launchChromium();
    running = await startEmulator({ seed: 11, timing: 'manual' });
    page = await browser.context.newPage();
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => message.type() === 'error' && problems.push(`console error: ${message.text()}`));
    page.on(
      'response',
      (response) => response.status() >= 400 && problems.push(`${response.status()} from ${response.url()}`),
    );
    await page.goto(`${running.url}/_emulator/console`);
  });

  afterAll(async () => {
    await browser?.close();
    await running?.close();
  });

  async function submit(prompt: string, idempotencyKey: string): Promise<PublicGeneration> {
    const res = await fetch(`${running.url}/v1/media/generations`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${running.apiKey}`,
        'Content-Type': 'application/json',
        'Idempotency-Key': idempotencyKey,
      },
      body: JSON.stringify({ model_slug: 'motion-lite-v1', prompt, params: { duration: '4' }, max_credits: 1000 }),
    });
    expect(res.status).toBe(202);
    return ((await res.json()) as { generation: PublicGeneration }).generation;
  }

  async function read(id: string): Promise<PublicGeneration> {
    const res = await fetch(`${running.url}/v1/media/generations/${id}`, {
      headers: { Authorization: `Bearer ${running.apiKey}` },
    });
    return ((await res.json()) as { generation: PublicGeneration }).generation;
  }

  const row = (id: string) => page.locator(`#generations-body tr[data-key="${id}"]`);
  const badge = (id: string, status: string) => row(id).locator(`.badge:text-is("${status}")`);
  const balanceText = () => page.locator('#balance').textContent();

  it('has a heading, labelled controls and no script errors', async () => {
    await page.getByRole('heading', { level: 1, name: 'Media emulator console' }).waitFor();
    await page.locator('#balance:not(:text-is("–"))').waitFor();
    const unlabelled = await page.evaluate(() =>
      [...(globalThis as unknown as PageGlobals).document.querySelectorAll('input, select, textarea, button')]
        .filter((e) => !e.closest('[hidden]'))
        .filter((e) => {
          const labels = e.labels;
          return !labels?.length && !e.getAttribute('aria-label') && !(e.textContent ?? '').trim();
        })
        .map((e) => e.outerHTML.slice(0, 80)),
    );
    expect(unlabelled).toEqual([]);
    expect(await page.locator('[aria-live]').count()).toBeGreaterThanOrEqual(2);
  });

  it('shows a generation submitted through the public API go from pending to completed', async () => {
    const generation = await submit('a paper boat drifting on a pond', 'console-test-0001');
    await badge(generation.id, 'pending').waitFor();
    await row(generation.id).getByText('motion-lite-v1').waitFor();
    await row(generation.id).getByText('a paper boat drifting on a pond').waitFor();
    // The page drives the clock itself: ten minutes covers pending and running.
    await page.getByLabel('Advance by').fill('10m');
    await page.getByRole('button', { name: 'Advance', exact: true }).click();
    await badge(generation.id, 'completed').waitFor();
    await row(generation.id).getByText('charged', { exact: true }).waitFor();
    await row(generation.id).getByText(String(generation.charged_credits), { exact: true }).waitFor();
  });

  it('plays the output inline: readyState 4, the right duration, and a seek to the middle', async () => {
    const id = await row(await firstId()).getAttribute('data-key');
    const generation = await read(id!);
    const expected = generation.outputs[0].duration_seconds;
    const video = row(id!).locator('video');
    await video.waitFor();
    expect(await video.getAttribute('preload')).toBe('metadata');
    expect(await video.evaluate((v) => (v as unknown as PageVideo).controls)).toBe(true);
    const state = await video.evaluate(async (element) => {
      const v = element as unknown as PageVideo;
      v.muted = true;
      await v.play();
      while (v.readyState < 4) await new Promise((resolve) => setTimeout(resolve, 20));
      const readyState = v.readyState;
      v.pause();
      const duration = v.duration;
      v.currentTime = duration / 2;
      await new Promise((resolve) => v.addEventListener('seeked', resolve, { once: true }));
      while (v.readyState < 2) await new Promise((resolve) => setTimeout(resolve, 20));
      return { readyState, duration, currentTime: v.currentTime, error: v.error?.message ?? null };
    });
    expect(state.error).toBeNull();
    expect(state.readyState).toBe(4);
    expect(state.duration).toBeCloseTo(expected, 1);
    expect(state.currentTime).toBeCloseTo(expected / 2, 1);
  });

  it('fails a generation with a refund from the page and shows the balance restored', async () => {
    const before = await balanceText();
    const generation = await submit('a storm over the sea, to be refunded', 'console-test-0002');
    await badge(generation.id, 'pending').waitFor();
    await page.locator(`#balance:not(:text-is("${before}"))`).waitFor();
    expect(await balanceText()).not.toBe(before);
    await page.getByRole('button', { name: `Fail with refund ${generation.id}` }).click();
    await badge(generation.id, 'failed').waitFor();
    await row(generation.id).getByText('refunded', { exact: true }).waitFor();
    await page.locator(`#balance:text-is("${before}")`).waitFor();
    await page.locator('#message', { hasText: `Fail with refund ${generation.id}` }).waitFor();
    expect(await read(generation.id)).toMatchObject({ status: 'failed', billing_status: 'refunded' });
  });

  it('creates and revokes a key, and adds and switches off a fault rule, from the keyboard and mouse', async () => {
    await page.getByLabel('Name', { exact: true }).fill('frontend-dev');
    await page.getByLabel('Model scope').selectOption('motion-lite-v1');
    await page.getByLabel('Daily credit ceiling').fill('500');
    await page.getByRole('button', { name: 'Create key' }).click();
    const keyRow = page.locator('#keys-body tr', { hasText: 'frontend-dev' });
    await keyRow.getByText('motion-lite-v1').waitFor();
    await keyRow.getByText('500', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Revoke key frontend-dev' }).click();
    await keyRow.getByText(/^revoked/).waitFor();

    await page.getByLabel('Start from').selectOption('Next submission answers 503');
    await page.getByRole('button', { name: 'Add rule' }).click();
    const ruleRow = page.locator('#faults-body tr', { hasText: 'Next submission answers 503' });
    await ruleRow.waitFor();
    const enabled = ruleRow.getByRole('switch');
    expect(await enabled.isChecked()).toBe(true);
    await enabled.focus();
    await page.keyboard.press('Space');
    await page.locator('#message', { hasText: 'switched off' }).waitFor();
    expect(await ruleRow.getByRole('switch').isChecked()).toBe(false);
    // Switched off, the rule lets a submission through.
    const generation = await submit('after the rule was switched off', 'console-test-0003');
    await badge(generation.id, 'pending').waitFor();
  });

  it('takes a screenshot of the whole console for a human to look at', async () => {
    mkdirSync('test-output', { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    await page.setViewportSize({ width: 1366, height: 768 });
    await page.getByRole('heading', { level: 1 }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: 'test-output/console-1366x768.png' });
    expect(problems).toEqual([]);
  });

  it('asks for the admin token when the emulator has one, and works once it is given', async () => {
    const guarded = await startEmulator({ seed: 12, timing: 'manual', adminToken: 'console-secret' });
    const other = await browser.context.newPage();
    try {
      await other.goto(`${guarded.url}/_emulator/console`);
      const tokenField = other.getByLabel('Admin token', { exact: true });
      await tokenField.waitFor();
      await tokenField.fill('console-secret');
      await tokenField.press('Enter');
      await other.locator('#balance:text-is("1,000,000")').waitFor();
      expect(await other.locator('#token-section').isHidden()).toBe(true);
    } finally {
      await other.close();
      await guarded.close();
    }
  });

  async function firstId(): Promise<string> {
    return (await page.locator('#generations-body tr[data-key]').last().getAttribute('data-key'))!;
  }
});
