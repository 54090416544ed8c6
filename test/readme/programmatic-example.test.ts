// The README's first vitest example (`media-client.test.ts`), verbatim except for the import path inside this repository.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/index.js';

type Envelope = { generation: { id: string; status: string; outputs: { url: string }[] } };

let media: RunningEmulator;
beforeAll(async () => {
  media = await startEmulator({ timing: 'manual', seed: 42 }); // port 0, frozen clock, repeatable ids
});
afterAll(() => media.close());

it('generates a video', async () => {
  const headers = {
    Authorization: `Bearer ${media.apiKey}`,
    'Content-Type': 'application/json',
    'Idempotency-Key': 'test-0001',
  };
  const body = JSON.stringify({ model_slug: 'motion-lite-v1', prompt: 'a fox', max_credits: 100 });
  const accepted = await fetch(`${media.url}/v1/media/generations`, { method: 'POST', headers, body });
  const { generation } = (await accepted.json()) as Envelope;
  expect(generation.status).toBe('pending');

  await media.emulator.advance(60_000); // runs the due transitions and waits for the render: no sleeps

  const read = await fetch(`${media.url}/v1/media/generations/${generation.id}`, { headers });
  const done = ((await read.json()) as Envelope).generation;
  expect(done.status).toBe('completed');
  expect(done.outputs[0].url).toContain('/files/');
});
