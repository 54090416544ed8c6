// The store of record in use: every acknowledged change is one SQLite transaction, committed before its response goes out.
// Over any host's SQLite (node/state-file.ts opens Node's file; a browser passes sql.js's database).
import type { ResolvedOptions } from '../config.js';
import type { DomainContext } from '../domain/context.js';
import { DomainError } from '../domain/errors.js';
import type { ExchangeHooks } from '../http/pipeline.js';
import { StorageFailure, type SqliteStore } from '../infra/sqlite-store.js';
import { unref } from '../infra/unref.js';
import { ChangeTracker } from './change-tracker.js';
import { recordSources } from './record-sources.js';
import { createResponseGate } from './response-gate.js';
import { canResume, resumeState } from './resume-state.js';
import { type DocumentDeps, exportState, importState } from './state-document.js';
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

/** The store of record over `store`, an SQLite store already opened and set up by its host. */
export function storeOfRecordOver(store: SqliteStore, deps: DocumentDeps, options: StoreCoreOptions): StoreOfRecord {
  const { persistent, log } = options;
  const { kept } = deps;
  let tracker: ChangeTracker | undefined;
  /** Bumped when a failed commit starts restoring memory from the store and when it is done. */
  let epoch = 0;
  let restoring = false;
  /** While a context is being read from the store: nothing may be written (it is not all in the heap). */
  let loading = false;
  let writing = false;
  let closed = false;
  // A kept state that start() has not read yet: writing over it would lose it, so every change is refused until then.
  let unread = persistent && store.hasState();
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

  // Only a database that outlives the emulator is worth the timer (which would keep a private store's emulator alive
  // in a test process that never closes it).
  const timer = persistent
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
  unref(timer);

  /** True when a commit now would write nothing: the tracker follows this context and sees no change. */
  const nothingToWrite = () =>
    !unread && !loading && tracker !== undefined && tracker.context === context() && !tracker.hasChanges();

  const gate = createResponseGate({
    commit,
    epoch: () => epoch,
    restoring: () => restoring,
    closed: () => closed,
    nothingToWrite,
    defer: options.defer,
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
        const reason = (error as Error).message.replace(/\.$/, '');
        throw new DomainError(
          'invalid_state',
          options.refusal?.(reason) ??
            `The stored state ${store.path} cannot be loaded: ${reason}. It was left as it was.`,
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
