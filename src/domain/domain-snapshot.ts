// The shape of an exported domain state: what export writes, import reads and the invariants check.
import type { Account, ApiKey } from './accounts.js';
import type { DomainContext } from './context.js';
import type { Generation } from './generation.js';
import type { LedgerEntry } from './ledger.js';
import type { TimingSettings } from './timing.js';
import type { Upload } from './uploads.js';

type IdempotencyEntries = ReturnType<DomainContext['idempotency']['snapshot']>;

export interface DomainSnapshot {
  /** `offset_ms` is emulator time minus wall time, so a running clock keeps any advance() across an import. */
  clock: { now: number; frozen: boolean; offset_ms: number };
  timing: TimingSettings;
  accounts: Account[];
  keys: ApiKey[];
  ledger: LedgerEntry[];
  generations: Generation[];
  /** Metadata only: the bytes stay in the upload store (next to a state file); `data` (base64) is read on import if present. */
  uploads: (Upload & { data?: string })[];
  idempotency: IdempotencyEntries;
  /** Each account's balance when exported; checked against the ledger on import (older exports lack it). */
  balances?: Record<string, number>;
}
