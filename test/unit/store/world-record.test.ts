// One world's record over a real SQLite store: what its commits write (the world whole after an import, then what
// changed), a kept state it has not read (409), a store read back (resumed, or read whole and rewritten), the reload
// after a failed write.
import { afterEach, describe, expect, it } from 'vitest';
import type { Emulator } from '../../../src/index.js';
import { StorageFailure, type SqliteStore } from '../../../src/infra/sqlite-store.js';
import { exportState, importState, type DocumentDeps } from '../../../src/store/state-document.js';
import { TIMERS_IN_STORE } from '../../../src/store/state-rows.js';
import { StoreError } from '../../../src/store/store-errors.js';
import { storeOfRecordOver } from '../../../src/store/store-of-record.js';
import { type RecordCommits, WorldRecord } from '../../../src/store/world-record.js';
import type { KeptValue } from '../../../src/wiring/kept-state.js';
import { SQL_DRIVERS } from '../../helpers/sql-drivers.js';
import { worldDeps } from '../../helpers/world-deps.js';

const driver = SQL_DRIVERS[0];
const emulators: Emulator[] = [];
afterEach(async () => {
  for (const emulator of emulators.splice(0)) await emulator.close();
  driver.cleanUp();
});

/** A world whose plugins keep one value beside the service's records: its settings, told where each comes from. */
function withSettings(rules: string[] = []) {
  const plugin = { settings: { rules }, origins: [] as string[] };
  const section: KeptValue = {
    kind: 'value',
    name: 'settings',
    empty: { rules: [] },
    current: () => plugin.settings,
    prepare: (value, origin) => {
      plugin.origins.push(origin);
      return () => {
        plugin.settings = value as typeof plugin.settings;
      };
    },
  };
  return { plugin, deps: { ...worldDeps(emulators), kept: { sections: [section] } } };
}

/** A change in the world's memory: a funding of its seeded account. */
const fund = (deps: DocumentDeps, amount: number) => {
  const ctx = deps.runtime.context();
  ctx.ledger.append({ type: 'funding', accountId: deps.runtime.accountId, amount, at: ctx.clock.now() });
};
const balance = (deps: DocumentDeps) => deps.runtime.context().ledger.balance(deps.runtime.accountId);

/** How the disk answers: every write, or every write and read, refused as a full (or failing) disk refuses it. */
type Disk = { writes: 'ok' | 'full'; reads: 'ok' | 'failing' };

function onDisk(store: SqliteStore, disk: Disk): SqliteStore {
  return new Proxy(store, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (name === 'commit' && disk.writes === 'full')
          throw new StorageFailure('SQLITE_FULL', 'database or disk is full');
        if (name === 'meta' && disk.reads === 'failing') throw new StorageFailure('SQLITE_IOERR', 'disk I/O error');
        return value.apply(target, args);
      };
    },
  });
}

/**
 * A world's record with the simplest commits: each one this world's batch alone, as the store of record writes a
 * single world's. A refused write throws, as there.
 */
function recorded(raw: SqliteStore, deps: DocumentDeps = worldDeps(emulators), persistent = false) {
  const disk: Disk = { writes: 'ok', reads: 'ok' };
  const logged: string[] = [];
  const commits: RecordCommits = {
    commit(record) {
      record.writing = true;
      try {
        const prepared = record.prepare(false);
        if (!prepared) return;
        record.store.commit(prepared.batch);
        prepared.accept();
      } finally {
        record.writing = false;
      }
    },
    log: (line) => logged.push(line),
  };
  const record = new WorldRecord(onDisk(raw, disk), deps, commits, persistent);
  const ledgerRows = () => raw.documents('ledger').length;
  return { record, deps, disk, logged, ledgerRows, commit: () => commits.commit(record) };
}

/** A database that holds a world's state: its seeded account, funded by 30 credits more than a new one. */
async function keptState() {
  const raw = await driver.store();
  const first = recorded(raw);
  first.commit();
  fund(first.deps, 30);
  first.commit();
  return { raw, balance: balance(first.deps), rows: first.ledgerRows() };
}

describe('a world’s record', () => {
  it('writes the world whole first, then only what changed, and says when nothing is left to write', async () => {
    const raw = await driver.store();
    const { record, deps, commit, ledgerRows } = recorded(raw);
    expect(raw.hasState()).toBe(false);
    expect(record.nothingToWrite()).toBe(false);
    commit();
    expect(raw.hasState()).toBe(true);
    const rows = ledgerRows();
    expect(record.nothingToWrite()).toBe(true);
    expect(record.prepare(false)).toBeUndefined();
    fund(deps, 5);
    expect(record.nothingToWrite()).toBe(false);
    commit();
    expect([ledgerRows(), record.nothingToWrite()]).toEqual([rows + 1, true]);
  });

  it('writes a context an import swapped in whole, replacing the rows of the one before, then follows the new one', async () => {
    const raw = await driver.store();
    const { record, deps, commit, ledgerRows } = recorded(raw);
    commit();
    const document = exportState(deps);
    const rows = ledgerRows();
    fund(deps, 5);
    fund(deps, 6);
    commit();
    expect(ledgerRows()).toBe(rows + 2);
    await importState(deps, JSON.parse(JSON.stringify(document)));
    expect(record.nothingToWrite()).toBe(false);
    commit();
    expect(ledgerRows()).toBe(rows);
    expect(record.nothingToWrite()).toBe(true);
    fund(deps, 7);
    commit();
    expect(ledgerRows()).toBe(rows + 1);
  });

  it('writes nothing once closed', async () => {
    const raw = await driver.store();
    const { record, deps, commit, ledgerRows } = recorded(raw);
    commit();
    const rows = ledgerRows();
    record.closed = true;
    fund(deps, 5);
    expect(record.prepare(false)).toBeUndefined();
    commit();
    expect(ledgerRows()).toBe(rows);
  });
});

describe('a kept state not read yet', () => {
  it('refuses every change with 409 state_not_loaded naming the file, writes nothing, and writes once it is read', async () => {
    const kept = await keptState();
    const deps = worldDeps(emulators);
    const store = storeOfRecordOver(kept.raw, deps, { persistent: true, log: () => {}, defer: setImmediate });
    fund(deps, 5);
    let refusal: unknown;
    try {
      store.commit();
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(StoreError);
    expect(refusal).toMatchObject({
      code: 'state_not_loaded',
      message: `State file ${kept.raw.path} holds a state this emulator has not loaded: call start() (or startEmulator()) before using it, so nothing overwrites it.`,
    });
    expect(kept.raw.documents('ledger').length).toBe(kept.rows);
    expect(await store.open()).toBe(true);
    expect(balance(deps)).toBe(kept.balance);
    fund(deps, 5);
    store.commit();
    expect(kept.raw.documents('ledger').length).toBe(kept.rows + 1);
  });

  it('is no obstacle when the database outlives the emulator but holds no state yet', async () => {
    const raw = await driver.store();
    const { commit, deps, ledgerRows } = recorded(raw, worldDeps(emulators), true);
    commit();
    fund(deps, 5);
    commit();
    expect(ledgerRows()).toBeGreaterThan(0);
    expect(raw.hasState()).toBe(true);
  });

  it('is no obstacle to a private database, which nothing else reads', async () => {
    const kept = await keptState();
    const { commit } = recorded(kept.raw, worldDeps(emulators), false);
    expect(() => commit()).not.toThrow();
  });
});

describe('loading a stored state', () => {
  it('resumes a store that keeps its sums: the same balance, and a change afterwards adds one row', async () => {
    const kept = await keptState();
    const { record, deps, commit, ledgerRows } = recorded(kept.raw);
    await record.load();
    expect(balance(deps)).toBe(kept.balance);
    expect(record.nothingToWrite()).toBe(true);
    fund(deps, 5);
    commit();
    expect(ledgerRows()).toBe(kept.rows + 1);
    expect(balance(deps)).toBe(kept.balance + 5);
  });

  it('reads an older store whole and writes it again at once, so the next start resumes it', async () => {
    const kept = await keptState();
    // An older emulator kept no generations' due times in their rows.
    kept.raw.commit({ meta: { timers: 'older' } });
    const { record, deps, ledgerRows } = recorded(kept.raw);
    await record.load();
    expect(balance(deps)).toBe(kept.balance);
    expect(kept.raw.meta('timers')).toBe(TIMERS_IN_STORE);
    expect(ledgerRows()).toBe(kept.rows);
    expect(record.nothingToWrite()).toBe(true);
  });

  it('resumes a store on a disk that takes no more writes: resuming needs none', async () => {
    const kept = await keptState();
    const { record, deps, disk } = recorded(kept.raw);
    disk.writes = 'full';
    await record.load();
    expect(balance(deps)).toBe(kept.balance);
  });

  it('hands the plugins’ sections what the store kept, as the store’s own state (not an import), resumed or read whole', async () => {
    const raw = await driver.store();
    const first = withSettings(['kept']);
    recorded(raw, first.deps).commit();
    for (const older of [false, true]) {
      if (older) raw.commit({ meta: { timers: 'older' } });
      const { plugin, deps } = withSettings();
      await recorded(raw, deps).record.load();
      expect(plugin).toEqual({ settings: { rules: ['kept'] }, origins: ['store'] });
    }
  });

  it('writes nothing for a commit that comes while the state is being read, so what a plugin kept is not overwritten', async () => {
    const raw = await driver.store();
    recorded(raw, withSettings(['kept']).deps).commit();
    const reader = recorded(raw, withSettings().deps);
    const loading = reader.record.load();
    // A group commit or the background one, while the state read is not installed yet.
    reader.commit();
    await loading;
    const { plugin, deps } = withSettings();
    await recorded(raw, deps).record.load();
    expect(plugin.settings).toEqual({ rules: ['kept'] });
  });

  it('says a commit may have something to write while a state is being read: an answer then waits for the commit', async () => {
    const kept = await keptState();
    const { record } = recorded(kept.raw);
    await record.load();
    expect(record.nothingToWrite()).toBe(true);
    kept.raw.commit({ meta: { timers: 'older' } });
    const loading = record.load();
    expect(record.nothingToWrite()).toBe(false);
    await loading;
    expect(record.nothingToWrite()).toBe(true);
  });
});

describe('the reload after a refused write', () => {
  it('reads the world back from its rows: the change the disk refused is gone, and later ones are written', async () => {
    const kept = await keptState();
    const { record, deps, disk, commit, ledgerRows } = recorded(kept.raw);
    await record.load();
    fund(deps, 7);
    disk.writes = 'full';
    expect(() => commit()).toThrow(StorageFailure);
    disk.writes = 'ok';
    const before = record.epoch;
    const reload = record.restore();
    // Meanwhile: reloading, and a change begun before it is told apart by the epoch.
    expect(record.restoring).toBe(true);
    expect(record.epoch).not.toBe(before);
    await reload;
    expect(record.restoring).toBe(false);
    expect(record.epoch).not.toBe(before);
    expect(balance(deps)).toBe(kept.balance);
    fund(deps, 5);
    commit();
    expect(ledgerRows()).toBe(kept.rows + 1);
  });

  it('runs once when asked again while it runs', async () => {
    const kept = await keptState();
    const { record } = recorded(kept.raw);
    const before = record.epoch;
    const first = record.restore();
    const during = record.epoch;
    await record.restore();
    expect(record.epoch).toBe(during);
    await first;
    expect(record.epoch - before).toBe(2);
  });

  it('logs a reload the store cannot answer, naming the file, and ends it', async () => {
    const kept = await keptState();
    const { record, disk, logged } = recorded(kept.raw);
    disk.reads = 'failing';
    const before = record.epoch;
    await record.restore();
    expect(logged).toEqual([`could not reload the state from ${kept.raw.path}: disk I/O error`]);
    expect([record.restoring, record.epoch - before]).toEqual([false, 2]);
  });
});
