// The store of record over a real SQLite store: what it writes and when, a full disk's answers, a stored state that
// cannot be loaded, and the other worlds of the same database (kept, written, closed, dropped).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DomainError } from '../../../src/domain/errors.js';
import type { Emulator } from '../../../src/index.js';
import { StorageFailure, type SqliteStore } from '../../../src/infra/sqlite-store.js';
import type { DocumentDeps } from '../../../src/store/state-document.js';
import { type StoreCoreOptions, type StoreOfRecord, storeOfRecordOver } from '../../../src/store/store-of-record.js';
import { SQL_DRIVERS } from '../../helpers/sql-drivers.js';
import { worldDeps } from '../../helpers/world-deps.js';

const driver = SQL_DRIVERS[0];
const emulators: Emulator[] = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const emulator of emulators.splice(0)) await emulator.close();
  driver.cleanUp();
});

/** What the disk does with the next writes: 'ok', refuse them as a full disk does, or fail in some other way. */
type Disk = { mode: 'ok' | 'full' | 'broken' };

const WRITES = new Set(['commit', 'commitTogether', 'keepWorld', 'dropWorld']);

/**
 * `store` with a disk a test can fill: its writes (and its other worlds' writes) throw while `disk.mode` says so. Its
 * close is left to the driver's clean-up, so a test reads what the store of record's close wrote.
 */
function onDisk(store: SqliteStore, disk: Disk): SqliteStore {
  return new Proxy(store, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver);
      if (typeof value !== 'function') return value;
      if (name === 'forWorld') return (world: string) => onDisk(target.forWorld(world), disk);
      // Closed by the driver after the test, so a test can read what a close wrote.
      if (name === 'close') return () => {};
      if (!WRITES.has(String(name))) return value.bind(target);
      return (...args: unknown[]) => {
        if (disk.mode === 'full') throw new StorageFailure('SQLITE_FULL', 'database or disk is full');
        if (disk.mode === 'broken') throw new TypeError('the binding broke');
        return value.apply(target, args);
      };
    },
  });
}

async function opened(options: Partial<StoreCoreOptions> = {}, sqlite?: SqliteStore) {
  const raw = sqlite ?? (await driver.store());
  const disk: Disk = { mode: 'ok' };
  const logged: string[] = [];
  const deps = worldDeps(emulators);
  const store = storeOfRecordOver(onDisk(raw, disk), deps, {
    persistent: false,
    log: (line) => logged.push(line),
    defer: (settle) => setImmediate(settle),
    ...options,
  });
  await store.open();
  store.commit();
  /** A change made in this world's memory: a funding of its account. */
  const fund = (on: DocumentDeps = deps, amount = 5) => {
    const ctx = on.runtime.context();
    ctx.ledger.append({ type: 'funding', accountId: 'acct_000001', amount, at: ctx.clock.now() });
  };
  const ledgerRows = (world?: string) => (world ? raw.forWorld(world) : raw).documents('ledger').length;
  return { raw, disk, logged, deps, store, fund, ledgerRows };
}

/** A second world of the same database, opened and written once (its rows start there). */
async function anotherWorld(store: StoreOfRecord) {
  const otherDeps = worldDeps(emulators);
  const other = store.forWorld('sbx_1', otherDeps);
  await other.open();
  other.commit();
  return { otherDeps, other };
}

const refusal = (run: () => unknown): unknown => {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a refusal');
};

describe('the store of record', () => {
  it('writes a change when committed, and nothing once it is closed', async () => {
    const { store, fund, ledgerRows } = await opened();
    const before = ledgerRows();
    fund();
    store.commit();
    expect(ledgerRows()).toBe(before + 1);
    await store.close();
    // A commit after the close writes nothing and does not throw.
    expect(() => store.commit()).not.toThrow();
  });

  it('answers a full disk with storage_full, logs the rollback, and writes the change once the disk has room', async () => {
    const { store, disk, fund, logged, ledgerRows, raw } = await opened();
    const before = ledgerRows();
    fund();
    disk.mode = 'full';
    const error = refusal(() => store.commit());
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ code: 'storage_full' });
    expect((error as Error).message).toBe(
      'The change could not be stored (SQLITE_FULL): the disk holding the state file is full or failing. Nothing was changed or charged; free space and retry the request.',
    );
    expect(logged).toEqual([
      'database or disk is full; the change was rolled back and the state is reloaded from the store',
    ]);
    expect(ledgerRows()).toBe(before);
    expect(raw.hasState()).toBe(true);
  });

  it('lets a failure that is not the disk’s go out as it is', async () => {
    const { store, disk, fund, logged } = await opened();
    fund();
    disk.mode = 'broken';
    expect(refusal(() => store.commit())).toBeInstanceOf(TypeError);
    expect(logged).toEqual([]);
    disk.mode = 'ok';
  });

  it('keeps a meta value, and answers a full disk there with storage_full', async () => {
    const { store, disk } = await opened();
    store.writeMeta('signing_secret', 'abc');
    expect(store.readMeta('signing_secret')).toBe('abc');
    disk.mode = 'full';
    expect(refusal(() => store.writeMeta('signing_secret', 'def'))).toMatchObject({ code: 'storage_full' });
    disk.mode = 'broken';
    expect(refusal(() => store.writeMeta('signing_secret', 'def'))).toBeInstanceOf(TypeError);
    expect(store.readMeta('signing_secret')).toBe('abc');
  });

  it('closes without its last commit when told not to write', async () => {
    const { store, fund, ledgerRows } = await opened();
    const before = ledgerRows();
    fund();
    await store.close({ write: false });
    expect(ledgerRows()).toBe(before);
    // A second close finds it closed.
    await expect(store.close()).resolves.toBeUndefined();
  });

  it('writes its last changes when closed', async () => {
    const { store, fund, ledgerRows } = await opened();
    const before = ledgerRows();
    fund();
    await store.close();
    expect(ledgerRows()).toBe(before + 1);
  });
});

describe('a stored state that cannot be loaded', () => {
  async function corrupt() {
    const raw = await driver.store();
    raw.commit({ meta: { clock: '{not json' } });
    return raw;
  }

  it('is refused with invalid_state, naming the file and the reason, and left as it was', async () => {
    const raw = await corrupt();
    const store = storeOfRecordOver(raw, worldDeps(emulators), {
      persistent: true,
      log: () => {},
      defer: setImmediate,
    });
    const error = await store.open().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ code: 'invalid_state' });
    const message = (error as Error).message;
    expect(message.startsWith(`The stored state ${raw.path} cannot be loaded: `)).toBe(true);
    expect(message.endsWith('. It was left as it was.')).toBe(true);
    expect(message).not.toMatch(/\.\. It was left/);
    expect(raw.meta('clock')).toBe('{not json');
  });

  it('is refused with the host’s own words when it gives them', async () => {
    const raw = await corrupt();
    const reasons: string[] = [];
    const store = storeOfRecordOver(raw, worldDeps(emulators), {
      persistent: true,
      log: () => {},
      defer: setImmediate,
      refusal: (reason) => {
        reasons.push(reason);
        return `Move ${raw.path} away: ${reason}`;
      },
    });
    const error = (await store.open().catch((e: unknown) => e)) as DomainError;
    expect(error.code).toBe('invalid_state');
    expect(error.message).toBe(`Move ${raw.path} away: ${reasons[0]}`);
    expect(reasons[0]).not.toMatch(/\.$/);
  });
});

describe('the other worlds of a store', () => {
  it('keeps a world’s description, and answers a full disk there with storage_full', async () => {
    const { store, disk } = await opened();
    store.keepWorld('sbx_1', '{"label":"kept"}');
    expect(store.keptWorlds()).toEqual([{ id: 'sbx_1', json: '{"label":"kept"}' }]);
    disk.mode = 'full';
    expect(refusal(() => store.keepWorld('sbx_2', '{}'))).toMatchObject({ code: 'storage_full' });
    expect(store.keptWorlds().map((w) => w.id)).toEqual(['sbx_1']);
  });

  it('writes each world’s rows apart, and both worlds’ changes of one turn in one group commit', async () => {
    const { store, fund, ledgerRows } = await opened();
    const { otherDeps, other } = await anotherWorld(store);
    const [mine, theirs] = [ledgerRows(), ledgerRows('sbx_1')];
    fund();
    fund(otherDeps);
    const exchange = () => ({ dispatch: { mutates: true } }) as never;
    const [a, b] = [exchange(), exchange()];
    store.hooks.before(a);
    other.hooks.before(b);
    const answers = [
      store.hooks.gate(a, { status: 200, headers: {} }),
      other.hooks.gate(b, { status: 200, headers: {} }),
    ];
    expect(await Promise.all(answers)).toEqual([undefined, undefined]);
    expect([ledgerRows(), ledgerRows('sbx_1')]).toEqual([mine + 1, theirs + 1]);
  });

  it('closes another world with its last changes written, and keeps the database open for the rest', async () => {
    const { store, fund, ledgerRows } = await opened();
    const { otherDeps, other } = await anotherWorld(store);
    const theirs = ledgerRows('sbx_1');
    fund(otherDeps);
    await other.close();
    expect(ledgerRows('sbx_1')).toBe(theirs + 1);
    // Closed: nothing more of it is written, not even by the first world's last commit.
    fund(otherDeps);
    const mine = ledgerRows();
    fund();
    store.commit();
    expect(ledgerRows()).toBe(mine + 1);
    await store.close();
    expect(ledgerRows('sbx_1')).toBe(theirs + 1);
  });

  it('closes or drops another world without writing once the database is closed', async () => {
    const { store, fund, ledgerRows } = await opened();
    const { otherDeps, other } = await anotherWorld(store);
    await store.close();
    const theirs = ledgerRows('sbx_1');
    fund(otherDeps);
    await expect(other.close()).resolves.toBeUndefined();
    expect(() => other.drop()).not.toThrow();
    expect(ledgerRows('sbx_1')).toBe(theirs);
  });

  it('writes every open world’s last changes when the first world closes', async () => {
    const { store, fund, ledgerRows } = await opened();
    const { otherDeps } = await anotherWorld(store);
    const theirs = ledgerRows('sbx_1');
    fund(otherDeps);
    await store.close();
    expect(ledgerRows('sbx_1')).toBe(theirs + 1);
  });

  it('drops another world: its rows are deleted and nothing more of it is written; the first world is never dropped', async () => {
    const { store, fund, ledgerRows } = await opened();
    expect(() => store.drop()).toThrow('the first world of a store is never dropped');
    const { otherDeps, other } = await anotherWorld(store);
    store.keepWorld('sbx_1', '{}');
    other.drop();
    expect(store.keptWorlds()).toEqual([]);
    expect(ledgerRows('sbx_1')).toBe(0);
    fund(otherDeps);
    await store.close();
    expect(ledgerRows('sbx_1')).toBe(0);
  });
});

describe('a store that outlives the emulator (persistent)', () => {
  it('writes, once a second, the changes nobody asked for, in every world that has been read', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const { store, fund, ledgerRows, deps } = await opened({ persistent: true });
    const { otherDeps } = await anotherWorld(store);
    const [mine, theirs] = [ledgerRows(), ledgerRows('sbx_1')];
    fund(deps);
    fund(otherDeps);
    vi.advanceTimersByTime(999);
    expect(ledgerRows()).toBe(mine);
    vi.advanceTimersByTime(1);
    expect([ledgerRows(), ledgerRows('sbx_1')]).toEqual([mine + 1, theirs + 1]);
    await store.close();
  });

  it('logs a background write the disk refused, without throwing: nothing is written', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const { store, fund, ledgerRows, disk, logged, raw } = await opened({ persistent: true });
    const mine = ledgerRows();
    fund();
    disk.mode = 'full';
    vi.advanceTimersByTime(1000);
    expect(logged.at(-1)).toBe(
      `could not write to ${raw.path}: The change could not be stored (SQLITE_FULL): the disk holding the state file is full or failing. Nothing was changed or charged; free space and retry the request.`,
    );
    expect(ledgerRows()).toBe(mine);
    disk.mode = 'ok';
    await store.close();
  });
});
