// The store of record in use: every acknowledged change is one SQLite transaction, committed before its response goes out.
// Over any host's SQLite (node/state-file.ts opens Node's file; a browser passes sql.js's database). Every world of an
// emulator keeps its rows in the same database, and the answers of any worlds that end together share one commit.
import type { ResolvedOptions } from '../config.js';
import { CodedError, DomainError } from '../domain/errors.js';
import type { ExchangeHooks } from '../http/pipeline.js';
import { StorageFailure, type SqliteStore, type WorldBatch } from '../infra/sqlite-store.js';
import { unref } from '../infra/unref.js';
import { createResponseGate } from './response-gate.js';
import type { DocumentDeps } from './state-document.js';
import { type PreparedBatch, WorldRecord } from './world-record.js';

/** Changes nobody was told about (timers, renders, the kept logs) reach the store within this long. */
const BACKGROUND_COMMIT_MS = 1000;

export interface StoreOfRecord {
  /** Loads the stored state, if there is one (true), migrating an old JSON state file first. */
  open(): Promise<boolean>;
  /** Commits what changed since the last commit; throws the 507 when the disk refuses it. */
  commit(): void;
  /**
   * Its part in every exchange: `before` notes when an exchange that may change state began (one a failed commit
   * rolled back is not acknowledged); `gate` runs before the first byte of every answer. An answer that may carry a
   * change waits for the group commit: every such answer that ends in the same turn of the event loop, in any world,
   * shares one transaction, and each goes out after it, or as a 507 when it failed.
   */
  hooks: Required<Pick<ExchangeHooks, 'before' | 'gate'>>;
  /**
   * The first world's store: a last commit of every world (with the kept logs) unless told not to, then the database
   * is closed and its lock released. Another world's: its last commit; the database stays open.
   */
  close(options?: { write?: boolean }): Promise<void>;
  /** The store's key-value meta table, for settings that must outlive a restart (e.g. a signing secret). */
  readMeta(key: string): string | undefined;
  /** Writes one meta value in its own transaction; a full disk throws the 507 (storage_full). */
  writeMeta(key: string, value: string): void;
  /** Another world's store of record in the same database: its own rows, its answers in the same group commits. */
  forWorld(world: string, deps: DocumentDeps): StoreOfRecord;
  /** The other worlds this database describes (sandboxes), as keepWorld() wrote them. */
  keptWorlds(): { id: string; json: string }[];
  /** Keeps a world's description (in its own transaction); a full disk throws the 507 (storage_full). */
  keepWorld(world: string, json: string): void;
  /** This world is gone (not the first one): nothing more of it is written, and its rows are deleted. */
  drop(): void;
}

export interface StoreCoreOptions {
  /**
   * The database outlives this emulator (a --state-file, a page's kept image): a state it already holds refuses every
   * change until open() has read it, and what changed without a request (timers, renders, the kept logs) is committed
   * every second. A private database has neither: nothing else could read it.
   */
  persistent: boolean;
  log: (line: string) => void;
  /** The emulator's `errorStatuses` and `errorCodes` options: a refusal answered here honours them as the error mapper does. */
  errorStatuses?: Record<string, number>;
  errorCodes?: Record<string, string>;
  /** What open() says when the kept state cannot be loaded, from the reason; the host names its file and how to recover. */
  refusal?: (reason: string) => string;
  /** Runs a group's commit after the current turn's I/O callbacks (the host's: setImmediate under Node). */
  defer: (settle: () => void) => void;
}

/** How the composition root gets an emulator's store of record: each host opens its own SQLite (Node: node/state-file.ts). */
export type StoreFactory = (deps: DocumentDeps, options: ResolvedOptions) => StoreOfRecord;

const storageFull = (failure: StorageFailure) =>
  new DomainError(
    'storage_full',
    `The change could not be stored (${failure.code}): the disk holding the state file is full or failing. Nothing was changed or charged; free space and retry the request.`,
  );

const NO_REFUSALS: ReadonlyMap<WorldRecord, CodedError> = new Map();

/** The store of record over `store`, an SQLite store already opened and set up by its host: its first world's. */
export function storeOfRecordOver(store: SqliteStore, deps: DocumentDeps, options: StoreCoreOptions): StoreOfRecord {
  const { persistent, log } = options;
  const records = new Set<WorldRecord>();
  let closed = false;

  /**
   * One transaction for these worlds' changes. A world refused on its own (its kept state unread) is answered in the
   * map; a refusal of the disk rolls back every world in it, reloads each from its rows, and throws the 507.
   */
  const commitWorlds = (worlds: readonly WorldRecord[], withLogs = false): ReadonlyMap<WorldRecord, CodedError> => {
    if (closed) return NO_REFUSALS;
    const parts: [WorldRecord, PreparedBatch][] = [];
    let refusals: Map<WorldRecord, CodedError> | undefined;
    try {
      for (const record of worlds) {
        record.writing = true;
        try {
          const prepared = record.prepare(withLogs);
          if (prepared) parts.push([record, prepared]);
        } catch (error) {
          if (!(error instanceof CodedError)) throw error;
          refusals ??= new Map();
          refusals.set(record, error);
        }
      }
      if (parts.length === 0) return refusals ?? NO_REFUSALS;
      const batches: WorldBatch[] = parts.map(([record, prepared]) => ({
        world: record.store.world,
        batch: prepared.batch,
      }));
      if (batches.length === 1) parts[0][0].store.commit(batches[0].batch);
      else store.commitTogether(batches);
    } catch (error) {
      if (!(error instanceof StorageFailure)) throw error;
      log(`${error.message}; the change was rolled back and the state is reloaded from the store`);
      for (const [record] of parts) void record.restore();
      throw storageFull(error);
    } finally {
      for (const record of worlds) record.writing = false;
    }
    for (const [, prepared] of parts) prepared.accept();
    return refusals ?? NO_REFUSALS;
  };

  const commits = {
    commit(record: WorldRecord) {
      const refusal = commitWorlds([record]).get(record);
      if (refusal) throw refusal;
    },
    log,
  };

  const gate = createResponseGate<WorldRecord>({
    commit: (worlds) => commitWorlds(worlds),
    closed: () => closed,
    defer: options.defer,
    log,
    errorStatuses: options.errorStatuses,
    errorCodes: options.errorCodes,
  });

  // Only a database that outlives the emulator is worth the timer (which would keep a private store's emulator alive
  // in a test process that never closes it). One for every world: a pass writes each one's changes in one transaction.
  const timer = persistent
    ? setInterval(() => {
        const worlds = [...records].filter((record) => !record.restoring && !record.unread);
        try {
          commitWorlds(worlds, true);
        } catch (error) {
          // Nothing here was acknowledged: a world the disk refused is reloaded from its rows (commitWorlds).
          log(`could not write to ${store.path}: ${(error as Error).message}`);
        }
      }, BACKGROUND_COMMIT_MS)
    : undefined;
  unref(timer);

  const wrapMeta = (write: () => void) => {
    try {
      write();
    } catch (error) {
      if (error instanceof StorageFailure) throw storageFull(error);
      throw error;
    }
  };

  const worldStore = (view: SqliteStore, worldDeps: DocumentDeps, first: boolean): StoreOfRecord => {
    const record = new WorldRecord(view, worldDeps, commits, persistent);
    records.add(record);
    return {
      async open() {
        record.unread = false;
        if (!view.hasState()) return false;
        try {
          await record.load();
        } catch (error) {
          if (error instanceof DomainError && error.code === 'storage_full') throw error;
          const reason = (error as Error).message.replace(/\.$/, '');
          throw new DomainError(
            'invalid_state',
            options.refusal?.(reason) ??
              `The stored state ${view.path} cannot be loaded: ${reason}. It was left as it was.`,
          );
        }
        return true;
      },
      commit: () => commits.commit(record),
      hooks: gate.hooks(record),
      readMeta: (key) => view.meta(key),
      writeMeta: (key, value) => wrapMeta(() => view.commit({ meta: { [key]: value } })),
      forWorld: (world, otherDeps) => worldStore(store.forWorld(world), otherDeps, false),
      keptWorlds: () => store.worldDocuments(),
      keepWorld: (world, json) => wrapMeta(() => store.keepWorld(world, json)),
      drop() {
        if (first) throw new Error('the first world of a store is never dropped');
        record.closed = true;
        records.delete(record);
        if (!closed) wrapMeta(() => store.dropWorld(view.world));
      },
      async close({ write: last = true } = {}) {
        if (!first) {
          if (!closed && !record.closed && !record.restoring && !record.unread) commitWorlds([record], true);
          record.closed = true;
          records.delete(record);
          return;
        }
        if (closed) return;
        clearInterval(timer);
        // Responses still waiting get their commit's verdict now, before the store goes.
        gate.settle();
        try {
          if (last)
            commitWorlds(
              [...records].filter((r) => !r.restoring && !r.unread && !r.closed),
              true,
            );
        } finally {
          closed = true;
          for (const each of records) each.closed = true;
          store.close();
        }
      },
    };
  };
  return worldStore(store, deps, true);
}
