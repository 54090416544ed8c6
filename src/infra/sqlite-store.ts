// The store of record on SQLite: its rows (JSON documents plus the columns queries need), upserts and commits.
import { type SqlConnection, type SqlStatement, type SqlValue, sqliteErrorCode } from './sql-connection.js';
import { FOLDED_CONTAINS, foldedContains, prepareReads, type StoreReads } from './sqlite-reads.js';
import { DEFAULT_WORLD } from './sqlite-schema.js';

/** Every table but meta holds one JSON document per row under a key; the emulator's types stay out of infra. */
const DOCUMENT_TABLES = ['accounts', 'api_keys', 'ledger', 'generations', 'idempotency', 'uploads', 'journal'] as const;
type DocumentTable = (typeof DOCUMENT_TABLES)[number];

/** The tables a plugin's kept log is written to: one row per entry under its id, its oldest rows dropped from below. */
const LOG_TABLES = ['journal'] as const satisfies readonly DocumentTable[];
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

/** The disk is full or failed: the transaction was rolled back; the caller answers 507 and nothing changed. */
export class StorageFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Text keys are stored escaped ('%' as %25, NUL as %00). An idempotency record's key joins the API key id and the
 * client's Idempotency-Key with a NUL, and Node 22's node:sqlite reads a text value back only up to its first NUL
 * ("1\0abc" came back as "1", so an export lost the keys and a replay after an import was not recognised).
 */
function storedKey(key: string | number): string | number {
  return typeof key === 'string' && /[%\0]/.test(key) ? key.replace(/[%\0]/g, (c) => (c === '%' ? '%25' : '%00')) : key;
}

function keyFromStore(key: string | number): string | number {
  return typeof key === 'string' && key.includes('%')
    ? key.replace(/%(25|00)/g, (_, c) => (c === '25' ? '%' : '\0'))
    : key;
}

/**
 * How a row is written, with positional parameters: node:sqlite refuses a named parameter a row does not use. The
 * world's id is bound first, before `values`.
 */
interface Upsert {
  sql: string;
  values(row: DocumentRow): SqlValue[];
}

const documentUpsert = (table: DocumentTable): Upsert => ({
  sql: `INSERT OR REPLACE INTO ${table} (world, key, json) VALUES (?, ?, ?)`,
  values: (row) => [storedKey(row.key), row.json],
});

const UPSERTS: Record<DocumentTable, Upsert> = {
  accounts: documentUpsert('accounts'),
  api_keys: documentUpsert('api_keys'),
  ledger: documentUpsert('ledger'),
  uploads: documentUpsert('uploads'),
  journal: documentUpsert('journal'),
  generations: {
    sql: 'INSERT OR REPLACE INTO generations (world, key, seq, account_id, status, created_at, due_at, manual_due_at, json) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
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
    sql: 'INSERT OR REPLACE INTO idempotency (world, key, created_at, json) VALUES (?, ?, ?, ?)',
    values: (row) => [storedKey(row.key), row.createdAt ?? null, row.json],
  },
};

const STORAGE_CODES = /^SQLITE_(FULL|IOERR|READONLY|CANTOPEN|NOMEM)/;

export interface SqliteStore extends StoreReads<DocumentTable> {
  readonly path: string;
  /** The world whose rows this store reads and writes (every other is left alone). */
  readonly world: string;
  /** Applies the batch in one transaction; throws StorageFailure (rolled back) when the disk refuses it. */
  commit(batch: ChangeBatch): void;
  /** Several worlds' batches in one transaction (a group commit that carries them all), whole or not at all. */
  commitTogether(batches: readonly WorldBatch[]): void;
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
  /** The same database seen as another world's store: the statements and the connection are shared. */
  forWorld(world: string): SqliteStore;
  /** The worlds kept beside the default one (sandboxes): each one's id and its description, in id order. */
  worldDocuments(): { id: string; json: string }[];
  /** Keeps (or replaces) a world's description, in its own transaction. */
  keepWorld(id: string, json: string): void;
  /** Deletes a world's description and every row it holds, in one transaction. */
  dropWorld(id: string): void;
  /** Closes the connection (a view from forWorld() leaves it to the store it came from). */
  close(): void;
}

/** One world's batch in a commit of several. */
export interface WorldBatch {
  world: string;
  batch: ChangeBatch;
}

/**
 * The store over a connection already set up (pragmas, schema): `connect()` in sqlite-connection.ts on Node, the
 * browser's in sqlite-browser.ts. `path` names the database in messages. It is the default world's; forWorld() gives
 * the others'. Nothing here imports a node: module.
 */
export function sqliteStoreOver(db: SqlConnection, path: string): SqliteStore {
  const upsertStatements = new Map<DocumentTable, SqlStatement>(
    DOCUMENT_TABLES.map((table) => [table, db.prepare(UPSERTS[table].sql)]),
  );
  const upsert = (world: string, table: DocumentTable, row: DocumentRow) =>
    (upsertStatements.get(table) as SqlStatement).run(world, ...UPSERTS[table].values(row));
  const deletes = new Map(DOCUMENT_TABLES.map((t) => [t, db.prepare(`DELETE FROM ${t} WHERE world = ? AND key = ?`)]));
  const emptyWorld = new Map(DOCUMENT_TABLES.map((t) => [t, db.prepare(`DELETE FROM ${t} WHERE world = ?`)]));
  const setMeta = db.prepare('INSERT OR REPLACE INTO meta (world, key, value) VALUES (?, ?, ?)');
  const getMeta = db.prepare('SELECT value FROM meta WHERE world = ? AND key = ?');
  const dropMeta = db.prepare('DELETE FROM meta WHERE world = ?');
  const trimLogs = new Map(LOG_TABLES.map((t) => [t, db.prepare(`DELETE FROM ${t} WHERE world = ? AND key < ?`)]));
  const expireIdempotency = db.prepare('DELETE FROM idempotency WHERE world = ? AND created_at <= ?');
  const listWorlds = db.prepare('SELECT id, json FROM worlds ORDER BY id');
  const putWorld = db.prepare('INSERT OR REPLACE INTO worlds (id, json) VALUES (?, ?)');
  const deleteWorld = db.prepare('DELETE FROM worlds WHERE id = ?');
  db.defineFunction(FOLDED_CONTAINS, foldedContains);
  const readsOf = prepareReads(db, DOCUMENT_TABLES);

  const apply = (world: string, batch: ChangeBatch) => {
    if (batch.replaceAll) for (const table of DOCUMENT_TABLES) emptyWorld.get(table)?.run(world);
    for (const [key, value] of Object.entries(batch.meta ?? {})) setMeta.run(world, key, value);
    for (const [table, keys] of Object.entries(batch.delete ?? {}) as [DocumentTable, (string | number)[]][])
      for (const key of keys) deletes.get(table)?.run(world, storedKey(key));
    for (const [table, rows] of Object.entries(batch.upsert ?? {}) as [DocumentTable, DocumentRow[]][])
      for (const row of rows) upsert(world, table, row);
    for (const [table, below] of Object.entries(batch.logBelow ?? {}) as [LogTable, number][])
      trimLogs.get(table)?.run(world, below);
    if (batch.idempotencyUpTo !== undefined) expireIdempotency.run(world, batch.idempotencyUpTo);
  };

  /** One transaction; a refusal of the disk is a StorageFailure, everything rolled back. */
  const transaction = (write: () => void) => {
    try {
      db.transaction(write);
    } catch (error) {
      const code = sqliteErrorCode(error);
      // The transaction has been rolled back when the error reaches here.
      if (STORAGE_CODES.test(code)) throw new StorageFailure(code, `${path}: ${(error as Error).message} (${code})`);
      throw error;
    }
  };

  const views = new Map<string, SqliteStore>();
  const view = (world: string, root: boolean): SqliteStore => {
    const queries = readsOf(world);
    return {
      path,
      world,
      commit: (batch) => transaction(() => apply(world, batch)),
      commitTogether(batches) {
        transaction(() => {
          for (const each of batches) apply(each.world, each.batch);
        });
      },
      meta: (key) => getMeta.get<{ value: string }>(world, key)?.value,
      documents: (table) =>
        db
          .prepare(`SELECT key, json FROM ${table} WHERE world = ? ORDER BY ${table === 'generations' ? 'seq' : 'key'}`)
          .all<{ key: string | number; json: string }>(world)
          .map((row) => ({ key: keyFromStore(row.key), json: row.json })),
      logDocuments(table, keep, members) {
        if (!LOG_TABLES.includes(table)) throw new Error(`${table} is not a log table`);
        const nulled = members.map((m) => `'$.${m.replace(/[^A-Za-z_]/g, '')}', NULL`).join(', ');
        // Nothing to null: json_set needs at least one path.
        const older = nulled ? `json_set(json, ${nulled})` : 'json';
        return db
          .prepare(
            `SELECT key, CASE WHEN key > (SELECT coalesce(max(key), 0) FROM ${table} WHERE world = ?) - ? THEN json ELSE ${older} END AS json FROM ${table} WHERE world = ? ORDER BY key`,
          )
          .all<{ key: number; json: string }>(world, keep, world);
      },
      ...queries,
      document: (table, key) => queries.document(table, storedKey(key)),
      generationKeys: (query) => queries.generationKeys(query).map((key) => String(keyFromStore(key))),
      waitingGenerations: (query) =>
        queries.waitingGenerations(query).map((row) => ({ ...row, key: String(keyFromStore(row.key)) })),
      hasState: () => getMeta.get(world, 'clock') !== undefined,
      forWorld(id) {
        let found = views.get(id);
        if (!found) {
          found = id === DEFAULT_WORLD ? rootView : view(id, false);
          views.set(id, found);
        }
        return found;
      },
      worldDocuments: () => listWorlds.all<{ id: string; json: string }>(),
      keepWorld: (id, json) => transaction(() => putWorld.run(id, json)),
      dropWorld(id) {
        views.delete(id);
        transaction(() => {
          deleteWorld.run(id);
          dropMeta.run(id);
          for (const table of DOCUMENT_TABLES) emptyWorld.get(table)?.run(id);
        });
      },
      close: () => {
        if (root) db.close();
      },
    };
  };
  const rootView = view(DEFAULT_WORLD, true);
  return rootView;
}
