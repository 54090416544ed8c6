// Connection-level actions on a real socket: reset, empty answer, hang, dribble, and a lost answer followed by a retry.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startEmulator } from '../../src/index.js';
import { rawRequest } from '../helpers/socket-request.js';
import { CHEAP_PRICE, idem, submission } from '../helpers/controlled-emulator.js';

const running: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.close()));
});

async function start() {
  const started = await startEmulator({ seed: 1, timing: 'manual', ffmpegPath: false });
  running.push(started);
  const auth = { Authorization: `Bearer ${started.apiKey}` };
  const submit = (key: string, timeoutMs?: number) =>
    rawRequest(`${started.url}/v1/media/generations`, {
      method: 'POST',
      headers: { ...auth, 'Idempotency-Key': key },
      body: submission(),
      timeoutMs,
    });
  return { ...started, auth, submit };
}

/** The server sees the client's disconnect a moment after the client does: wait for that event, boundedly. */
const eventually = (check: () => Promise<void>) => vi.waitFor(check, { timeout: 2000, interval: 5 });

describe('connection faults on a real socket', () => {
  it('reset: the client sees ECONNRESET, nothing is charged, and a retry is a first attempt', async () => {
    const { control, submit } = await start();
    const rule = await control.faults.add({ match: { method: 'POST' }, times: 1, action: { type: 'reset' } });
    await expect(submit(idem(1))).rejects.toThrow(/ECONNRESET/);
    expect(await control.generations()).toEqual([]);
    const retry = await submit(idem(1));
    expect(retry.status).toBe(202);
    expect(JSON.parse(retry.body).replayed).toBe(false);
    await eventually(async () =>
      expect(await control.journal({ fault_id: rule.id })).toMatchObject([{ status: 0, method: 'POST' }]),
    );
  });

  it('empty: the connection closes without a byte of answer, and nothing is charged', async () => {
    const { control, submit } = await start();
    const rule = await control.faults.add({ match: { method: 'POST' }, times: 1, action: { type: 'empty' } });
    await expect(submit(idem(2))).rejects.toThrow(/socket hang up/);
    expect(await control.generations()).toEqual([]);
    await eventually(async () => expect(await control.journal({ fault_id: rule.id })).toMatchObject([{ status: 0 }]));
  });

  it('hang: no answer until the client gives up; nothing is charged; the journal records status 0', async () => {
    const { control, submit } = await start();
    const rule = await control.faults.add({ match: { method: 'POST' }, times: 1, action: { type: 'hang' } });
    const started = performance.now();
    await expect(submit(idem(3), 150)).rejects.toThrow('timeout');
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    expect(await control.generations()).toEqual([]);
    await eventually(async () =>
      expect(await control.journal({ fault_id: rule.id })).toMatchObject([{ status: 0, idempotency_key: idem(3) }]),
    );
  });

  it('dribble: the answer arrives complete, in several chunks, over the duration', async () => {
    const { control, url, auth } = await start();
    await control.faults.add({ action: { type: 'dribble', chunks: 5, duration: '200ms' } });
    const answer = await rawRequest(`${url}/v1/media/models`, { headers: auth });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body).models.length).toBeGreaterThan(0);
    expect(answer.chunks).toBeGreaterThanOrEqual(3);
    expect(answer.ms).toBeGreaterThanOrEqual(180);
  });

  it('dribble on a submission still charges exactly once: the route ran, only the answer is slow', async () => {
    const { control, submit } = await start();
    await control.faults.add({ match: { method: 'POST' }, action: { type: 'dribble', chunks: 3, duration: '60ms' } });
    const answer = await submit(idem(4));
    expect(answer.status).toBe(202);
    expect(await control.ledger({ generation_id: JSON.parse(answer.body).generation.id })).toHaveLength(1);
  });
});

describe('lost response', () => {
  it('processes the submission, drops the answer, and a retry with the same key gets replayed: true and one charge', async () => {
    const { control, url, apiKey } = await start();
    const rule = await control.faults.add({
      match: { method: 'POST', route: '/v1/media/generations' },
      times: 1,
      action: { type: 'lost_response' },
    });
    const send = () =>
      fetch(`${url}/v1/media/generations`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${apiKey}`,
          'Content-Type': 'application/json',
          'Idempotency-Key': idem('lost'),
        },
        body: JSON.stringify(submission()),
      });
    await expect(send()).rejects.toThrow();
    const [generation] = await control.generations();
    expect(generation).toMatchObject({ status: 'pending', charged_credits: CHEAP_PRICE });

    const retry = await send();
    expect(retry.status).toBe(202);
    const body = (await retry.json()) as { replayed: boolean; generation: { id: string } };
    expect(body.replayed).toBe(true);
    expect(body.generation.id).toBe(generation.id);
    expect(await control.generations()).toHaveLength(1);
    expect((await control.ledger()).filter((e) => e.type === 'charge')).toHaveLength(1);
    const journal = await control.journal({ path: '/v1/media/generations' });
    expect(journal.map((e) => [e.status, e.fault_id])).toEqual([
      [202, rule.id],
      [202, null],
    ]);
  });
});
