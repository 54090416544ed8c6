// The wallet ledger: every funding, charge and refund is an entry; balances and totals are sums of entries.
import { DomainError } from './errors.js';

export type EntryType = 'funding' | 'charge' | 'refund';

export interface LedgerEntry {
  id: string;
  seq: number;
  type: EntryType;
  accountId: string;
  /** Positive; the type gives the sign. A funding entry may be negative: a balance adjustment downwards (control plane). */
  amount: number;
  at: number;
  generationId?: string;
  keyId?: number;
  modelSlug?: string;
  note?: string;
}

export interface GenerationCredits {
  charged: number;
  refunded: number;
}

export interface ModelTotals {
  generations: number;
  charged: number;
  refunded: number;
}

const DAY_MS = 86_400_000;
export const utcDay = (ms: number) => Math.floor(ms / DAY_MS);

/**
 * Indexes are updated in the same synchronous step as the append, so they are sums of the entries by construction;
 * recompute() derives them again from scratch for tests and audits.
 */
export class Ledger {
  private readonly entries: LedgerEntry[] = [];
  private readonly balances = new Map<string, number>();
  private readonly funded = new Map<string, number>();
  private readonly byGeneration = new Map<string, GenerationCredits>();
  private readonly keyDayNet = new Map<string, number>();
  private readonly chargeTimes = new Map<string, number>();
  private readonly accountDay = new Map<string, { charged: number; refunded: number }>();
  private readonly models = new Map<string, Map<string, ModelTotals>>();

  constructor(private readonly nextId: () => string) {}

  append(entry: Omit<LedgerEntry, 'id' | 'seq'>): LedgerEntry {
    if (!Number.isSafeInteger(entry.amount) || entry.amount === 0 || (entry.amount < 0 && entry.type !== 'funding'))
      throw new DomainError(
        'invalid_amount',
        'Ledger amounts are whole credits, positive except for a funding adjustment downwards.',
      );
    // New keys first: `{ ...entry, id, seq }` would give every entry its own hidden class on V8.
    const full: LedgerEntry = { id: this.nextId(), seq: this.entries.length + 1, ...entry };
    this.entries.push(full);
    this.index(full);
    return full;
  }

  private index(e: LedgerEntry) {
    const sign = e.type === 'charge' ? -1 : 1;
    this.balances.set(e.accountId, (this.balances.get(e.accountId) ?? 0) + sign * e.amount);
    if (e.type === 'funding') {
      this.funded.set(e.accountId, (this.funded.get(e.accountId) ?? 0) + e.amount);
      return;
    }
    const day = `${e.accountId}:${utcDay(e.at)}`;
    const today = this.accountDay.get(day) ?? { charged: 0, refunded: 0 };
    if (e.type === 'charge') today.charged += e.amount;
    else today.refunded += e.amount;
    this.accountDay.set(day, today);
    if (e.keyId !== undefined) {
      // A refund gives credits back to the day of the charge it reverses, so a day's usage never goes below zero.
      const chargedAt = e.type === 'refund' && e.generationId ? (this.chargeTimes.get(e.generationId) ?? e.at) : e.at;
      if (e.type === 'charge' && e.generationId) this.chargeTimes.set(e.generationId, e.at);
      const keyDay = `${e.keyId}:${utcDay(chargedAt)}`;
      this.keyDayNet.set(keyDay, (this.keyDayNet.get(keyDay) ?? 0) - sign * e.amount);
    }
    if (e.generationId) {
      const credits = this.byGeneration.get(e.generationId) ?? { charged: 0, refunded: 0 };
      if (e.type === 'charge') credits.charged += e.amount;
      else credits.refunded += e.amount;
      this.byGeneration.set(e.generationId, credits);
    }
    if (e.modelSlug) {
      const perAccount = this.models.get(e.accountId) ?? new Map<string, ModelTotals>();
      const totals = perAccount.get(e.modelSlug) ?? { generations: 0, charged: 0, refunded: 0 };
      if (e.type === 'charge') {
        totals.generations += 1;
        totals.charged += e.amount;
      } else totals.refunded += e.amount;
      perAccount.set(e.modelSlug, totals);
      this.models.set(e.accountId, perAccount);
    }
  }

  balance(accountId: string): number {
    return this.balances.get(accountId) ?? 0;
  }

  /** Everything ever credited to the account: the seed grant, top-ups and balance adjustments. */
  funding(accountId: string): number {
    return this.funded.get(accountId) ?? 0;
  }

  generationCredits(generationId: string): GenerationCredits {
    return this.byGeneration.get(generationId) ?? { charged: 0, refunded: 0 };
  }

  /** Net credits a key spent on the UTC day of `at`: that day's charges minus the refunds of those charges. */
  keyNetOnDay(keyId: number, at: number): number {
    return this.keyDayNet.get(`${keyId}:${utcDay(at)}`) ?? 0;
  }

  accountOnDay(accountId: string, at: number): { charged: number; refunded: number } {
    return { ...(this.accountDay.get(`${accountId}:${utcDay(at)}`) ?? { charged: 0, refunded: 0 }) };
  }

  modelTotals(accountId: string): Map<string, ModelTotals> {
    return new Map(this.models.get(accountId) ?? []);
  }

  list(filter: { accountId?: string; generationId?: string } = {}): LedgerEntry[] {
    return this.entries.filter(
      (e) =>
        (!filter.accountId || e.accountId === filter.accountId) &&
        (!filter.generationId || e.generationId === filter.generationId),
    );
  }

  /** Entries from position `index` on, in order: what the persistence log has not written yet. */
  entriesFrom(index: number): LedgerEntry[] {
    return this.entries.slice(index).map((e) => ({ ...e }));
  }

  /** Balances recomputed from the raw entries, to check the indexes against. */
  recompute(): Map<string, number> {
    const out = new Map<string, number>();
    for (const e of this.entries)
      out.set(e.accountId, (out.get(e.accountId) ?? 0) + (e.type === 'charge' ? -e.amount : e.amount));
    return out;
  }

  get size(): number {
    return this.entries.length;
  }
}
