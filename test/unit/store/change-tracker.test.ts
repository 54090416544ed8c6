// The change tracker's cheap look (hasChanges) agrees with the batch it would build, for each kind of change, over every
// SQLite binding; and what its commits write: uploads, idempotency records and their expiry, the clock, a kept log.
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import type { DomainContext } from '../../../src/domain/context.js';
import type { Generation } from '../../../src/domain/generation.js';
import type { Emulator } from '../../../src/index.js';
import type { SqliteStore } from '../../../src/infra/sqlite-store.js';
import { ChangeTracker } from '../../../src/store/change-tracker.js';
import { recordSources } from '../../../src/store/record-sources.js';
import { generationRow, isEmpty } from '../../../src/store/state-rows.js';
import { createEmulatorWith, runtimeOf } from '../../../src/testing.js';
import type { KeptLog, KeptState } from '../../../src/wiring/kept-state.js';
import { MODEL_A } from '../../helpers/emulator.js';
import { SQL_DRIVERS, type SqlDriverUnderTest } from '../../helpers/sql-drivers.js';

const opened: { emulator: Emulator; store: SqliteStore; driver: SqlDriverUnderTest }[] = [];
afterEach(async () => {
  // The emulator first: its last commit reads the context, whose stores now read this store.
  for (const { emulator, store, driver } of opened.splice(0)) {
    await emulator.close();
    store.close();
    driver.cleanUp();
  }
});

/** A plugin's kept state as the tracker sees it: one value and one log (entries kept from `first` on). */
function keptByAPlugin() {
  const kept = { value: { rules: [] as string[] }, entries: [] as { id: number; text: string }[], first: 0 };
  const log: KeptLog = {
    kind: 'log',
    name: 'journal',
    largeMembers: { keep: 10, members: [] },
    current: () => ({ seq: kept.entries.at(-1)?.id ?? 0, entries: [...kept.entries] }),
    lastId: () => kept.entries.at(-1)?.id ?? 0,
    firstId: () => kept.entries.find((e) => e.id >= kept.first)?.id ?? 0,
    after: (id) => kept.entries.filter((e) => e.id > id && e.id >= kept.first),
    prepare: () => () => undefined,
  };
  const state: KeptState = {
    sections: [
      { kind: 'value', name: 'settings', empty: {}, current: () => kept.value, prepare: () => () => undefined },
      log,
    ],
  };
  return { kept, state };
}

/** A tracker over a live emulator's context, writing to a private store of its own (nothing goes over HTTP). */
async function tracked(driver: SqlDriverUnderTest) {
  const emulator = createEmulatorWith({ seed: 1, timing: 'manual' });
  const store = await driver.store();
  opened.push({ emulator, store, driver });
  const ctx: DomainContext = runtimeOf(emulator).context();
  const { kept, state } = keptByAPlugin();
  const tracker = new ChangeTracker(
    ctx,
    state,
    recordSources(store, () => {}),
  );
  /** The tracker's verdict, then the batch's, committed: both must say the same. */
  const commit = (withLogs = false) => {
    const looked = tracker.hasChanges();
    const { batch, accept } = tracker.next(withLogs);
    if (!isEmpty(batch)) store.commit(batch);
    accept();
    return [looked, !isEmpty(batch)];
  };
  return { ctx, kept, store, tracker, commit };
}
type Tracked = Awaited<ReturnType<typeof tracked>>;

/** An upload's record as the store keeps it (the bytes live elsewhere). */
const upload = (id: string, at: number) => ({
  id,
  accountId: 'acct_000001',
  modelSlug: 'motion-lite-v1',
  targetSlot: null,
  filename: 'frame.png',
  format: 'png' as const,
  mimeType: 'image/png',
  width: 2,
  height: 2,
  bytes: 10,
  sha256: 'a'.repeat(64),
  createdAt: at,
});

describe.each(SQL_DRIVERS)('over $name', (driver) => {
  describe('ChangeTracker.hasChanges', () => {
    it('says no change when nothing moved, and after every commit', async () => {
      const { commit } = await tracked(driver);
      expect(commit()).toEqual([false, false]);
      expect(commit()).toEqual([false, false]);
    });

    it('says no change when an id sequence is skipped back to where it already stands', async () => {
      const { ctx, commit } = await tracked(driver);
      ctx.ids.next('gen');
      expect(commit()).toEqual([true, true]);
      ctx.ids.skipPast('gen', 0);
      expect(commit()).toEqual([false, false]);
    });

    it.each([
      ['an id used up by a refused request', ({ ctx }: Tracked) => void ctx.ids.next('gen')],
      ['an id sequence moved past imported ids', ({ ctx }: Tracked) => ctx.ids.skipPast('gen', 50)],
      [
        'a ledger entry',
        ({ ctx }: Tracked) =>
          void ctx.ledger.append({ type: 'funding', accountId: 'acct_000001', amount: 5, at: ctx.clock.now() }),
      ],
      ['a clock moved forward', ({ ctx }: Tracked) => ctx.clock.advanceBy(1000)],
      [
        'an idempotency record',
        ({ ctx }: Tracked) => ctx.idempotency.record(1, 'k', 'fp', 'gen_1', { status: 202, body: {} }, ctx.clock.now()),
      ],
      ['an upload', ({ ctx }: Tracked) => ctx.uploads.add(upload('upl_1', ctx.clock.now()))],
      ['a new account', ({ ctx }: Tracked) => void ctx.accounts.createAccount('acct_x', 'X', ctx.clock.now())],
      [
        'a changed timing profile',
        ({ ctx }: Tracked) => {
          ctx.settings.timing = { ...ctx.settings.timing, default: { mode: 'instant' } } as typeof ctx.settings.timing;
        },
      ],
      [
        "a plugin's kept value",
        ({ kept }: Tracked) => {
          kept.value = { rules: ['x'] };
        },
      ],
    ])('sees %s, as the batch does, and nothing once it is committed', async (_name, change) => {
      const t = await tracked(driver);
      expect(t.commit()).toEqual([false, false]);
      change(t);
      expect(t.commit()).toEqual([true, true]);
      expect(t.commit()).toEqual([false, false]);
    });
  });

  describe('ChangeTracker and a kept log', () => {
    it('writes a log only with the logs (the background commit), and then only its new rows', async () => {
      const t = await tracked(driver);
      t.kept.entries.push({ id: 1, text: 'one' }, { id: 2, text: 'two' });
      // Diagnostic: an answer neither waits for the log nor writes it.
      expect(t.commit()).toEqual([false, false]);
      expect(t.store.logDocuments('journal', 10, [])).toEqual([]);
      expect(t.commit(true)).toEqual([false, true]);
      expect(t.store.logDocuments('journal', 10, []).map((r) => r.key)).toEqual([1, 2]);
      expect(t.store.meta('journal_seq')).toBe('2');
      expect(t.commit(true)).toEqual([false, false]);
    });

    it('drops from its table the rows the log itself dropped', async () => {
      const t = await tracked(driver);
      t.kept.entries.push({ id: 1, text: 'one' }, { id: 2, text: 'two' }, { id: 3, text: 'three' });
      t.commit(true);
      t.kept.first = 3;
      t.kept.entries.push({ id: 4, text: 'four' });
      expect(t.commit(true)).toEqual([false, true]);
      expect(t.store.logDocuments('journal', 10, []).map((r) => r.key)).toEqual([3, 4]);
    });
  });
});

describe('ChangeTracker: what a commit writes', () => {
  const driver = SQL_DRIVERS[0];
  const keys = (t: Tracked, table: 'uploads' | 'idempotency') => t.store.documents(table).map((r) => r.key);

  it('writes an upload, and deletes its row once the upload is deleted', async () => {
    const t = await tracked(driver);
    t.ctx.uploads.add(upload('upl_1', t.ctx.clock.now()));
    expect(t.commit()).toEqual([true, true]);
    expect(keys(t, 'uploads')).toEqual(['upl_1']);
    expect(JSON.parse(t.store.documents('uploads')[0].json)).toMatchObject({ id: 'upl_1', filename: 'frame.png' });
    t.ctx.uploads.delete('upl_1');
    expect(t.commit()).toEqual([true, true]);
    expect(keys(t, 'uploads')).toEqual([]);
  });

  it.each([
    ['an upload', (t: Tracked): void => t.ctx.uploads.add(upload('upl_1', t.ctx.clock.now())), 'uploads', 'upl_1'],
    [
      'an account',
      (t: Tracked): void => void t.ctx.accounts.createAccount('acct_x', 'X', t.ctx.clock.now()),
      'accounts',
      'acct_x',
    ],
    [
      'an API key',
      (t: Tracked): void => {
        t.ctx.accounts.createAccount('acct_k', 'K', t.ctx.clock.now());
        t.commit();
        t.ctx.accounts.createKey({ accountId: 'acct_k', secret: `sk-media-${'x'.repeat(32)}` }, t.ctx.clock.now());
      },
      'api_keys',
      undefined,
    ],
    [
      'a revoked API key',
      (t: Tracked): void => {
        const now = t.ctx.clock.now();
        t.ctx.accounts.createAccount('acct_r', 'R', now);
        const key = t.ctx.accounts.createKey({ accountId: 'acct_r', secret: `sk-media-${'r'.repeat(32)}` }, now);
        t.commit();
        // A revocation takes no id: only the key's own change mark says it is to be written.
        t.ctx.accounts.revokeKey(key.id, now);
      },
      'api_keys',
      undefined,
    ],
  ] as const)(
    'takes %s of a batch never committed (its write failed) again with the next one',
    async (_name, change, table, key) => {
      const t = await tracked(driver);
      const before = t.store.documents(table).length;
      change(t);
      // The batch is built, then its transaction fails: never accepted.
      expect(isEmpty(t.tracker.next(false).batch)).toBe(false);
      expect(t.commit()).toEqual([true, true]);
      const rows = t.store.documents(table);
      expect(rows.length).toBe(before + 1);
      if (key) expect(rows.map((r) => r.key)).toContain(key);
      expect(t.commit()).toEqual([false, false]);
    },
  );

  it('writes an idempotency record once, and drops it in the first change after its window', async () => {
    const t = await tracked(driver);
    const at = t.ctx.clock.now();
    t.ctx.idempotency.record(1, 'key-1', 'fp', 'gen_1', { status: 202, body: {} }, at);
    expect(t.commit()).toEqual([true, true]);
    expect(keys(t, 'idempotency')).toHaveLength(1);
    // Committed: the next commit has nothing to write.
    expect(t.commit()).toEqual([false, false]);
    t.ctx.clock.advanceBy(t.ctx.settings.idempotencyWindowMs - 1);
    t.commit();
    expect(keys(t, 'idempotency')).toHaveLength(1);
    t.ctx.clock.advanceBy(1);
    t.commit();
    expect(keys(t, 'idempotency')).toEqual([]);
  });

  it("writes the clock's reading with a running clock's offset from real time", async () => {
    const t = await tracked(driver);
    if (t.ctx.clock.frozen) t.ctx.clock.unfreeze();
    t.ctx.clock.advanceBy(3_600_000);
    expect(t.commit()).toEqual([true, true]);
    const clock = JSON.parse(t.store.meta('clock') ?? '{}');
    expect(clock.frozen).toBe(false);
    // Real time passes between the readings: the offset is the hour advanced, give or take that.
    expect(clock.offset_ms).toBeGreaterThan(3_500_000);
    expect(clock.offset_ms).toBeLessThanOrEqual(3_600_000);
  });

  it('starts from what the store holds: a kept log written before it is not written again', async () => {
    const emulator = createEmulatorWith({ seed: 1, timing: 'manual' });
    const store = await driver.store();
    opened.push({ emulator, store, driver });
    const { kept, state } = keptByAPlugin();
    kept.entries.push({ id: 1, text: 'one' }, { id: 2, text: 'two' });
    const tracker = new ChangeTracker(
      runtimeOf(emulator).context(),
      state,
      recordSources(store, () => {}),
    );
    expect(isEmpty(tracker.next(true).batch)).toBe(true);
  });
});

describe('ChangeTracker: where it starts', () => {
  const driver = SQL_DRIVERS[0];

  /** A context holding a waiting generation it has not committed, and a store that holds it (written whole). */
  async function aWaitingGenerationWrittenWhole() {
    const emulator = createEmulatorWith({ seed: 1, timing: 'manual', ffmpegPath: false });
    const store = await driver.store();
    opened.push({ emulator, store, driver });
    const submitted = await request(emulator.app)
      .post('/v1/media/generations')
      .set('Authorization', `Bearer ${emulator.apiKey}`)
      .set('Idempotency-Key', 'start-0001')
      .send({ model_slug: MODEL_A, prompt: 'a fox', max_credits: 1000 });
    expect(submitted.status).toBe(202);
    const ctx = runtimeOf(emulator).context();
    const generation = ctx.generations.get(submitted.body.generation.id) as Generation;
    ctx.generations.touch(generation);
    store.commit({ upsert: { generations: [generationRow(generation)] } });
    const { state } = keptByAPlugin();
    return { ctx, store, state, generation };
  }

  it('after a whole write, has nothing to write: the generations changed before it are in the store', async () => {
    const { ctx, store, state } = await aWaitingGenerationWrittenWhole();
    const tracker = new ChangeTracker(
      ctx,
      state,
      recordSources(store, () => {}),
    );
    expect(tracker.hasChanges()).toBe(false);
    expect(isEmpty(tracker.next(false).batch)).toBe(true);
  });

  it('resumed, writes the generations the start changed (put back to pending) with its first commit', async () => {
    const { ctx, store, state, generation } = await aWaitingGenerationWrittenWhole();
    const tracker = new ChangeTracker(
      ctx,
      state,
      recordSources(store, () => {}),
      { resumed: true },
    );
    expect(tracker.hasChanges()).toBe(true);
    expect(tracker.next(false).batch.upsert?.generations?.map((r) => r.key)).toEqual([generation.id]);
  });
});

describe('ChangeTracker and a kept log, moved one way only', () => {
  const driver = SQL_DRIVERS[0];
  const journal = (t: Tracked) => t.store.logDocuments('journal', 10, []).map((r) => r.key);

  it('writes the entries a log gained while its oldest stayed', async () => {
    const t = await tracked(driver);
    t.kept.entries.push({ id: 1, text: 'one' });
    t.commit(true);
    t.kept.entries.push({ id: 2, text: 'two' });
    expect(t.commit(true)).toEqual([false, true]);
    expect(journal(t)).toEqual([1, 2]);
    expect(t.store.meta('journal_seq')).toBe('2');
  });

  it('drops the rows a log trimmed though it gained none', async () => {
    const t = await tracked(driver);
    t.kept.entries.push({ id: 1, text: 'one' }, { id: 2, text: 'two' });
    t.commit(true);
    t.kept.first = 2;
    expect(t.commit(true)).toEqual([false, true]);
    expect(journal(t)).toEqual([2]);
  });

  it('drops every row of a log trimmed to nothing', async () => {
    const t = await tracked(driver);
    t.kept.entries.push({ id: 1, text: 'one' }, { id: 2, text: 'two' });
    t.commit(true);
    t.kept.first = 3;
    expect(t.commit(true)).toEqual([false, true]);
    expect(journal(t)).toEqual([]);
  });
});
