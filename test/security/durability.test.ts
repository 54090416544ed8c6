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
