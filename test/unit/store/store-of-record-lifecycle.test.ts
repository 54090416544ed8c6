// The store of record from open to close, where the first tests stop: what an open that fails answers, when the kept
// logs are written, a closed or dropped world that writes no more, a world whose reload is still running at close, and
// a fault in one world of a group commit.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DomainError } from '../../../src/domain/errors.js';
import type { Emulator } from '../../../src/index.js';
import { StorageFailure, type SqliteStore } from '../../../src/infra/sqlite-store.js';
import type { DocumentDeps } from '../../../src/store/state-document.js';
import { type StoreCoreOptions, type StoreOfRecord, storeOfRecordOver } from '../../../src/store/store-of-record.js';
import type { KeptLog, KeptState } from '../../../src/wiring/kept-state.js';
import { SQL_DRIVERS } from '../../helpers/sql-drivers.js';
import { worldDeps } from '../../helpers/world-deps.js';

const driver = SQL_DRIVERS[0];
const emulators: Emulator[] = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const emulator of emulators.splice(0)) await emulator.close();
  driver.cleanUp();
});

/** What the disk does now: 'ok'; 'full' refuses writes; 'unreadable' refuses writes and reads (a reload fails too). */
type Disk = { mode: 'ok' | 'full' | 'unreadable' };
const WRITES = new Set(['commit', 'commitTogether', 'keepWorld', 'dropWorld']);
const full = () => new StorageFailure('SQLITE_FULL', 'database or disk is full');

/** `store` (and its other worlds) on a disk a test can fill; its close is left to the driver's clean-up. */
function onDisk(store: SqliteStore, disk: Disk): SqliteStore {
  return new Proxy(store, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver);
      if (typeof value !== 'function') return value;
      if (name === 'forWorld') return (world: string) => onDisk(target.forWorld(world), disk);
      if (name === 'close') return () => {};
      return (...args: unknown[]) => {
        if (disk.mode === 'unreadable' && name === 'meta') throw full();
        if (disk.mode !== 'ok' && WRITES.has(String(name))) throw full();
        return value.apply(target, args);
      };
    },
  });
}

/** A plugin's kept parts: a journal (a kept log) and a value whose reading can be broken. */
function keptParts() {
  const entries: { id: number }[] = [];
  const value = { broken: false };
  const journal: KeptLog = {
    kind: 'log',
    name: 'journal',
    largeMembers: { keep: 10, members: [] },
    current: () => ({ seq: entries.at(-1)?.id ?? 0, entries: [...entries] }),
    lastId: () => entries.at(-1)?.id ?? 0,
    firstId: () => entries[0]?.id ?? 0,
    after: (id) => entries.filter((e) => e.id > id),
    prepare: () => () => undefined,
  };
  const kept: KeptState = {
    sections: [
      {
        kind: 'value',
        name: 'settings',
        empty: {},
        current: () => {
          if (value.broken) throw new TypeError('the plugin’s value broke');
          return {};
        },
        prepare: () => () => undefined,
      },
      journal,
    ],
  };
  return { kept, value, note: () => entries.push({ id: (entries.at(-1)?.id ?? 0) + 1 }) };
}

async function opened(options: Partial<StoreCoreOptions> = {}) {
  const raw = await driver.store();
  const disk: Disk = { mode: 'ok' };
  const logged: string[] = [];
  const parts = keptParts();
  const deps: DocumentDeps = { ...worldDeps(emulators), kept: parts.kept };
  const store = storeOfRecordOver(onDisk(raw, disk), deps, {
    persistent: false,
    log: (line) => logged.push(line),
    defer: (settle) => setImmediate(settle),
    ...options,
  });
  await store.open();
  store.commit();
  return { raw, disk, logged, deps, store, parts };
}

/** A change made in a world's memory: a funding of its account. */
const fund = (on: DocumentDeps) => {
  const ctx = on.runtime.context();
  ctx.ledger.append({ type: 'funding', accountId: 'acct_000001', amount: 5, at: ctx.clock.now() });
};
const ledgerRows = (raw: SqliteStore, world?: string) => (world ? raw.forWorld(world) : raw).documents('ledger').length;
const journal = (raw: SqliteStore, world?: string) =>
  (world ? raw.forWorld(world) : raw).logDocuments('journal', 10, []).map((row) => row.key);

/** A second world of the same database, with kept parts of its own, opened and written once. */
async function anotherWorld(store: StoreOfRecord, world = 'sbx_1') {
  const parts = keptParts();
  const otherDeps: DocumentDeps = { ...worldDeps(emulators), kept: parts.kept };
  const other = store.forWorld(world, otherDeps);
  await other.open();
  other.commit();
  return { otherDeps, other, parts };
}

const refusal = (run: () => unknown): unknown => {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a refusal');
};
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a refusal');
    },
    (error: unknown) => error,
  );

/** A database holding a world's state, written by an earlier store of record. */
async function keptState() {
  const raw = await driver.store();
  const earlier = storeOfRecordOver(raw, worldDeps(emulators), {
    persistent: false,
    log: () => {},
    defer: setImmediate,
  });
  await earlier.open();
  earlier.commit();
  return raw;
}

/** A store of record over a database that outlives the emulator, as a --state-file opens it (nothing logged). */
const persistentOver = (sqlite: SqliteStore, deps: DocumentDeps) =>
  storeOfRecordOver(sqlite, deps, { persistent: true, log: () => {}, defer: setImmediate });

describe('opening a kept state', () => {
  it('answers storage_full, not invalid_state, when rewriting an older store meets a full disk', async () => {
    const raw = await keptState();
    // A store written before the due times were kept is read whole and written again at once.
    raw.commit({ meta: { timers: 'older' } });
    const store = persistentOver(onDisk(raw, { mode: 'full' }), worldDeps(emulators));
    const error = await failure(store.open());
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({
      code: 'storage_full',
      message:
        'The change could not be stored (SQLITE_FULL): the disk holding the state file is full or failing. Nothing was changed or charged; free space and retry the request.',
    });
  });

  it('answers a kept part’s own refusal as invalid_state naming the file, with only its closing period dropped', async () => {
    const raw = await keptState();
    const refused: KeptState = {
      sections: [
        {
          kind: 'value',
          name: 'settings',
          empty: {},
          current: () => ({}),
          prepare: () => {
            throw new DomainError('invalid_state', 'rules version 1.2 are not read by this emulator.');
          },
        },
      ],
    };
    const store = persistentOver(raw, { ...worldDeps(emulators), kept: refused });
    const error = await failure(store.open());
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({
      code: 'invalid_state',
      message: `The stored state ${raw.path} cannot be loaded: rules version 1.2 are not read by this emulator. It was left as it was.`,
    });
  });
});

describe('the kept logs', () => {
  it('are left out of a commit made for a request, and written by the first world’s close', async () => {
    const { raw, store, parts } = await opened();
    parts.note();
    store.commit();
    expect(journal(raw)).toEqual([]);
    await store.close();
    expect(journal(raw)).toEqual([1]);
  });

  it('are written when another world closes', async () => {
    const { raw, store } = await opened();
    const { other, parts } = await anotherWorld(store);
    parts.note();
    await other.close();
    expect(journal(raw, 'sbx_1')).toEqual([1]);
  });

  it('are written by the background commit of a store that outlives the emulator', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const { raw, store, parts } = await opened({ persistent: true });
    parts.note();
    vi.advanceTimersByTime(1000);
    expect(journal(raw)).toEqual([1]);
    await store.close({ write: false });
  });
});

describe('a world that is gone', () => {
  it('writes nothing more once dropped, even when committed', async () => {
    const { raw, store } = await opened();
    const { otherDeps, other } = await anotherWorld(store);
    other.drop();
    fund(otherDeps);
    expect(() => other.commit()).not.toThrow();
    expect(ledgerRows(raw, 'sbx_1')).toBe(0);
  });

  it('writes nothing more once closed, even when committed', async () => {
    const { raw, store } = await opened();
    const { otherDeps, other } = await anotherWorld(store);
    await other.close();
    const theirs = ledgerRows(raw, 'sbx_1');
    fund(otherDeps);
    other.commit();
    expect(ledgerRows(raw, 'sbx_1')).toBe(theirs);
  });

  it('added after the database closed, writes nothing and answers at once', async () => {
    const { raw, store } = await opened();
    await store.close();
    const lateDeps: DocumentDeps = { ...worldDeps(emulators), kept: { sections: [] } };
    const late = store.forWorld('sbx_2', lateDeps);
    fund(lateDeps);
    expect(() => late.commit()).not.toThrow();
    expect(ledgerRows(raw, 'sbx_2')).toBe(0);
    const exchange = { dispatch: { mutates: true } } as never;
    late.hooks.before(exchange);
    expect(late.hooks.gate(exchange, { status: 200, headers: {} })).toBeUndefined();
  });
});

describe('a world whose reload after a refused commit is still running', () => {
  /** A change the disk refused (storage_full), and a reload that could not read the store either: memory still holds it. */
  function refuse(disk: Disk, commit: () => void) {
    disk.mode = 'unreadable';
    expect(refusal(commit)).toMatchObject({ code: 'storage_full' });
    disk.mode = 'ok';
  }

  it('is not written by its own close: the refused change stays unwritten', async () => {
    const { raw, store, disk } = await opened();
    const { otherDeps, other } = await anotherWorld(store);
    const theirs = ledgerRows(raw, 'sbx_1');
    fund(otherDeps);
    refuse(disk, () => other.commit());
    await other.close();
    expect(ledgerRows(raw, 'sbx_1')).toBe(theirs);
  });

  it('is not written by the first world’s close', async () => {
    const { raw, store, disk, deps } = await opened();
    const mine = ledgerRows(raw);
    fund(deps);
    refuse(disk, () => store.commit());
    await store.close();
    expect(ledgerRows(raw)).toBe(mine);
  });
});

describe('a group commit of several worlds', () => {
  it('answers a world whose kept state is unread with 409 state_not_loaded, and writes the others', async () => {
    // A kept state in the first world, which this store of record has not read.
    const raw = await keptState();
    const deps = worldDeps(emulators);
    const store = persistentOver(onDisk(raw, { mode: 'ok' }), deps);
    const { otherDeps, other } = await anotherWorld(store);
    const [mine, theirs] = [ledgerRows(raw), ledgerRows(raw, 'sbx_1')];
    fund(deps);
    fund(otherDeps);
    const [a, b] = [{ dispatch: { mutates: true } } as never, { dispatch: { mutates: true } } as never];
    store.hooks.before(a);
    other.hooks.before(b);
    const answers = await Promise.all([
      store.hooks.gate(a, { status: 200, headers: {} }),
      other.hooks.gate(b, { status: 200, headers: {} }),
    ]);
    const refused = answers[0] as { status: number; body: string };
    expect(refused.status).toBe(409);
    expect(JSON.parse(refused.body).error.code).toBe('state_not_loaded');
    expect(answers[1]).toBeUndefined();
    expect([ledgerRows(raw), ledgerRows(raw, 'sbx_1')]).toEqual([mine, theirs + 1]);
    await store.close({ write: false });
  });

  it('writes none of its worlds when preparing one of them fails with a fault, and logs it', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const { raw, store, logged, deps, parts } = await opened({ persistent: true });
    const { otherDeps } = await anotherWorld(store);
    const [mine, theirs] = [ledgerRows(raw), ledgerRows(raw, 'sbx_1')];
    fund(deps);
    fund(otherDeps);
    parts.value.broken = true;
    vi.advanceTimersByTime(1000);
    expect(logged.at(-1)).toBe(`could not write to ${raw.path}: the plugin’s value broke`);
    expect([ledgerRows(raw), ledgerRows(raw, 'sbx_1')]).toEqual([mine, theirs]);
    await store.close({ write: false });
  });
});
