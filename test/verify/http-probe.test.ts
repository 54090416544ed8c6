// The probe sender against a real loopback server: one request at a time, the rate limit, and a 429's Retry-After.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createSender } from '../../src/verify/http-probe.js';
import { checkResult } from '../../src/verify/session.js';

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** Answers 429 with the given Retry-After values first, then 200; records each request's Authorization. */
async function serve(retryAfters: Array<string | null>) {
  const seen: Array<string | undefined> = [];
  server = createServer((req, res) => {
    seen.push(req.headers.authorization);
    const next = retryAfters.shift();
    if (next !== undefined) {
      res.writeHead(429, { 'content-type': 'application/json', ...(next === null ? {} : { 'retry-after': next }) });
      res.end('{"error":{"code":"rate_limited","message":"slow down"}}');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"ok":true}');
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', () => resolve()));
  return { url: `http://127.0.0.1:${(server!.address() as AddressInfo).port}`, seen };
}

/** A clock that only moves when the sender sleeps: waits are exact and nothing waits on wall-clock time. */
function fakeTime() {
  let now = 0;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => now,
    sleep: async (ms: number) => {
      sleeps.push(ms);
      now += ms;
    },
  };
}

describe('the probe sender', () => {
  it('spaces requests by the rate limit', async () => {
    const { url } = await serve([]);
    const time = fakeTime();
    const send = createSender({ baseUrl: url, apiKey: 'sk-media-x' }, { rps: 2, ...time });
    await Promise.all([1, 2, 3].map(() => send({ method: 'GET', path: '/v1/media/models' })));
    expect(time.sleeps).toEqual([500, 500]);
  });

  it('waits out Retry-After and sends again, then records a 429 it may not wait for', async () => {
    const { url, seen } = await serve(['3', '7200']);
    const time = fakeTime();
    const limited: Array<string | null> = [];
    const send = createSender(
      { baseUrl: url, apiKey: 'sk-media-x' },
      { rps: 1000, ...time, maxRetryAfterSeconds: 120, onRateLimited: (after) => limited.push(after) },
    );
    const answer = await send({ method: 'GET', path: '/v1/media/models' });
    expect(answer.status).toBe(429);
    expect(time.sleeps).toContain(3000);
    expect(limited).toEqual(['3', '7200']);
    expect(seen).toEqual(['Bearer sk-media-x', 'Bearer sk-media-x']);
    const after = await send({ method: 'GET', path: '/v1/media/models', auth: 'none' });
    expect(after).toMatchObject({ status: 200, body: { ok: true } });
    expect(seen[2]).toBeUndefined();
  });

  it('reports a service that does not answer instead of throwing', async () => {
    const { url } = await serve([]);
    await new Promise<void>((resolve) => server!.close(() => resolve()));
    server = undefined;
    const send = createSender({ baseUrl: url, apiKey: 'sk-media-x' }, { rps: 1000, ...fakeTime() });
    const answer = await send({ method: 'GET', path: '/v1/media/models' });
    expect(answer.status).toBe(0);
    expect(answer.failure).toBeTruthy();
    // Such a probe counts as a difference, so a run the service dropped is never reported clean.
    const emulator = { status: 404, body: { error: { code: 'model_not_found', message: '...' } } };
    expect(checkResult('unknown-model', 'unknown model', 'error', answer, emulator)).toMatchObject({
      status: 'differs',
      live: { failure: answer.failure },
      emulator: { status: 404, code: 'model_not_found' },
    });
  });
});
