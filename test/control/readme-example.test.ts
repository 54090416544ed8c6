// The vitest example of docs/control-plane.md, exactly as written there: one emulator for the file, reset after each test.
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { startEmulator } from '../../src/index.js'; // in your project: from 'media-gen-emulator'

let emulator: Awaited<ReturnType<typeof startEmulator>>;

beforeAll(async () => {
  emulator = await startEmulator({ timing: 'manual' }); // timers move only when the test moves the clock
});
afterEach(() => emulator.control.reset());
afterAll(() => emulator.close());

function submit(body: object, idempotencyKey: string) {
  return fetch(`${emulator.url}/v1/media/generations`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${emulator.apiKey}`,
      'Content-Type': 'application/json',
      'Idempotency-Key': idempotencyKey,
    },
    body: JSON.stringify(body),
  });
}

const request = { model_slug: 'still-sketch-v1', prompt: 'a lighthouse at dusk', max_credits: 10 };
type Accepted = { generation: { id: string } };
type Refused = { error: { code: string } };

it('retries a 503 with the same Idempotency-Key and is charged once', async () => {
  const { control } = emulator;
  await control.faults.add({
    match: { method: 'POST', route: '/v1/media/generations' },
    times: 1,
    action: { type: 'status', status: 503, retry_after: '1s' },
  });

  const first = await submit(request, 'order-42-attempt');
  expect(first.status).toBe(503);
  expect(first.headers.get('retry-after')).toBe('1');

  const second = await submit(request, 'order-42-attempt');
  expect(second.status).toBe(202);
  const { generation } = (await second.json()) as Accepted;

  const done = await control.waitFor(generation.id, 'completed'); // moves the emulator clock, never sleeps
  expect(done.billing_status).toBe('charged');
  expect(await control.journal({ path: '/v1/media/generations' })).toMatchObject([{ status: 503 }, { status: 202 }]);
});

it('shows a content-policy failure and its refund', async () => {
  const { control } = emulator;
  const res = await submit({ ...request, prompt: 'a lighthouse [emulator:fail=content_policy]' }, 'order-43-attempt');
  const { generation } = (await res.json()) as Accepted;

  const failed = await control.waitFor(generation.id, 'failed');
  expect(failed.error?.code).toBe('content_policy');
  expect(failed.billing_status).toBe('refunded');
});

it('refuses a request the wallet cannot pay for', async () => {
  await emulator.control.setBalance(3);
  const res = await submit(request, 'order-44-attempt');
  expect(res.status).toBe(402);
  expect(((await res.json()) as Refused).error.code).toBe('insufficient_credits');
});
