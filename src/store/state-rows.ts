// The rows and meta entries a state is written as: a generation's indexed columns, a document per record, a whole state.
import type { DomainContext } from '../domain/context.js';
import type { Generation } from '../domain/generation.js';
import { firstMoveDueAt } from '../domain/move-timers.js';
import type { ChangeBatch, DocumentRow } from '../infra/sqlite-store.js';
import type { KeptState, LogDocument, StateDocument } from '../wiring/kept-state.js';
import { keptLogs, keptValues, logSeqMeta, VALUES_META } from './kept-sections.js';

/** Marks a store whose pending rows carry their first move's due time (the scheduler reads them from there). */
export const TIMERS_IN_STORE = 'due_at';

export const generationRow = (g: Generation): DocumentRow => ({
  key: g.id,
  seq: g.seq,
  accountId: g.accountId,
  status: g.status,
  createdAt: g.createdAt,
  ...(g.status === 'pending' ? { dueAt: firstMoveDueAt(g), manualOnly: g.plan.manualOnly } : {}),
  json: JSON.stringify(g),
});

export const documentRow = (key: string | number, value: unknown): DocumentRow => ({
  key,
  json: JSON.stringify(value),
});

/**
 * What a start reads instead of every row: the ledger's sums and where the id sequences stand. A store without them
 * (written by an older version, or migrated from JSON) is loaded whole once and written again with them.
 */
function resumeMeta(ctx: DomainContext): { ledger_totals: string; ids: string; timers: string } {
  return {
    ledger_totals: JSON.stringify(ctx.ledger.totals()),
    ids: JSON.stringify(ctx.ids.counters()),
    timers: TIMERS_IN_STORE,
  };
}

/** Everything in a state as rows: the first write of a store, a reset, an import (`ctx` adds its resume meta). */
export function fullBatch(state: StateDocument, kept: KeptState, ctx?: DomainContext): ChangeBatch {
  const d = state.domain;
  const values = Object.fromEntries(keptValues(kept).map((s) => [s.name, state.control[s.name]]));
  const meta: Record<string, string> = {
    ...(ctx ? resumeMeta(ctx) : {}),
    clock: JSON.stringify(d.clock),
    timing: JSON.stringify(d.timing),
    [VALUES_META]: JSON.stringify(values),
  };
  const upsert: NonNullable<ChangeBatch['upsert']> = {
    accounts: d.accounts.map((a) => documentRow(a.id, a)),
    api_keys: d.keys.map((k) => documentRow(k.id, k)),
    ledger: d.ledger.map((e) => documentRow(e.seq, e)),
    generations: d.generations.map(generationRow),
    idempotency: d.idempotency.map(([key, entry]) => ({ ...documentRow(key, entry), createdAt: entry.createdAt })),
    uploads: d.uploads.map(({ data: _inline, ...u }) => documentRow(u.id, u)),
  };
  for (const log of keptLogs(kept)) {
    const { seq, entries } = state.control[log.name] as LogDocument;
    meta[logSeqMeta(log)] = String(seq);
    upsert[log.name] = entries.map((e) => documentRow(e.id, e));
  }
  return { replaceAll: true, meta, upsert };
}

/** True when the batch writes nothing (no commit is needed). */
export function isEmpty(batch: ChangeBatch): boolean {
  const rows = Object.values(batch.upsert ?? {}).some((r) => r.length > 0);
  const gone = Object.values(batch.delete ?? {}).some((r) => r.length > 0);
  return !rows && !gone && Object.keys(batch.meta ?? {}).length === 0 && batch.logBelow === undefined;
}
