// media-gen-emulator/msw in Node: createMediaHandlers under msw's setupServer, reached with fetch (no socket).
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMediaHandlers, type MediaHandlers } from '../../src/msw/node.js';
import { MODEL_A } from '../helpers/emulator.js';

const BASE = 'http://media.test';
const server = setupServer();
let pack: MediaHandlers;

beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterEach(async () => {
  server.resetHandlers();
  await pack?.close();
});
afterAll(() => server.close());

async function packed(options: Parameters<typeof createMediaHandlers>[0] = { baseUrl: BASE }) {
  pack = await createMediaHandlers({ seed: 1, timing: 'manual', ...options });
  server.use(...pack.handlers);
  return pack;
}

const auth = (p: MediaHandlers) => ({ Authorization: `Bearer ${p.apiKey}` });

describe('createMediaHandlers under setupServer', () => {
  it('submits, charges once per Idempotency-Key, completes on the emulator clock and serves the MP4', async () => {
    const p = await packed();
    const submit = () =>
      fetch(`${BASE}/v1/media/generations`, {
        method: 'POST',
        headers: { ...auth(p), 'Content-Type': 'application/json', 'Idempotency-Key': 'fox-key-1' },
        body: JSON.stringify({ model_slug: MODEL_A, prompt: 'a fox', max_credits: 1000 }),
      });
    const first = await submit();
    expect(first.status, await first.clone().text()).toBe(202);
    const { generation } = (await first.json()) as { generation: { id: string } };
    const again = await submit();
    expect(((await again.json()) as { generation: { id: string } }).generation.id).toBe(generation.id);
    const usage = await (await fetch(`${BASE}/v1/media/usage`, { headers: auth(p) })).json();
    expect(usage).toBeDefined();
    await p.control.advance('2m');
    const done = (await (
      await fetch(`${BASE}/v1/media/generations/${generation.id}`, { headers: auth(p) })
    ).json()) as {
      generation: { status: string; outputs: { url: string }[] };
    };
    expect(done.generation.status).toBe('completed');
    const url: string = done.generation.outputs[0].url;
    expect(url.startsWith(`${BASE}/`)).toBe(true);
    const file = await fetch(url);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('video/mp4');
    const bytes = new Uint8Array(await file.arrayBuffer());
    expect(new TextDecoder('latin1').decode(bytes.subarray(4, 8))).toBe('ftyp');
  });

  it('answers 422 in the FastAPI shape, and 404 for a path it has no route for', async () => {
    const p = await packed();
    const bad = await fetch(`${BASE}/v1/media/generations`, {
      method: 'POST',
      headers: { ...auth(p), 'Content-Type': 'application/json', 'Idempotency-Key': 'bad-key-1' },
      body: '{"model_slug": 5}',
    });
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as { detail: { loc: unknown }[] }).detail[0].loc).toBeDefined();
    const missing = await fetch(`${BASE}/v2/nothing`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe('route_not_found');
  });

  it('turns a status fault into an answer and a reset into a network error', async () => {
    const p = await packed();
    await p.control.faults.add({
      match: { route: '/v1/media/usage' },
      times: 1,
      action: { type: 'status', status: 503 },
    });
    const failed = await fetch(`${BASE}/v1/media/usage`, { headers: auth(p) });
    expect(failed.status).toBe(503);
    await p.control.faults.add({ match: { route: '/v1/media/usage' }, times: 1, action: { type: 'reset' } });
    await expect(fetch(`${BASE}/v1/media/usage`, { headers: auth(p) })).rejects.toThrow(TypeError);
    expect((await fetch(`${BASE}/v1/media/usage`, { headers: auth(p) })).status).toBe(200);
  });

  it('refuses a missing or non-http baseUrl in one sentence', async () => {
    await expect(createMediaHandlers({})).rejects.toThrow(/baseUrl: required in Node/);
    await expect(createMediaHandlers({ baseUrl: 'ftp://x' })).rejects.toThrow(/not http/);
  });
});
