// The store of record in use: every acknowledged change is one SQLite transaction, committed before its response goes out.
import type { RequestHandler, Response } from 'express';
import type { DomainContext } from '../../domain/context.js';
import { DomainError } from '../../domain/errors.js';
import type { BeforeSend } from '../../http/response-pipeline.js';
import { openSqliteStore, StorageFailure, type SqliteStore, type SyncLevel } from '../../infra/sqlite-store.js';
import type { ControlDeps } from '../plane-state.js';
import { exportState, importState } from './emulator-state.js';
import { ChangeTracker, fullBatch } from './state-changes.js';
import { migrateLegacyStateFile } from './state-migration.js';
import { readStoredState } from './stored-state.js';

const READ_ONLY = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Changes nobody was told about (timers, renders, the journal) reach the store within this long. */
const BACKGROUND_COMMIT_MS = 1000;

export interface Persistence {
  /** Loads the stored state, if there is one (true), migrating an old JSON state file first. */
  open(): Promise<boolean>;
  /** Commits what changed since the last commit; throws the 507 when the disk refuses it. */
  commit(): void;
  /** Notes when each request started, so one that a failed commit rolled back is not acknowledged. */
  middleware(): RequestHandler;
  /** Runs before the first byte of every response: commits a change, or turns the answer into a 507. */
  gate: BeforeSend;
  /** A last commit (with the journal) unless told not to, then the database is closed and its lock released. */
  close(options?: { write?: boolean }): Promise<void>;
  /** The store's key-value meta table, for settings that must outlive a restart (e.g. a signing secret). */
  readMeta(key: string): string | undefined;
  /** Writes one meta value in its own transaction; a full disk throws the 507 (storage_full). */
  writeMeta(key: string, value: string): void;
}

export interface PersistenceOptions {
  /** The database file (--state-file); undefined for the emulator's private (temporary) database. */
  path?: string;
  sync: SyncLevel;
  log: (line: string) => void;
}

const storageFull = (failure: StorageFailure) =>
  new DomainError(
    'storage_full',
    `The change could not be stored (${failure.code}): the disk holding the state file is full or failing. Nothing was changed or charged; free space and retry the request.`,
  );

export function createPersistence(deps: () => ControlDeps, options: PersistenceOptions): Persistence {
  const { path, log } = options;
  if (path) migrateLegacyStateFile(path, options.sync, log);
  const store: SqliteStore = openSqliteStore({ path: path ?? '', sync: path ? options.sync : 'off' });
  let tracker: ChangeTracker | undefined;
  /** Bumped when a failed commit starts restoring memory from the store and when it is done. */
  let epoch = 0;
  let restoring = false;
  let closed = false;
  const context = (): DomainContext => deps().runtime.context();

  const write = (withJournal: boolean) => {
    if (closed) return;
    const { state } = deps();
    if (!tracker || tracker.context !== context()) {
      // A reset or an import swapped the whole context: written whole, in one transaction.
      store.commit(fullBatch(exportState(deps())));
      tracker = new ChangeTracker(context(), state);
      return;
    }
    const { batch, accept } = tracker.next(state, withJournal);
    if (isEmpty(batch)) return accept();
    store.commit(batch);
    accept();
  };

  /** After a refused commit memory holds changes the store does not: it is rebuilt from the store. */
  const restore = async () => {
    restoring = true;
    epoch += 1;
    try {
      await importState(deps(), readStoredState(store), 'store');
      tracker = new ChangeTracker(context(), deps().state);
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
        if (restoring) return;
        try {
          write(true);
        } catch (error) {
          // Nothing here was acknowledged: it stays in memory and goes with the next commit that succeeds.
          log(`could not write to ${store.path}: ${(error as Error).message}`);
        }
      }, BACKGROUND_COMMIT_MS)
    : undefined;
  timer?.unref();

  const refusedText = (res: Response, error: DomainError) => {
    const body = JSON.stringify({ error: { code: error.code, message: error.message } });
    res.statusCode = 507;
    res.setHeader('Content-Type', 'application/json');
    res.setHeader('Content-Length', Buffer.byteLength(body));
    return body;
  };

  return {
    async open() {
      if (!store.hasState()) return false;
      try {
        await importState(deps(), readStoredState(store), 'store');
      } catch (error) {
        throw new DomainError('invalid_state', `State file ${store.path}: ${(error as Error).message}`);
      }
      tracker = new ChangeTracker(context(), deps().state);
      return true;
    },
    commit,
    middleware() {
      return (req, res, next) => {
        if (!READ_ONLY.has(req.method)) res.locals.storeEpoch = epoch;
        next();
      };
    },
    gate(res) {
      const started = res.locals.storeEpoch as number | undefined;
      if (started === undefined || closed) return undefined;
      res.locals.storeEpoch = undefined;
      if (restoring || started !== epoch)
        return refusedText(
          res,
          new DomainError(
            'storage_full',
            'The change could not be stored: a write to the state file failed meanwhile and its state was reloaded. Nothing was changed or charged; retry the request.',
          ),
        );
      try {
        commit();
        return undefined;
      } catch (error) {
        if (error instanceof DomainError) return refusedText(res, error);
        throw error;
      }
    },
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
      try {
        if (last && !restoring) write(true);
      } finally {
        closed = true;
        store.close();
      }
    },
  };
}

function isEmpty(batch: ReturnType<ChangeTracker['next']>['batch']): boolean {
  const rows = Object.values(batch.upsert ?? {}).some((r) => r.length > 0);
  const gone = Object.values(batch.delete ?? {}).some((r) => r.length > 0);
  return !rows && !gone && Object.keys(batch.meta ?? {}).length === 0 && batch.journalBelow === undefined;
}
