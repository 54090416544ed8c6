// Export of the whole state to JSON and import back: round trip, resumed generations, ids that continue, the --state-file cycle.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { createEmulatorApp, DEFAULT_API_KEY, startEmulator } from '../../src/index.js';
import { controlled, idem, submission } from '../helpers/controlled-emulator.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function busyEmulator() {
  const env = controlled({ clockStart: '2026-02-01T00:00:00Z' });
  const { api, control } = env;
  const done = (await api.submit(submission(), idem(1))).body.generation.id;
  await control.waitFor(done, 'completed');
  await control.refund(done, 1);
  await api.submit(submission({ prompt: 'still waiting' }), idem(2));
  await control.createKey({ secret: 'sk-media-second-key', daily_credit_limit: 50 });
  await control.revokeKey(2);
  await control.setBalance(777);
  await control.setTiming({ by_model: { 'motion-lite-v1': 'fast' } });
  await control.faults.add({ id: 'later', after: 5, action: { type: 'status', status: 503 } });
  await control.scenario.load('daily-ceiling');
  await api.get('/v1/media/models');
  return env;
}

describe('export and import', () => {
  it('round-trips: importing an export into a fresh emulator exports the same state', async () => {
    const source = await busyEmulator();
    const exported = await source.control.exportState();
    const target = controlled({ clockStart: '2030-01-01T00:00:00Z', initialBalance: 5 });
    await target.control.importState(JSON.parse(JSON.stringify(exported)));
    expect(await target.control.exportState()).toEqual(exported);
    expect(await target.control.accounts()).toEqual(await source.control.accounts());
    expect(await target.control.keys()).toEqual(await source.control.keys());
    expect(await target.control.faults.list()).toEqual(await source.control.faults.list());
    expect(await target.control.scenario.progress()).toEqual(await source.control.scenario.progress());
    expect(await target.control.journal()).toEqual(await source.control.journal());
  });

  it('keeps idempotency, resumes in-flight generations and continues the id sequence', async () => {
    const source = await busyEmulator();
    const target = controlled();
    await target.control.importState(await source.control.exportState());
    const replay = await target.api.submit(submission({ prompt: 'still waiting' }), idem(2));
    expect(replay.body).toMatchObject({ replayed: true, generation: { id: 'gen_000002' } });
    expect((await target.control.waitFor('gen_000002', 'completed')).status).toBe('completed');
    const next = await target.api.submit(submission(), idem(3));
    expect(next.body.generation.id).toBe('gen_000003');
    expect((await target.control.createKey()).id).toBe(4); // seeded 1, created 2, the daily-ceiling scenario's 3
    expect((await target.control.generation('gen_000001')).billing_status).toBe('partially_refunded');
  });

  it("reads an older export's 'expired-once' links as expired for the first read only", async () => {
    const source = controlled({ clockStart: '2026-02-01T00:00:00Z' });
    const id = (await source.api.submit(submission(), idem(1))).body.generation.id;
    await source.control.waitFor(id, 'completed');
    const exported = JSON.parse(JSON.stringify(await source.control.exportState()));
    const stored = exported.domain.generations.find((g: { id: string }) => g.id === id);
    stored.plan.outputUrls = 'expired-once';
    delete stored.plan.expiredReads;
    const target = controlled({ clockStart: '2026-02-01T00:00:00Z' });
    await target.control.importState(exported);
    const expiresOf = async () => {
      const url = (await target.api.get(`/v1/media/generations/${id}`)).body.generation.outputs[0].url as string;
      return Number(new URL(url).searchParams.get('expires')) * 1000;
    };
    // Expired: an expiry already past; then valid again: an hour (the default TTL) ahead of that.
    const [first, second] = [await expiresOf(), await expiresOf()];
    expect(second - first).toBeGreaterThan(3_000_000);
  });

  it('works over HTTP: GET and PUT /_emulator/state', async () => {
    const source = await busyEmulator();
    const exported = await request(source.emulator.app).get('/_emulator/state');
    expect(exported.body).toMatchObject({ format: 'media-gen-emulator-state', version: 1 });
    const target = controlled();
    expect((await request(target.emulator.app).put('/_emulator/state').send(exported.body)).body).toEqual({ ok: true });
    expect((await target.control.accounts())[0].balance).toBe(777);
  });

  it('refuses a member no export has (at the top or in control) and a missing one, as the document says', async () => {
    const { emulator, control } = controlled();
    await control.setBalance(42);
    const good = await control.exportState();
    const { exported_at: _, ...undated } = good;
    const cases: [string, unknown, string][] = [
      ['an unknown top-level member', { ...good, comment: 'mine' }, '(root)'],
      ['an unknown control section', { ...good, control: { ...good.control, notes: [] } }, 'control'],
      [
        'an unknown journal member',
        { ...good, control: { ...good.control, journal: { ...good.control.journal, x: 1 } } },
        'control.journal',
      ],
      ['no exported_at', undated, 'exported_at'],
      ['an exported_at that is no date-time', { ...good, exported_at: 'yesterday' }, 'exported_at'],
    ];
    for (const [what, body, field] of cases) {
      const res = await request(emulator.app)
        .put('/_emulator/state')
        .send(body as object);
      expect([what, res.status, res.body.error.code]).toEqual([what, 422, 'invalid_state']);
      expect(res.body.error.problems, what).toEqual([expect.objectContaining({ field })]);
    }
    // A state with no scenario in force may leave `control.scenario` out.
    const { scenario: __, ...noScenario } = good.control;
    expect(
      (
        await request(emulator.app)
          .put('/_emulator/state')
          .send({ ...good, control: noScenario })
      ).status,
    ).toBe(200);
    expect((await control.accounts())[0].balance).toBe(42);
  });

  it('refuses something that is not an export, and leaves the state as it was', async () => {
    const { emulator, control } = controlled();
    await control.setBalance(42);
    for (const body of [{}, { format: 'media-gen-emulator-state', version: 9 }]) {
      const res = await request(emulator.app).put('/_emulator/state').send(body);
      expect([res.status, res.body.error.code]).toEqual([422, 'invalid_state']);
    }
    const good = await control.exportState();
    const broken = { ...good, domain: { ...good.domain, keys: [{ id: 'x' }] } };
    await expect(control.importState(broken as never)).rejects.toMatchObject({
      code: 'invalid_state',
      message: expect.stringContaining('domain.keys[0].id'),
    });
    // A key secret of the wrong shape is refused in the words POST /_emulator/keys and --api-key use.
    const badSecret = {
      ...good,
      domain: { ...good.domain, keys: [{ ...good.domain.keys[0], secret: 'sk-live-nope' }] },
    };
    await expect(control.importState(badSecret)).rejects.toMatchObject({
      code: 'invalid_state',
      message: expect.stringContaining(
        "domain.keys[0].secret: must look like 'sk-media-' followed by 4-200 letters, digits, '_' or '-'",
      ),
    });
    const badRule = {
      ...good,
      control: {
        ...good.control,
        faults: [
          {
            id: 'r',
            source: 'api',
            createdAt: 0,
            definition: { action: { type: 'nope' } },
            enabled: true,
            matched: 0,
            fired: 0,
          },
        ],
      },
    };
    await expect(control.importState(badRule as never)).rejects.toMatchObject({
      code: 'invalid_state',
      details: { problems: [expect.objectContaining({ field: 'control.faults[0].definition.action.type' })] },
    });
    expect((await control.accounts())[0].balance).toBe(42);
  });
});

describe('state file', () => {
  it('startEmulator({ stateFile }) keeps the state in an SQLite database and loads it at the next start', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'emulator-state-'));
    dirs.push(dir);
    const stateFile = join(dir, 'state.db');
    const first = await startEmulator({ seed: 1, timing: 'manual', ffmpegPath: false, stateFile });
    await first.control.setBalance(1234);
    await first.control.faults.add({ id: 'kept', action: { type: 'stall' } });
    await first.close();
    expect(readFileSync(stateFile).subarray(0, 16).toString('latin1')).toBe('SQLite format 3\u0000');

    const second = await startEmulator({ seed: 1, timing: 'manual', ffmpegPath: false, stateFile });
    try {
      expect((await second.control.accounts())[0].balance).toBe(1234);
      expect((await second.control.faults.list()).map((f) => f.id)).toEqual(['kept']);
    } finally {
      await second.close();
    }
  });

  it("keeps a key's new daily ceiling in the state file", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'emulator-state-'));
    dirs.push(dir);
    const stateFile = join(dir, 'state.db');
    const first = await startEmulator({ seed: 1, timing: 'manual', ffmpegPath: false, stateFile });
    const [seeded] = await first.control.keys();
    await first.control.setKeyDailyLimit(seeded.id, 25);
    await first.close();

    const second = await startEmulator({ seed: 1, timing: 'manual', ffmpegPath: false, stateFile });
    try {
      expect((await second.control.keys())[0]).toMatchObject({ id: seeded.id, daily_credit_limit: 25 });
    } finally {
      await second.close();
    }
  });

  it('keeps an import whole in the store even when a change commits while the old state winds down', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'emulator-state-'));
    dirs.push(dir);
    const stateFile = join(dir, 'state.db');
    const exported = await (await busyEmulator()).control.exportState();
    const first = await startEmulator({ seed: 1, timing: 'manual', ffmpegPath: false, stateFile });
    for (let n = 0; n < 4; n++)
      await fetch(`${first.url}/v1/media/models`, { headers: { Authorization: `Bearer ${DEFAULT_API_KEY}` } });
    await first.control.faults.add({ id: 'replaced', action: { type: 'stall' } });
    // The balance commits while the import waits for the old state's renders to settle.
    await Promise.all([first.control.importState(JSON.parse(JSON.stringify(exported))), first.control.setBalance(5)]);
    const journal = await first.control.journal();
    await first.close();

    const second = await startEmulator({ seed: 1, timing: 'manual', ffmpegPath: false, stateFile });
    try {
      expect(await second.control.journal()).toEqual(journal);
      expect((await second.control.faults.list()).map((f) => f.id)).toEqual(['later']);
      expect((await second.control.accounts())[0].balance).toBe(5);
    } finally {
      await second.close();
    }
  });

  it('refuses every change to a kept state that start() has not loaded, and leaves the file as it was', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'emulator-state-'));
    dirs.push(dir);
    const stateFile = join(dir, 'state.db');
    const first = await startEmulator({ seed: 1, timing: 'manual', ffmpegPath: false, stateFile });
    await first.control.setBalance(1234);
    await first.close();

    const unstarted = createEmulatorApp({ seed: 1, timing: 'manual', ffmpegPath: false, stateFile });
    try {
      await expect(unstarted.control.setBalance(5)).rejects.toMatchObject({ code: 'state_not_loaded' });
      const res = await request(unstarted.app)
        .post('/v1/media/generations')
        .set('Authorization', `Bearer ${DEFAULT_API_KEY}`)
        .set('Idempotency-Key', 'unstarted-0001')
        .send(submission());
      expect([res.status, res.body.error.code]).toEqual([409, 'state_not_loaded']);
    } finally {
      await unstarted.close();
    }
    // The store answers its refusals itself, with the emulator's status and code tables like every other error.
    const calibrated = createEmulatorApp({
      ...{ seed: 1, timing: 'manual', ffmpegPath: false, stateFile },
      errorStatuses: { state_not_loaded: 423 },
      errorCodes: { state_not_loaded: 'not_ready' },
    });
    try {
      const res = await request(calibrated.app)
        .post('/v1/media/generations')
        .set('Authorization', `Bearer ${DEFAULT_API_KEY}`)
        .set('Idempotency-Key', 'unstarted-0002')
        .send(submission());
      expect([res.status, res.body.error.code]).toEqual([423, 'not_ready']);
    } finally {
      await calibrated.close();
    }

    const second = await startEmulator({ seed: 1, timing: 'manual', ffmpegPath: false, stateFile });
    try {
      expect((await second.control.accounts())[0].balance).toBe(1234);
      expect(await second.control.generations()).toEqual([]);
    } finally {
      await second.close();
    }
  });

  it('answers lists, reads, usage and the ledger after a restart exactly as before it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'emulator-state-'));
    dirs.push(dir);
    const stateFile = join(dir, 'state.db');
    const options = { seed: 3, timing: 'manual' as const, ffmpegPath: false as const, stateFile };
    const read = async (url: string) => {
      // Output links name the port, which a restart changes.
      const get = async (path: string) => {
        const res = await fetch(`${url}${path}`, { headers: { Authorization: `Bearer ${DEFAULT_API_KEY}` } });
        return JSON.parse((await res.text()).replaceAll(url, 'URL'));
      };
      const first = await get('/v1/media/generations?limit=7&status=pending');
      return {
        first,
        second: await get(`/v1/media/generations?limit=7&status=pending&cursor=${first.next_cursor}`),
        all: await get('/v1/media/generations?limit=100'),
        one: await get('/v1/media/generations/gen_000004'),
        usage: { ...(await get('/v1/media/usage')), as_of: undefined },
      };
    };
    const first = await startEmulator(options);
    const post = (n: number, url = first.url) =>
      fetch(`${url}/v1/media/generations`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${DEFAULT_API_KEY}`,
          'Idempotency-Key': idem(n),
          'Content-Type': 'application/json',
        },
        body: JSON.stringify(submission({ prompt: `number ${n}` })),
      });
    for (let n = 1; n <= 24; n++) expect((await post(n)).status).toBe(202);
    await first.control.complete('gen_000004');
    await first.control.fail('gen_000005');
    await first.control.refund('gen_000004', 1);
    const before = { ...(await read(first.url)), ledger: await first.control.ledger() };
    await first.close();

    const second = await startEmulator(options);
    try {
      expect({ ...(await read(second.url)), ledger: await second.control.ledger() }).toEqual(before);
      expect(before.first.generations).toHaveLength(7);
      expect((await post(25, second.url)).status).toBe(202);
      expect((await second.control.generation('gen_000025')).status).toBe('pending');
    } finally {
      await second.close();
    }
  });
});
