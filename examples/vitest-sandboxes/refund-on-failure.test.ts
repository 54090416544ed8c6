// Another test file, run at the same time against the same emulator: a failure rule and its refund in its own sandbox.
import { expect, inject, it } from 'vitest';
import { fileSandbox } from './sandbox.js';

const sandbox = await fileSandbox('refund-on-failure');
const { control } = sandbox;

it('fails a generation with content_policy and gives the credits back', async () => {
  const rule = await control.faults.add({
    match: { route: '/v1/media/generations', prompt: 'forbidden' },
    action: { type: 'fail', at: 'running', code: 'content_policy', refund: 'full' },
  });
  expect((await control.faults.list()).map((f) => f.id)).toEqual([rule.id]); // only this file's rule

  const accepted = await fetch(`${inject('emulatorUrl')}/v1/media/generations`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${sandbox.apiKey}`,
      'Content-Type': 'application/json',
      'Idempotency-Key': 'scene-0001',
    },
    body: JSON.stringify({ model_slug: 'still-sketch-v1', prompt: 'a forbidden scene', max_credits: 10 }),
  });
  expect(accepted.status).toBe(202);
  const { generation } = (await accepted.json()) as { generation: { id: string } };

  const failed = await control.waitFor(generation.id, 'failed');
  expect(failed).toMatchObject({ error: { code: 'content_policy' }, billing_status: 'refunded' });
  expect((await control.accounts())[0].balance).toBe(10_000);
  const posts = await control.journal({ path: '/v1/media/generations', method: 'POST' });
  expect(posts.map((entry) => entry.status)).toEqual([202]); // only this file's request
});

it('moves its own clock, and no one else moves it', async () => {
  const before = await control.now();
  await control.advance('5h');
  expect((await control.now()).getTime() - before.getTime()).toBe(5 * 3_600_000);
});

it('resets to the sandbox as it was created', async () => {
  await control.reset();
  expect(await control.faults.list()).toEqual([]);
  expect(await control.journal()).toEqual([]);
  expect((await control.accounts())[0].balance).toBe(10_000);
});
