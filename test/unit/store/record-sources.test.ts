// The domain stores' reads answered by a real SQLite store: generations by key, by page and filter, counted, waiting;
// a generation's ledger entries and an account's; idempotency records; and the commit a query by columns runs first.
import request from 'supertest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Generation } from '../../../src/domain/generation.js';
import type { IdempotencyEntry } from '../../../src/domain/idempotency.js';
import type { LedgerEntry } from '../../../src/domain/ledger-entry.js';
import type { Emulator } from '../../../src/index.js';
import { type RecordSources, recordSources } from '../../../src/store/record-sources.js';
import { documentRow, generationRow } from '../../../src/store/state-rows.js';
import { createEmulatorWith, runtimeOf } from '../../../src/testing.js';
import { SQL_DRIVERS } from '../../helpers/sql-drivers.js';

const driver = SQL_DRIVERS[0];
const HOUR = 3_600_000;
let emulator: Emulator;
beforeEach(() => {
  emulator = createEmulatorWith({ seed: 1, timing: 'manual', ffmpegPath: false });
});
afterEach(async () => {
  await emulator.close();
  driver.cleanUp();
});

/** A generation the emulator accepted: the template of the rows below. */
async function accepted(): Promise<Generation> {
  const res = await request(emulator.app)
    .post('/v1/media/generations')
    .set('Authorization', `Bearer ${emulator.apiKey}`)
    .set('Idempotency-Key', 'template-0001')
    .send({ model_slug: 'still-sketch-v1', prompt: 'a lighthouse at dusk', max_credits: 100 });
  expect(res.status).toBe(202);
  const generation = runtimeOf(emulator).context().generations.get(res.body.generation.id);
  if (!generation) throw new Error(`the emulator does not hold ${res.body.generation.id}`);
  return structuredClone(generation);
}

/** Five generations of two accounts, two kinds, three models, three statuses, an hour apart. */
async function stored() {
  const template = await accepted();
  const t0 = template.createdAt;
  const make = (seq: number, over: Partial<Generation>): Generation => ({
    ...structuredClone(template),
    seq,
    id: `gen_${String(seq).padStart(6, '0')}`,
    createdAt: t0 + seq * HOUR,
    ...over,
  });
  const generations = [
    make(1, { prompt: 'A Red Fox' }),
    make(2, { status: 'completed', modelSlug: 'keyframe-pro-v2', kind: 'video', prompt: 'waves' }),
    make(3, { accountId: 'acct_other', prompt: 'red sky' }),
    make(4, { status: 'failed', modelSlug: 'motion-lite-v1', kind: 'video', prompt: 'a fox, red' }),
    make(5, { status: 'completed', prompt: 'snow' }),
  ];
  const entry = (seq: number, over: Partial<LedgerEntry>): LedgerEntry => ({
    id: `led_${seq}`,
    seq,
    type: 'charge',
    accountId: template.accountId,
    amount: 4,
    at: t0,
    ...over,
  });
  const ledger = [
    entry(1, { type: 'funding', amount: 100 }),
    entry(2, { generationId: 'gen_000002' }),
    entry(3, { generationId: 'gen_000003', accountId: 'acct_other' }),
    entry(4, { generationId: 'gen_000004' }),
    entry(5, { type: 'refund', generationId: 'gen_000004' }),
  ];
  const record = (generationId: string): IdempotencyEntry => ({
    fingerprint: `fp-${generationId}`,
    createdAt: t0,
    generationId,
    response: { status: 202, body: { id: generationId } } as unknown as IdempotencyEntry['response'],
  });
  const raw = await driver.store();
  raw.commit({
    meta: { clock: '{}' },
    upsert: {
      generations: generations.map(generationRow),
      ledger: ledger.map((e) => documentRow(e.seq, e)),
      idempotency: [
        { ...documentRow('1\0key-a', record('gen_000001')), createdAt: t0 },
        { ...documentRow('1\0key-b', record('gen_000002')), createdAt: t0 },
      ],
    },
  });
  return { raw, template, t0, generations, ledger, record };
}

const ids = (gs: readonly Generation[]) => gs.map((g) => g.id);

describe('the store of record as the domain’s source', () => {
  it('reads a generation and an idempotency record by key, and nothing for a key it does not hold', async () => {
    const { raw, generations, record } = await stored();
    const sources = recordSources(raw, () => {});
    expect(sources.generations.get('gen_000002')).toEqual(generations[1]);
    expect(sources.generations.get('gen_000009')).toBeUndefined();
    expect(sources.idempotency.get('1\0key-b')).toEqual(record('gen_000002'));
    expect(sources.idempotency.get('1\0key-c')).toBeUndefined();
    expect(sources.generations.count()).toBe(5);
  });

  it('pages generations newest first, by each filter, below a cursor, by size and by offset', async () => {
    const { raw, template, t0 } = await stored();
    const { generations } = recordSources(raw, () => {});
    const page = (filter: Partial<Parameters<typeof generations.query>[0]>) =>
      ids(generations.query({ before: Number.POSITIVE_INFINITY, limit: 10, ...filter }));
    expect(page({})).toEqual(['gen_000005', 'gen_000004', 'gen_000003', 'gen_000002', 'gen_000001']);
    expect(page({ accountId: 'acct_other' })).toEqual(['gen_000003']);
    expect(page({ accountId: template.accountId, status: 'completed' })).toEqual(['gen_000005', 'gen_000002']);
    expect(page({ kind: 'video' })).toEqual(['gen_000004', 'gen_000002']);
    expect(page({ modelSlug: 'motion-lite-v1' })).toEqual(['gen_000004']);
    expect(page({ from: t0 + 2 * HOUR, to: t0 + 4 * HOUR })).toEqual(['gen_000003', 'gen_000002']);
    expect(page({ text: 'red' })).toEqual(['gen_000004', 'gen_000003', 'gen_000001']);
    expect(page({ before: 4, limit: 2 })).toEqual(['gen_000003', 'gen_000002']);
    expect(page({ offset: 3 })).toEqual(['gen_000002', 'gen_000001']);
  });

  it('takes the heap’s copy of a generation on a page when it holds one, and reads the others', async () => {
    const { raw, generations: rows } = await stored();
    const { generations } = recordSources(raw, () => {});
    const inHeap = { ...rows[3], status: 'running' as const };
    const page = generations.query({ before: Number.POSITIVE_INFINITY, limit: 3 }, (id) =>
      id === 'gen_000004' ? inHeap : undefined,
    );
    expect(page).toEqual([rows[4], inHeap, rows[2]]);
    expect(page[1]).toBe(inHeap);
  });

  it('counts generations by status, filtered by model and text', async () => {
    const { raw } = await stored();
    const { generations } = recordSources(raw, () => {});
    expect(generations.countByStatus({})).toEqual({ pending: 2, completed: 2, failed: 1 });
    expect(generations.countByStatus({ modelSlug: 'still-sketch-v1' })).toEqual({ pending: 2, completed: 1 });
    expect(generations.countByStatus({ text: 'red' })).toEqual({ pending: 2, failed: 1 });
  });

  it('gives the waiting generations’ first moves, soonest first, from the manual timing’s index', async () => {
    const { raw, generations: rows } = await stored();
    const { generations } = recordSources(raw, () => {});
    const waiting = generations.waiting({ manualOnly: true, upTo: Number.MAX_SAFE_INTEGER, limit: 10 });
    expect(waiting.map((t) => [t.key, t.rank])).toEqual([
      ['gen_000001', 1],
      ['gen_000003', 3],
    ]);
    expect(waiting[0].dueAt).toBe(generationRow(rows[0]).dueAt);
    expect(generations.waiting({ manualOnly: false, upTo: Number.MAX_SAFE_INTEGER, limit: 10 })).toEqual([]);
  });

  it('reads a generation’s ledger entries, several generations’, and an account’s, in order', async () => {
    const { raw, ledger: entries, template } = await stored();
    const { ledger } = recordSources(raw, () => {});
    expect(ledger.ofGeneration('gen_000004')).toEqual([entries[3], entries[4]]);
    expect(ledger.ofGeneration('gen_000005')).toEqual([]);
    expect(ledger.ofGenerations(['gen_000002', 'gen_000003'])).toEqual([entries[1], entries[2]]);
    expect(ledger.list({ accountId: 'acct_other' })).toEqual([entries[2]]);
    expect(ledger.list({ accountId: template.accountId })).toEqual([entries[0], entries[1], entries[3], entries[4]]);
  });

  it('lists every idempotency record by its key', async () => {
    const { raw, record } = await stored();
    const { idempotency } = recordSources(raw, () => {});
    expect(idempotency.all()).toEqual([
      ['1\0key-a', record('gen_000001')],
      ['1\0key-b', record('gen_000002')],
    ]);
  });

  it.each([
    ['a page', (s: RecordSources) => ids(s.generations.query({ before: 7, limit: 1 })), ['gen_000006']],
    ['a count by status', (s: RecordSources) => s.generations.countByStatus({}).completed, 3],
    ['a list of idempotency records', (s: RecordSources) => s.idempotency.all().at(-1)?.[0], '1\0key-f'],
  ])('commits what the heap holds before %s, so it is seen there', async (_, read, seen) => {
    const { raw, generations: rows, record } = await stored();
    // What the heap accepted a moment ago and the store does not hold yet: the flush writes it.
    const accepted = { ...rows[0], seq: 6, id: 'gen_000006', status: 'completed' as const };
    const flush = () =>
      raw.commit({
        upsert: {
          generations: [generationRow(accepted)],
          idempotency: [{ ...documentRow('1\0key-f', record('gen_000006')), createdAt: 0 }],
        },
      });
    expect(read(recordSources(raw, flush))).toEqual(seen);
  });
});
