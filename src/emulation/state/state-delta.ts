// The append-only log's records: what changed since the last record, and how a record is applied to a snapshot.
import type { Account, ApiKey } from '../../domain/accounts.js';
import type { DomainContext } from '../../domain/context.js';
import type { Generation } from '../../domain/generation.js';
import type { LedgerEntry } from '../../domain/ledger.js';
import type { Upload } from '../../domain/uploads.js';
import type { ControlState } from '../plane-state.js';
import type { EmulatorState } from './emulator-state.js';

type IdempotencyEntry = ReturnType<DomainContext['idempotency']['snapshot']>[number];

export interface DeltaRecord {
  epoch: number;
  clock: EmulatorState['domain']['clock'];
  ledger?: LedgerEntry[];
  generations?: Generation[];
  idempotency?: IdempotencyEntry[];
  uploads?: Upload[];
  accounts?: Account[];
  keys?: ApiKey[];
  timing?: EmulatorState['domain']['timing'];
  control?: { faults: EmulatorState['control']['faults']; scenario: EmulatorState['control']['scenario'] };
}

/** What has been written already, so the next record holds only what changed since. */
export class DeltaTracker {
  private ledgerCount = 0;
  private readonly generationMarks = new Map<string, string>();
  private readonly idempotencyKeys = new Set<string>();
  private readonly uploadIds = new Set<string>();
  private last = { accounts: '', keys: '', timing: '', control: '' };

  constructor(readonly context: DomainContext) {
    // Everything in the context when tracking starts is in the snapshot just written.
    this.next(0, { faults: [], scenario: null });
  }

  /** A generation's record is rewritten whenever any of these change (they are the only members that do). */
  private static mark(g: Generation): string {
    return `${g.status}|${g.startedAt}|${g.completedAt}|${g.outputs.length}|${g.error?.code ?? ''}`;
  }

  /** The record of everything changed since the previous call, or undefined when nothing did. */
  next(epoch: number, control: DeltaRecord['control'] & object): DeltaRecord | undefined {
    const ctx = this.context;
    const record: DeltaRecord = { epoch, clock: clockOf(ctx) };
    let changed = false;
    if (ctx.ledger.size > this.ledgerCount) {
      record.ledger = ctx.ledger.entriesFrom(this.ledgerCount);
      this.ledgerCount = ctx.ledger.size;
      changed = true;
    }
    const generations: Generation[] = [];
    for (const g of ctx.generations.all()) {
      const mark = DeltaTracker.mark(g);
      if (this.generationMarks.get(g.id) === mark) continue;
      this.generationMarks.set(g.id, mark);
      generations.push(g);
    }
    if (generations.length) record.generations = structuredClone(generations);
    const idempotency = ctx.idempotency.snapshot().filter(([k]) => !this.idempotencyKeys.has(k));
    for (const [k] of idempotency) this.idempotencyKeys.add(k);
    if (idempotency.length) record.idempotency = structuredClone(idempotency);
    const uploads = [...ctx.uploads.all()].filter((u) => !this.uploadIds.has(u.id));
    for (const u of uploads) this.uploadIds.add(u.id);
    if (uploads.length) record.uploads = structuredClone(uploads);
    const small = {
      accounts: ctx.accounts.listAccounts(),
      keys: ctx.accounts.listKeys(),
      timing: ctx.settings.timing,
      control,
    };
    for (const name of ['accounts', 'keys', 'timing', 'control'] as const) {
      const text = JSON.stringify(small[name]);
      if (text === this.last[name]) continue;
      this.last[name] = text;
      (record as unknown as Record<string, unknown>)[name] = JSON.parse(text);
    }
    changed ||= generations.length > 0 || idempotency.length > 0 || uploads.length > 0;
    changed ||= ['accounts', 'keys', 'timing', 'control'].some((k) => k in record);
    return changed ? record : undefined;
  }
}

export const controlOf = (state: ControlState) => ({
  faults: state.faults.snapshot(),
  scenario: state.scenario && structuredClone(state.scenario),
});

function clockOf(ctx: DomainContext): DeltaRecord['clock'] {
  const now = ctx.clock.now();
  return { now, frozen: ctx.clock.frozen, offset_ms: ctx.clock.frozen ? 0 : now - Date.now() };
}

function upsert<T>(list: T[], items: T[] | undefined, key: (item: T) => string): T[] {
  if (!items?.length) return list;
  const byKey = new Map(list.map((item) => [key(item), item]));
  for (const item of items) byKey.set(key(item), item);
  return [...byKey.values()];
}

/** Applies one record to a snapshot in place. Ledger entries already present (by seq) are skipped, so it is idempotent. */
export function applyDelta(state: EmulatorState, record: DeltaRecord): void {
  const d = state.domain;
  d.clock = record.clock;
  const lastSeq = d.ledger.reduce((max, e) => Math.max(max, e.seq ?? 0), 0);
  for (const e of record.ledger ?? []) if (e.seq > lastSeq) d.ledger.push(e);
  d.generations = upsert(d.generations, record.generations, (g) => g.id);
  d.idempotency = upsert(d.idempotency, record.idempotency, ([k]) => k);
  d.uploads = upsert(d.uploads, record.uploads, (u) => u.id);
  if (record.accounts) d.accounts = record.accounts;
  if (record.keys) d.keys = record.keys;
  if (record.timing) d.timing = record.timing;
  if (record.control) {
    state.control.faults = record.control.faults;
    state.control.scenario = record.control.scenario;
  }
  // Balances are recomputed from the ledger on import; a stale exported figure would only fail the check.
  delete d.balances;
}
