// Per-generation sums of committed ledger entries, for the generations read or written lately: a bounded cache.
import type { GenerationCredits, LedgerEntry, LedgerSource } from './ledger-entry.js';
import { RecentCache } from './recent-cache.js';

/** How many generations' committed credits the heap keeps: a read by id then needs no query of the store. */
const CAPACITY = 4096;

export class CommittedCredits {
  private readonly sums = new RecentCache<string, GenerationCredits>(CAPACITY);

  constructor(private readonly source: LedgerSource) {}

  /**
   * Keeps a cached generation's sums current as an entry commits. A charge is a generation's first entry (submission
   * charges once), so an uncached generation's charge starts its sums; a refund of an uncached one waits for a read.
   */
  fold(e: LedgerEntry) {
    if (!e.generationId || e.type === 'funding') return;
    const known = this.sums.get(e.generationId);
    if (e.type === 'charge') {
      if (known) known.charged += e.amount;
      else this.sums.set(e.generationId, { charged: e.amount, refunded: 0 });
    } else if (known) known.refunded += e.amount;
  }

  /** The sums of each of `ids`: the store is read once, for those not cached. */
  of(ids: string[]): Map<string, GenerationCredits> {
    const missing = ids.filter((id) => this.sums.get(id) === undefined);
    if (missing.length > 0) this.read(missing);
    return new Map(ids.map((id) => [id, this.sums.get(id) ?? { charged: 0, refunded: 0 }]));
  }

  private read(missing: string[]) {
    const read = new Map(missing.map((id) => [id, { charged: 0, refunded: 0 }]));
    const entries = missing.length === 1 ? this.source.ofGeneration(missing[0]) : this.source.ofGenerations(missing);
    for (const e of entries) {
      const credits = read.get(e.generationId ?? '');
      if (!credits) continue;
      if (e.type === 'charge') credits.charged += e.amount;
      else if (e.type === 'refund') credits.refunded += e.amount;
    }
    for (const [id, credits] of read) this.sums.set(id, credits);
  }
}
