// The SQLite connection behaves the same over node:sqlite and better-sqlite3: the one this Node picks is tested here.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqlConnection, sqliteErrorCode } from '../../../src/infra/sqlite-driver.js';

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

describe(`the SQLite connection on Node ${process.versions.node}`, () => {
  it('uses node:sqlite where Node has it built in, and the better-sqlite3 addon elsewhere', () => {
    const builtIn = process.getBuiltinModule?.('node:sqlite') !== undefined;
    const db = openSqlConnection('');
    expect(db.driver).toBe(builtIn ? 'node:sqlite' : 'better-sqlite3');
    db.close();
  });

  it('rolls a failed transaction back whole and names the SQLite code', () => {
    const db = openSqlConnection('');
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
