// The store's database in a browser page: SQLite in memory over WebAssembly, optionally kept across reloads in IndexedDB.
import { createStore, del, get, promisifyRequest, type UseStore } from 'idb-keyval';
import type { SqlConnection, SqlStatement } from './sql-connection.js';
import { sqliteErrorCode } from './sql-connection.js';
import { createSchema } from './sqlite-schema.js';
import type { WasmSqlConnection, WasmSqlite } from './sqlite-wasm-driver.js';

/**
 * Why an image in IndexedDB: msw's setupWorker answers on the page's main thread, where OPFS's synchronous access
 * handles (behind sqlite-wasm's "opfs" and "opfs-sahpool") do not exist. So the database lives in memory, synchronous
 * as the store needs, and its whole file image is written after the commits (at most one write per `keepAfterMs`, and
 * when the page goes away) and read back at the next open. A tab closed by a crash loses what the last `keepAfterMs`
 * committed; `flush()` writes it at once (the msw pack awaits it before each answer).
 */
export interface BrowserDatabaseOptions {
  /** 'indexeddb' keeps the database across reloads under `name`; false starts empty every time. */
  persist: 'indexeddb' | false;
  /** The kept image's key: one per emulator on the page's origin (two pages open on one name overwrite each other). */
  name: string;
  /** How long after a commit its image is written, so a burst of commits costs one write (default 200 ms). */
  keepAfterMs?: number;
  /** Told when an image could not be written (a full quota): once per run of failures; the next commit tries again. */
  warn?: (line: string) => void;
}

export interface BrowserDatabase {
  /** Pragmas set, schema created (or migrated): what the store of record runs over (sqliteStoreOver). */
  readonly connection: SqlConnection;
  /** Writes the image now if a commit is not yet kept, and resolves once it is. */
  flush(): Promise<void>;
  /** Drops the kept image (the live database is untouched; what is committed after this is kept again). */
  reset(): Promise<void>;
  /**
   * Closes the database and resolves once its last commit is kept. Closing the connection itself (the store's
   * close()) keeps it as well: the last image is taken before the database closes, and flush() waits for its write.
   */
  close(): Promise<void>;
}

/** The kept image could not be read as a database: refused in one sentence, left untouched. */
export class KeptImageRefused extends Error {
  override name = 'KeptImageRefused';
}

/** Where the images are kept (what DevTools shows under IndexedDB): one database, one object store, a key per name. */
export const KEPT_IMAGES_AT = { database: 'media-gen-emulator', objectStore: 'database-images' } as const;
const KEPT_IMAGES = () => createStore(KEPT_IMAGES_AT.database, KEPT_IMAGES_AT.objectStore);
const KEEP_AFTER_MS = 200;

/**
 * The private store's settings (sqlite-connection.ts sets the same for '' on Node): no journal file, no sync. One
 * connection per database, so the lock is kept (EXCLUSIVE): sql.js's database is a file in its in-memory file system,
 * and without it SQLite re-reads the file's header at every transaction (a commit cost 1.5-3x more).
 */
export function setUpPageDatabase<Connection extends SqlConnection>(db: Connection): Connection {
  db.exec('PRAGMA locking_mode = EXCLUSIVE');
  db.exec('PRAGMA journal_mode = MEMORY');
  db.exec('PRAGMA synchronous = OFF');
  createSchema(db);
  return db;
}

/** Deletes the image kept under `name`: the way out after KeptImageRefused, and what `reset()` does. */
export async function dropKeptImage(name: string): Promise<void> {
  await del(name, KEPT_IMAGES());
}

function openKept(sqlite: WasmSqlite, name: string, image: Uint8Array): WasmSqlConnection {
  let db: WasmSqlConnection | undefined;
  try {
    db = sqlite.open(image);
    setUpPageDatabase(db);
    return db;
  } catch (error) {
    db?.close();
    const code = sqliteErrorCode(error) || (error as Error).message;
    throw new KeptImageRefused(
      `The database kept in IndexedDB as "${name}" is not a readable SQLite database (${code}); it was left untouched. Call dropKeptImage("${name}") to start empty.`,
    );
  }
}

/**
 * The connection with every write noted: `changed` schedules the image's write after it; `close` is the keeper's,
 * which takes the last image before the database closes.
 */
function noticingWrites(db: WasmSqlConnection, keeper: { changed(): void; close(): void }): SqlConnection {
  const { changed } = keeper;
  const noticed = (statement: SqlStatement): SqlStatement => ({
    run: (...params) => {
      statement.run(...params);
      changed();
    },
    get: (...params) => statement.get(...params),
    all: (...params) => statement.all(...params),
  });
  return {
    driver: db.driver,
    exec: (sql) => {
      db.exec(sql);
      changed();
    },
    prepare: (sql) => noticed(db.prepare(sql)),
    transaction: (work) => db.transaction(work),
    defineFunction: (name, fn) => db.defineFunction(name, fn),
    close: () => keeper.close(),
  };
}

/**
 * idb-keyval's `set`, with the transaction committed at once rather than when it falls idle: a write begun as the
 * page goes away (pagehide) is otherwise aborted with the page.
 */
const keep = (images: UseStore, name: string, image: Uint8Array) =>
  images('readwrite', (store) => {
    store.put(image, name);
    store.transaction.commit();
    return promisifyRequest(store.transaction);
  });

/** The page's own events, where there is a page (the project compiles without the DOM's types). */
type PageEvents = {
  addEventListener?(type: string, listener: () => void): void;
  removeEventListener?(type: string, listener: () => void): void;
};

/**
 * Writes the database's image after the commits: at most one write per `keepAfterMs`, one at a time, in order, and
 * once more when the page is hidden or unloaded ('pagehide'), so a reload right after a commit finds it.
 */
function imageKeeper(db: WasmSqlConnection, name: string, images: UseStore, options: BrowserDatabaseOptions) {
  const keepAfterMs = options.keepAfterMs ?? KEEP_AFTER_MS;
  const warn = options.warn ?? ((line: string) => console.warn(line));
  let timer: ReturnType<typeof setTimeout> | undefined;
  /** A commit whose image is not written yet (or whose write failed). */
  let unkept = false;
  let failing = false;
  let writing: Promise<void> = Promise.resolve();
  let stopped = false;

  /**
   * Writes the image after the write under way, taken then (between two turns, so never inside a transaction), or
   * the one `taken` already.
   */
  const write = (taken?: Uint8Array): Promise<void> => {
    clearTimeout(timer);
    timer = undefined;
    unkept = false;
    const done = writing.then(() => keep(images, name, taken ?? db.image()));
    writing = done.then(
      () => {
        failing = false;
      },
      (error: unknown) => {
        unkept = true;
        if (!failing) warn(`The emulator's database "${name}" could not be kept in IndexedDB: ${String(error)}`);
        failing = true;
      },
    );
    return done;
  };
  // A failed write is said through `warn`, never as an unhandled rejection.
  const writeQuietly = () => void write().catch(() => {});
  const onHide = () => {
    if (unkept) writeQuietly();
  };
  const page = globalThis as PageEvents;
  page.addEventListener?.('pagehide', onHide);
  return {
    changed() {
      unkept = true;
      if (timer === undefined && !stopped) timer = setTimeout(writeQuietly, keepAfterMs);
    },
    async flush() {
      if (unkept) return write();
      await writing;
    },
    /** Forgets what is not written yet, waits for the write under way, then deletes the image. */
    async drop() {
      clearTimeout(timer);
      timer = undefined;
      unkept = false;
      await writing;
      await del(name, images);
    },
    /** Closes the database, its last image taken first and written after (flush() waits for it); idempotent. */
    close() {
      if (stopped) return;
      stopped = true;
      if (unkept) void write(db.image()).catch(() => {});
      clearTimeout(timer);
      page.removeEventListener?.('pagehide', onHide);
      db.close();
    },
  };
}

/** Opens the page's database: the kept image when there is one (persist: 'indexeddb'), else a new one. */
export async function openBrowserDatabase(
  sqlite: WasmSqlite,
  options: BrowserDatabaseOptions,
): Promise<BrowserDatabase> {
  const { name, persist } = options;
  if (!persist) {
    const db = setUpPageDatabase(sqlite.open());
    return { connection: db, flush: async () => {}, reset: async () => {}, close: async () => db.close() };
  }
  const images: UseStore = KEPT_IMAGES();
  const kept = await get<Uint8Array>(name, images);
  const db = kept ? openKept(sqlite, name, kept) : setUpPageDatabase(sqlite.open());
  const keeper = imageKeeper(db, name, images, options);
  return {
    connection: noticingWrites(db, keeper),
    flush: keeper.flush,
    reset: keeper.drop,
    async close() {
      keeper.close();
      await keeper.flush();
    },
  };
}
