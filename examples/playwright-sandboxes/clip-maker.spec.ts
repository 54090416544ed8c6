// Both workers run these at the same time against one emulator, each in its own sandbox: they add fault rules, move
// their clocks and reset at once, and each sees only its own rules, requests, clock and credits.
import type { Page } from '@playwright/test';
import { EMULATOR_URL, expect, test } from './fixtures.js';

test.beforeEach(async ({ sandbox }) => {
  // Back to the sandbox as it was created, with a frozen clock: only the test moves time. The other worker's sandbox
  // keeps what it has.
  await sandbox.control.reset();
  await sandbox.control.freeze();
});

async function generate(page: Page, prompt: string): Promise<string> {
  await page.getByLabel('Prompt').fill(prompt);
  await page.getByRole('button', { name: 'Generate' }).click();
  const status = page.locator('#status[data-generation-id]');
  await status.waitFor();
  return (await status.getAttribute('data-generation-id'))!;
}

// Twice over, so each worker runs each kind of test while the other runs another.
for (const round of [1, 2]) {
  test(`a 503, a retry with the same key, charged once (round ${round})`, async ({ sandbox, openApp }) => {
    const { control } = sandbox;
    const rule = await control.faults.add({
      match: { method: 'POST', route: '/v1/media/generations' },
      times: 1,
      action: { type: 'status', status: 503, retry_after: '1s' },
    });
    const page = await openApp();
    const id = await generate(page, 'a red fox in the snow');

    const done = await control.waitFor(id, 'completed');
    await expect(page.locator('#status')).toHaveText(`Done: ${id}.`);
    // Only this worker's rule, requests and charge.
    expect((await control.faults.list()).map((f) => f.id)).toEqual([rule.id]);
    const posts = await control.journal({ path: '/v1/media/generations', method: 'POST' });
    expect(posts.map((e) => e.status)).toEqual([503, 202]);
    expect((await control.accounts())[0].balance).toBe(10_000 - done.charged_credits);
  });

  test(`a content_policy failure and its refund (round ${round})`, async ({ sandbox, openApp }) => {
    const { control } = sandbox;
    const rule = await control.faults.add({
      match: { route: '/v1/media/generations', prompt: 'forbidden' },
      action: { type: 'fail', at: 'running', code: 'content_policy', refund: 'full' },
    });
    const page = await openApp();
    const id = await generate(page, 'a forbidden scene');

    expect(await control.waitFor(id, 'failed')).toMatchObject({ billing_status: 'refunded' });
    await expect(page.locator('#status')).toHaveText('Failed: content_policy (billing: refunded).');
    expect((await control.faults.list()).map((f) => f.id)).toEqual([rule.id]);
    expect((await control.journal({ path: '/v1/media/generations' })).map((e) => e.status)).toEqual([202]);
    expect((await control.accounts())[0].balance).toBe(10_000);
  });

  test(`its clock moves by what it asks, and no one else's does (round ${round})`, async ({ sandbox }, testInfo) => {
    const hours = testInfo.workerIndex + round; // each worker its own jump
    const before = await sandbox.control.now();
    await sandbox.control.advance(`${hours}h`);
    expect((await sandbox.control.now()).getTime() - before.getTime()).toBe(hours * 3_600_000);
  });

  test(`a reset clears its own rules, journal and wallet (round ${round})`, async ({ sandbox, request }) => {
    const { control } = sandbox;
    await control.faults.add({ match: { route: '/v1/media/models' }, action: { type: 'status', status: 500 } });
    await control.setBalance(7);
    const models = await request.get(`${EMULATOR_URL}/v1/media/models`, {
      headers: { Authorization: `Bearer ${sandbox.apiKey}` },
    });
    expect(models.status()).toBe(500);

    await control.reset();
    expect(await control.faults.list()).toEqual([]);
    expect(await control.journal()).toEqual([]);
    expect((await control.accounts())[0].balance).toBe(10_000);
  });
}
