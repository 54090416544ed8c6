// The fetch host over a real emulator's pipeline (no msw: fetch Requests in, Responses out): transport faults as
// network errors, a hang that ends when the page aborts, a dribbled body whole, and a failure around the pipeline as
// the documented 500 envelope, logged once.
import { afterEach, describe, expect, it } from 'vitest';
import type { Emulator } from '../../../src/emulator-types.js';
import { fetchHost } from '../../../src/http/fetch/fetch-host.js';
import type { Pipeline } from '../../../src/http/pipeline.js';
import { createEmulatorWith, pipelineOf } from '../../../src/testing.js';
import { MODEL_A } from '../../helpers/emulator.js';

const BASE = 'http://emulator.test';
const open: Emulator[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((e) => e.close()));
});

function hosted() {
  const emulator = createEmulatorWith({ seed: 1, timing: 'manual', ffmpegPath: false, publicBaseUrl: BASE });
  open.push(emulator);
  const answer = fetchHost(pipelineOf(emulator), { log: () => undefined });
  const auth = { Authorization: `Bearer ${emulator.apiKey}` };
  return { emulator, answer, auth };
}

const submission = (auth: Record<string, string>, key: string, signal?: AbortSignal) =>
  new Request(`${BASE}/v1/media/generations`, {
    method: 'POST',
    headers: { ...auth, 'Content-Type': 'application/json', 'Idempotency-Key': key },
    body: JSON.stringify({ model_slug: MODEL_A, prompt: 'a fox', max_credits: 1000 }),
    signal,
  });

describe('the fetch host', () => {
  it('answers reset and lost_response as network errors; the lost submission is charged all the same', async () => {
    const { emulator, answer, auth } = hosted();
    await emulator.control.faults.add({ match: { route: '/v1/media/usage' }, times: 1, action: { type: 'reset' } });
    expect((await answer(new Request(`${BASE}/v1/media/usage`, { headers: auth }))).type).toBe('error');
    await emulator.control.faults.add({
      match: { route: '/v1/media/generations', method: 'POST' },
      times: 1,
      action: { type: 'lost_response' },
    });
    expect((await answer(submission(auth, 'lost-answer-0001'))).type).toBe('error');
    const [made] = await emulator.control.generations();
    expect(made).toBeDefined();
    // The retry with the same key gets the generation the lost answer made: one charge.
    const replay = (await (await answer(submission(auth, 'lost-answer-0001'))).json()) as {
      generation: { id: string };
    };
    expect(replay.generation.id).toBe(made.id);
    expect(await emulator.control.generations()).toHaveLength(1);
  });

  it('hangs until the page aborts, then answers a network error', async () => {
    const { emulator, answer, auth } = hosted();
    await emulator.control.faults.add({ match: { route: '/v1/media/usage' }, times: 1, action: { type: 'hang' } });
    const controller = new AbortController();
    const pending = answer(new Request(`${BASE}/v1/media/usage`, { headers: auth, signal: controller.signal }));
    let settled = false;
    void pending.then(() => {
      settled = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    controller.abort();
    expect((await pending).type).toBe('error');
  });

  it('sends a dribbled body whole, in pieces', async () => {
    const { emulator, answer, auth } = hosted();
    await emulator.control.faults.add({
      match: { route: '/v1/media/usage' },
      times: 1,
      action: { type: 'dribble', chunks: 4, duration: '40ms' },
    });
    const dribbled = await answer(new Request(`${BASE}/v1/media/usage`, { headers: auth }));
    const plain = await answer(new Request(`${BASE}/v1/media/usage`, { headers: auth }));
    expect(await dribbled.text()).toBe(await plain.text());
  });

  it('answers a failure around the pipeline with the 500 envelope, logged once, never a rejection', async () => {
    const lines: string[] = [];
    const broken = {
      open: () => {
        throw new Error('a bug in the front door');
      },
    } as unknown as Pipeline;
    const response = await fetchHost(broken, { log: (line) => lines.push(line) })(
      new Request(`${BASE}/v1/media/usage`),
    );
    expect(response.status).toBe(500);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('internal_error');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/a bug in the front door/);
  });
});
