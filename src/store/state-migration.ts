// Moves a state file of the old JSON format (snapshot + log) into an SQLite database at the same path, once.
import { copyFileSync, existsSync, renameSync, rmSync } from 'node:fs';
import { openSqliteStore, type SyncLevel } from '../infra/sqlite-connection.js';
import { isLegacyStateFile, readLegacyStateFile } from './legacy-state-file.js';
import type { KeptState } from '../wiring/kept-state.js';
import { fullBatch } from './state-rows.js';

/** Where the JSON state a database was migrated from is kept. */
export const migrationBackup = (path: string) => `${path}.pre-sqlite.json`;

/**
 * The database is built beside the file and renamed over it in one step, after copies of the old files are made:
 * a crash at any point leaves either the old JSON state (migrated again at the next start) or the new database.
 * The state itself is validated when the database is loaded, like any import.
 */
export function migrateLegacyStateFile(path: string, sync: SyncLevel, kept: KeptState, log: (line: string) => void) {
  if (!isLegacyStateFile(path)) return;
  const state = readLegacyStateFile(path);
  const building = `${path}.migrating`;
  for (const leftover of [building, `${building}-wal`, `${building}-shm`]) rmSync(leftover, { force: true });
  const store = openSqliteStore({ path: building, sync });
  try {
    store.commit(fullBatch(state, kept));
  } finally {
    store.close();
  }
  const backup = migrationBackup(path);
  copyFileSync(path, backup);
  if (existsSync(`${path}.log`)) copyFileSync(`${path}.log`, `${backup}.log`);
  renameSync(building, path);
  rmSync(`${path}.log`, { force: true });
  log(`migrated the JSON state file ${path} to an SQLite database; the old files are kept as ${backup}(.log)`);
}
