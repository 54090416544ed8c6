// The rows a state is written as: a generation's row (only a waiting one carries its first move's due time), a whole
// state's batch (with the meta a later start resumes from, when the context is given), and when a batch writes nothing.
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import type { Generation } from '../../../src/domain/generation.js';
import type { Emulator } from '../../../src/index.js';
import type { ChangeBatch } from '../../../src/infra/sqlite-store.js';
import { createMemoryUploadBlobs } from '../../../src/infra/upload-blobs.js';
import { canResume } from '../../../src/store/resume-state.js';
import { exportState } from '../../../src/store/state-document.js';
import { fullBatch, generationRow, isEmpty } from '../../../src/store/state-rows.js';
import { createEmulatorWith, runtimeOf } from '../../../src/testing.js';
import type { KeptState } from '../../../src/wiring/kept-state.js';
import { MODEL_A } from '../../helpers/emulator.js';
import { SQL_DRIVERS } from '../../helpers/sql-drivers.js';

const driver = SQL_DRIVERS[0];
const emulators: Emulator[] = [];
afterEach(async () => {
  for (const emulator of emulators.splice(0)) await emulator.close();
  driver.cleanUp();
});

const NO_SECTIONS: KeptState = { sections: [] };

/** An emulator with manual timing and one generation submitted to it, still waiting. */
async function withWaitingGeneration() {
  const emulator = createEmulatorWith({ seed: 1, timing: 'manual', ffmpegPath: false });
  emulators.push(emulator);
  const res = await request(emulator.app)
    .post('/v1/media/generations')
    .set('Authorization', `Bearer ${emulator.apiKey}`)
    .set('Idempotency-Key', 'rows-0001')
    .send({ model_slug: MODEL_A, prompt: 'a fox', max_credits: 1000 });
  expect(res.status).toBe(202);
  const runtime = runtimeOf(emulator);
  const generation = runtime.context().generations.get(res.body.generation.id) as Generation;
  return { emulator, runtime, generation };
}

/** The generations the store would hand the scheduler after a restart (real-time ones and manual-only ones). */
const waiting = (store: Awaited<ReturnType<typeof driver.store>>) =>
  [false, true].flatMap((manualOnly) =>
    store.waitingGenerations({ manualOnly, upTo: Number.MAX_SAFE_INTEGER, limit: 100 }).map((t) => t.key),
  );

describe('generationRow', () => {
  it('gives a waiting generation its first move’s due time, and a finished one none: only the waiting one waits', async () => {
    const { generation } = await withWaitingGeneration();
    const pending = generationRow(generation);
    expect(pending).toMatchObject({
      key: generation.id,
      seq: generation.seq,
      accountId: generation.accountId,
      status: 'pending',
      createdAt: generation.createdAt,
      dueAt: generation.createdAt + (generation.plan.pendingMs ?? 0),
    });
    expect(JSON.parse(pending.json)).toEqual(JSON.parse(JSON.stringify(generation)));
    const finished = generationRow({ ...generation, id: `${generation.id}_done`, status: 'completed' });
    expect(finished).not.toHaveProperty('dueAt');
    expect(finished).not.toHaveProperty('manualOnly');

    const store = await driver.store();
    store.commit({ upsert: { generations: [pending, finished] } });
    expect(waiting(store)).toEqual([generation.id]);
  });
});

describe('fullBatch', () => {
  it('writes everything, with the meta a start resumes from when given the context', async () => {
    const { runtime } = await withWaitingGeneration();
    const ctx = runtime.context();
    const deps = { runtime, uploadBlobs: createMemoryUploadBlobs({ maxBytes: 1_000_000 }), kept: NO_SECTIONS };
    const batch = fullBatch(exportState(deps), NO_SECTIONS, ctx);
    expect(batch.replaceAll).toBe(true);
    expect(batch.meta).toMatchObject({
      ledger_totals: JSON.stringify(ctx.ledger.totals()),
      ids: JSON.stringify(ctx.ids.counters()),
      timers: 'due_at',
    });
    const store = await driver.store();
    store.commit(batch);
    expect(canResume(store)).toBe(true);
    expect(store.documents('generations')).toHaveLength(1);
  });

  it('without the context writes no resume meta: the next start reads the state whole', async () => {
    const { runtime } = await withWaitingGeneration();
    const deps = { runtime, uploadBlobs: createMemoryUploadBlobs({ maxBytes: 1_000_000 }), kept: NO_SECTIONS };
    const batch = fullBatch(exportState(deps), NO_SECTIONS);
    expect(Object.keys(batch.meta ?? {}).sort()).toEqual(['clock', 'control', 'timing']);
    const store = await driver.store();
    store.commit(batch);
    expect(canResume(store)).toBe(false);
  });
});

describe('isEmpty', () => {
  const row = { key: 'k', json: '{}' };
  it.each<[string, ChangeBatch]>([
    ['nothing at all', {}],
    ['tables with no rows', { upsert: { ledger: [], generations: [] }, delete: { uploads: [] }, meta: {} }],
  ])('is true for %s', (_name, batch) => {
    expect(isEmpty(batch)).toBe(true);
  });

  it.each<[string, ChangeBatch]>([
    ['one row to write', { upsert: { ledger: [], generations: [row] } }],
    ['one row to delete', { delete: { uploads: ['upl_1'] } }],
    ['one meta value', { upsert: { ledger: [] }, meta: { clock: '{}' } }],
    ['a log to trim', { upsert: { ledger: [] }, logBelow: { journal: 3 } }],
  ])('is false for %s', (_name, batch) => {
    expect(isEmpty(batch)).toBe(false);
  });
});
