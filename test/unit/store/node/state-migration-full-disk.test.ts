// A migration of the JSON state that the disk cannot hold: refused in one line, the JSON state left alone, and done once there is room.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteStore, StoreRefused } from '../../../../src/infra/sqlite-connection.js';
import { migrateLegacyStateFile } from '../../../../src/store/node/state-migration.js';
import { STATE_FORMAT } from '../../../../src/store/state-document.js';
import { type FullDisk, openFullDisk } from '../../../helpers/full-disk.js';

const disks: FullDisk[] = [];
afterEach(() => {
  for (const disk of disks.splice(0)) disk.dispose();
});

/** Past what an empty store's log takes (about 160 KB of tables), short of what 20,000 ledger rows take. */
const ROOM = 320 * 1024;
const ENTRIES = 20_000;

function legacyState(folder: string): string {
  const path = join(folder, 'state.json');
  const ledger = Array.from({ length: ENTRIES }, (_, i) => ({ seq: i + 1, amount: 10 }));
  const domain = { clock: { now: 5 }, timing: {}, accounts: [{ id: 'acct_1' }], keys: [], ledger, generations: [] };
  writeFileSync(
    path,
    JSON.stringify({
      format: STATE_FORMAT,
      persistence: { epoch: 1 },
      domain: { ...domain, idempotency: [], uploads: [] },
      control: {},
    }),
  );
  return path;
}

function ledgerRows(path: string): number {
  const store = openSqliteStore({ path, sync: 'off' });
  try {
    return store.documents('ledger').length;
  } finally {
    store.close();
  }
}

describe('migrateLegacyStateFile on a full disk', () => {
  it('refuses in one line naming the file, leaves the JSON state alone, and migrates it once there is room', () => {
    const disk = openFullDisk('file-size limit');
    disks.push(disk);
    const folder = disk.folder();
    const path = legacyState(folder);
    const json = readFileSync(path, 'utf8');
    // Measured from an empty folder, the limit is ROOM bytes for any file this process writes.
    const empty = disk.folder();
    let thrown: unknown;
    disk.fillBut(empty, process.pid, ROOM);
    try {
      migrateLegacyStateFile(path, 'off', { sections: [] }, () => {});
    } catch (error) {
      thrown = error;
    } finally {
      disk.free(empty, process.pid);
    }

    expect(thrown).toBeInstanceOf(StoreRefused);
    const message = (thrown as Error).message;
    const code = /\((SQLITE_\w+): /.exec(message)?.[1];
    expect(code).toMatch(/^SQLITE_(IOERR|FULL)/);
    expect(message).toBe(
      `State file ${path} could not be migrated to an SQLite database (${code}: the disk is full or failing); it was left as it was. Free space and start again.`,
    );
    expect(readFileSync(path, 'utf8')).toBe(json);
    expect(readdirSync(folder)).toEqual(['state.json']);

    const lines: string[] = [];
    migrateLegacyStateFile(path, 'off', { sections: [] }, (line) => lines.push(line));
    expect(lines).toHaveLength(1);
    expect(ledgerRows(path)).toBe(ENTRIES);
  });
});
