// One world's part of the store of record: its change tracking, its load and reload, what its next commit writes.
import type { DomainContext } from '../domain/context.js';
import type { ChangeBatch, SqliteStore } from '../infra/sqlite-store.js';
import { ChangeTracker } from './change-tracker.js';
import { recordSources } from './record-sources.js';
import { canResume, resumeState } from './resume-state.js';
import { type DocumentDeps, exportState, importState } from './state-document.js';
import { fullBatch, isEmpty } from './state-rows.js';
import { StoreError } from './store-errors.js';
import { readStoredState } from './stored-state.js';

/** What a commit writes for one world, and what to do once it is written. */
export interface PreparedBatch {
  batch: ChangeBatch;
  accept(): void;
}

/** How a world's commit reaches the database: the shared commit (one transaction, maybe with other worlds' batches). */
export interface RecordCommits {
  /** Commits this world's changes now; throws the refusal (507, 409 state_not_loaded) as the group would. */
  commit(record: WorldRecord): void;
  log(line: string): void;
}

/**
 * One world's rows and how they follow its memory: every commit writes what changed since the last (the tracker), a
 * reset or an import writes the world whole, a failed commit reloads the world from its rows.
 */
export class WorldRecord {
  private tracker: ChangeTracker | undefined;
  /** Bumped when a failed commit starts restoring memory from the store and when it is done. */
  epoch = 0;
  restoring = false;
  /** While a context is being read from the store: nothing may be written (it is not all in the heap). */
  private loading = false;
  /** A commit is being prepared or written: a query by columns must not start another one. */
  writing = false;
  closed = false;
  /** A kept state that start() has not read yet: writing over it would lose it, so every change is refused until then. */
  unread: boolean;
  private readonly sources;

  constructor(
    readonly store: SqliteStore,
    readonly deps: DocumentDeps,
    private readonly commits: RecordCommits,
    persistent: boolean,
  ) {
    this.unread = persistent && store.hasState();
    // A query by columns commits the heap's changes first, so it sees them; a failure there is the read's 507.
    this.sources = recordSources(store, () => {
      if (!this.writing && !this.loading) commits.commit(this);
    });
  }

  private context = (): DomainContext => this.deps.runtime.context();

  /**
   * This world's next batch, or undefined when it has nothing to write (or may not write now). Throws 409
   * state_not_loaded while a kept state is unread. A reload writes (the state it read, when read whole) although
   * `restoring`: the group commit is what waits for it.
   */
  prepare(withLogs: boolean): PreparedBatch | undefined {
    if (this.closed || this.loading) return undefined;
    if (this.unread)
      throw new StoreError(
        'state_not_loaded',
        `State file ${this.store.path} holds a state this emulator has not loaded: call start() (or startEmulator()) before using it, so nothing overwrites it.`,
      );
    const context = this.context();
    if (!this.tracker || this.tracker.context !== context) {
      // A reset or an import swapped the whole context: written whole, in one transaction.
      const batch = fullBatch(exportState(this.deps), this.deps.kept, context);
      return { batch, accept: () => (this.tracker = new ChangeTracker(context, this.deps.kept, this.sources)) };
    }
    const next = this.tracker.next(withLogs);
    if (isEmpty(next.batch)) {
      next.accept();
      return undefined;
    }
    return next;
  }

  /** True when a commit now would write nothing: the tracker follows this context and sees no change. */
  nothingToWrite(): boolean {
    return (
      !this.unread &&
      !this.loading &&
      this.tracker !== undefined &&
      this.tracker.context === this.context() &&
      !this.tracker.hasChanges()
    );
  }

  /** Swaps in the stored state: resumed (only what the heap keeps) or, from an older store, read whole and rewritten. */
  async load(): Promise<void> {
    this.loading = true;
    try {
      if (canResume(this.store)) {
        await resumeState(this.deps, this.store, this.sources);
        this.tracker = new ChangeTracker(this.context(), this.deps.kept, this.sources, { resumed: true });
      } else {
        await importState(this.deps, readStoredState(this.store, this.deps.kept), 'store');
        this.tracker = undefined;
      }
    } finally {
      this.loading = false;
    }
    this.commits.commit(this);
  }

  /** After a refused commit memory holds changes the store does not: the context is read again from the store. */
  async restore(): Promise<void> {
    if (this.restoring) return;
    this.restoring = true;
    this.epoch += 1;
    try {
      await this.load();
    } catch (error) {
      this.commits.log(`could not reload the state from ${this.store.path}: ${(error as Error).message}`);
    } finally {
      this.restoring = false;
      this.epoch += 1;
    }
  }
}
