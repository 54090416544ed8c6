// Opening the store's SQLite file: its pragmas, its lock (one writer), and a refused start said in one sentence.
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { openSqlConnection, type SqlConnection, SqliteUnavailable, sqliteErrorCode } from './sqlite-driver.js';
import { createSchema } from './sqlite-schema.js';

/** How hard each commit waits for the disk: NORMAL survives kill -9, FULL also a power loss; OFF (the private store) neither. */
export type SyncLevel = 'off' | 'normal' | 'full';

/** The file is held by another emulator, or is not an SQLite database: a start refused in one line. */
export class StoreRefused extends Error {}

/** Pages of write-ahead log between checkpoints: bounds the -wal file at about 40 MB. */
const WAL_CHECKPOINT_PAGES = 10_000;

export interface OpenOptions {
  /**
   * A file path, or '' for the private store of an emulator without --state-file: SQLite's temporary database, a
   * file under TMPDIR that SQLite unlinks as soon as it is open (nothing is left behind, even after kill -9), whose
   * pages live in the OS cache rather than in this process's heap as ':memory:' pages would.
   */
  path: string;
  sync: SyncLevel;
}

function refuse(path: string, error: unknown): never {
  if (error instanceof SqliteUnavailable) throw new StoreRefused(error.message);
  // SQLite says only SQLITE_CANTOPEN (and better-sqlite3 its own sentence) for a missing folder: name it the same on both.
  const missingFolder = path !== '' && !existsSync(dirname(path));
  const code = missingFolder ? 'ENOENT' : sqliteErrorCode(error);
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED')
    throw new StoreRefused(
      `State file ${path} is in use by another emulator; stop that one first, or choose another --state-file.`,
    );
  if (code === 'ENOENT' || code === 'SQLITE_CANTOPEN' || code === 'SQLITE_READONLY')
    throw new StoreRefused(
      `State file ${path} cannot be written (${code}): its folder must exist and be writable. Create the folder or choose another --state-file.`,
    );
  if (code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT'))
    throw new StoreRefused(
      `State file ${path} is not a readable SQLite database (${code}); it was left untouched. Restore it from a copy, or move it away to start empty.`,
    );
  throw error;
}

/** Opens (or creates) the database and takes its lock; a refusal (held, not a database) is one sentence. */
export function connect(options: OpenOptions): SqlConnection {
  const { path } = options;
  let db: SqlConnection | undefined;
  try {
    db = openSqlConnection(path);
    // One writer: the lock is taken by the first write below and kept until close, so a second emulator fails here.
    if (path !== '') db.exec('PRAGMA locking_mode = EXCLUSIVE');
    db.exec(`PRAGMA journal_mode = ${path === '' ? 'MEMORY' : 'WAL'}`);
    db.exec(`PRAGMA synchronous = ${options.sync.toUpperCase()}`);
    // A checkpoint is where WAL + NORMAL waits for the disk (fsync): every 10,000 pages (about 40 MB of log) instead
    // of SQLite's 1,000 raised durable submissions from 0.73-0.78x to 0.81-0.92x of the private store's (bench/store.ts).
    if (path !== '') db.exec(`PRAGMA wal_autocheckpoint = ${WAL_CHECKPOINT_PAGES}`);
    createSchema(db);
    return db;
  } catch (error) {
    db?.close();
    refuse(path, error);
  }
}
