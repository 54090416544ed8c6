// The SQLite store, over every binding: a batch is committed whole or not at all, the meta table, the migration of an
// older store; and on Node's files, one writer per file and a damaged file refused.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteStore, StoreRefused } from '../../../src/infra/sqlite-connection.js';
import type { DocumentRow, SqliteStore } from '../../../src/infra/sqlite-store.js';
import { SQL_DRIVERS } from '../../helpers/sql-drivers.js';

const open: SqliteStore[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const s of open.splice(0)) s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function fileStore(): { path: string; store: SqliteStore } {
  const dir = mkdtempSync(join(tmpdir(), 'sqlite-store-'));
  dirs.push(dir);
  const path = join(dir, 'state.db');
  const store = openSqliteStore({ path, sync: 'normal' });
  open.push(store);
  return { path, store };
}

describe.each(SQL_DRIVERS)('the store over $name', (driver) => {
  afterEach(() => driver.cleanUp());

  it('commits a batch whole and reads its rows back in key order', async () => {
    const store = await driver.store();
    store.commit({
      meta: { clock: '{"now":1}', signing_secret: 'abc' },
      upsert: {
        ledger: [
          { key: 2, json: '{"seq":2}' },
          { key: 1, json: '{"seq":1}' },
        ],
      },
    });
    expect(store.documents('ledger').map((r) => r.key)).toEqual([1, 2]);
    expect([store.meta('signing_secret'), store.hasState()]).toEqual(['abc', true]);
  });

  it('leaves nothing of a batch that fails half-way', async () => {
    const store = await driver.store();
    store.commit({ upsert: { ledger: [{ key: 1, json: '{}' }] } });
    // The generation row lacks its NOT NULL columns: the statement fails after the ledger rows were written.
    expect(() =>
      store.commit({
        meta: { clock: 'x' },
        upsert: { ledger: [{ key: 2, json: '{}' }], generations: [{ key: 'gen_1', json: '{}' }] },
      }),
    ).toThrow();
    expect(store.documents('ledger').map((r) => r.key)).toEqual([1]);
    expect(store.meta('clock')).toBeUndefined();
  });

  it('empties the document tables for a whole replacement, keeping meta', async () => {
    const store = await driver.store();
    store.commit({ meta: { signing_secret: 's' }, upsert: { accounts: [{ key: 'a', json: '{}' }] } });
    store.commit({ replaceAll: true, upsert: { accounts: [{ key: 'b', json: '{}' }] } });
    expect(store.documents('accounts').map((r) => r.key)).toEqual(['b']);
    expect(store.meta('signing_secret')).toBe('s');
  });

  it('keeps text keys whole, NUL and % included (an idempotency key joins the API key id and the client key with NUL)', async () => {
    const store = await driver.store();
    const keys = ['1\u0000retry-42', '2\u0000100%', '3\u0000%00 and %25', 'plain'];
    store.commit({
      upsert: { idempotency: keys.map((key, i) => ({ key, createdAt: i, json: JSON.stringify({ n: i }) })) },
    });
    expect(
      store
        .documents('idempotency')
        .map((row) => row.key)
        .sort(),
    ).toEqual([...keys].sort());
    expect(keys.map((key) => store.document('idempotency', key))).toEqual(keys.map((_, n) => JSON.stringify({ n })));
    store.commit({ delete: { idempotency: [keys[0]] } });
    expect(store.document('idempotency', keys[0])).toBeUndefined();
    expect(store.document('idempotency', '1')).toBeUndefined();
  });

  it("reads a log with its large members only on its newest rows: an older row's bodies are neither read nor parsed", async () => {
    const store = await driver.store();
    const entry = (id: number) =>
      JSON.stringify({ id, path: '/p', requestBody: { text: `in ${id}` }, responseBody: 'x' });
    store.commit({ upsert: { journal: [1, 2, 3, 4].map((id) => ({ key: id, json: entry(id) })) } });
    const rows = store.logDocuments('journal', 2, ['requestBody', 'responseBody']).map((r) => JSON.parse(r.json));
    expect(rows.map((r) => [r.id, r.requestBody, r.responseBody])).toEqual([
      [1, null, null],
      [2, null, null],
      [3, { text: 'in 3' }, 'x'],
      [4, { text: 'in 4' }, 'x'],
    ]);
    expect(rows[0].path).toBe('/p');
  });

  it('answers waiting generations by due time then seq, a page after a position, each kind from its own index', async () => {
    const store = await driver.store();
    const row = (n: number, status: string, dueAt?: number, manualOnly = false): DocumentRow => ({
      key: `gen_${n}`,
      seq: n,
      accountId: 'a',
      status,
      createdAt: 0,
      ...(dueAt === undefined ? {} : { dueAt, manualOnly }),
      json: '{}',
    });
    store.commit({
      upsert: {
        generations: [
          row(1, 'pending', 30),
          row(2, 'pending', 10),
          row(3, 'pending', 30),
          row(4, 'running'),
          row(5, 'pending', 20, true),
          row(6, 'pending', 10),
        ],
      },
    });
    const keys = (query: Parameters<SqliteStore['waitingGenerations']>[0]) =>
      store.waitingGenerations(query).map((r) => [r.key, r.dueAt, r.rank]);
    expect(keys({ manualOnly: false, upTo: 1e15, limit: 10 })).toEqual([
      ['gen_2', 10, 2],
      ['gen_6', 10, 6],
      ['gen_1', 30, 1],
      ['gen_3', 30, 3],
    ]);
    expect(keys({ manualOnly: false, after: { dueAt: 10, rank: 6 }, upTo: 30, limit: 1 })).toEqual([['gen_1', 30, 1]]);
    expect(keys({ manualOnly: false, upTo: 29, limit: 10 })).toHaveLength(2);
    expect(keys({ manualOnly: true, upTo: 1e15, limit: 10 })).toEqual([['gen_5', 20, 5]]);
    // A move leaves the index with the row's status: a running row carries no due time.
    store.commit({ upsert: { generations: [row(2, 'running')] } });
    expect(keys({ manualOnly: false, upTo: 1e15, limit: 1 })).toEqual([['gen_6', 10, 6]]);
  });

  it('finds generations by text with the JavaScript function the store defines (folded_contains), folding as JavaScript does', async () => {
    const store = await driver.store();
    const generation = (n: number, prompt: string): DocumentRow => ({
      key: `gen_${n}`,
      seq: n,
      accountId: 'a',
      status: 'completed',
      createdAt: n,
      json: JSON.stringify({ id: `gen_${n}`, prompt }),
    });
    store.commit({
      upsert: { generations: [generation(1, 'ÉCLAIR at dawn'), generation(2, 'a harbour'), generation(3, 'éclair')] },
    });
    const page = (text: string) => store.generationKeys({ text, before: Number.POSITIVE_INFINITY, limit: 10 });
    // SQLite's own lower() folds ASCII only: 'ÉCLAIR' would not match 'éclair'.
    expect(page('éclair')).toEqual(['gen_3', 'gen_1']);
    expect(page('gen_2')).toEqual(['gen_2']);
    expect(store.generationCounts({ text: 'harbour' })).toEqual({ completed: 1 });
  });

  it('adds the due-time columns to a store written before them, and drops the timer index they replace', async () => {
    const store = await driver.storeAfter((old) =>
      old.exec(`CREATE TABLE generations (key TEXT PRIMARY KEY, seq INTEGER NOT NULL, account_id TEXT NOT NULL,
      status TEXT NOT NULL, created_at INTEGER NOT NULL, json TEXT NOT NULL, timer TEXT);
      CREATE INDEX generations_waiting ON generations (seq, key, created_at, timer) WHERE status = 'pending';
      INSERT INTO generations VALUES ('gen_1', 1, 'a', 'pending', 0, '{}', '{"pendingMs":5}');`),
    );
    // The old row has no due time (its state is read whole once, see canResume); a new one has.
    expect(store.waitingGenerations({ manualOnly: false, upTo: 1e15, limit: 10 })).toEqual([]);
    store.commit({
      upsert: {
        generations: [{ key: 'gen_2', seq: 2, accountId: 'a', status: 'pending', createdAt: 0, dueAt: 7, json: '{}' }],
      },
    });
    expect(store.waitingGenerations({ manualOnly: false, upTo: 1e15, limit: 10 })).toEqual([
      { key: 'gen_2', dueAt: 7, rank: 2 },
    ]);
  });
  it("moves a schema-1 store's rows to the default world in one migration, leaving other worlds empty", async () => {
    const store = await driver.storeAfter((old) =>
      old.exec(`CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
      CREATE TABLE accounts (key TEXT PRIMARY KEY, json TEXT NOT NULL);
      CREATE TABLE ledger (key INTEGER PRIMARY KEY, json TEXT NOT NULL);
      INSERT INTO meta VALUES ('schema', '1'), ('clock', '{"now":1}');
      INSERT INTO accounts VALUES ('acct_local', '{"id":"acct_local"}');
      INSERT INTO ledger VALUES (1, '{"seq":1}'), (2, '{"seq":2}');`),
    );
    expect(store.meta('clock')).toBe('{"now":1}');
    expect(store.documents('accounts')).toEqual([{ key: 'acct_local', json: '{"id":"acct_local"}' }]);
    expect(store.documents('ledger').map((row) => row.key)).toEqual([1, 2]);
    const sandbox = store.forWorld('sbx_1');
    expect(sandbox.documents('ledger')).toEqual([]);
    expect(sandbox.hasState()).toBe(false);
    sandbox.commit({ meta: { clock: '{"now":2}' }, upsert: { ledger: [{ key: 1, json: '{"sandbox":true}' }] } });
    expect(store.documents('ledger').map((row) => row.json)).toEqual(['{"seq":1}', '{"seq":2}']);
    store.dropWorld('sbx_1');
    expect(sandbox.documents('ledger')).toEqual([]);
    expect(store.documents('ledger')).toHaveLength(2);
  });

  it('refuses a store written by a newer schema in one sentence, before its tables are looked at', async () => {
    await expect(
      driver.storeAfter((newer) =>
        newer.exec(`CREATE TABLE meta (world TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL,
          PRIMARY KEY (world, key)) WITHOUT ROWID; INSERT INTO meta VALUES ('*', 'schema', '99');`),
      ),
    ).rejects.toThrow(/newer media-gen-emulator \(store schema 99/);
  });
});

describe('the store on a Node file', () => {
  it('refuses a second writer on the same file while the first holds it', () => {
    const { path } = fileStore();
    expect(() => openSqliteStore({ path, sync: 'normal' })).toThrow(StoreRefused);
    expect(() => openSqliteStore({ path, sync: 'normal' })).toThrow(/is in use by another emulator/);
  });

  it('refuses a file that is not a database, in one sentence', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sqlite-store-'));
    dirs.push(dir);
    const path = join(dir, 'state.db');
    writeFileSync(path, 'this is not a database, just text long enough to fill a header and more'.repeat(20));
    expect(() => openSqliteStore({ path, sync: 'normal' })).toThrow(/is not a readable SQLite database/);
  });
});
