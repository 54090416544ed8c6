// Sandboxes over a real HTTP server: lifecycle, resolution by key, path and token, isolation, bounds and idle expiry.
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { connectEmulator, type Emulator } from '../../src/index.js';
import { createCheckedEmulator } from '../helpers/contract.js';
import { MODEL_A } from '../helpers/emulator.js';

const ADMIN = 'sandbox-admin-token-1';
const open: Emulator[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((e) => e.close()));
});

/** A started emulator on a loopback port, and real host time a test moves by hand. */
async function running(options: Parameters<typeof createCheckedEmulator>[0] = {}) {
  const clock = { now: Date.parse('2026-01-01T00:00:00Z') };
  const emulator = createCheckedEmulator(
    { seed: 1, timing: 'manual', ffmpegPath: false, ...options },
    { realNow: () => clock.now },
  );
  open.push(emulator);
  const { url } = await emulator.start({ port: 0 });
  const send = async (
    method: string,
    path: string,
    init: { token?: string; body?: unknown; key?: string; idem?: string } = {},
  ) => {
    const headers: Record<string, string> = {};
    if (path === '/v1/media/generations' && method === 'POST') headers['Idempotency-Key'] = init.idem ?? randomUUID();
    const bearer = init.key ?? init.token;
    if (bearer) headers.Authorization = `Bearer ${bearer}`;
    if (init.body !== undefined) headers['Content-Type'] = 'application/json';
    const res = await fetch(`${url}${path}`, {
      method,
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  return { emulator, url, clock, send };
}

const submission = { model_slug: MODEL_A, prompt: 'a kite over a grey sea', max_credits: 500 };

describe('sandboxes', () => {
  it('creates, lists, reads and deletes a sandbox; its key then answers 401 and its paths 404', async () => {
    const { send } = await running({ adminToken: ADMIN });
    const created = await send('POST', '/_emulator/sandboxes', { token: ADMIN, body: { label: 'worker 1' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ label: 'worker 1', ttlSeconds: 3600 });
    expect(created.body.id).toMatch(/^sbx_/);
    expect(created.body.apiKey).toMatch(/^sk-media-/);
    expect(created.body.token).toMatch(/^sbt_/);
    const { id, apiKey, token } = created.body;

    const listed = await send('GET', '/_emulator/sandboxes', { token: ADMIN });
    expect(listed.body.data.map((s: { id: string }) => s.id)).toEqual([id]);
    expect(listed.body.data[0].token).toBeUndefined();
    expect((await send('GET', `/_emulator/sandboxes/${id}`, { token: ADMIN })).body.apiKey).toBe(apiKey);

    expect((await send('POST', '/v1/media/generations', { key: apiKey, body: submission })).status).toBe(202);
    expect((await send('DELETE', `/_emulator/sandboxes/${id}`, { token: ADMIN })).status).toBe(204);
    expect((await send('POST', '/v1/media/generations', { key: apiKey, body: submission })).status).toBe(401);
    expect((await send('GET', `/_emulator/sandboxes/${id}/faults`, { token: ADMIN })).body.error.code).toBe(
      'sandbox_not_found',
    );
    expect((await send('GET', '/_emulator/faults', { token })).status).toBe(401);
    expect((await send('GET', '/_emulator/sandboxes', { token: ADMIN })).body.data).toEqual([]);
  });

  it('keeps generations, balances, usage and idempotency of each sandbox apart from the default world and each other', async () => {
    const { send, emulator } = await running();
    const a = (await send('POST', '/_emulator/sandboxes', { body: { balance: 1000 } })).body;
    const b = (await send('POST', '/_emulator/sandboxes', { body: {} })).body;
    const first = await send('POST', '/v1/media/generations', { key: a.apiKey, body: submission, idem: 'same-key' });
    expect(first.status).toBe(202);
    // The same Idempotency-Key in another world is a new submission there, not a replay of this one.
    const other = await send('POST', '/v1/media/generations', { key: b.apiKey, body: submission, idem: 'same-key' });
    expect(other.status).toBe(202);
    await send('POST', `/_emulator/sandboxes/${b.id}/reset`);
    const listA = await send('GET', '/v1/media/generations', { key: a.apiKey });
    const listB = await send('GET', '/v1/media/generations', { key: b.apiKey });
    const listDefault = await send('GET', '/v1/media/generations', { key: emulator.apiKey });
    expect(listA.body.generations.map((g: { id: string }) => g.id)).toEqual([first.body.generation.id]);
    expect(listB.body.generations).toEqual([]);
    expect(listDefault.body.generations).toEqual([]);
    // The same id in another world is another world's (or nobody's).
    expect((await send('GET', `/v1/media/generations/${first.body.generation.id}`, { key: b.apiKey })).status).toBe(
      404,
    );
    const usageA = await send('GET', '/v1/media/usage', { key: a.apiKey });
    const usageB = await send('GET', '/v1/media/usage', { key: b.apiKey });
    expect(usageA.body.wallet_balance).toBeLessThan(1000);
    expect(usageB.body.wallet_balance).toBe(emulator.options.initialBalance);
  });

  it('answers every control operation under the sandbox path and with its token, and refuses it elsewhere', async () => {
    const { send } = await running({ adminToken: ADMIN });
    const a = (await send('POST', '/_emulator/sandboxes', { token: ADMIN, body: {} })).body;
    const b = (await send('POST', '/_emulator/sandboxes', { token: ADMIN, body: {} })).body;
    const rule = {
      id: 'only-a',
      match: { method: 'get', route: '/v1/media/generations' },
      action: { type: 'status', status: 503 },
    };
    expect((await send('POST', `/_emulator/sandboxes/${a.id}/faults`, { token: ADMIN, body: rule })).status).toBe(201);
    expect((await send('GET', '/_emulator/faults', { token: a.token })).body.faults).toHaveLength(1);
    expect((await send('GET', '/_emulator/faults', { token: b.token })).body.faults).toHaveLength(0);
    expect((await send('GET', '/_emulator/faults', { token: ADMIN })).body.faults).toHaveLength(0);
    expect((await send('GET', '/v1/media/generations', { key: a.apiKey })).status).toBe(503);
    expect((await send('GET', '/v1/media/generations', { key: b.apiKey })).status).toBe(200);

    const other = await send('GET', `/_emulator/sandboxes/${b.id}/faults`, { token: a.token });
    expect([other.status, other.body.error.code]).toEqual([403, 'sandbox_token_forbidden']);
    const instance = await send('POST', '/_emulator/sandboxes', { token: a.token, body: {} });
    expect([instance.status, instance.body.error.code]).toEqual([403, 'sandbox_token_forbidden']);
    expect((await send('GET', '/_emulator/sandboxes', { token: a.token })).status).toBe(403);
    expect((await send('GET', `/_emulator/sandboxes/${a.id}`, { token: a.token })).status).toBe(200);

    // The clock of one moves alone.
    const before = (await send('GET', '/_emulator/clock', { token: b.token })).body.now;
    const mine = (await send('GET', '/_emulator/clock', { token: a.token })).body.now;
    await send('POST', '/_emulator/clock/advance', { token: a.token, body: { by: '1h' } });
    expect((await send('GET', '/_emulator/clock', { token: b.token })).body.now).toBe(before);
    expect(Date.parse((await send('GET', '/_emulator/clock', { token: a.token })).body.now)).toBe(
      Date.parse(mine) + 3_600_000,
    );

    // A reset of one leaves the other's rules.
    await send('POST', `/_emulator/sandboxes/${b.id}/faults`, { token: ADMIN, body: { ...rule, id: 'only-b' } });
    expect((await send('POST', `/_emulator/sandboxes/${a.id}/reset`, { token: ADMIN })).status).toBe(200);
    expect((await send('GET', '/_emulator/faults', { token: a.token })).body.faults).toHaveLength(0);
    expect((await send('GET', '/_emulator/faults', { token: b.token })).body.faults).toHaveLength(1);
  });

  it('refuses a malformed creation with 422 and changes nothing', async () => {
    const { send } = await running();
    for (const body of [{ ttlSeconds: 5 }, { seed: 1.5 }, { label: '' }, { colour: 'red' }, { balance: -1 }]) {
      const refused = await send('POST', '/_emulator/sandboxes', { body });
      expect([refused.status, refused.body.error.code]).toEqual([422, 'invalid_control_request']);
    }
    expect((await send('GET', '/_emulator/sandboxes')).body.data).toEqual([]);
  });

  it('refuses a sandbox past maxSandboxes with 429 sandbox_limit_reached naming the option', async () => {
    const { send } = await running({ maxSandboxes: 2 });
    await send('POST', '/_emulator/sandboxes', { body: {} });
    await send('POST', '/_emulator/sandboxes', { body: {} });
    const refused = await send('POST', '/_emulator/sandboxes', { body: {} });
    expect([refused.status, refused.body.error.code]).toEqual([429, 'sandbox_limit_reached']);
    expect(refused.body.error.message).toContain('--max-sandboxes');
    expect((await send('GET', '/_emulator/sandboxes')).body.data).toHaveLength(2);
  });

  it('expires an idle sandbox after its TTL on host time, each request pushing it forward', async () => {
    const { send, clock } = await running();
    const a = (await send('POST', '/_emulator/sandboxes', { body: { ttlSeconds: 60, timing: { profile: 'manual' } } }))
      .body;
    clock.now += 50_000;
    expect((await send('GET', '/v1/media/generations', { key: a.apiKey })).status).toBe(200);
    clock.now += 50_000;
    expect((await send('GET', `/_emulator/sandboxes/${a.id}`)).status).toBe(200);
    clock.now += 61_000;
    expect((await send('GET', `/_emulator/sandboxes/${a.id}`)).body.error.code).toBe('sandbox_not_found');
    expect((await send('GET', '/v1/media/generations', { key: a.apiKey })).status).toBe(401);
  });

  it("counts the in-process client's calls as use of its sandbox", async () => {
    const { emulator, send, clock } = await running();
    const sandbox = await emulator.control.createSandbox({ ttlSeconds: 60 });
    clock.now += 50_000;
    await sandbox.control.accounts();
    clock.now += 50_000;
    expect((await send('GET', `/_emulator/sandboxes/${sandbox.id}`)).status).toBe(200);
    clock.now += 61_000;
    expect((await send('GET', `/_emulator/sandboxes/${sandbox.id}`)).status).toBe(404);
  });

  it('signs output links for their sandbox: they download there and nowhere else', async () => {
    const { send, emulator } = await running();
    const a = (await send('POST', '/_emulator/sandboxes', { body: {} })).body;
    const made = await send('POST', '/v1/media/generations', { key: a.apiKey, body: submission });
    const completed = await send(
      'POST',
      `/_emulator/sandboxes/${a.id}/generations/${made.body.generation.id}/complete`,
    );
    expect(completed.status, JSON.stringify(completed.body)).toBe(200);
    await emulator.settle();
    const done = await send('GET', `/v1/media/generations/${made.body.generation.id}`, { key: a.apiKey });
    const link = new URL(done.body.generation.outputs[0].url);
    expect(link.searchParams.get('sandbox')).toBe(a.id);
    expect((await fetch(link)).status).toBe(200);
    link.searchParams.delete('sandbox');
    expect((await fetch(link)).status).toBe(403);
    expect(emulator.apiKey).not.toBe(a.apiKey);
  });

  it('gives both clients createSandbox(), whose control drives that sandbox only, and connects to one by id and token', async () => {
    const { emulator, url, send } = await running({ adminToken: ADMIN });
    const inProcess = await emulator.control.createSandbox({ label: 'in-process' });
    await inProcess.control.faults.add({
      match: { method: 'get', route: '/v1/media/generations' },
      action: { type: 'status', status: 500 },
    });
    expect(await emulator.control.faults.list()).toHaveLength(0);
    expect((await send('GET', '/v1/media/generations', { key: inProcess.apiKey })).status).toBe(500);

    const remote = connectEmulator(url, { adminToken: ADMIN });
    const sandbox = await remote.createSandbox({ balance: 77 });
    expect((await sandbox.control.accounts())[0].balance).toBe(77);
    const again = connectEmulator(url, { sandbox: sandbox.id, token: sandbox.token });
    await again.setBalance(5);
    expect((await sandbox.control.accounts())[0].balance).toBe(5);
    expect((await remote.accounts())[0].balance).toBe(emulator.options.initialBalance);
    expect((await remote.sandboxes()).map((s) => s.id).sort()).toEqual([inProcess.id, sandbox.id].sort());
    await sandbox.close();
    await inProcess.close();
    expect(await remote.sandboxes()).toEqual([]);
  });

  it('keeps key secrets unique across worlds: drawn ones differ under one seed, a repeated one is refused', async () => {
    const { send, emulator } = await running();
    const a = (await send('POST', '/_emulator/sandboxes', { body: { seed: 'same' } })).body;
    const b = (await send('POST', '/_emulator/sandboxes', { body: { seed: 'same' } })).body;
    const keyA = (await send('POST', `/_emulator/sandboxes/${a.id}/keys`, { body: {} })).body.key.secret;
    const keyB = (await send('POST', `/_emulator/sandboxes/${b.id}/keys`, { body: {} })).body.key.secret;
    expect(keyA).not.toBe(keyB);
    await send('POST', '/v1/media/generations', { key: keyB, body: submission });
    expect((await send('GET', '/v1/media/generations', { key: keyA })).body.generations).toEqual([]);
    expect((await send('GET', '/v1/media/generations', { key: keyB })).body.generations).toHaveLength(1);
    for (const secret of [emulator.apiKey, b.apiKey]) {
      const refused = await send('POST', `/_emulator/sandboxes/${a.id}/keys`, { body: { secret } });
      expect([refused.status, refused.body.error.code]).toEqual([409, 'key_exists']);
      expect(refused.body.error.message).not.toContain(b.id);
    }
    const fromDefault = await send('POST', '/_emulator/keys', { body: { secret: a.apiKey } });
    expect([fromDefault.status, fromDefault.body.error.code]).toEqual([409, 'key_exists']);
  });

  it('exports one sandbox and imports it into another, leaving the default world as it was', async () => {
    const { send, emulator } = await running();
    const a = (await send('POST', '/_emulator/sandboxes', { body: {} })).body;
    const b = (await send('POST', '/_emulator/sandboxes', { body: {} })).body;
    const made = await send('POST', '/v1/media/generations', { key: a.apiKey, body: submission });
    const exported = await send('GET', `/_emulator/sandboxes/${a.id}/state`);
    expect(exported.status).toBe(200);
    // a's keys are a's: b may not hold them while a lives, and the refusal changes nothing.
    const refused = await send('PUT', `/_emulator/sandboxes/${b.id}/state`, { body: exported.body });
    expect([refused.status, refused.body.error.code]).toEqual([409, 'key_exists']);
    expect((await send('GET', '/v1/media/generations', { key: b.apiKey })).status).toBe(200);
    await send('DELETE', `/_emulator/sandboxes/${a.id}`);
    expect((await send('PUT', `/_emulator/sandboxes/${b.id}/state`, { body: exported.body })).status).toBe(200);
    // b now holds a's state, keys included: a's key finds b.
    expect((await send('GET', '/v1/media/generations', { key: a.apiKey })).body.generations).toHaveLength(1);
    const imported = await send('GET', `/_emulator/sandboxes/${b.id}/generations`);
    expect(imported.body.generations.map((g: { id: string }) => g.id)).toEqual([made.body.generation.id]);
    expect((await send('GET', '/v1/media/generations', { key: emulator.apiKey })).body.generations).toEqual([]);
    expect((await send('GET', '/_emulator/state')).body.domain.generations).toEqual([]);
  });
});
