// Opening the store's SQLite file: its pragmas, its lock (one writer), and a refused start said in one sentence.
import { existsSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { openSqlConnection, type SqlConnection, SqliteUnavailable, sqliteErrorCode } from './sqlite-driver.js';
import { createSchema, NewerSchema, refuseNewerSchema, STORE_TABLES } from './sqlite-schema.js';
import { type SqliteStore, sqliteStoreOver } from './sqlite-store.js';

/** How hard each commit waits for the disk: NORMAL survives kill -9, FULL also a power loss; OFF (the private store) neither. */
export type SyncLevel = 'off' | 'normal' | 'full';

/** The file cannot be the store: held by another emulator, not a database of ours, unreadable. A start refused in one line. */
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
  if (error instanceof StoreRefused) throw error;
  if (error instanceof NewerSchema)
    throw new StoreRefused(
      `State file ${path} cannot be read: ${error.message}. It was left untouched; use that version or a newer one, or choose another --state-file.`,
    );
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
      `State file ${path} cannot be written (${code}): its folder must exist and be writable, and so must the file. Create the folder or choose another --state-file.`,
    );
  if (code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT'))
    throw new StoreRefused(
      `State file ${path} is not a readable SQLite database (${code}); it was left untouched. Restore it from a copy, or move it away to start empty.`,
    );
  // A read-only file or mount answers SQLITE_IOERR when SQLite first needs to write (the log); a full disk SQLITE_FULL.
  if (code === 'SQLITE_IOERR' || code === 'SQLITE_FULL' || code === 'SQLITE_NOMEM')
    throw new StoreRefused(
      `State file ${path} could not be opened for writing (${code}: ${(error as Error).message}): the file or its folder is read-only, the disk is full, or it failed. Make them writable or free space, or choose another --state-file.`,
    );
  throw error;
}

/**
 * A database another program made is not ours to add tables to (or to switch to WAL, which rewrites its header):
 * every table in it must be one of the store's. A partly created store (a first start cut short) passes.
 */
function checkOwnTables(path: string, db: SqlConnection) {
  const theirs = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .all<{ name: string }>()
    .map((t) => t.name)
    .filter((name) => !STORE_TABLES.includes(name));
  if (theirs.length > 0)
    throw new StoreRefused(
      `State file ${path} is an SQLite database of another program (tables ${theirs.slice(0, 5).join(', ')}${theirs.length > 5 ? ', ...' : ''}); it was left untouched. Choose another --state-file.`,
    );
}

/** What opening `path` may create: the file itself when new, its log and journal. A refused open removes what it made. */
const companions = (path: string) => [path, `${path}-wal`, `${path}-shm`, `${path}-journal`];

/** Opens (or creates) the database and takes its lock; a refusal (held, not ours, unreadable) is one sentence. */
export function connect(options: OpenOptions): SqlConnection {
  const { path } = options;
  const made = path === '' ? [] : companions(path).filter((file) => !existsSync(file));
  let db: SqlConnection | undefined;
  try {
    db = openSqlConnection(path);
    if (path !== '') {
      // One writer: the lock is taken by the first write below and kept until close, so a second emulator fails here.
      db.exec('PRAGMA locking_mode = EXCLUSIVE');
      refuseNewerSchema(db);
      checkOwnTables(path, db);
    }
    db.exec(`PRAGMA journal_mode = ${path === '' ? 'MEMORY' : 'WAL'}`);
    db.exec(`PRAGMA synchronous = ${options.sync.toUpperCase()}`);
    // A checkpoint is where WAL + NORMAL waits for the disk (fsync): every 10,000 pages (about 40 MB of log) instead
    // of SQLite's 1,000 raised durable submissions from 0.73-0.78x to 0.81-0.92x of the private store's (bench/store.ts).
    if (path !== '') db.exec(`PRAGMA wal_autocheckpoint = ${WAL_CHECKPOINT_PAGES}`);
    createSchema(db);
    return db;
  } catch (error) {
    db?.close();
    // Nothing left behind: not the file a new path made, nor a log beside a file that is refused.
    for (const file of made) rmSync(file, { force: true });
    refuse(path, error);
  }
}

/** The store of record's SQLite on Node: the file (or the private database) opened, locked and set up. */
export function openSqliteStore(options: OpenOptions): SqliteStore {
  return sqliteStoreOver(connect(options), options.path);
}
