// The store of record's reads behind the heap's bounded caches: one row by key, pages of generations, ledger rows.
import type { StoredTask, StoredTaskQuery } from './stored-tasks.js';

/** A page of generations, newest first: the list filters, on indexed columns where the schema has them. */
export interface GenerationQuery {
  accountId?: string;
  status?: string;
  kind?: string;
  modelSlug?: string;
  /** Inclusive lower bound on created_at. */
  from?: number;
  /** Exclusive upper bound on created_at. */
  to?: number;
  /** Already lower-cased: only generations whose id or prompt, lower-cased, contains it (the console's search). */
  text?: string;
  /** Only generations with a smaller seq (the cursor). */
  before: number;
  limit: number;
  /** Rows skipped before the page (the console pages by offset). */
  offset?: number;
}

/** The filters of a count by status: a page's, without status, cursor and size. */
export type GenerationCountQuery = Omit<GenerationQuery, 'status' | 'before' | 'limit' | 'offset'>;

/**
 * The SQL function behind the `text` filter, registered on the connection: it lower-cases the way JavaScript does,
 * where SQLite's own lower() folds ASCII only, so the search finds what the in-memory search finds.
 */
export const FOLDED_CONTAINS = 'folded_contains';
export const foldedContains = (text: unknown, needle: unknown) =>
  typeof text === 'string' && typeof needle === 'string' && text.toLowerCase().includes(needle) ? 1 : 0;

/** The store's reads by key and by indexed column. */
export interface StoreReads<Table extends string> {
  /** One row's document, or undefined: the on-demand read behind the heap's caches. */
  document(table: Table, key: string | number): string | undefined;
  /** Generations' documents newest first (seq descending), filtered, at most `limit`. */
  generationPage(query: GenerationQuery): string[];
  /** The same page's keys only: a caller holding most of them in its heap reads the others' documents by key. */
  generationKeys(query: GenerationQuery): string[];
  /** How many generations match, by status: no document is parsed unless a filter reads one. */
  generationCounts(query: GenerationCountQuery): Record<string, number>;
  /** The running generations' documents, in seq order: a start puts them back to pending. */
  runningGenerations(): string[];
  /**
   * Waiting generations' first moves in (due time, seq) order, from the due-time indexes (the key is the generation's
   * id, the rank its seq): no document is read.
   */
  waitingGenerations(query: StoredTaskQuery): StoredTask[];
  /** Ledger documents of one generation (its charge and refunds), by the expression index. */
  generationLedger(generationId: string): string[];
  /** Ledger documents of several generations (a page's), in one query by the same index. */
  generationsLedger(generationIds: string[]): string[];
  /** Ledger documents in seq order, optionally of one account. */
  ledgerEntries(accountId?: string): string[];
  count(table: Table): number;
  /** The highest generation seq stored (0 when none). */
  lastSeq(): number;
}

/** What the reads need of a connection: prepared statements with positional parameters, rows keyed by column. */
interface Connection {
  prepare(sql: string): { get(...params: unknown[]): unknown; all(...params: unknown[]): unknown[] };
}

type Row = { json: string };

/** Each filter's clause and how many times its value is bound in it. */
const GENERATION_FILTERS: [keyof GenerationQuery, string, number][] = [
  ['accountId', 'account_id = ?', 1],
  ['status', 'status = ?', 1],
  ['kind', "json_extract(json, '$.kind') = ?", 1],
  ['modelSlug', "json_extract(json, '$.modelSlug') = ?", 1],
  ['from', 'created_at >= ?', 1],
  ['to', 'created_at < ?', 1],
  ['text', `(${FOLDED_CONTAINS}(key, ?) OR ${FOLDED_CONTAINS}(json_extract(json, '$.prompt'), ?))`, 2],
];

/** The WHERE clauses of the filters `query` sets, and their values in order. */
function filtersOf(query: Partial<GenerationQuery>): { clauses: string[]; values: unknown[] } {
  const used = GENERATION_FILTERS.filter(([field]) => query[field] !== undefined);
  return {
    clauses: used.map(([, clause]) => clause),
    values: used.flatMap(([field, , times]) => Array.from({ length: times }, () => query[field])),
  };
}

/**
 * Every statement prepared once for every world (a page's, once per combination of filters and column: at most 256;
 * a count's, at most 64; a page's ledger, once per length); `forWorld` binds one world's id as each one's first value,
 * so a thousand worlds cost no statement more than one.
 */
export function prepareReads<Table extends string>(
  db: Connection,
  tables: readonly Table[],
): (world: string) => StoreReads<Table> {
  const byKey = new Map(tables.map((t) => [t, db.prepare(`SELECT json FROM ${t} WHERE world = ? AND key = ?`)]));
  const counts = new Map(tables.map((t) => [t, db.prepare(`SELECT COUNT(*) AS n FROM ${t} WHERE world = ?`)]));
  const running = db.prepare("SELECT json FROM generations WHERE world = ? AND status = 'running' ORDER BY seq");
  // Row values walk the partial index (world, due, seq) from the position on; key is the table's, one lookup per row.
  const waiting = (column: string) =>
    db.prepare(
      `SELECT key, ${column} AS dueAt, seq AS rank FROM generations WHERE world = ? AND ${column} IS NOT NULL AND (${column}, seq) > (?, ?) AND ${column} <= ? ORDER BY ${column}, seq LIMIT ?`,
    );
  const waitingReal = waiting('due_at');
  const waitingManual = waiting('manual_due_at');
  const ofGeneration = db.prepare(
    "SELECT json FROM ledger WHERE world = ? AND json_extract(json, '$.generationId') = ? ORDER BY key",
  );
  const allLedger = db.prepare('SELECT json FROM ledger WHERE world = ? ORDER BY key');
  const accountLedger = db.prepare(
    "SELECT json FROM ledger WHERE world = ? AND json_extract(json, '$.accountId') = ? ORDER BY key",
  );
  const maxSeq = db.prepare('SELECT MAX(seq) AS n FROM generations WHERE world = ?');
  const pages = new Map<string, ReturnType<Connection['prepare']>>();
  const prepared = (sql: string) => {
    let statement = pages.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      pages.set(sql, statement);
    }
    return statement;
  };
  const json = (rows: unknown[]) => (rows as Row[]).map((r) => r.json);
  const page = (world: string, column: 'json' | 'key', query: GenerationQuery) => {
    const { clauses, values } = filtersOf(query);
    const where = ['world = ?', 'seq < ?', ...clauses].join(' AND ');
    const sql = `SELECT ${column} FROM generations WHERE ${where} ORDER BY seq DESC LIMIT ? OFFSET ?`;
    const before = Number.isFinite(query.before) ? query.before : Number.MAX_SAFE_INTEGER;
    return prepared(sql).all(world, before, ...values, query.limit, query.offset ?? 0);
  };
  const countsByStatus = (world: string, query: GenerationCountQuery) => {
    const { clauses, values } = filtersOf(query);
    const where = ['world = ?', ...clauses].join(' AND ');
    const rows = prepared(`SELECT status, COUNT(*) AS n FROM generations WHERE ${where} GROUP BY status`).all(
      world,
      ...values,
    );
    return Object.fromEntries((rows as { status: string; n: number }[]).map((r) => [r.status, r.n]));
  };
  return (world) => ({
    document: (table, key) => (byKey.get(table)?.get(world, key) as Row | undefined)?.json,
    count: (table) => (counts.get(table)?.get(world) as { n: number } | undefined)?.n ?? 0,
    runningGenerations: () => json(running.all(world)),
    waitingGenerations({ manualOnly, after, upTo, limit }) {
      const statement = manualOnly ? waitingManual : waitingReal;
      return statement.all(world, after?.dueAt ?? -1, after?.rank ?? -1, upTo, limit) as StoredTask[];
    },
    lastSeq: () => (maxSeq.get(world) as { n: number | null } | undefined)?.n ?? 0,
    generationLedger: (id) => json(ofGeneration.all(world, id)),
    generationsLedger(ids) {
      if (ids.length === 0) return [];
      // One statement per list length (a page holds at most 101), prepared when first used.
      const marks = ids.map(() => '?').join(', ');
      return json(
        prepared(
          `SELECT json FROM ledger WHERE world = ? AND json_extract(json, '$.generationId') IN (${marks}) ORDER BY key`,
        ).all(world, ...ids),
      );
    },
    ledgerEntries: (accountId) =>
      json(accountId === undefined ? allLedger.all(world) : accountLedger.all(world, accountId)),
    generationPage: (query) => json(page(world, 'json', query)),
    generationKeys: (query) => (page(world, 'key', query) as { key: string }[]).map((r) => r.key),
    generationCounts: (query) => countsByStatus(world, query),
  });
}
