// The store of record on Node: the --state-file (an old JSON one migrated first) or a private temporary database.
import { existsSync } from 'node:fs';
import { openSqliteStore, type SyncLevel } from '../../infra/sqlite-connection.js';
import type { DocumentDeps } from '../state-document.js';
import { type StoreFactory, type StoreOfRecord, storeOfRecordOver } from '../store-of-record.js';
import { migrateLegacyStateFile, migrationBackup } from './state-migration.js';
import { stateFileKind } from './state-file-kind.js';

export interface StoreOptions {
  /** The database file (--state-file); undefined for the emulator's private (temporary) database. */
  path?: string;
  sync: SyncLevel;
  log: (line: string) => void;
  /** The emulator's `errorStatuses` and `errorCodes` options: a refusal answered here honours them as the error mapper does. */
  errorStatuses?: Record<string, number>;
  errorCodes?: Record<string, string>;
}

export function createStoreOfRecord(deps: DocumentDeps, options: StoreOptions): StoreOfRecord {
  const { path, log } = options;
  // A file that is neither a database nor the old JSON state is refused here, before anything is made beside it.
  if (path && stateFileKind(path) === 'json') migrateLegacyStateFile(path, options.sync, deps.kept, log);
  const store = openSqliteStore({ path: path ?? '', sync: path ? options.sync : 'off' });
  return storeOfRecordOver(store, deps, {
    persistent: Boolean(path),
    log,
    errorStatuses: options.errorStatuses,
    errorCodes: options.errorCodes,
    // After this turn's I/O callbacks: the answers ending in the same turn share one commit.
    defer: (settle) => void setImmediate(settle),
    refusal(reason) {
      const backup = migrationBackup(store.path);
      const migrated = existsSync(backup) ? ` It was migrated from the JSON state kept as ${backup}.` : '';
      return `State file ${store.path}: ${reason}. The file is left as it was; to recover, move it away and start without it (a fresh state), or fix the value named above with the sqlite3 tool (the meta and record tables hold JSON).${migrated}`;
    },
  });
}

/** Node's store factory: the options' --state-file with its sync level, or the private database. */
export const stateFileStore: StoreFactory = (deps, options) =>
  createStoreOfRecord(deps, {
    path: options.stateFile,
    sync: options.stateSync,
    log: options.log,
    errorStatuses: options.errorStatuses,
    errorCodes: options.errorCodes,
  });
