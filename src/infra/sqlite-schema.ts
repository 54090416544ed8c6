// The store's tables and indexes, and the migrations that bring a store written by an older emulator up to them.
import type { SqlConnection } from './sql-connection.js';

/** The world whose rows a store written before worlds held (and the only world of an emulator without sandboxes). */
export const DEFAULT_WORLD = 'default';
/** The meta rows of the database itself (its schema), beside every world's. */
export const INSTANCE_META = '*';
/** The schema this emulator writes: 2 keys every row by (world, key). A newer one is refused (see checkSchemaVersion). */
export const SCHEMA_VERSION = 2;

/**
 * Every world's rows in the same tables, keyed by (world, key): one connection and one writer lock for all of them.
 * Small rows (meta, accounts, keys, the ledger) are WITHOUT ROWID tables, clustered on that key.
 */
const TABLES = `
CREATE TABLE IF NOT EXISTS meta (world TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL,
  PRIMARY KEY (world, key)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS accounts (world TEXT NOT NULL, key TEXT NOT NULL, json TEXT NOT NULL,
  PRIMARY KEY (world, key)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS api_keys (world TEXT NOT NULL, key INTEGER NOT NULL, json TEXT NOT NULL,
  PRIMARY KEY (world, key)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS ledger (world TEXT NOT NULL, key INTEGER NOT NULL, json TEXT NOT NULL,
  PRIMARY KEY (world, key)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS generations (world TEXT NOT NULL, key TEXT NOT NULL, seq INTEGER NOT NULL,
  account_id TEXT NOT NULL, status TEXT NOT NULL, created_at INTEGER NOT NULL, json TEXT NOT NULL, due_at INTEGER,
  manual_due_at INTEGER, PRIMARY KEY (world, key));
CREATE TABLE IF NOT EXISTS idempotency (world TEXT NOT NULL, key TEXT NOT NULL, created_at INTEGER NOT NULL,
  json TEXT NOT NULL, PRIMARY KEY (world, key));
CREATE TABLE IF NOT EXISTS uploads (world TEXT NOT NULL, key TEXT NOT NULL, json TEXT NOT NULL,
  PRIMARY KEY (world, key));
CREATE TABLE IF NOT EXISTS journal (world TEXT NOT NULL, key INTEGER NOT NULL, json TEXT NOT NULL,
  PRIMARY KEY (world, key));
CREATE TABLE IF NOT EXISTS worlds (id TEXT PRIMARY KEY, json TEXT NOT NULL);
`;

/**
 * The waiting generations' due times, one partial index per kind (a generation costs them an entry only while it
 * waits): the real timer reads the first of `due_at`, an advance both; and the running ones a start puts back.
 */
const INDEXES = `
CREATE INDEX IF NOT EXISTS generations_by_account ON generations (world, account_id, seq);
CREATE INDEX IF NOT EXISTS generations_by_seq ON generations (world, seq);
CREATE INDEX IF NOT EXISTS generations_due_at ON generations (world, due_at, seq, key) WHERE due_at IS NOT NULL;
CREATE INDEX IF NOT EXISTS generations_manual_due_at ON generations (world, manual_due_at, seq, key)
  WHERE manual_due_at IS NOT NULL;
CREATE INDEX IF NOT EXISTS generations_running ON generations (world, seq) WHERE status = 'running';
CREATE INDEX IF NOT EXISTS idempotency_by_age ON idempotency (world, created_at);
CREATE INDEX IF NOT EXISTS ledger_by_generation ON ledger (world, json_extract(json, '$.generationId'));
`;

/** The store's tables: a database holding any other is another program's, and is refused (sqlite-connection.ts). */
export const STORE_TABLES: readonly string[] = [...TABLES.matchAll(/CREATE TABLE IF NOT EXISTS (\w+)/g)].map(
  (m) => m[1],
);

/** The tables of a schema-1 store and the columns each kept (generations once its due columns are added). */
const SCHEMA_1_COLUMNS: Record<string, string> = {
  meta: 'key, value',
  accounts: 'key, json',
  api_keys: 'key, json',
  ledger: 'key, json',
  generations: 'key, seq, account_id, status, created_at, json, due_at, manual_due_at',
  idempotency: 'key, created_at, json',
  uploads: 'key, json',
  journal: 'key, json',
};

const columnsOf = (db: SqlConnection, table: string) =>
  new Set(
    db
      .prepare(`SELECT name FROM pragma_table_info('${table}')`)
      .all<{ name: string }>()
      .map((c) => c.name),
  );

/** A store's tables written before worlds (schema 1): present, and keyed by `key` alone. */
function schema1Tables(db: SqlConnection): string[] {
  return Object.keys(SCHEMA_1_COLUMNS).filter((table) => {
    const columns = columnsOf(db, table);
    return columns.size > 0 && !columns.has('world');
  });
}

/** A schema-1 generations table written before the due-time columns gets them (empty: see canResume). */
function addDueColumns(db: SqlConnection) {
  const columns = columnsOf(db, 'generations');
  for (const column of ['due_at', 'manual_due_at'])
    if (!columns.has(column)) db.exec(`ALTER TABLE generations ADD COLUMN ${column} INTEGER`);
}

/**
 * Schema 1 to 2 in one transaction: each old table renamed aside, its rows copied into the new one as the default
 * world's (the schema's own meta row as the instance's), then dropped with its indexes. A crash leaves schema 1 whole.
 */
function migrateSchema1(db: SqlConnection, tables: string[]) {
  db.transaction(() => {
    if (tables.includes('generations')) addDueColumns(db);
    for (const table of tables) db.exec(`ALTER TABLE ${table} RENAME TO ${table}_v1`);
    db.exec(TABLES);
    for (const table of tables) {
      const columns = SCHEMA_1_COLUMNS[table];
      const world =
        table === 'meta'
          ? `CASE key WHEN 'schema' THEN '${INSTANCE_META}' ELSE '${DEFAULT_WORLD}' END`
          : `'${DEFAULT_WORLD}'`;
      db.exec(`INSERT INTO ${table} (world, ${columns}) SELECT ${world}, ${columns} FROM ${table}_v1`);
      db.exec(`DROP TABLE ${table}_v1`);
    }
  });
}

/** A store written by a newer emulator is refused whole, in one sentence, before anything reads or writes it. */
export class NewerSchema extends Error {}

/** The schema version the store says it has: 1 before worlds (or a new, empty database), else its meta row's. */
function storedVersion(db: SqlConnection): number {
  if (!columnsOf(db, 'meta').has('world')) return 1;
  const row = db
    .prepare('SELECT value FROM meta WHERE world = ? AND key = ?')
    .get<{ value: string }>(INSTANCE_META, 'schema');
  return row === undefined ? 1 : Number(row.value);
}

/**
 * Refuses a store a newer emulator wrote (its tables and rows may mean what this one cannot know), before its tables are
 * looked at: checked first on opening, so a later schema's new table is not taken for another program's.
 */
export function refuseNewerSchema(db: SqlConnection) {
  const version = storedVersion(db);
  if (!(version <= SCHEMA_VERSION))
    throw new NewerSchema(
      `it was written by a newer media-gen-emulator (store schema ${version}; this one reads schema ${SCHEMA_VERSION} and older)`,
    );
}

/** Creates what is missing (a new store), brings an older one up to date, and marks the schema's version. */
export function createSchema(db: SqlConnection) {
  refuseNewerSchema(db);
  const older = schema1Tables(db);
  if (older.length > 0) migrateSchema1(db, older);
  db.exec(TABLES);
  // Indexes of schema 1 that no later one has: gone with their tables, or dropped here from a partial old store.
  db.exec('DROP INDEX IF EXISTS generations_waiting; DROP INDEX IF EXISTS generations_open');
  db.exec(INDEXES);
  // No quick_check (it reads the whole file): start-up reads every row anyway, and a damaged page fails that read.
  if (storedVersion(db) !== SCHEMA_VERSION)
    db.prepare('INSERT OR REPLACE INTO meta (world, key, value) VALUES (?, ?, ?)').run(
      INSTANCE_META,
      'schema',
      String(SCHEMA_VERSION),
    );
}
