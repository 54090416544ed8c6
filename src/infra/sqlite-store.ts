// The store of record on SQLite: the one module that speaks SQL. Rows are JSON documents plus the columns queries need.
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import {
  openSqlConnection,
  type SqlConnection,
  type SqlStatement,
  type SqlValue,
  sqliteErrorCode,
} from './sqlite-driver.js';
import {
  FOLDED_CONTAINS,
  foldedContains,
  type GenerationQuery,
  prepareReads,
  type StoreReads,
} from './sqlite-reads.js';

export type { GenerationQuery };

/** Every table but meta holds one JSON document per row under a key; the emulator's types stay out of infra. */
export const DOCUMENT_TABLES = [
  'accounts',
  'api_keys',
  'ledger',
  'generations',
  'idempotency',
  'uploads',
  'journal',
] as const;
export type DocumentTable = (typeof DOCUMENT_TABLES)[number];

/** The tables a plugin's kept log is written to: one row per entry under its id, its oldest rows dropped from below. */
export const LOG_TABLES = ['journal'] as const satisfies readonly DocumentTable[];
export type LogTable = (typeof LOG_TABLES)[number];

export interface DocumentRow {
  key: string | number;
  json: string;
  /** Generations: the columns list pages filter on; idempotency: created_at for the window's pruning. */
  seq?: number;
  accountId?: string;
  status?: string;
  createdAt?: number;
  /** Generations: when a pending one's first move is due, read by the scheduler from an index (absent otherwise). */
  dueAt?: number;
  /** With dueAt: the move waits for a clock advance (manual timing), so it is kept in its own index. */
  manualOnly?: boolean;
}

/** One acknowledged change: everything in it is committed together or not at all. */
export interface ChangeBatch {
  /** Empties every table first (reset, import, the first write of a new store). */
  replaceAll?: boolean;
  meta?: Record<string, string>;
  upsert?: Partial<Record<DocumentTable, DocumentRow[]>>;
  delete?: Partial<Record<DocumentTable, (string | number)[]>>;
  /** A log's rows below this key are gone from the log, so from its table too. */
  logBelow?: Partial<Record<LogTable, number>>;
  /** Idempotency records created at or before this instant are past their window: deleted after the upserts. */
  idempotencyUpTo?: number;
}

/** How hard each commit waits for the disk: NORMAL survives kill -9, FULL also a power loss; OFF (the private store) neither. */
export type SyncLevel = 'off' | 'normal' | 'full';

/** The disk is full or failed: the transaction was rolled back; the caller answers 507 and nothing changed. */
export class StorageFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The file is held by another emulator, or is not an SQLite database: a start refused in one line. */
export class StoreRefused extends Error {}

/** Pages of write-ahead log between checkpoints: bounds the -wal file at about 40 MB. */
const WAL_CHECKPOINT_PAGES = 10_000;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS accounts (key TEXT PRIMARY KEY, json TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS api_keys (key INTEGER PRIMARY KEY, json TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS ledger (key INTEGER PRIMARY KEY, json TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS generations (key TEXT PRIMARY KEY, seq INTEGER NOT NULL, account_id TEXT NOT NULL,
  status TEXT NOT NULL, created_at INTEGER NOT NULL, json TEXT NOT NULL, due_at INTEGER, manual_due_at INTEGER);
CREATE INDEX IF NOT EXISTS generations_by_account ON generations (account_id, seq);
CREATE INDEX IF NOT EXISTS generations_by_seq ON generations (seq);
CREATE TABLE IF NOT EXISTS idempotency (key TEXT PRIMARY KEY, created_at INTEGER NOT NULL, json TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS idempotency_by_age ON idempotency (created_at);
CREATE TABLE IF NOT EXISTS uploads (key TEXT PRIMARY KEY, json TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS journal (key INTEGER PRIMARY KEY, json TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS ledger_by_generation ON ledger (json_extract(json, '$.generationId'));
`;

/**
 * Text keys are stored escaped ('%' as %25, NUL as %00). An idempotency record's key joins the API key id and the
 * client's Idempotency-Key with a NUL, and Node 22's node:sqlite reads a text value back only up to its first NUL
 * ("1\0abc" came back as "1", so an export lost the keys and a replay after an import was not recognised).
 */
export function storedKey(key: string | number): string | number {
  return typeof key === 'string' && /[%\0]/.test(key) ? key.replace(/[%\0]/g, (c) => (c === '%' ? '%25' : '%00')) : key;
}

export function keyFromStore(key: string | number): string | number {
  return typeof key === 'string' && key.includes('%')
    ? key.replace(/%(25|00)/g, (_, c) => (c === '25' ? '%' : '\0'))
    : key;
}

/** How a row is written, with positional parameters: node:sqlite refuses a named parameter a row does not use. */
interface Upsert {
  sql: string;
  values(row: DocumentRow): SqlValue[];
}

const documentUpsert = (table: DocumentTable): Upsert => ({
  sql: `INSERT OR REPLACE INTO ${table} (key, json) VALUES (?, ?)`,
  values: (row) => [storedKey(row.key), row.json],
});

const UPSERTS: Record<DocumentTable, Upsert> = {
  accounts: documentUpsert('accounts'),
  api_keys: documentUpsert('api_keys'),
  ledger: documentUpsert('ledger'),
  uploads: documentUpsert('uploads'),
  journal: documentUpsert('journal'),
  generations: {
    sql: 'INSERT OR REPLACE INTO generations (key, seq, account_id, status, created_at, due_at, manual_due_at, json) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    // A missing column binds NULL, which the NOT NULL constraint refuses: a malformed row fails its whole batch.
    values: (row) => [
      storedKey(row.key),
      row.seq ?? null,
      row.accountId ?? null,
      row.status ?? null,
      row.createdAt ?? null,
      row.manualOnly ? null : (row.dueAt ?? null),
      row.manualOnly ? (row.dueAt ?? null) : null,
      row.json,
    ],
  },
  idempotency: {
    sql: 'INSERT OR REPLACE INTO idempotency (key, created_at, json) VALUES (?, ?, ?)',
    values: (row) => [storedKey(row.key), row.createdAt ?? null, row.json],
  },
};

const STORAGE_CODES = /^SQLITE_(FULL|IOERR|READONLY|CANTOPEN|NOMEM)/;

export interface SqliteStore extends StoreReads<DocumentTable> {
  readonly path: string;
  /** Applies the batch in one transaction; throws StorageFailure (rolled back) when the disk refuses it. */
  commit(batch: ChangeBatch): void;
  meta(key: string): string | undefined;
  /** Every row of a table, in key order (generations by seq): start-up, and the rebuild after a failed commit. */
  documents(table: DocumentTable): { key: string | number; json: string }[];
  /**
   * A log's rows in key order, with `members` set to null in all but the newest `keep`: what the log keeps of its
   * older entries, without reading (and parsing) the large members their rows were written with.
   */
  logDocuments(table: LogTable, keep: number, members: readonly string[]): { key: number; json: string }[];
  /** True when the store holds a state (meta has been written at least once). */
  hasState(): boolean;
  close(): void;
}

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

/**
 * The waiting generations' due times, one index per kind: the real timer reads the first of `due_at`, an advance
 * both. Partial, so a generation costs them an entry only while it waits. A store written before these columns gets
 * them empty (its state is read whole once and written again, see canResume), and loses the indexes they replace.
 */
function addDueColumns(db: SqlConnection) {
  const columns = new Set(
    db
      .prepare("SELECT name FROM pragma_table_info('generations')")
      .all<{ name: string }>()
      .map((c) => c.name),
  );
  for (const column of ['due_at', 'manual_due_at'])
    if (!columns.has(column)) db.exec(`ALTER TABLE generations ADD COLUMN ${column} INTEGER`);
  db.exec('DROP INDEX IF EXISTS generations_waiting; DROP INDEX IF EXISTS generations_open');
  for (const column of ['due_at', 'manual_due_at'])
    db.exec(
      `CREATE INDEX IF NOT EXISTS generations_${column} ON generations (${column}, seq, key) WHERE ${column} IS NOT NULL`,
    );
  // The running generations a start puts back to pending.
  db.exec("CREATE INDEX IF NOT EXISTS generations_running ON generations (seq) WHERE status = 'running'");
}

/** Opens (or creates) the database and takes its lock; a refusal (held, not a database) is one sentence. */
function connect(options: OpenOptions): SqlConnection {
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
    db.exec(SCHEMA);
    addDueColumns(db);
    // No quick_check (it reads the whole file): start-up reads every row anyway, and a damaged page fails that read.
    db.prepare('INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)').run('schema', '1');
    return db;
  } catch (error) {
    db?.close();
    refuse(path, error);
  }
}

export function openSqliteStore(options: OpenOptions): SqliteStore {
  const { path } = options;
  const db = connect(options);

  const upsertStatements = new Map<DocumentTable, SqlStatement>(
    DOCUMENT_TABLES.map((table) => [table, db.prepare(UPSERTS[table].sql)]),
  );
  const upsert = (table: DocumentTable, row: DocumentRow) =>
    (upsertStatements.get(table) as SqlStatement).run(...UPSERTS[table].values(row));
  const deletes = new Map(DOCUMENT_TABLES.map((t) => [t, db.prepare(`DELETE FROM ${t} WHERE key = ?`)]));
  const setMeta = db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)');
  const getMeta = db.prepare('SELECT value FROM meta WHERE key = ?');
  const trimLogs = new Map(LOG_TABLES.map((t) => [t, db.prepare(`DELETE FROM ${t} WHERE key < ?`)]));
  const expireIdempotency = db.prepare('DELETE FROM idempotency WHERE created_at <= ?');
  db.defineFunction(FOLDED_CONTAINS, foldedContains);
  const queries = prepareReads(db, DOCUMENT_TABLES);

  const apply = (batch: ChangeBatch) => {
    if (batch.replaceAll) for (const table of DOCUMENT_TABLES) db.exec(`DELETE FROM ${table}`);
    for (const [key, value] of Object.entries(batch.meta ?? {})) setMeta.run(key, value);
    for (const [table, keys] of Object.entries(batch.delete ?? {}) as [DocumentTable, (string | number)[]][])
      for (const key of keys) deletes.get(table)?.run(storedKey(key));
    for (const [table, rows] of Object.entries(batch.upsert ?? {}) as [DocumentTable, DocumentRow[]][])
      for (const row of rows) upsert(table, row);
    for (const [table, below] of Object.entries(batch.logBelow ?? {}) as [LogTable, number][])
      trimLogs.get(table)?.run(below);
    if (batch.idempotencyUpTo !== undefined) expireIdempotency.run(batch.idempotencyUpTo);
  };

  return {
    path,
    commit(batch) {
      try {
        db.transaction(() => apply(batch));
      } catch (error) {
        const code = sqliteErrorCode(error);
        // The transaction has been rolled back when the error reaches here.
        if (STORAGE_CODES.test(code)) throw new StorageFailure(code, `${path}: ${(error as Error).message} (${code})`);
        throw error;
      }
    },
    meta: (key) => getMeta.get<{ value: string }>(key)?.value,
    documents: (table) =>
      db
        .prepare(`SELECT key, json FROM ${table} ORDER BY ${table === 'generations' ? 'seq' : 'key'}`)
        .all<{ key: string | number; json: string }>()
        .map((row) => ({ key: keyFromStore(row.key), json: row.json })),
    logDocuments(table, keep, members) {
      if (!LOG_TABLES.includes(table)) throw new Error(`${table} is not a log table`);
      const nulled = members.map((m) => `'$.${m.replace(/[^A-Za-z_]/g, '')}', NULL`).join(', ');
      // Nothing to null: json_set needs at least one path.
      const older = nulled ? `json_set(json, ${nulled})` : 'json';
      return db
        .prepare(
          `SELECT key, CASE WHEN key > (SELECT coalesce(max(key), 0) FROM ${table}) - ? THEN json ELSE ${older} END AS json FROM ${table} ORDER BY key`,
        )
        .all<{ key: number; json: string }>(keep);
    },
    ...queries,
    document: (table, key) => queries.document(table, storedKey(key)),
    generationKeys: (query) => queries.generationKeys(query).map((key) => String(keyFromStore(key))),
    waitingGenerations: (query) =>
      queries.waitingGenerations(query).map((row) => ({ ...row, key: String(keyFromStore(row.key)) })),
    hasState: () => getMeta.get('clock') !== undefined,
    close: () => db.close(),
  };
}
