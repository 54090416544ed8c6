// What the next transaction writes: the rows changed since the last commit, taken from the stores' own change marks.
import type { DomainContext } from '../../domain/context.js';
import type { Generation } from '../../domain/generation.js';
import type { GenerationSource } from '../../domain/generation-store.js';
import type { IdempotencySource } from '../../domain/idempotency.js';
import type { LedgerSource } from '../../domain/ledger.js';
import { firstMoveDueAt } from '../../domain/move-timers.js';
import type { ChangeBatch, DocumentRow } from '../../infra/sqlite-store.js';
import type { ControlState } from '../plane-state.js';
import type { EmulatorState } from './emulator-state.js';

/** Marks a store whose pending rows carry their first move's due time (the scheduler reads them from there). */
export const TIMERS_IN_STORE = 'due_at';

const generationRow = (g: Generation): DocumentRow => ({
  key: g.id,
  seq: g.seq,
  accountId: g.accountId,
  status: g.status,
  createdAt: g.createdAt,
  ...(g.status === 'pending' ? { dueAt: firstMoveDueAt(g), manualOnly: g.plan.manualOnly } : {}),
  json: JSON.stringify(g),
});

const documentRow = (key: string | number, value: unknown): DocumentRow => ({ key, json: JSON.stringify(value) });

function clockOf(ctx: DomainContext): EmulatorState['domain']['clock'] {
  const now = ctx.clock.now();
  return { now, frozen: ctx.clock.frozen, offset_ms: ctx.clock.frozen ? 0 : now - Date.now() };
}

const controlText = (control: ControlState) =>
  JSON.stringify({ faults: control.faults.snapshot(), scenario: control.scenario });

/**
 * What a start reads instead of every row: the ledger's sums and where the id sequences stand. A store without them
 * (written by an older version, or migrated from JSON) is loaded whole once and written again with them.
 */
export function resumeMeta(ctx: DomainContext): { ledger_totals: string; ids: string; timers: string } {
  return {
    ledger_totals: JSON.stringify(ctx.ledger.totals()),
    ids: JSON.stringify(ctx.ids.counters()),
    timers: TIMERS_IN_STORE,
  };
}

/** Everything in a state as rows: the first write of a store, a reset, an import (`ctx` adds its resume meta). */
export function fullBatch(state: EmulatorState, ctx?: DomainContext): ChangeBatch {
  const d = state.domain;
  return {
    replaceAll: true,
    meta: {
      ...(ctx ? resumeMeta(ctx) : {}),
      clock: JSON.stringify(d.clock),
      timing: JSON.stringify(d.timing),
      control: JSON.stringify({ faults: state.control.faults, scenario: state.control.scenario }),
      journal_seq: String(state.control.journal.seq),
    },
    upsert: {
      accounts: d.accounts.map((a) => documentRow(a.id, a)),
      api_keys: d.keys.map((k) => documentRow(k.id, k)),
      ledger: d.ledger.map((e) => documentRow(e.seq, e)),
      generations: d.generations.map(generationRow),
      idempotency: d.idempotency.map(([key, entry]) => ({ ...documentRow(key, entry), createdAt: entry.createdAt })),
      uploads: d.uploads.map(({ data: _inline, ...u }) => documentRow(u.id, u)),
      journal: state.control.journal.entries.map((e) => documentRow(e.id, e)),
    },
  };
}

/** Where the stores of a context find what has been committed: the store of record's reads. */
export interface RecordSources {
  generations: GenerationSource;
  ledger: LedgerSource;
  idempotency: IdempotencySource;
}

/** The batch of a commit that found nothing to write. */
const UNCHANGED: Readonly<{ batch: ChangeBatch; accept: () => void }> = Object.freeze({
  batch: Object.freeze({}),
  accept: () => {},
});

/**
 * Follows one context: the stores keep what changed since the last commit (new ledger entries, generations added or
 * touched, idempotency records) and let go of it once committed (`accept`), so a batch costs what changed, not what
 * is stored, and the heap holds what is in flight plus bounded caches. A failed batch is taken again, with whatever
 * came after it, by the next one.
 */
export class ChangeTracker {
  private readonly pendingUploads = new Set<string>();
  private readonly pendingAccounts = new Set<object & { id: string }>();
  private readonly pendingKeys = new Set<object & { id: number }>();
  private last = { timing: '', control: '', ids: '', journalSeq: 0, journalFirst: 0 };
  /** A running clock keeps its offset from wall time: the clock changes only when it says so (advance, freeze, set). */
  private clockMoved = false;

  /**
   * Starts from what the store holds now: everything in `context` and `control`, just written whole, or just
   * `resumed` from it (then the running generations a start put back to pending are still to be written).
   */
  constructor(
    readonly context: DomainContext,
    control: ControlState,
    sources: RecordSources,
    { resumed = false } = {},
  ) {
    // From here on the growing stores read what is committed from the store of record.
    context.generations.attach(sources.generations, { keepChanged: resumed });
    context.ledger.attach(sources.ledger);
    context.idempotency.attach(sources.idempotency);
    // The other stores' marks so far are spent.
    context.uploads.takeChanged();
    context.accounts.takeChanged();
    context.clock.onChange(() => {
      this.clockMoved = true;
    });
    this.last = {
      timing: JSON.stringify(context.settings.timing),
      control: controlText(control),
      ids: JSON.stringify(context.ids.counters()),
      journalSeq: control.journal.lastId,
      journalFirst: control.journal.firstId,
    };
  }

  /**
   * True when the next batch would write something (the journal aside): counts and a few short texts compared, no
   * list built, so an answer that changed nothing learns it at once and need not wait for a commit.
   */
  hasChanges(control: ControlState): boolean {
    const ctx = this.context;
    const marks =
      ctx.generations.uncommittedCount +
      ctx.ledger.uncommittedCount +
      ctx.idempotency.uncommittedCount +
      ctx.uploads.changedCount +
      ctx.accounts.changedCount +
      this.pendingUploads.size +
      this.pendingAccounts.size +
      this.pendingKeys.size;
    return (
      marks > 0 ||
      this.clockMoved ||
      JSON.stringify(ctx.ids.counters()) !== this.last.ids ||
      JSON.stringify(ctx.settings.timing) !== this.last.timing ||
      controlText(control) !== this.last.control
    );
  }

  /** The batch of everything changed since the last accepted one; `accept` after it has been committed. */
  next(control: ControlState, withJournal: boolean): { batch: ChangeBatch; accept: () => void } {
    const ctx = this.context;
    // The journal is diagnostic: written by the background commit only, and only when it moved.
    const journalMoved =
      withJournal &&
      (control.journal.lastId !== this.last.journalSeq || control.journal.firstId !== this.last.journalFirst);
    // Most commits (an estimate, a refused request) find nothing: answered without building a batch to throw away.
    if (!journalMoved && !this.hasChanges(control)) return UNCHANGED;
    for (const id of ctx.uploads.takeChanged()) this.pendingUploads.add(id);
    const people = ctx.accounts.takeChanged();
    for (const a of people.accounts) this.pendingAccounts.add(a);
    for (const k of people.keys) this.pendingKeys.add(k);

    const generations = ctx.generations.uncommitted();
    const ledger = ctx.ledger.uncommitted();
    const idempotency = ctx.idempotency.uncommitted();
    const timing = JSON.stringify(ctx.settings.timing);
    const controls = controlText(control);
    const ids = JSON.stringify(ctx.ids.counters());
    const uploadRows: DocumentRow[] = [];
    const uploadsGone: string[] = [];
    for (const id of this.pendingUploads) {
      const u = ctx.uploads.get(id);
      if (u) uploadRows.push(documentRow(id, u));
      else uploadsGone.push(id);
    }
    const meta: Record<string, string> = {};
    const clockMoved = this.clockMoved;
    if (clockMoved) meta.clock = JSON.stringify(clockOf(ctx));
    if (timing !== this.last.timing) meta.timing = timing;
    if (controls !== this.last.control) meta.control = controls;
    if (ids !== this.last.ids) meta.ids = ids;
    if (ledger.length > 0) meta.ledger_totals = JSON.stringify(ctx.ledger.totals());
    const journal = journalMoved ? { seq: control.journal.lastId, first: control.journal.firstId } : undefined;
    const journalRows = journal && control.journal.after(this.last.journalSeq).map((e) => documentRow(e.id, e));
    if (journal) meta.journal_seq = String(journal.seq);

    const batch: ChangeBatch = {
      meta,
      upsert: {
        generations: generations.map(generationRow),
        ledger: ledger.map((e) => documentRow(e.seq, e)),
        idempotency: idempotency.map(([key, entry]) => ({ ...documentRow(key, entry), createdAt: entry.createdAt })),
        uploads: uploadRows,
        accounts: [...this.pendingAccounts].map((a) => documentRow(a.id, a)),
        api_keys: [...this.pendingKeys].map((k) => documentRow(k.id, k)),
        ...(journalRows ? { journal: journalRows } : {}),
      },
      delete: { uploads: uploadsGone },
      ...(journal ? { journalBelow: journal.first || journal.seq + 1 } : {}),
    };
    // Expiry needs no change marks: each change also drops what its window has left behind.
    const hasChanges = !isEmpty(batch);
    if (hasChanges) batch.idempotencyUpTo = ctx.idempotency.expiredUpTo(ctx.clock.now());
    const accept = () => {
      ctx.generations.committed(generations);
      ctx.ledger.committed(ledger.length);
      ctx.idempotency.committed(idempotency.map(([key]) => key));
      this.pendingUploads.clear();
      this.pendingAccounts.clear();
      this.pendingKeys.clear();
      this.last.timing = timing;
      this.last.control = controls;
      this.last.ids = ids;
      if (clockMoved) this.clockMoved = false;
      if (journal) {
        this.last.journalSeq = journal.seq;
        this.last.journalFirst = journal.first;
      }
    };
    return { batch, accept };
  }
}

/** True when the batch writes nothing (no commit is needed). */
export function isEmpty(batch: ChangeBatch): boolean {
  const rows = Object.values(batch.upsert ?? {}).some((r) => r.length > 0);
  const gone = Object.values(batch.delete ?? {}).some((r) => r.length > 0);
  return !rows && !gone && Object.keys(batch.meta ?? {}).length === 0 && batch.journalBelow === undefined;
}
