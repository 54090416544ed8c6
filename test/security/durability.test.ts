// Finding 11: kill -9 loses nothing with --state-file: accepted generations, the balance, idempotent replays, unique ids.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_API_KEY } from '../../src/config.js';
import { type CliProcess, startCli, stopCli } from '../helpers/cli-process.js';

const running: CliProcess[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const p of running.splice(0)) await stopCli(p, 'SIGKILL');
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const auth = { Authorization: `Bearer ${DEFAULT_API_KEY}`, 'Content-Type': 'application/json' };
const body = (prompt: string) => JSON.stringify({ model_slug: 'motion-lite-v1', prompt, max_credits: 1000 });

async function submit(url: string, key: string, prompt = 'durable') {
  const res = await fetch(`${url}/v1/media/generations`, {
    method: 'POST',
    headers: { ...auth, 'Idempotency-Key': key },
    body: body(prompt),
  });
  const json = (await res.json()) as { generation: { id: string } };
  return { status: res.status, body: json.generation };
}

const balance = async (url: string) =>
  ((await (await fetch(`${url}/v1/media/usage`, { headers: auth })).json()) as { wallet_balance: number })
    .wallet_balance;

async function start(args: string[]) {
  const p = await startCli(args);
  running.push(p);
  return p;
}

describe.each([
  ['seeded', ['--seed', '7']],
  ['unseeded', []],
])('kill -9 with --state-file (%s ids)', (_label, seedArgs) => {
  it('keeps every accepted generation, the balance and idempotent replays, and never issues an id twice', {
    timeout: 90_000,
  }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sec-state-'));
    dirs.push(dir);
    const args = ['--timing', 'manual', '--state-file', join(dir, 'state.db'), ...seedArgs];
    const first = await start(args);
    const accepted: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await submit(first.url, `durable-key-${i}`);
      expect(res.status).toBe(202);
      accepted.push(res.body.id);
    }
    // A control-plane change is acknowledged too, so it must survive.
    const topUp = await fetch(`${first.url}/_emulator/accounts/acct_local/balance`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ add: 1234 }),
    });
    expect(topUp.status).toBe(200);
    const before = await balance(first.url);
    await stopCli(first, 'SIGKILL');

    const second = await start(args);
    const list = (await (await fetch(`${second.url}/v1/media/generations?limit=100`, { headers: auth })).json()) as {
      generations: { id: string }[];
    };
    expect(list.generations.map((g) => g.id).sort()).toEqual([...accepted].sort());
    expect(await balance(second.url)).toBe(before);
    // The client retrying after the crash gets its generation back, and is not charged again.
    const replay = await submit(second.url, 'durable-key-3');
    expect([replay.status, replay.body.id]).toEqual([202, accepted[3]]);
    expect(await balance(second.url)).toBe(before);
    const fresh = await submit(second.url, 'durable-key-new');
    expect(fresh.status).toBe(202);
    expect(accepted).not.toContain(fresh.body.id);
    await stopCli(second, 'SIGKILL');

    // A second crash right after: the replayed generation and the new one are both still there.
    const third = await start(args);
    const again = await submit(third.url, 'durable-key-new');
    expect(again.body.id).toBe(fresh.body.id);
    const last = await submit(third.url, 'durable-key-last');
    expect([...accepted, fresh.body.id]).not.toContain(last.body.id);
  });
});

describe('kill -9 right after a lost_response', () => {
  it('keeps the generation and the spent rule, so the retry with the same key replays', {
    timeout: 90_000,
  }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sec-state-'));
    dirs.push(dir);
    const args = ['--timing', 'manual', '--seed', '7', '--state-file', join(dir, 'state.db')];
    const first = await start(args);
    const added = await fetch(`${first.url}/_emulator/faults`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        match: { method: 'POST', route: '/v1/media/generations' },
        times: 1,
        action: { type: 'lost_response' },
      }),
    });
    const rule = ((await added.json()) as { fault: { id: string } }).fault.id;
    const before = await balance(first.url);
    // The socket is destroyed instead of answering; the process is killed the moment the client sees it.
    await expect(submit(first.url, 'lost-then-killed')).rejects.toThrow(/fetch failed/);
    await stopCli(first, 'SIGKILL');

    const second = await start(args);
    const list = (await (await fetch(`${second.url}/v1/media/generations`, { headers: auth })).json()) as {
      generations: { id: string }[];
    };
    expect(list.generations).toHaveLength(1);
    const faults = (await (await fetch(`${second.url}/_emulator/faults`)).json()) as {
      faults: { id: string; fired: number; remaining: number }[];
    };
    expect(faults.faults.map((f) => [f.id, f.fired, f.remaining])).toEqual([[rule, 1, 0]]);
    const retry = await fetch(`${second.url}/v1/media/generations`, {
      method: 'POST',
      headers: { ...auth, 'Idempotency-Key': 'lost-then-killed' },
      body: body('durable'),
    });
    const answer = (await retry.json()) as { replayed: boolean; generation: { id: string; charged_credits: number } };
    expect([retry.status, answer.replayed, answer.generation.id]).toEqual([202, true, list.generations[0].id]);
    expect(await balance(second.url)).toBe(before - answer.generation.charged_credits);
  });

  it('keeps a reset rule spent: the reset went out after its counters were committed', {
    timeout: 90_000,
  }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sec-state-'));
    dirs.push(dir);
    const args = ['--timing', 'manual', '--state-file', join(dir, 'state.db')];
    const first = await start(args);
    await fetch(`${first.url}/_emulator/faults`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ match: { method: 'POST' }, times: 1, action: { type: 'reset' } }),
    });
    await expect(submit(first.url, 'reset-then-killed')).rejects.toThrow(/fetch failed/);
    await stopCli(first, 'SIGKILL');

    const second = await start(args);
    const faults = (await (await fetch(`${second.url}/_emulator/faults`)).json()) as {
      faults: { fired: number; remaining: number }[];
    };
    expect(faults.faults.map((f) => [f.fired, f.remaining])).toEqual([[1, 0]]);
    expect((await submit(second.url, 'reset-then-killed')).status).toBe(202);
  });
});
