// Output links and caches follow the emulator clock: Cache-Control from the link's remaining life, expired-urls=once, markers in the estimate.
import { describe, expect, it } from 'vitest';
import { controlled, idem, submission } from '../helpers/controlled-emulator.js';

const fileOf = (url: string) => url.replace(/^https?:\/\/[^/]+/, '');

async function completed(options: Parameters<typeof controlled>[0], prompt = 'a lighthouse') {
  const { api, control } = controlled(options);
  const { id } = (await api.submit(submission({ prompt }), idem(1))).body.generation;
  await control.waitFor(id, 'completed');
  const read = async () => (await api.get(`/v1/media/generations/${id}`)).body.generation.outputs[0].url as string;
  return { api, control, id, read };
}

describe('links on the emulator clock', () => {
  it('caches for the link’s remaining life while the clock runs with real time', async () => {
    const { api, read } = await completed({ timing: 'instant', clock: 'real' });
    const res = await api.raw.get(fileOf(await read()));
    expect(res.status).toBe(200);
    const maxAge = Number(/^private, max-age=(\d+)$/.exec(res.headers['cache-control'])?.[1]);
    expect(maxAge).toBeGreaterThan(3500);
    expect(maxAge).toBeLessThanOrEqual(3600);
  });

  it('stores nothing once the clock is frozen or has been moved', async () => {
    const frozen = await completed({});
    expect((await frozen.api.raw.get(fileOf(await frozen.read()))).headers['cache-control']).toBe('no-store');
    const moved = await completed({ timing: 'instant', clock: 'real' });
    await moved.control.advance('10m');
    expect((await moved.api.raw.get(fileOf(await moved.read()))).headers['cache-control']).toBe('no-store');
  });

  it('expired-urls=once: the first read’s links are expired, a re-read gives working ones', async () => {
    const { api, control, read } = await completed({}, 'a harbour [emulator:expired-urls=once]');
    // The control plane looks without spending the first read.
    expect((await control.summary()).generations.items[0].output_state).toBe('expired');
    const first = await api.raw.get(fileOf(await read()));
    expect([first.status, first.body.error.code]).toEqual([403, 'url_expired']);
    expect((await api.raw.get(fileOf(await read()))).status).toBe(200);
    expect((await control.summary()).generations.items[0].output_state).toBe('ok');
  });

  it('expired-urls without a value expires every read’s links', async () => {
    const { api, read } = await completed({}, 'a harbour [emulator:expired-urls]');
    for (let n = 0; n < 2; n++) expect((await api.raw.get(fileOf(await read()))).status).toBe(403);
  });

  it('refuses a malformed marker in the estimate exactly as the submission does', async () => {
    const { api } = controlled();
    for (const prompt of ['x [emulator:bogus]', 'x [emulator:expired-urls=twice]', 'x [emulator:refund=none]']) {
      const { max_credits: _, ...body } = submission({ prompt });
      const estimate = await api.post('/v1/media/estimate', body);
      const submitted = await api.submit(submission({ prompt }), idem(prompt.length));
      expect(estimate.status).toBe(422);
      expect(estimate.body).toEqual(submitted.body);
    }
    const { max_credits: _unused, ...fine } = submission({ prompt: 'x [emulator:expired-urls=once]' });
    expect((await api.post('/v1/media/estimate', fine)).status).toBe(200);
  });
});
