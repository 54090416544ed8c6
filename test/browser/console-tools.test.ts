// The console's tools in Debian Chromium at 1440x900 and 390x844: inspector, rule builder, scenarios, markers, wallet.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENERATION_ACTIONS, HTTP_ACTIONS } from '../../src/emulation/faults/fault-schema.js';
import type { PageGlobals } from './page-types.js';
import { type ConsoleSession, DESKTOP, mediaRequests, openConsole, overflow, PHONE, submit } from './console-kit.js';

describe.each([
  ['desktop', DESKTOP],
  ['phone', PHONE],
])('the console tools on a %s', (name, viewport) => {
  let s: ConsoleSession;
  const noOverflow = async () => expect(await overflow(s.page)).toBe(0);

  beforeAll(async () => {
    s = await openConsole({}, viewport);
    // Long prompts make the list answer larger than the 4 KB the journal keeps of a body.
    for (let n = 1; n <= 8; n++)
      await submit(s.running, `${'a slow pan over a misty valley at dawn, '.repeat(12)}${n}`, n);
    await s.page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: s.running.url });
  });
  afterAll(() => s?.close());

  it('inspects requests: fault rule and why it matched, size-capped bodies, copy as curl', async () => {
    const { page, running } = s;
    await running.control.faults.add({
      id: 'third-429',
      match: { method: 'POST', route: '/v1/media/generations' },
      after: 1,
      times: 1,
      action: { type: 'status', status: 429, code: 'rate_limited' },
    });
    await submit(running, 'inspect me please', 100);
    const refused = await fetch(`${running.url}/v1/media/generations`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${running.apiKey}`,
        'Content-Type': 'application/json',
        'Idempotency-Key': 'console-test-refused',
      },
      body: JSON.stringify({
        model_slug: 'motion-lite-v1',
        prompt: 'refused',
        params: { duration: '4' },
        max_credits: 1000,
      }),
    });
    expect(refused.status).toBe(429);
    await fetch(`${running.url}/v1/media/generations?limit=50`, {
      headers: { Authorization: `Bearer ${running.apiKey}` },
    });
    await page.locator('#requests').scrollIntoViewIfNeeded();
    await page.locator('.journal-row', { hasText: 'fault third-429' }).click();
    await page.locator('.fault-why', { hasText: 'match 2, after skipping the first 1' }).waitFor();
    await page
      .locator('.body-block', { hasText: 'Response body' })
      .locator('pre', { hasText: 'rate_limited' })
      .waitFor();
    await page.locator('.journal-row', { hasText: 'GET /v1/media/generations' }).click();
    await page.locator('.body-block .truncated', { hasText: 'first 4 KB' }).waitFor();
    await page.locator('.journal-row', { hasText: '202' }).first().click();
    await page
      .locator('.body-block', { hasText: 'Request body' })
      .locator('pre', { hasText: 'inspect me please' })
      .waitFor();
    // biome-ignore lint/performance/useDomNodeTextContent: Playwright's Locator.innerText() (the rendered text), not the DOM property
    const curl = await page.locator('.curl-text').innerText();
    expect(curl).toContain(`curl -i -X POST '${running.url}/v1/media/generations'`);
    expect(curl).toContain(`Bearer ${running.apiKey}`);
    expect(curl).toContain("--data-raw '{");
    await page.getByRole('button', { name: 'Copy as curl' }).click();
    expect(await page.evaluate(() => (globalThis as unknown as PageGlobals).navigator.clipboard.readText())).toBe(curl);
    await noOverflow();
    await page.locator('#requests').screenshot({ path: `test-output/console/${name}-inspector.png` });
    await running.control.faults.clear();
  });

  it('builds a fault rule: errors appear next to the field, then the rule works', async () => {
    const { page, running } = s;
    const form = page.locator('#rule-form');
    await form.scrollIntoViewIfNeeded();
    await form.getByLabel('What happens').selectOption('status');
    await form.getByLabel('HTTP status').fill('200');
    await form.getByLabel('Times').fill('1');
    await form.getByRole('button', { name: 'Add rule' }).click();
    await page.locator('#fb-status-status-error', { hasText: 'must be between 400 and 599' }).waitFor();
    expect(await form.getByLabel('HTTP status').getAttribute('aria-invalid')).toBe('true');
    await page.locator('#rule-message.error', { hasText: 'invalid_fault_rule' }).waitFor();
    await page.locator('#faults').screenshot({ path: `test-output/console/${name}-rule-error.png` });
    await form.getByLabel('HTTP status').fill('503');
    await form.getByLabel('Rule id').fill('one-503');
    await form.getByRole('button', { name: 'Add rule' }).click();
    await page.locator('#rule-message.ok', { hasText: 'one-503 is live' }).waitFor();
    await page.locator('#faults-list .rule-row', { hasText: 'one-503' }).waitFor();
    // biome-ignore lint/performance/useDomNodeTextContent: Playwright's Locator.innerText() (the rendered text), not the DOM property
    expect(await page.locator('#fb-status-status-error').innerText()).toBe('');
    const res = await fetch(`${running.url}/v1/media/generations`, {
      headers: { Authorization: `Bearer ${running.apiKey}` },
    });
    expect(res.status).toBe(503);
    // The JSON editor takes what the form does not cover, and says what is wrong with it.
    await page.locator('#rule-json').fill('{ "action": { "type": "slow", "factor": 0.5 } }');
    await page.locator('#rule-add').click();
    await page.locator('#rule-json-errors li', { hasText: 'action.factor' }).waitFor();
    await page.locator('#rule-json').fill('{ not json');
    await page.locator('#rule-add').click();
    await page.locator('#rule-json-errors li', { hasText: 'not valid JSON' }).waitFor();
    await noOverflow();
    await running.control.faults.clear();
  });

  it('offers every action of the fault schema and builds a dribble and an empty rule, which then fire', async () => {
    const { page, running } = s;
    const form = page.locator('#rule-form');
    await form.scrollIntoViewIfNeeded();
    const offered = await form
      .getByLabel('What happens')
      .locator('option')
      .evaluateAll((options) => options.map((o) => (o as unknown as { value: string }).value));
    expect(offered).toEqual([...HTTP_ACTIONS, ...GENERATION_ACTIONS]);
    const build = async (id: string, action: string, fields: Record<string, string>) => {
      await form.getByLabel('What happens').selectOption(action);
      for (const [label, value] of Object.entries(fields)) await form.getByLabel(label, { exact: true }).fill(value);
      await form.getByLabel('Route', { exact: true }).fill('/v1/media/models');
      await form.getByLabel('Times').fill('1');
      await form.getByLabel('Rule id').fill(id);
      await form.getByRole('button', { name: 'Add rule' }).click();
      await page.locator('#rule-message.ok', { hasText: `${id} is live` }).waitFor();
    };
    const models = () =>
      fetch(`${running.url}/v1/media/models`, { headers: { Authorization: `Bearer ${running.apiKey}` } });

    await build('slow-models', 'dribble', { Chunks: '4', Over: '200ms' });
    expect(await running.control.faults.list()).toContainEqual(
      expect.objectContaining({
        id: 'slow-models',
        match: { route: '/v1/media/models' },
        times: 1,
        action: { type: 'dribble', chunks: 4, duration: '200ms' },
      }),
    );
    const slow = await models();
    expect(slow.headers.get('x-emulator-fault')).toBe('slow-models');
    expect(((await slow.json()) as { models: unknown[] }).models.length).toBeGreaterThan(0);

    await build('cut-models', 'empty', {});
    expect(await running.control.faults.list()).toContainEqual(
      expect.objectContaining({ id: 'cut-models', action: { type: 'empty' } }),
    );
    await expect(models()).rejects.toThrow();
    expect((await models()).status).toBe(200);
    await noOverflow();
    await running.control.faults.clear();
  });

  it('shows a scenario’s description, steps and rules before loading it, then loads and stops it', async () => {
    const { page } = s;
    const card = page.locator('details[data-scenario="rate-limited"]');
    await card.locator('summary').click();
    await card.getByText('Three 429s on any API route').waitFor();
    await card.getByText(/^Expect: The first three calls/).waitFor();
    await noOverflow();
    await card.getByRole('button', { name: 'Load rate-limited' }).click();
    await card.locator('.note', { hasText: 'Scenario rate-limited loaded' }).waitFor();
    await page.locator('#scenario-active', { hasText: '0 of 1 rules spent' }).waitFor();
    await page.locator('#scenarios').screenshot({ path: `test-output/console/${name}-scenarios.png` });
    await page.getByRole('button', { name: 'Stop scenario' }).click();
    await page.locator('#scenario-active', { hasText: 'No scenario loaded' }).waitFor();
  });

  it('lists prompt markers like test cards, each copyable', async () => {
    const { page } = s;
    const markers = await page.locator('#marker-list code').allInnerTexts();
    expect(markers).toEqual(expect.arrayContaining(['[emulator:expired-urls=once]', '[emulator:fail=content_policy]']));
    await page.getByRole('button', { name: 'Copy [emulator:stall]' }).click();
    expect(await page.evaluate(() => (globalThis as unknown as PageGlobals).navigator.clipboard.readText())).toBe(
      '[emulator:stall]',
    );
    await noOverflow();
    await page.locator('#markers').screenshot({ path: `test-output/console/${name}-markers.png` });
  });

  it('takes credits away with a negative top-up and says so next to the form', async () => {
    const { page, running } = s;
    const before = (await running.control.accounts())[0].balance;
    await page.getByLabel('Credits', { exact: true }).fill('-500');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page
      .locator('#topup-message', {
        hasText: `500 credits taken away: balance now ${(before - 500).toLocaleString('en-US')}`,
      })
      .waitFor();
  });

  it('made no /v1/media request and raised no script errors', () => {
    expect(mediaRequests(s.requests)).toEqual([]);
    expect(s.problems).toEqual([]);
  });
});
