// A ledger entry, a generation's credits and where committed entries are read from: shared by the ledger and its indexes.
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

/** Where committed entries live: the store of record, read on demand (SQL behind it, in infra). */
export interface LedgerSource {
  /** One generation's entries (its charge and refunds), in order. */
  ofGeneration(generationId: string): LedgerEntry[];
  /** Several generations' entries, in order: a page's, in one read. */
  ofGenerations(generationIds: string[]): LedgerEntry[];
  list(filter: { accountId?: string }): LedgerEntry[];
}
