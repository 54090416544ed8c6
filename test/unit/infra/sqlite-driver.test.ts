// The SQLite connection behaves the same over every binding: the one this Node picks (node:sqlite or better-sqlite3) and sql.js.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { openSqlConnection, sqliteErrorCode } from '../../../src/infra/sqlite-driver.js';
import { loadWasmSqlite } from '../../../src/infra/sqlite-wasm-driver.js';
import { SQL_DRIVERS } from '../../helpers/sql-drivers.js';

const folder = mkdtempSync(join(tmpdir(), 'sqlite-driver-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function codeOf(work: () => unknown): string {
  try {
    work();
  } catch (error) {
    return sqliteErrorCode(error);
  }
  return 'no error';
}

describe.each(SQL_DRIVERS)('the SQL connection over $name', (driver) => {
  afterEach(() => driver.cleanUp());

  it('rolls a failed transaction back whole and names the SQLite code', () => {
    const db = driver.raw();
    db.exec('CREATE TABLE t (key INTEGER PRIMARY KEY, json TEXT NOT NULL)');
    const insert = db.prepare('INSERT INTO t (key, json) VALUES (?, ?)');
    const failure = codeOf(() =>
      db.transaction(() => {
        insert.run(1, '{}');
        insert.run(2, null);
      }),
    );
    expect(failure).toBe('SQLITE_CONSTRAINT');
    expect(db.prepare('SELECT count(*) AS n FROM t').get<{ n: number }>()).toEqual({ n: 0 });
    db.transaction(() => insert.run(3, '{}'));
    expect(db.prepare('SELECT key FROM t').all<{ key: number }>()).toEqual([{ key: 3 }]);
    db.close();
    // A second close is harmless.
    db.close();
  });

  it('says SQLITE_FULL when the database reaches its size limit, and keeps what was committed before', () => {
    const db = driver.raw();
    db.exec('CREATE TABLE t (key INTEGER PRIMARY KEY, json TEXT NOT NULL)');
    const insert = db.prepare('INSERT INTO t (key, json) VALUES (?, ?)');
    db.transaction(() => insert.run(1, 'kept'));
    const pages = db.prepare('PRAGMA page_count').get<{ page_count: number }>()?.page_count ?? 0;
    db.exec(`PRAGMA max_page_count = ${pages + 2}`);
    const failure = codeOf(() =>
      db.transaction(() => {
        for (let key = 2; key < 100; key++) insert.run(key, 'x'.repeat(4000));
      }),
    );
    expect(failure).toBe('SQLITE_FULL');
    expect(db.prepare('SELECT key, json FROM t').all()).toEqual([{ key: 1, json: 'kept' }]);
  });

  it('calls a JavaScript function from SQL, with its arguments and result as SQL values', () => {
    const db = driver.raw();
    db.defineFunction('joined', (a, b) => `${a}|${b}`);
    expect(db.prepare('SELECT joined(?, ?) AS v').get<{ v: string }>('é', 42)).toEqual({ v: 'é|42' });
    expect(db.prepare('SELECT joined(NULL, 1.5) AS v').get<{ v: string }>()).toEqual({ v: 'null|1.5' });
  });

  it('answers undefined for no row and reads rows after a write in the same statement object', () => {
    const db = driver.raw();
    db.exec('CREATE TABLE t (key TEXT PRIMARY KEY, n INTEGER)');
    const byKey = db.prepare('SELECT n FROM t WHERE key = ?');
    expect(byKey.get('a')).toBeUndefined();
    db.prepare('INSERT INTO t VALUES (?, ?), (?, ?)').run('a', 1, 'b', 2);
    expect([byKey.get('a'), byKey.get('b'), byKey.all('c')]).toEqual([{ n: 1 }, { n: 2 }, []]);
  });
});

describe('the SQL connection over sql.js', () => {
  it('says SQLITE_NOTADB for an image that is not a database', async () => {
    const sqlite = await loadWasmSqlite();
    const db = sqlite.open(new TextEncoder().encode('not a database, only text. '.repeat(200)));
    expect(codeOf(() => db.exec('SELECT * FROM sqlite_master'))).toBe('SQLITE_NOTADB');
    db.close();
  });
});

describe(`the SQLite connection on Node ${process.versions.node}`, () => {
  it('uses node:sqlite where Node has it built in, and the better-sqlite3 addon elsewhere', () => {
    const builtIn = process.getBuiltinModule?.('node:sqlite') !== undefined;
    const db = openSqlConnection('');
    expect(db.driver).toBe(builtIn ? 'node:sqlite' : 'better-sqlite3');
    db.close();
  });

  it('says SQLITE_BUSY for a file another connection holds exclusively, and SQLITE_NOTADB for one that is not a database', () => {
    const path = join(folder, 'held.db');
    const first = openSqlConnection(path);
    first.exec('PRAGMA locking_mode = EXCLUSIVE');
    first.exec('CREATE TABLE t (x)');
    const second = openSqlConnection(path);
    expect(codeOf(() => second.exec('CREATE TABLE IF NOT EXISTS t (x)'))).toBe('SQLITE_BUSY');
    second.close();
    first.close();
    const text = join(folder, 'text.db');
    writeFileSync(text, 'not a database, only text. '.repeat(200));
    const opened = openSqlConnection(text);
    expect(codeOf(() => opened.exec('SELECT * FROM sqlite_master'))).toBe('SQLITE_NOTADB');
    opened.close();
  });

  it('prints no ExperimentalWarning when it loads node:sqlite (Node 22 would)', () => {
    const script = `import { openSqlConnection } from ${JSON.stringify(new URL('../../../src/infra/sqlite-driver.ts', import.meta.url).href)};
openSqlConnection('').close(); console.log('opened');`;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(run.stdout.trim()).toBe('opened');
    expect(run.stderr).not.toContain('ExperimentalWarning');
  });
});
