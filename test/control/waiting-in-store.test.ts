// Waiting generations' first moves live in the store of record's due-time index, not the heap: run in order, once, across a restart.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_API_KEY } from '../../src/index.js';
import { openSqlConnection } from '../../src/infra/sqlite-driver.js';
import type { Emulator } from '../../src/emulator-types.js';
import { createEmulatorWith, runtimeOf } from '../../src/testing.js';
import { idem, submission } from '../helpers/controlled-emulator.js';

const dirs: string[] = [];
const open: Emulator[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((e) => e.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function started(stateFile?: string) {
  const emulator = createEmulatorWith({ seed: 1, timing: 'manual', ffmpegPath: false, stateFile });
  open.push(emulator);
  await emulator.start();
  return emulator;
}

const submit = (emulator: Emulator, n: number) =>
  request(emulator.app)
    .post('/v1/media/generations')
    .set('Authorization', `Bearer ${DEFAULT_API_KEY}`)
    .set('Idempotency-Key', idem(n))
    .send(submission());

/** Statuses by id, and how often each generation was charged and moved to running (once each, or it ran twice). */
function tally(emulator: Emulator) {
  const ctx = runtimeOf(emulator).context();
  const all = ctx.generations.all();
  const charges = ctx.ledger.list({}).filter((e) => e.type === 'charge');
  return {
    statuses: Object.fromEntries(all.map((g) => [g.id, g.status])),
    chargedOnce: all.every((g) => charges.filter((c) => c.generationId === g.id).length === 1),
  };
}

describe('waiting generations in the store of record', () => {
  it.each([
    ['private database', false],
    ['state file', true],
  ])('keeps no heap task per committed waiting generation and runs each in due order (%s)', async (_label, durable) => {
    const dir = mkdtempSync(join(tmpdir(), 'waiting-'));
    dirs.push(dir);
    const emulator = await started(durable ? join(dir, 'state.db') : undefined);
    const ids: string[] = [];
    for (let n = 0; n < 12; n++) {
      ids.push((await submit(emulator, n)).body.generation.id);
      await emulator.control.advance(1);
    }
    const ctx = runtimeOf(emulator).context();
    expect(ctx.scheduler.pending()).toBe(0);
    // Submitted a millisecond apart with the same plan: each advance to the next due time starts the next one, in order.
    for (let step = 1; step <= 3; step++) {
      await emulator.control.advanceToNext();
      const running = ids.filter((id) => ctx.generations.get(id)?.status !== 'pending');
      expect(running).toEqual(ids.slice(0, step));
    }
  });

  it('runs every waiting generation once after a restart, reading none of them at start', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'waiting-'));
    dirs.push(dir);
    const stateFile = join(dir, 'state.db');
    const first = await started(stateFile);
    for (let n = 0; n < 20; n++) expect((await submit(first, n)).status).toBe(202);
    await first.control.advanceToNext();
    const before = tally(first);
    await first.close();

    const second = await started(stateFile);
    const ctx = runtimeOf(second).context();
    // The running ones start over from pending (their render is gone); every one is in the store, none in the heap.
    expect(ctx.scheduler.pending()).toBe(0);
    expect(tally(second)).toEqual({
      statuses: Object.fromEntries(Object.keys(before.statuses).map((id) => [id, 'pending'])),
      chargedOnce: true,
    });
    await second.control.advance('1h');
    const after = tally(second);
    expect(Object.values(after.statuses)).toEqual(Object.values(before.statuses).map(() => 'completed'));
    expect(after.chargedOnce).toBe(true);
    expect(ctx.scheduler.nextDueAt()).toBeUndefined();
  });

  it('reads a store written before the due-time columns whole once, and then runs its waiting generations', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'waiting-'));
    dirs.push(dir);
    const stateFile = join(dir, 'state.db');
    const first = await started(stateFile);
    for (let n = 0; n < 3; n++) expect((await submit(first, n)).status).toBe(202);
    await first.close();
    // As an older version left it: no due times, no marker.
    const db = openSqlConnection(stateFile);
    db.exec("UPDATE generations SET due_at = NULL, manual_due_at = NULL; DELETE FROM meta WHERE key = 'timers'");
    db.close();

    const second = await started(stateFile);
    expect(runtimeOf(second).context().scheduler.nextDueAt()).toBeDefined();
    await second.control.advance('1h');
    expect(Object.values(tally(second).statuses)).toEqual(['completed', 'completed', 'completed']);
  });
});
