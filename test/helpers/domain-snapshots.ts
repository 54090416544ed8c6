// Plain domain snapshots for the state checks' unit tests (no emulator): one account, acct_a, and whatever a test adds.
import type { DomainSnapshot } from '../../src/domain/domain-snapshot.js';
import type { Generation } from '../../src/domain/generation.js';

export const account = (id: string) => ({ id, name: id, createdAt: 0 });

/** A completed generation of acct_a (or `accountId`). */
export const completedGeneration = (id: string, rest: Partial<Generation> = {}) =>
  ({ id, accountId: 'acct_a', seq: 1, status: 'completed', ...rest }) as Generation;

/** A state holding acct_a and nothing else, with `parts` in place of its empty sections. */
export function snapshot(parts: Partial<DomainSnapshot>): DomainSnapshot {
  return {
    clock: { now: 0, frozen: true, offset_ms: 0 },
    timing: { profile: 'instant', byModel: {} } as never,
    accounts: [account('acct_a')],
    keys: [],
    ledger: [],
    generations: [],
    uploads: [],
    idempotency: [],
    ...parts,
  };
}
