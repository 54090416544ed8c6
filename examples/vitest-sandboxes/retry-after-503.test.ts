// One test file with a sandbox of its own: a 503 fault rule, a retry charged once, its clock moved, then a reset.
import { expect, inject, it } from 'vitest';
import { fileSandbox } from './sandbox.js';

const sandbox = await fileSandbox('retry-after-503');
const { control } = sandbox;

const submit = (key: string) =>
  fetch(`${inject('emulatorUrl')}/v1/media/generations`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${sandbox.apiKey}`, 'Content-Type': 'application/json', 'Idempotency-Key': key },
    body: JSON.stringify({ model_slug: 'still-sketch-v1', prompt: 'a lighthouse at dusk', max_credits: 10 }),
  });

it('retries a 503 with the same Idempotency-Key and is charged once', async () => {
  const rule = await control.faults.add({
    match: { method: 'POST', route: '/v1/media/generations' },
    times: 1,
    action: { type: 'status', status: 503, retry_after: '1s' },
  });
  expect((await control.faults.list()).map((f) => f.id)).toEqual([rule.id]); // only this file's rule

  expect((await submit('order-0001')).status).toBe(503);
  const accepted = await submit('order-0001');
  expect(accepted.status).toBe(202);
  const { generation } = (await accepted.json()) as { generation: { id: string } };

  const done = await control.waitFor(generation.id, 'completed');
  const [account] = await control.accounts();
  expect(account.balance).toBe(10_000 - done.charged_credits);
  const posts = await control.journal({ path: '/v1/media/generations', method: 'POST' });
  expect(posts.map((entry) => entry.status)).toEqual([503, 202]); // only this file's requests
});

it('moves its own clock, and no one else moves it', async () => {
  const before = await control.now();
  await control.advance('3h');
  expect((await control.now()).getTime() - before.getTime()).toBe(3 * 3_600_000);
});

it('resets to the sandbox as it was created', async () => {
  await control.reset();
  expect(await control.faults.list()).toEqual([]);
  expect(await control.journal()).toEqual([]);
  expect((await control.accounts())[0].balance).toBe(10_000);
});
