// The store of record in use: every acknowledged change is one SQLite transaction, committed before its response goes out.
import { existsSync } from 'node:fs';
import type { DomainContext } from '../domain/context.js';
import { DomainError } from '../domain/errors.js';
import type { ExchangeHooks } from '../http/pipeline.js';
import { openSqliteStore, type SyncLevel } from '../infra/sqlite-connection.js';
import { StorageFailure, type SqliteStore } from '../infra/sqlite-store.js';
import { ChangeTracker } from './change-tracker.js';
import { recordSources } from './record-sources.js';
import { createResponseGate } from './response-gate.js';
import { canResume, resumeState } from './resume-state.js';
import { type DocumentDeps, exportState, importState } from './state-document.js';
import { migrateLegacyStateFile, migrationBackup } from './state-migration.js';
import { stateFileKind } from './state-file-kind.js';
import { fullBatch, isEmpty } from './state-rows.js';
import { StoreError } from './store-errors.js';
import { readStoredState } from './stored-state.js';

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
   * change waits for the group commit: every such answer that ends in the same turn of the event loop shares one
   * transaction, and each goes out after it, or as a 507 when it failed.
   */
  hooks: Required<Pick<ExchangeHooks, 'before' | 'gate'>>;
  /** A last commit (with the kept logs) unless told not to, then the database is closed and its lock released. */
  close(options?: { write?: boolean }): Promise<void>;
  /** The store's key-value meta table, for settings that must outlive a restart (e.g. a signing secret). */
  readMeta(key: string): string | undefined;
  /** Writes one meta value in its own transaction; a full disk throws the 507 (storage_full). */
  writeMeta(key: string, value: string): void;
}

export interface StoreOptions {
  /** The database file (--state-file); undefined for the emulator's private (temporary) database. */
  path?: string;
  sync: SyncLevel;
  log: (line: string) => void;
  /** The emulator's `errorStatuses` and `errorCodes` options: a refusal answered here honours them as the error mapper does. */
  errorStatuses?: Record<string, number>;
  errorCodes?: Record<string, string>;
  /** Runs a group's commit after the current turn's I/O callbacks; setImmediate by default. */
  defer?: (settle: () => void) => void;
}

const storageFull = (failure: StorageFailure) =>
  new DomainError(
    'storage_full',
    `The change could not be stored (${failure.code}): the disk holding the state file is full or failing. Nothing was changed or charged; free space and retry the request.`,
  );

export function createStoreOfRecord(deps: DocumentDeps, options: StoreOptions): StoreOfRecord {
  const { path, log } = options;
  const { kept } = deps;
  // A file that is neither a database nor the old JSON state is refused here, before anything is made beside it.
  if (path && stateFileKind(path) === 'json') migrateLegacyStateFile(path, options.sync, kept, log);
  const store: SqliteStore = openSqliteStore({ path: path ?? '', sync: path ? options.sync : 'off' });
  let tracker: ChangeTracker | undefined;
  /** Bumped when a failed commit starts restoring memory from the store and when it is done. */
  let epoch = 0;
  let restoring = false;
  /** While a context is being read from the store: nothing may be written (it is not all in the heap). */
  let loading = false;
  let writing = false;
  let closed = false;
  // A kept state that start() has not read yet: writing over it would lose it, so every change is refused until then.
  let unread = Boolean(path) && store.hasState();
  const context = (): DomainContext => deps.runtime.context();
  // A query by columns commits the heap's changes first, so it sees them; a failure there is the read's 507.
  const sources = recordSources(store, () => {
    if (!writing && !loading) commit();
  });

  const write = (withLogs: boolean) => {
    if (closed || loading) return;
    if (unread)
      throw new StoreError(
        'state_not_loaded',
        `State file ${store.path} holds a state this emulator has not loaded: call start() (or startEmulator()) before using it, so nothing overwrites it.`,
      );
    writing = true;
    try {
      if (!tracker || tracker.context !== context()) {
        // A reset or an import swapped the whole context: written whole, in one transaction.
        store.commit(fullBatch(exportState(deps), kept, context()));
        tracker = new ChangeTracker(context(), kept, sources);
        return;
      }
      const { batch, accept } = tracker.next(withLogs);
      if (isEmpty(batch)) return accept();
      store.commit(batch);
      accept();
    } finally {
      writing = false;
    }
  };

  /** Swaps in the stored state: resumed (only what the heap keeps) or, from an older store, read whole and rewritten. */
  const load = async () => {
    loading = true;
    try {
      if (canResume(store)) {
        await resumeState(deps, store, sources);
        tracker = new ChangeTracker(context(), kept, sources, { resumed: true });
      } else {
        await importState(deps, readStoredState(store, kept), 'store');
        tracker = undefined;
      }
    } finally {
      loading = false;
    }
    write(false);
  };

  /** After a refused commit memory holds changes the store does not: the context is read again from the store. */
  const restore = async () => {
    restoring = true;
    epoch += 1;
    try {
      await load();
    } catch (error) {
      log(`could not reload the state from ${store.path}: ${(error as Error).message}`);
    } finally {
      restoring = false;
      epoch += 1;
    }
  };

  const commit = () => {
    try {
      write(false);
    } catch (error) {
      if (!(error instanceof StorageFailure)) throw error;
      log(`${error.message}; the change was rolled back and the state is reloaded from the store`);
      if (!restoring) void restore();
      throw storageFull(error);
    }
  };

  // Only a file outlives the process, so only a file is worth the timer (which would keep a private store's emulator
  // alive in a test process that never closes it).
  const timer = path
    ? setInterval(() => {
        if (restoring || unread) return;
        try {
          write(true);
        } catch (error) {
          // Nothing here was acknowledged: it stays in memory and goes with the next commit that succeeds.
          log(`could not write to ${store.path}: ${(error as Error).message}`);
        }
      }, BACKGROUND_COMMIT_MS)
    : undefined;
  timer?.unref();

  /** True when a commit now would write nothing: the tracker follows this context and sees no change. */
  const nothingToWrite = () =>
    !unread && !loading && tracker !== undefined && tracker.context === context() && !tracker.hasChanges();

  const gate = createResponseGate({
    commit,
    epoch: () => epoch,
    restoring: () => restoring,
    closed: () => closed,
    nothingToWrite,
    defer: options.defer ?? ((settle) => void setImmediate(settle)),
    log,
    errorStatuses: options.errorStatuses,
    errorCodes: options.errorCodes,
  });

  return {
    async open() {
      unread = false;
      if (!store.hasState()) return false;
      try {
        await load();
      } catch (error) {
        if (error instanceof DomainError && error.code === 'storage_full') throw error;
        const backup = migrationBackup(store.path);
        const migrated = existsSync(backup) ? ` It was migrated from the JSON state kept as ${backup}.` : '';
        throw new DomainError(
          'invalid_state',
          `State file ${store.path}: ${(error as Error).message.replace(/\.$/, '')}. The file is left as it was; to recover, move it away and start without it (a fresh state), or fix the value named above with the sqlite3 tool (the meta and record tables hold JSON).${migrated}`,
        );
      }
      return true;
    },
    commit,
    hooks: { before: gate.before, gate: gate.gate },
    readMeta: (key) => store.meta(key),
    writeMeta(key, value) {
      try {
        store.commit({ meta: { [key]: value } });
      } catch (error) {
        if (error instanceof StorageFailure) throw storageFull(error);
        throw error;
      }
    },
    async close({ write: last = true } = {}) {
      if (closed) return;
      clearInterval(timer);
      // Responses still waiting get their commit's verdict now, before the store goes.
      gate.settle();
      try {
        if (last && !restoring && !unread) write(true);
      } finally {
        closed = true;
        store.close();
      }
    },
  };
}
