// What the next transaction writes: the rows changed since the last commit, taken from the stores' own change marks.
import type { DomainContext } from '../../domain/context.js';
import type { Generation } from '../../domain/generation.js';
import type { ChangeBatch, DocumentRow } from '../../infra/sqlite-store.js';
import type { ControlState } from '../plane-state.js';
import type { EmulatorState } from './emulator-state.js';

const generationRow = (g: Generation): DocumentRow => ({
  key: g.id,
  seq: g.seq,
  accountId: g.accountId,
  status: g.status,
  createdAt: g.createdAt,
  json: JSON.stringify(g),
});

const documentRow = (key: string | number, value: unknown): DocumentRow => ({ key, json: JSON.stringify(value) });

function clockOf(ctx: DomainContext): EmulatorState['domain']['clock'] {
  const now = ctx.clock.now();
  return { now, frozen: ctx.clock.frozen, offset_ms: ctx.clock.frozen ? 0 : now - Date.now() };
}

const controlText = (control: ControlState) =>
  JSON.stringify({ faults: control.faults.snapshot(), scenario: control.scenario });

/** Everything in a state as rows: the first write of a store, a reset, an import. */
export function fullBatch(state: EmulatorState): ChangeBatch {
  const d = state.domain;
  return {
    replaceAll: true,
    meta: {
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

/**
 * Follows one context: new ledger entries by position, everything else by the stores' change marks (the lifecycle
 * marks each move), so a batch costs what changed, not what is stored. Marks move forward only once a batch is
 * committed (`accept`); a failed batch is taken again, with whatever came after it, by the next one.
 */
export class ChangeTracker {
  private ledgerCount: number;
  private readonly pendingGenerations = new Set<Generation>();
  private readonly pendingIdempotency = new Map<string, unknown>();
  private readonly pendingUploads = new Set<string>();
  private readonly pendingAccounts = new Set<object & { id: string }>();
  private readonly pendingKeys = new Set<object & { id: number }>();
  private last = { timing: '', control: '', journalSeq: 0, journalFirst: 0 };
  /** A running clock keeps its offset from wall time: the clock changes only when it says so (advance, freeze, set). */
  private clockMoved = false;

  /** Starts from what the store holds now: everything in `context` and `control` (just written whole, or just loaded). */
  constructor(
    readonly context: DomainContext,
    control: ControlState,
  ) {
    this.ledgerCount = context.ledger.size;
    // The stores' marks so far are spent.
    context.generations.takeChanged();
    context.idempotency.takeChanged();
    context.uploads.takeChanged();
    context.accounts.takeChanged();
    context.clock.onChange(() => {
      this.clockMoved = true;
    });
    this.last = {
      timing: JSON.stringify(context.settings.timing),
      control: controlText(control),
      journalSeq: control.journal.lastId,
      journalFirst: control.journal.firstId,
    };
  }

  /** The batch of everything changed since the last accepted one; `accept` after it has been committed. */
  next(control: ControlState, withJournal: boolean): { batch: ChangeBatch; accept: () => void } {
    const ctx = this.context;
    for (const g of ctx.generations.takeChanged()) this.pendingGenerations.add(g);
    for (const [key, entry] of ctx.idempotency.takeChanged()) this.pendingIdempotency.set(key, entry);
    for (const id of ctx.uploads.takeChanged()) this.pendingUploads.add(id);
    const people = ctx.accounts.takeChanged();
    for (const a of people.accounts) this.pendingAccounts.add(a);
    for (const k of people.keys) this.pendingKeys.add(k);

    const generations = [...this.pendingGenerations];
    const ledger = ctx.ledger.entriesFrom(this.ledgerCount);
    const idempotencyRows: DocumentRow[] = [];
    const idempotencyGone: string[] = [];
    for (const [key, entry] of this.pendingIdempotency)
      if (entry)
        idempotencyRows.push({ ...documentRow(key, entry), createdAt: (entry as { createdAt: number }).createdAt });
      else idempotencyGone.push(key);
    const uploadRows: DocumentRow[] = [];
    const uploadsGone: string[] = [];
    for (const id of this.pendingUploads) {
      const u = ctx.uploads.get(id);
      if (u) uploadRows.push(documentRow(id, u));
      else uploadsGone.push(id);
    }
    const timing = JSON.stringify(ctx.settings.timing);
    const controls = controlText(control);
    const meta: Record<string, string> = {};
    const clockMoved = this.clockMoved;
    if (clockMoved) meta.clock = JSON.stringify(clockOf(ctx));
    if (timing !== this.last.timing) meta.timing = timing;
    if (controls !== this.last.control) meta.control = controls;
    // The journal is diagnostic: written by the background commit only, and only when it moved.
    const journalMoved =
      withJournal &&
      (control.journal.lastId !== this.last.journalSeq || control.journal.firstId !== this.last.journalFirst);
    const journal = journalMoved ? { seq: control.journal.lastId, first: control.journal.firstId } : undefined;
    const journalRows = journal && control.journal.after(this.last.journalSeq).map((e) => documentRow(e.id, e));
    if (journal) meta.journal_seq = String(journal.seq);

    const batch: ChangeBatch = {
      meta,
      upsert: {
        generations: generations.map(generationRow),
        ledger: ledger.map((e) => documentRow(e.seq, e)),
        idempotency: idempotencyRows,
        uploads: uploadRows,
        accounts: [...this.pendingAccounts].map((a) => documentRow(a.id, a)),
        api_keys: [...this.pendingKeys].map((k) => documentRow(k.id, k)),
        ...(journalRows ? { journal: journalRows } : {}),
      },
      delete: { idempotency: idempotencyGone, uploads: uploadsGone },
      ...(journal ? { journalBelow: journal.first || journal.seq + 1 } : {}),
    };
    const accept = () => {
      this.ledgerCount += ledger.length;
      this.pendingGenerations.clear();
      this.pendingIdempotency.clear();
      this.pendingUploads.clear();
      this.pendingAccounts.clear();
      this.pendingKeys.clear();
      this.last.timing = timing;
      this.last.control = controls;
      if (clockMoved) this.clockMoved = false;
      if (journal) {
        this.last.journalSeq = journal.seq;
        this.last.journalFirst = journal.first;
      }
    };
    return { batch, accept };
  }
}
