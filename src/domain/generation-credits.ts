// What each generation was charged and refunded: the uncommitted entries summed in the heap, the committed ones read
// from the store of record behind a bounded cache that each commit corrects.
import type { GenerationCredits, LedgerEntry, LedgerSource } from './ledger-entry.js';
import { RecentCache } from './recent-cache.js';

/** Generations whose committed sums the heap keeps: a list page read again reads no ledger row. */
const STORED_CAPACITY = 1000;

const none = (): GenerationCredits => ({ charged: 0, refunded: 0 });

function addTo(credits: GenerationCredits, e: LedgerEntry) {
  if (e.type === 'charge') credits.charged += e.amount;
  else if (e.type === 'refund') credits.refunded += e.amount;
}

export class GenerationCreditIndex {
  /** Sums of the entries not committed yet (of every entry while there is no source). */
  private readonly pending = new Map<string, GenerationCredits>();
  private readonly chargeTimes = new Map<string, number>();
  /**
   * Sums of the committed entries as last read. Entries reach the store only through `committed`, which drops the
   * sums of their generations, so a kept sum is always what the store would answer.
   */
  private readonly stored = new RecentCache<string, GenerationCredits>(STORED_CAPACITY);
  private source?: LedgerSource;

  /** From now on committed entries are in `source` (it holds every entry so far): nothing pending, nothing kept. */
  useSource(source: LedgerSource) {
    this.source = source;
    this.pending.clear();
    this.chargeTimes.clear();
    this.stored.clear();
  }

  /** A new (uncommitted) entry. */
  add(e: LedgerEntry) {
    // A funding entry adds nothing (addTo counts charges and refunds only), even one that names a generation.
    if (e.generationId === undefined) return;
    if (e.type === 'charge') this.chargeTimes.set(e.generationId, e.at);
    const credits = this.pending.get(e.generationId) ?? none();
    addTo(credits, e);
    this.pending.set(e.generationId, credits);
  }

  /** The store holds `done` now; `rest` are still uncommitted. */
  committed(done: LedgerEntry[], rest: LedgerEntry[]) {
    for (const e of done) if (e.generationId !== undefined) this.stored.delete(e.generationId);
    this.pending.clear();
    this.chargeTimes.clear();
    for (const e of rest) this.add(e);
  }

  chargeTime(generationId: string): number | undefined {
    const kept = this.chargeTimes.get(generationId);
    if (kept !== undefined || !this.source) return kept;
    return this.source.ofGeneration(generationId).find((e) => e.type === 'charge')?.at;
  }

  /** Each generation's credits; the committed sums not kept are read from the source in one query. */
  of(generationIds: string[]): Map<string, GenerationCredits> {
    const stored = this.storedSums(generationIds);
    const out = new Map<string, GenerationCredits>();
    for (const id of generationIds) out.set(id, this.withPending(id, stored.get(id)));
    return out;
  }

  /** One generation's credits (a read by id): what `of` gives for it, without the maps and lists a page needs. */
  one(generationId: string): GenerationCredits {
    return this.withPending(generationId, this.storedSum(generationId));
  }

  /** The committed sums plus what is charged or refunded and not yet committed. */
  private withPending(generationId: string, kept: GenerationCredits | undefined): GenerationCredits {
    const pending = this.pending.get(generationId);
    return {
      charged: (kept?.charged ?? 0) + (pending?.charged ?? 0),
      refunded: (kept?.refunded ?? 0) + (pending?.refunded ?? 0),
    };
  }

  private storedSum(generationId: string): GenerationCredits | undefined {
    if (!this.source) return undefined;
    const kept = this.stored.get(generationId);
    if (kept) return kept;
    const read = none();
    for (const e of this.source.ofGeneration(generationId)) addTo(read, e);
    this.stored.set(generationId, read);
    return read;
  }

  private storedSums(generationIds: string[]): Map<string, GenerationCredits> {
    const out = new Map<string, GenerationCredits>();
    if (!this.source) return out;
    const missing: string[] = [];
    for (const id of generationIds) {
      const kept = this.stored.get(id);
      if (kept) out.set(id, kept);
      else missing.push(id);
    }
    if (missing.length === 0) return out;
    const read = new Map(missing.map((id) => [id, none()]));
    const entries = missing.length === 1 ? this.source.ofGeneration(missing[0]) : this.source.ofGenerations(missing);
    for (const e of entries) {
      const credits = read.get(e.generationId ?? '');
      if (credits) addTo(credits, e);
    }
    for (const [id, credits] of read) {
      this.stored.set(id, credits);
      out.set(id, credits);
    }
    return out;
  }
}
