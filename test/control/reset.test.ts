// Reset restores the seed: ids, keys, balances, clock, timing, idempotency, journal, faults, scenario and files.
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { controlled, idem, submission } from '../helpers/controlled-emulator.js';

describe('reset', () => {
  it('puts everything back as it was seeded', async () => {
    const { emulator, api, control } = controlled({ clockStart: '2026-01-01T00:00:00Z' });
    const seeded = {
      accounts: await control.accounts(),
      keys: await control.keys(),
      clock: await control.clock(),
      timing: await control.timing(),
    };

    const first = await api.submit(submission(), idem(1));
    expect(first.body.generation.id).toBe('gen_000001');
    const done = await control.waitFor('gen_000001', 'completed');
    const fileUrl = new URL(done.outputs[0].url, 'http://x');
    await control.createKey({ secret: 'sk-media-extra-key' });
    await control.revokeKey(1);
    await control.setBalance(5);
    await control.setTiming({ profile: 'instant' });
    await control.advance('3h');
    await control.faults.add({ action: { type: 'status', status: 503 } });
    await control.scenario.load('slow-queue');

    const res = await request(emulator.app).post('/_emulator/reset');
    expect(res.body).toEqual({ ok: true });

    expect(await control.accounts()).toEqual(seeded.accounts);
    expect(await control.keys()).toEqual(seeded.keys);
    expect(await control.clock()).toEqual(seeded.clock);
    expect(await control.timing()).toEqual(seeded.timing);
    expect(await control.faults.list()).toEqual([]);
    expect(await control.scenario.progress()).toBeNull();
    expect(await control.generations()).toEqual([]);
    expect(await control.journal()).toEqual([]);
    // The signing secret rotated with the reset: the old link is refused before any file is looked up.
    expect((await request(emulator.app).get(fileUrl.pathname + fileUrl.search)).status).toBe(403);

    const again = await api.submit(submission(), idem(1));
    expect(again.status).toBe(202);
    expect(again.body.replayed).toBe(false);
    expect(again.body.generation.id).toBe('gen_000001');
  });

  it('applies the start-up scenario again, fresh', async () => {
    const { api, control } = controlled({ scenario: 'flaky-network' });
    expect((await api.submit(submission(), idem(1))).status).toBe(503);
    expect((await control.scenario.progress())?.faults[0].fired).toBe(1);
    await control.reset();
    const progress = await control.scenario.progress();
    expect(progress).toMatchObject({
      name: 'flaky-network',
      faults: [{ id: 'flaky-network-503', fired: 0, remaining: 2 }],
    });
    expect((await api.submit(submission(), idem(1))).status).toBe(503);
  });

  it('keeps two emulators apart: rules, journal and scenario of one never reach the other', async () => {
    const a = controlled();
    const b = controlled();
    await a.control.faults.add({ action: { type: 'status', status: 503 } });
    await a.control.scenario.load('insufficient-credits');
    expect((await a.api.get('/v1/media/models')).status).toBe(503);
    expect((await b.api.get('/v1/media/models')).status).toBe(200);
    expect(await b.control.faults.list()).toEqual([]);
    expect(await b.control.scenario.progress()).toBeNull();
    expect((await b.control.accounts())[0].balance).toBe(1_000_000);
    expect(await b.control.journal()).toHaveLength(1);
    expect(await a.control.journal()).toHaveLength(1);
  });
});
