// The old JSON --state-file moved into an SQLite database at the same path: the state (snapshot + its log) carried
// over, the old files kept as backups, leftovers of an interrupted migration cleared, and a failure leaving all alone.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteStore, StoreRefused } from '../../../../src/infra/sqlite-connection.js';
import { migrateLegacyStateFile, migrationBackup } from '../../../../src/store/node/state-migration.js';
import { STATE_FORMAT } from '../../../../src/store/state-document.js';
import type { KeptState } from '../../../../src/wiring/kept-state.js';

const NO_SECTIONS: KeptState = { sections: [] };
const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function legacyFile(domain: Record<string, unknown>, log?: string): { folder: string; path: string } {
  const folder = mkdtempSync(join(tmpdir(), 'state-migration-'));
  folders.push(folder);
  const path = join(folder, 'state.json');
  writeFileSync(path, JSON.stringify({ format: STATE_FORMAT, persistence: { epoch: 1 }, domain, control: {} }));
  if (log !== undefined) writeFileSync(`${path}.log`, log);
  return { folder, path };
}

const domain = (ledger: unknown[]) => ({
  clock: { now: 5 },
  timing: {},
  accounts: [{ id: 'acct_1' }],
  keys: [],
  ledger,
  generations: [],
  idempotency: [],
  uploads: [],
});

function ledgerSeqs(path: string): (string | number)[] {
  const store = openSqliteStore({ path, sync: 'off' });
  try {
    return store.documents('ledger').map((row) => row.key);
  } finally {
    store.close();
  }
}

describe('migrateLegacyStateFile', () => {
  it('replaces the JSON state by a database holding the snapshot and its log, keeping both old files beside it', () => {
    const log = `${JSON.stringify({ epoch: 1, clock: { now: 6 }, ledger: [{ seq: 2, amount: 3 }] })}\n`;
    const { folder, path } = legacyFile(domain([{ seq: 1, amount: 10 }]), log);
    const json = readFileSync(path, 'utf8');
    // An interrupted earlier migration's files: cleared before the database is built.
    for (const leftover of ['.migrating', '.migrating-wal', '.migrating-shm'])
      writeFileSync(`${path}${leftover}`, 'torn');
    const lines: string[] = [];

    migrateLegacyStateFile(path, 'off', NO_SECTIONS, (line) => lines.push(line));

    expect(readFileSync(path).subarray(0, 16).toString('latin1')).toBe('SQLite format 3\0');
    expect(ledgerSeqs(path).map(Number)).toEqual([1, 2]);
    const backup = migrationBackup(path);
    expect(backup).toBe(`${path}.pre-sqlite.json`);
    expect(readFileSync(backup, 'utf8')).toBe(json);
    expect(readFileSync(`${backup}.log`, 'utf8')).toBe(log);
    expect(existsSync(`${path}.log`)).toBe(false);
    expect(readdirSync(folder).filter((name) => name.includes('migrating'))).toEqual([]);
    expect(lines).toEqual([
      `migrated the JSON state file ${path} to an SQLite database; the old files are kept as ${backup}(.log)`,
    ]);
  });

  it('keeps no log backup when the JSON state had no log', () => {
    const { folder, path } = legacyFile(domain([{ seq: 1, amount: 10 }]));
    migrateLegacyStateFile(path, 'off', NO_SECTIONS, () => {});
    expect(ledgerSeqs(path).map(Number)).toEqual([1]);
    expect(readdirSync(folder).sort()).toEqual(['state.json', 'state.json.pre-sqlite.json']);
  });

  it('leaves the JSON state as it was, and nothing beside it, when the database cannot be built from it', () => {
    // A state whose domain lacks its lists passes the shape check but cannot be written as rows.
    const { folder, path } = legacyFile({ clock: {}, timing: {} });
    const json = readFileSync(path, 'utf8');
    let thrown: unknown;
    try {
      migrateLegacyStateFile(path, 'off', NO_SECTIONS, () => {});
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(TypeError);
    expect(thrown).not.toBeInstanceOf(StoreRefused);
    expect(readFileSync(path, 'utf8')).toBe(json);
    expect(readdirSync(folder)).toEqual(['state.json']);
  });
});
