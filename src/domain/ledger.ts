// The wallet ledger: every funding, charge and refund is an entry; balances and totals are sums of entries.
import { DomainError } from './errors.js';
import { GenerationCreditIndex } from './generation-credits.js';
import type { GenerationCredits, LedgerEntry, LedgerSource } from './ledger-entry.js';

export type { EntryType, GenerationCredits, LedgerEntry, LedgerSource } from './ledger-entry.js';

export interface ModelTotals {
  generations: number;
  charged: number;
  refunded: number;
}

/** The running sums, small (per account, key-day and model): kept whole in the heap and stored with each commit. */
export interface LedgerTotals {
  size: number;
  balances: [string, number][];
  funded: [string, number][];
  keyDayNet: [string, number][];
  accountDay: [string, { charged: number; refunded: number }][];
  models: [string, [string, ModelTotals][]][];
}

const DAY_MS = 86_400_000;
export const utcDay = (ms: number) => Math.floor(ms / DAY_MS);

/**
 * Indexes are updated in the same synchronous step as the append, so they are sums of the entries by construction;
 * recompute() derives them again from scratch for tests and audits.
 */
export class Ledger {
  /** Without a source every entry; with one, the entries not committed yet (and their per-generation indexes). */
  private readonly entries: LedgerEntry[] = [];
  private source?: LedgerSource;
  private committedCount = 0;
  private balances = new Map<string, number>();
  private funded = new Map<string, number>();
  private readonly credits = new GenerationCreditIndex();
  private keyDayNet = new Map<string, number>();
  private accountDay = new Map<string, { charged: number; refunded: number }>();
  private models = new Map<string, Map<string, ModelTotals>>();

  constructor(private readonly nextId: () => string) {}

  append(entry: Omit<LedgerEntry, 'id' | 'seq'>): LedgerEntry {
    if (!Number.isSafeInteger(entry.amount) || entry.amount === 0 || (entry.amount < 0 && entry.type !== 'funding'))
      throw new DomainError(
        'invalid_amount',
        'Ledger amounts are whole credits, positive except for a funding adjustment downwards.',
      );
    // New keys first: `{ ...entry, id, seq }` would give every entry its own hidden class on V8.
    const full: LedgerEntry = { id: this.nextId(), seq: this.size + 1, ...entry };
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
      const chargedAt =
        e.type === 'refund' && e.generationId ? (this.credits.chargeTime(e.generationId) ?? e.at) : e.at;
      const keyDay = `${e.keyId}:${utcDay(chargedAt)}`;
      this.keyDayNet.set(keyDay, (this.keyDayNet.get(keyDay) ?? 0) - sign * e.amount);
    }
    this.credits.add(e);
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

  /** From now on committed entries live in `source`, which holds every entry so far; the heap keeps the sums only. */
  attach(source: LedgerSource) {
    this.source = source;
    this.committedCount = this.size;
    this.entries.length = 0;
    this.credits.useSource(source);
  }

  /** How many uncommitted() would give, without copying them. */
  get uncommittedCount(): number {
    return this.source ? this.entries.length : 0;
  }

  /** The entries appended since the last commit, in order. */
  uncommitted(): LedgerEntry[] {
    return this.source ? this.entries.map((e) => ({ ...e })) : [];
  }

  /** The store of record holds the first `count` uncommitted entries now. */
  committed(count: number) {
    if (!this.source || count === 0) return;
    this.committedCount += count;
    this.credits.committed(this.entries.splice(0, count), this.entries);
  }

  totals(): LedgerTotals {
    return {
      size: this.size,
      balances: [...this.balances],
      funded: [...this.funded],
      keyDayNet: [...this.keyDayNet],
      accountDay: [...this.accountDay],
      models: [...this.models].map(([account, totals]) => [account, [...totals]]),
    };
  }

  /** A ledger whose entries are all in `source`, with the sums stored beside them. */
  resume(source: LedgerSource, totals: LedgerTotals) {
    this.source = source;
    this.committedCount = totals.size;
    this.entries.length = 0;
    this.credits.useSource(source);
    this.balances = new Map(totals.balances);
    this.funded = new Map(totals.funded);
    this.keyDayNet = new Map(totals.keyDayNet);
    this.accountDay = new Map(totals.accountDay);
    this.models = new Map(totals.models.map(([account, t]) => [account, new Map(t)]));
  }

  balance(accountId: string): number {
    return this.balances.get(accountId) ?? 0;
  }

  /** Everything ever credited to the account: the seed grant, top-ups and balance adjustments. */
  funding(accountId: string): number {
    return this.funded.get(accountId) ?? 0;
  }

  /** `generationCredits` of each of `generationIds` (a page): what the heap does not keep is read in one query. */
  creditsOf(generationIds: string[]): Map<string, GenerationCredits> {
    return this.credits.of(generationIds);
  }

  generationCredits(generationId: string): GenerationCredits {
    return this.credits.one(generationId);
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
    const stored = !this.source
      ? []
      : filter.generationId !== undefined
        ? this.source.ofGeneration(filter.generationId)
        : this.source.list({ accountId: filter.accountId });
    return [...stored, ...this.entries].filter(
      (e) =>
        (!filter.accountId || e.accountId === filter.accountId) &&
        (!filter.generationId || e.generationId === filter.generationId),
    );
  }

  /** Balances recomputed from the raw entries, to check the indexes against. */
  recompute(): Map<string, number> {
    const out = new Map<string, number>();
    for (const e of this.list())
      out.set(e.accountId, (out.get(e.accountId) ?? 0) + (e.type === 'charge' ? -e.amount : e.amount));
    return out;
  }

  get size(): number {
    return this.committedCount + this.entries.length;
  }
}
