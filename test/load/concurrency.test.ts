// Concurrency on a real loopback socket: exact counts under parallel submissions, replays and wallet drains, and never a 5xx.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/index.js';
import { takeViolations } from '../helpers/contract.js';
import { startSharedEmulator } from '../helpers/emulator.js';
import { rawClient, type RawClient, type RawResponse } from '../helpers/raw-http.js';
import { runtimeOf } from '../../src/testing.js';

const PRICE = 88; // motion-lite-v1 with default options
const BODY = { model_slug: 'motion-lite-v1', prompt: 'load test', max_credits: 1000 };

let running: RunningEmulator;
let http: RawClient;

beforeAll(async () => {
  running = await startSharedEmulator({ seed: 11, timing: 'manual', ffmpegPath: false });
  http = rawClient(running.url, 64);
});
afterAll(async () => {
  http.close();
  await running.close();
});

function submit(idempotencyKey: string, body: object = BODY, key = running.apiKey): Promise<RawResponse> {
  return http.send({
    method: 'POST',
    path: '/v1/media/generations',
    headers: [
      ['Authorization', `Bearer ${key}`],
      ['Content-Type', 'application/json'],
      ['Idempotency-Key', idempotencyKey],
    ],
    body: JSON.stringify(body),
  });
}

const ledger = () => runtimeOf(running.emulator).context().ledger;
const balance = () => ledger().balance(running.emulator.accountId);
const tally = (responses: RawResponse[]) =>
  responses.reduce<Record<number, number>>((t, r) => {
    t[r.status] = (t[r.status] ?? 0) + 1;
    return t;
  }, {});

async function settle() {
  await new Promise((resolve) => setImmediate(resolve));
  expect(takeViolations()).toEqual([]);
}

describe('under concurrent load (loopback, bounded)', () => {
  it('accepts 200 concurrent submissions with distinct keys: 200 generations, 200 charges, no 5xx', async () => {
    const before = balance();
    const entries = ledger().size;
    const responses = await Promise.all(
      Array.from({ length: 200 }, (_, i) => submit(`distinct-${i.toString().padStart(4, '0')}`)),
    );
    expect(tally(responses)).toEqual({ 202: 200 });
    const ids = new Set(responses.map((r) => r.json().generation.id));
    expect(ids.size).toBe(200);
    expect(responses.every((r) => r.json().replayed === false)).toBe(true);
    expect(ledger().size - entries).toBe(200);
    expect(before - balance()).toBe(200 * PRICE);
    await settle();
  });

  it('runs one generation for 50 concurrent replays of one Idempotency-Key: one charge, 49 replays', async () => {
    const before = balance();
    const generations = runtimeOf(running.emulator).context().generations.size;
    const responses = await Promise.all(Array.from({ length: 50 }, () => submit('one-key-for-all-50')));
    expect(tally(responses)).toEqual({ 202: 50 });
    expect(new Set(responses.map((r) => r.json().generation.id)).size).toBe(1);
    expect(responses.filter((r) => r.json().replayed === false)).toHaveLength(1);
    expect(responses.filter((r) => r.json().replayed === true)).toHaveLength(49);
    expect(runtimeOf(running.emulator).context().generations.size - generations).toBe(1);
    expect(before - balance()).toBe(PRICE);
    await settle();
  });

  it('never overdraws a small wallet drained in parallel from several keys: exactly floor(balance / price) accepted', async () => {
    const keys = await Promise.all(
      Array.from({ length: 4 }, async (_, i) => {
        const res = await http.send({
          method: 'POST',
          path: '/_emulator/keys',
          headers: [['Content-Type', 'application/json']],
          body: JSON.stringify({ name: `drain ${i}` }),
        });
        expect(res.status).toBe(201);
        return res.json().key.secret as string;
      }),
    );
    const small = 10 * PRICE + PRICE / 2;
    const set = await http.send({
      method: 'POST',
      path: `/_emulator/accounts/${running.emulator.accountId}/balance`,
      headers: [['Content-Type', 'application/json']],
      body: JSON.stringify({ set: small }),
    });
    expect(set.status).toBe(200);
    const responses = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        submit(`drain-${i.toString().padStart(3, '0')}`, BODY, keys[i % keys.length]),
      ),
    );
    expect(tally(responses)).toEqual({ 202: 10, 402: 50 });
    expect(responses.filter((r) => r.status === 402).every((r) => r.json().error.code === 'insufficient_credits')).toBe(
      true,
    );
    expect(balance()).toBe(PRICE / 2);
    expect(ledger().recompute().get(running.emulator.accountId)).toBe(PRICE / 2);
    await settle();
  });

  it('keeps a daily ceiling exact under parallel submissions on one key', async () => {
    await http.send({
      method: 'POST',
      path: `/_emulator/accounts/${running.emulator.accountId}/balance`,
      headers: [['Content-Type', 'application/json']],
      body: JSON.stringify({ set: 100_000 }),
    });
    const created = await http.send({
      method: 'POST',
      path: '/_emulator/keys',
      headers: [['Content-Type', 'application/json']],
      body: JSON.stringify({ daily_credit_limit: 5 * PRICE }),
    });
    const secret = created.json().key.secret as string;
    const responses = await Promise.all(Array.from({ length: 30 }, (_, i) => submit(`ceiling-${i}`, BODY, secret)));
    expect(tally(responses)).toEqual({ 202: 5, 429: 25 });
    expect(responses.filter((r) => r.status === 429).every((r) => r.headers['retry-after'] !== undefined)).toBe(true);
    await settle();
  });
});
