// A full disk under --state-file (a 2 MB tmpfs where the machine allows one, and a file-size limit on the emulator's
// process everywhere): 507 storage_full, nothing charged or changed, no fault rule acknowledging rolled-back work,
// recovery without a restart.
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ExchangeHooks } from '../../src/http/pipeline.js';
import { DEFAULT_API_KEY } from '../../src/config.js';
import { createEmulatorWith } from '../../src/testing.js';
import { type CliProcess, startCli, stopCli } from '../helpers/cli-process.js';
import { diskKinds, type FullDisk, openFullDisk } from '../helpers/full-disk.js';

const auth = { Authorization: `Bearer ${DEFAULT_API_KEY}`, 'Content-Type': 'application/json' };
const running: CliProcess[] = [];

afterEach(async () => {
  for (const p of running.splice(0)) await stopCli(p, 'SIGKILL');
});

async function start(args: string[]) {
  const p = await startCli(args);
  running.push(p);
  return p;
}

async function call(url: string, method: string, path: string, body?: unknown, key?: string) {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { ...auth, ...(key ? { 'Idempotency-Key': key } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}
const submit = (url: string, key: string) =>
  call(url, 'POST', '/v1/media/generations', { model_slug: 'motion-lite-v1', prompt: key, max_credits: 1000 }, key);
const balance = async (url: string) => (await call(url, 'GET', '/v1/media/usage')).body.wallet_balance as number;
const listed = async (url: string) =>
  ((await call(url, 'GET', '/v1/media/generations?limit=100')).body.generations as { id: string }[])
    .map((g) => g.id)
    .sort();

const submission = (host: string, key: string) => {
  const body = JSON.stringify({ model_slug: 'motion-lite-v1', prompt: key, max_credits: 1000 });
  return [
    'POST /v1/media/generations HTTP/1.1',
    `Host: ${host}`,
    `Authorization: ${auth.Authorization}`,
    'Content-Type: application/json',
    `Idempotency-Key: ${key}`,
    `Content-Length: ${Buffer.byteLength(body)}`,
    '',
    body,
  ].join('\r\n');
};

const usageRead = (host: string) =>
  ['GET /v1/media/usage HTTP/1.1', `Host: ${host}`, `Authorization: ${auth.Authorization}`, '', ''].join('\r\n');

/**
 * Requests pipelined on one connection in one write: the server reads them in one callback, so the responses of the
 * submissions end in the same turn of the event loop and wait for one group commit. Answers come back in order.
 */
function pipelined(
  url: string,
  requests: ((host: string) => string)[],
): Promise<{ status: number; body: Record<string, any> }[]> {
  const { host, hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(requests.map((r) => r(host)).join('')));
    let received = Buffer.alloc(0);
    const answers: { status: number; body: Record<string, any> }[] = [];
    socket.on('data', (chunk) => {
      received = Buffer.concat([received, chunk]);
      for (;;) {
        const headEnd = received.indexOf('\r\n\r\n');
        if (headEnd === -1) break;
        const head = received.subarray(0, headEnd).toString();
        const length = Number(/content-length: *(\d+)/i.exec(head)?.[1] ?? 0);
        if (received.length < headEnd + 4 + length) break;
        const body = received.subarray(headEnd + 4, headEnd + 4 + length).toString();
        answers.push({ status: Number(head.split(' ')[1]), body: JSON.parse(body) });
        received = received.subarray(headEnd + 4 + length);
      }
      if (answers.length === requests.length) {
        socket.end();
        resolve(answers);
      }
    });
    socket.on('error', reject);
  });
}

const submitPipelined = (url: string, keys: string[]) =>
  pipelined(
    url,
    keys.map((key) => (host: string) => submission(host, key)),
  );

/** A fresh folder on the disk with an emulator on a state file there, and three acknowledged generations. */
async function emulatorWithState(disk: FullDisk) {
  const dir = disk.folder();
  const args = ['--timing', 'manual', '--seed', '5', '--state-file', join(dir, 'state.db')];
  const cli = await start(args);
  const accepted: string[] = [];
  for (let i = 0; i < 3; i++) {
    const res = await submit(cli.url, `before-${i}`);
    expect(res.status).toBe(202);
    accepted.push(res.body.generation.id);
  }
  const pid = cli.child.pid!;
  return { dir, args, cli, pid, accepted };
}

/** kill -9, start again on the same file: it must start, and hold exactly what was acknowledged. */
async function restart(cli: CliProcess, args: string[]) {
  await stopCli(cli, 'SIGKILL');
  return start(args);
}

/** A fault rule through the control plane (open on loopback), answered with its id. */
async function addRule(url: string, rule: Record<string, unknown>): Promise<string> {
  const added = await call(url, 'POST', '/_emulator/faults', rule);
  expect(added.status).toBe(201);
  return added.body.fault.id as string;
}

const ruleCounters = async (url: string, id: string) => {
  const rules = (await call(url, 'GET', '/_emulator/faults')).body.faults as Record<string, any>[];
  const rule = rules.find((r) => r.id === id)!;
  return { fired: rule.fired as number, remaining: rule.remaining as number };
};

/** A submission whose answer may never come: its status and body, or how the connection ended. */
async function attempt(url: string, key: string): Promise<{ status: number; body: Record<string, any> } | 'no answer'> {
  try {
    return await submit(url, key);
  } catch (error) {
    expect((error as Error).message).toMatch(/fetch failed/);
    return 'no answer';
  }
}

describe.each(diskKinds())('a full disk under --state-file (%s)', (kind) => {
  let disk: FullDisk;
  beforeAll(() => {
    disk = openFullDisk(kind);
  });
  afterAll(() => disk?.dispose());
  // A failed case must not leave the next one a full disk.
  afterEach(() => disk.freeAll());

  it('answers 507 storage_full without charging, then takes the retry once space returns', {
    timeout: 90_000,
  }, async () => {
    const { dir, args, cli, pid, accepted } = await emulatorWithState(disk);
    const before = await balance(cli.url);
    disk.fill(dir, pid);
    const refused = await submit(cli.url, 'during-full');
    expect([refused.status, refused.body.error.code]).toEqual([507, 'storage_full']);
    expect(refused.body.error.message).toMatch(disk.refusal);
    expect(await balance(cli.url)).toBe(before);
    expect(await listed(cli.url)).toEqual([...accepted].sort());
    disk.free(dir, pid);
    const retried = await submit(cli.url, 'during-full');
    expect([retried.status, retried.body.replayed ?? false]).toEqual([202, false]);
    const after = await balance(cli.url);
    expect(after).toBeLessThan(before);

    const second = await restart(cli, args);
    expect(await listed(second.url)).toEqual([...accepted, retried.body.generation.id].sort());
    expect(await balance(second.url)).toBe(after);
    const replay = await submit(second.url, 'during-full');
    expect([replay.status, replay.body.generation.id]).toEqual([202, retried.body.generation.id]);
  });

  it('answers 507, not a dribbled 202, when the commit of a dribbled submission is refused', {
    timeout: 90_000,
  }, async () => {
    const { dir, cli, pid, accepted } = await emulatorWithState(disk);
    const rule = await addRule(cli.url, {
      match: { method: 'POST', route: '/v1/media/generations' },
      times: 1,
      action: { type: 'dribble', chunks: 4, duration: '100ms' },
    });
    const before = await balance(cli.url);
    disk.fill(dir, pid);
    const refused = await submit(cli.url, 'dribbled');
    expect([refused.status, refused.body.error?.code]).toEqual([507, 'storage_full']);
    disk.free(dir, pid);
    // Rolled back with the change: nothing charged or created, and the rule has not fired.
    expect(await balance(cli.url)).toBe(before);
    expect(await listed(cli.url)).toEqual([...accepted].sort());
    expect(await ruleCounters(cli.url, rule)).toEqual({ fired: 0, remaining: 1 });
    const taken = await submit(cli.url, 'dribbled');
    expect([taken.status, taken.body.replayed]).toEqual([202, false]);
    expect(await listed(cli.url)).toEqual([...accepted, taken.body.generation.id].sort());
    expect(await ruleCounters(cli.url, rule)).toEqual({ fired: 1, remaining: 0 });
  });

  it('answers 507 instead of dropping the answer when the commit of a lost_response submission is refused', {
    timeout: 90_000,
  }, async () => {
    const { dir, args, cli, pid, accepted } = await emulatorWithState(disk);
    const rule = await addRule(cli.url, {
      match: { method: 'POST', route: '/v1/media/generations' },
      times: 1,
      action: { type: 'lost_response' },
    });
    const before = await balance(cli.url);
    disk.fill(dir, pid);
    const refused = await attempt(cli.url, 'lost-answer');
    expect(refused !== 'no answer' && [refused.status, refused.body.error?.code]).toEqual([507, 'storage_full']);
    disk.free(dir, pid);
    expect(await balance(cli.url)).toBe(before);
    expect(await listed(cli.url)).toEqual([...accepted].sort());
    expect(await ruleCounters(cli.url, rule)).toEqual({ fired: 0, remaining: 1 });
    // With space back the rule fires: the work is committed, then the answer is lost; the retry replays it.
    expect(await attempt(cli.url, 'lost-answer')).toBe('no answer');
    const second = await restart(cli, args);
    const replay = await submit(second.url, 'lost-answer');
    expect([replay.status, replay.body.replayed]).toEqual([202, true]);
    expect(await listed(second.url)).toEqual([...accepted, replay.body.generation.id].sort());
    expect(await ruleCounters(second.url, rule)).toEqual({ fired: 1, remaining: 0 });
  });

  it('refuses a reset with 507 and keeps every acknowledged generation', { timeout: 90_000 }, async () => {
    const { dir, args, cli, pid, accepted } = await emulatorWithState(disk);
    const before = await balance(cli.url);
    disk.fill(dir, pid);
    const reset = await call(cli.url, 'POST', '/_emulator/reset');
    expect([reset.status, reset.body.error?.code]).toEqual([507, 'storage_full']);
    expect(await listed(cli.url)).toEqual([...accepted].sort());
    disk.free(dir, pid);
    const second = await restart(cli, args);
    expect(await listed(second.url)).toEqual([...accepted].sort());
    expect(await balance(second.url)).toBe(before);
  });

  it('refuses an import that does not fit with 507 and changes nothing', { timeout: 90_000 }, async () => {
    const { dir, args, cli, pid, accepted } = await emulatorWithState(disk);
    const before = await balance(cli.url);
    const exported = (await call(cli.url, 'GET', '/_emulator/state')).body;
    // Larger than what is left on the disk: 4,000 journal entries with 400-byte queries.
    const entry = (id: number) => ({
      id,
      at: 0,
      method: 'GET',
      path: '/v1/media/models',
      keyId: null,
      idempotencyKey: null,
      status: 200,
      latencyMs: 1,
      faultId: null,
      query: 'q'.repeat(400),
    });
    const entries = Array.from({ length: 4000 }, (_, i) => entry(i + 1));
    const big = { ...exported, control: { ...exported.control, journal: { seq: 4000, entries } } };
    // Leave a little room (256 kB): enough for a submission, not for the import.
    disk.fillBut(dir, pid, 256 * 1024);
    const imported = await call(cli.url, 'PUT', '/_emulator/state', big);
    expect([imported.status, imported.body.error?.code]).toEqual([507, 'storage_full']);
    expect(await listed(cli.url)).toEqual([...accepted].sort());
    expect(await balance(cli.url)).toBe(before);
    expect((await submit(cli.url, 'fits-in-the-room')).status).toBe(202);
    disk.free(dir, pid);
    const second = await restart(cli, args);
    expect((await listed(second.url)).length).toBe(accepted.length + 1);
    expect(await balance(second.url)).toBeLessThan(before);
  });

  it('refuses every submission of a group whose one commit fails, charges none, and takes them all once space returns', {
    timeout: 90_000,
  }, async () => {
    const { dir, args, cli, pid, accepted } = await emulatorWithState(disk);
    const before = await balance(cli.url);
    const keys = ['group-one', 'group-two', 'group-three'];
    disk.fill(dir, pid);
    const refused = await submitPipelined(cli.url, keys);
    expect(refused.map((r) => [r.status, r.body.error?.code])).toEqual(keys.map(() => [507, 'storage_full']));
    // Each was refused by the one commit the group shared, not by a reload that an earlier member's failure began.
    for (const r of refused) expect(r.body.error.message).toMatch(/could not be stored \(SQLITE_(FULL|IOERR)/);
    expect(await balance(cli.url)).toBe(before);
    expect(await listed(cli.url)).toEqual([...accepted].sort());
    disk.free(dir, pid);
    const taken = await submitPipelined(cli.url, keys);
    expect(taken.map((r) => [r.status, r.body.replayed])).toEqual(keys.map(() => [202, false]));
    const ids = taken.map((r) => r.body.generation.id as string);
    expect(new Set(ids).size).toBe(3);
    const after = await balance(cli.url);
    expect(after).toBeLessThan(before);

    const second = await restart(cli, args);
    expect(await listed(second.url)).toEqual([...accepted, ...ids].sort());
    expect(await balance(second.url)).toBe(after);
  });

  it('holds back a read answered while a change waits for its commit, and refuses it with that change', {
    timeout: 90_000,
  }, async () => {
    const dir = disk.folder();
    // The read continues after the submission's handler has changed the wallet and before its group commit runs
    // (setImmediate callbacks run in order): it sees the charge that the failing commit is about to roll back.
    const readLate: ExchangeHooks = {
      before: (x) =>
        x.request.method === 'GET' && x.request.path === '/v1/media/usage'
          ? new Promise<undefined>((resume) => setImmediate(() => resume(undefined)))
          : undefined,
    };
    const emulator = createEmulatorWith(
      { timing: 'manual', seed: 5, stateFile: join(dir, 'state.db'), log: () => {} },
      [readLate],
    );
    const { url } = await emulator.start({ port: 0 });
    try {
      expect((await submit(url, 'before-read')).status).toBe(202);
      const before = await balance(url);
      // In this process: a file-size limit holds only while the pipelined pair is answered, then is lifted.
      disk.fill(dir, process.pid);
      let answers: Awaited<ReturnType<typeof pipelined>>;
      try {
        answers = await pipelined(url, [(host) => submission(host, 'during-read'), usageRead]);
      } finally {
        disk.free(dir, process.pid);
      }
      expect(answers.map((a) => [a.status, a.body.error?.code])).toEqual([
        [507, 'storage_full'],
        [507, 'storage_full'],
      ]);
      expect(await balance(url)).toBe(before);
    } finally {
      await emulator.close();
    }
  });
});
