// Moves a state file of the old JSON format (snapshot + log) into an SQLite database at the same path, once.
import { copyFileSync, existsSync, renameSync, rmSync } from 'node:fs';
import { openSqliteStore, StoreRefused, type SyncLevel } from '../../infra/sqlite-connection.js';
import { StorageFailure } from '../../infra/sqlite-store.js';
import { readLegacyStateFile } from './legacy-state-file.js';
import type { KeptState } from '../../wiring/kept-state.js';
import { fullBatch } from '../state-rows.js';

/** Where the JSON state a database was migrated from is kept. */
export const migrationBackup = (path: string) => `${path}.pre-sqlite.json`;

/**
 * The database is built beside the file and renamed over it in one step, after copies of the old files are made:
 * a crash at any point leaves either the old JSON state (migrated again at the next start) or the new database, and a
 * failure (a full disk) leaves the old files alone. The state itself is validated when the database is loaded, like
 * any import.
 */
export function migrateLegacyStateFile(path: string, sync: SyncLevel, kept: KeptState, log: (line: string) => void) {
  const state = readLegacyStateFile(path);
  const building = `${path}.migrating`;
  const leftovers = [building, `${building}-wal`, `${building}-shm`];
  for (const leftover of leftovers) rmSync(leftover, { force: true });
  try {
    const store = openSqliteStore({ path: building, sync });
    try {
      store.commit(fullBatch(state, kept));
    } finally {
      store.close();
    }
  } catch (error) {
    for (const leftover of leftovers) rmSync(leftover, { force: true });
    if (error instanceof StorageFailure)
      throw new StoreRefused(
        `State file ${path} could not be migrated to an SQLite database (${error.code}: the disk is full or failing); it was left as it was. Free space and start again.`,
      );
    throw error;
  }
  const backup = migrationBackup(path);
  copyFileSync(path, backup);
  if (existsSync(`${path}.log`)) copyFileSync(`${path}.log`, `${backup}.log`);
  renameSync(building, path);
  rmSync(`${path}.log`, { force: true });
  log(`migrated the JSON state file ${path} to an SQLite database; the old files are kept as ${backup}(.log)`);
}
