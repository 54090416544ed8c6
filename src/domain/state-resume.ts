// A start from the store of record: only what the heap keeps is read back (settings, keys, sums, running generations).
import type { DomainContext } from './context.js';
import type { DomainSnapshot } from './domain-snapshot.js';
import type { Generation } from './generation.js';
import type { LedgerSource, LedgerTotals } from './ledger.js';
import { restartInFlight, restoreSettingsAndKeys } from './state-snapshot.js';
import type { Upload } from './uploads.js';

/** What the store of record kept beside its rows so that a start reads no more than the heap holds. */
export interface StoredDomain extends Pick<DomainSnapshot, 'clock' | 'timing' | 'accounts' | 'keys'> {
  ledgerTotals: LedgerTotals;
  ledger: LedgerSource;
  /** Where the id sequences stood (IdGenerator.counters()). */
  ids: Record<string, number>;
  lastSeq: number;
  /** Running when the store was last written: they start over from pending. */
  running: Generation[];
  uploads: Upload[];
}

/**
 * Fills a blank context from the store of record. Nothing is validated again: the store wrote these rows itself, in
 * transactions, from states that were validated when they came in. Generations in flight start over from pending.
 */
export function resumeDomain(ctx: DomainContext, s: StoredDomain) {
  restoreSettingsAndKeys(ctx, s);
  ctx.ids.resume(s.ids);
  ctx.ledger.resume(s.ledger, s.ledgerTotals);
  for (const u of s.uploads) ctx.uploads.add(u);
  ctx.generations.skipPastSeq(s.lastSeq);
  for (const g of s.running) ctx.generations.add(g);
  // The pending ones' first moves stay in the store's due-time index: nothing of them is read here.
  restartInFlight(ctx, s.running);
}
