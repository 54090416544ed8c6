// What the next transaction writes: the rows changed since the last commit, taken from the stores' own change marks.
import type { DomainContext } from '../domain/context.js';
import type { ChangeBatch, DocumentRow, LogTable } from '../infra/sqlite-store.js';
import type { KeptLog, KeptState, KeptValue } from '../wiring/kept-state.js';
import { keptLogs, keptValues, logSeqMeta, VALUES_META, valuesText } from './kept-sections.js';
import type { RecordSources } from './record-sources.js';
import { documentRow, generationRow, isEmpty } from './state-rows.js';

function clockOf(ctx: DomainContext) {
  const now = ctx.clock.now();
  return { now, frozen: ctx.clock.frozen, offset_ms: ctx.clock.frozen ? 0 : now - Date.now() };
}

/** Where a kept log stood at the last commit: its last id and its oldest kept id. */
interface LogMarks {
  seq: number;
  first: number;
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
  private readonly values: KeptValue[];
  private readonly logs: KeptLog[];
  private last = { timing: '', values: '', ids: '' };
  /** The id counters' moves when `last.ids` was taken: while they stand, the counters need no comparing. */
  private idMoves: number;
  private readonly logMarks = new Map<LogTable, LogMarks>();
  /** A running clock keeps its offset from wall time: the clock changes only when it says so (advance, freeze, set). */
  private clockMoved = false;

  /**
   * Starts from what the store holds now: everything in `context` and the kept sections, just written whole, or just
   * `resumed` from it (then the running generations a start put back to pending are still to be written).
   */
  constructor(
    readonly context: DomainContext,
    kept: KeptState,
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
    this.values = keptValues(kept);
    this.logs = keptLogs(kept);
    this.idMoves = context.ids.moves();
    this.last = {
      timing: JSON.stringify(context.settings.timing),
      values: valuesText(this.values),
      ids: JSON.stringify(context.ids.counters()),
    };
    for (const log of this.logs) this.logMarks.set(log.name, { seq: log.lastId(), first: log.firstId() });
  }

  /**
   * True when the next batch would write something (the logs aside): counts and a few short texts compared, no list
   * built, so an answer that changed nothing learns it at once and need not wait for a commit.
   */
  hasChanges(): boolean {
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
      (ctx.ids.moves() !== this.idMoves && JSON.stringify(ctx.ids.counters()) !== this.last.ids) ||
      JSON.stringify(ctx.settings.timing) !== this.last.timing ||
      valuesText(this.values) !== this.last.values
    );
  }

  /** The logs that gained or dropped entries since the last commit, with where they stand now. */
  private movedLogs(): { log: KeptLog; now: LogMarks }[] {
    const moved: { log: KeptLog; now: LogMarks }[] = [];
    for (const log of this.logs) {
      const was = this.logMarks.get(log.name);
      const now = { seq: log.lastId(), first: log.firstId() };
      if (now.seq !== was?.seq || now.first !== was.first) moved.push({ log, now });
    }
    return moved;
  }

  /**
   * The batch of everything changed since the last accepted one; `accept` after it has been committed. The logs are
   * diagnostic: written only `withLogs` (the background commit), and only when they moved.
   */
  next(withLogs: boolean): { batch: ChangeBatch; accept: () => void } {
    const ctx = this.context;
    const logs = withLogs ? this.movedLogs() : [];
    // Most commits (an estimate, a refused request) find nothing: answered without building a batch to throw away.
    if (logs.length === 0 && !this.hasChanges()) return UNCHANGED;
    for (const id of ctx.uploads.takeChanged()) this.pendingUploads.add(id);
    const people = ctx.accounts.takeChanged();
    for (const a of people.accounts) this.pendingAccounts.add(a);
    for (const k of people.keys) this.pendingKeys.add(k);

    const generations = ctx.generations.uncommitted();
    const ledger = ctx.ledger.uncommitted();
    const idempotency = ctx.idempotency.uncommitted();
    const timing = JSON.stringify(ctx.settings.timing);
    const values = valuesText(this.values);
    const idMoves = ctx.ids.moves();
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
    if (values !== this.last.values) meta[VALUES_META] = values;
    if (ids !== this.last.ids) meta.ids = ids;
    if (ledger.length > 0) meta.ledger_totals = JSON.stringify(ctx.ledger.totals());

    const upsert: NonNullable<ChangeBatch['upsert']> = {
      generations: generations.map(generationRow),
      ledger: ledger.map((e) => documentRow(e.seq, e)),
      idempotency: idempotency.map(([key, entry]) => ({ ...documentRow(key, entry), createdAt: entry.createdAt })),
      uploads: uploadRows,
      accounts: [...this.pendingAccounts].map((a) => documentRow(a.id, a)),
      api_keys: [...this.pendingKeys].map((k) => documentRow(k.id, k)),
    };
    const batch: ChangeBatch = { meta, upsert, delete: { uploads: uploadsGone } };
    for (const { log, now } of logs) {
      // A moved log's new rows, its last id, and the rows its trimming dropped.
      meta[logSeqMeta(log)] = String(now.seq);
      upsert[log.name] = log.after(this.logMarks.get(log.name)?.seq ?? 0).map((e) => documentRow(e.id, e));
      batch.logBelow = { ...batch.logBelow, [log.name]: now.first || now.seq + 1 };
    }
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
      this.last.values = values;
      this.last.ids = ids;
      this.idMoves = idMoves;
      if (clockMoved) this.clockMoved = false;
      for (const { log, now } of logs) this.logMarks.set(log.name, now);
    };
    return { batch, accept };
  }
}
