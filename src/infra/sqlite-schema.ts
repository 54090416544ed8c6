// The store's tables and indexes, and the migration that brings a store written by an older emulator up to them.
import type { SqlConnection } from './sql-connection.js';

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

/** The store's tables: a database holding any other is another program's, and is refused (sqlite-connection.ts). */
export const STORE_TABLES: readonly string[] = [...SCHEMA.matchAll(/CREATE TABLE IF NOT EXISTS (\w+)/g)].map(
  (m) => m[1],
);

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

/** Creates what is missing (a new store, or an older one) and marks the schema's version. */
export function createSchema(db: SqlConnection) {
  db.exec(SCHEMA);
  addDueColumns(db);
  // No quick_check (it reads the whole file): start-up reads every row anyway, and a damaged page fails that read.
  db.prepare('INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)').run('schema', '1');
}
