// duplicateProblems on its own: each repeated id, seq, secret or idempotency key of a state is named with both places, a secret without its value; records without an id repeat nothing.
import { describe, expect, it } from 'vitest';
import type { LedgerEntry } from '../../../src/domain/ledger.js';
import { duplicateProblems } from '../../../src/domain/state-records.js';
import { account, completedGeneration, snapshot } from '../../helpers/domain-snapshots.js';

const key = (id: number, secret: string) =>
  ({ id, secret, accountId: 'acct_a', name: 'k', modelScope: null, dailyCreditLimit: null, createdAt: 0 }) as never;
const generation = (id: string, seq: number) => completedGeneration(id, { seq });
/** Without an id, as an older export writes it (the import's schema takes `id` as optional). */
const funding = (id: string | undefined, seq: number) =>
  ({ ...(id === undefined ? {} : { id }), seq, type: 'funding', accountId: 'acct_a', amount: 1, at: 0 }) as LedgerEntry;
const upload = (id: string) => ({ id, accountId: 'acct_a' }) as never;
const remembered = (k: string) => [k, { fingerprint: 'f', createdAt: 0, generationId: 'gen_1' }] as never;

const unique = (what: string, first: string) => `${what} as ${first}; each must be unique`;

describe('duplicateProblems names each record that repeats an earlier one', () => {
  it('finds nothing in a state whose records are each there once', () => {
    const s = snapshot({
      accounts: [account('acct_a'), account('acct_b')],
      keys: [key(1, 'sk-media-one'), key(2, 'sk-media-two')],
      ledger: [funding('led_1', 1), funding('led_2', 2)],
      generations: [generation('gen_1', 1), generation('gen_2', 2)],
      uploads: [upload('upl_1'), upload('upl_2')],
      idempotency: [remembered('idem-1'), remembered('idem-2')],
    });
    expect(duplicateProblems(s)).toEqual([]);
  });

  it('names the repeated value, what it is and where it was first, for every kind of record', () => {
    const s = snapshot({
      accounts: [account('acct_a'), account('acct_b'), account('acct_a')],
      keys: [key(7, 'sk-media-one'), key(7, 'sk-media-two')],
      ledger: [funding('led_1', 1), funding('led_1', 2)],
      generations: [generation('gen_1', 1), generation('gen_1', 2)],
      uploads: [upload('upl_9'), upload('upl_9')],
      idempotency: [remembered('idem-1'), remembered('idem-1')],
    });
    expect(duplicateProblems(s)).toEqual([
      { field: 'domain.accounts[2].id', message: unique('account id "acct_a"', 'accounts[0]') },
      { field: 'domain.keys[1].id', message: unique('key id 7', 'keys[0]') },
      { field: 'domain.ledger[1].id', message: unique('entry id "led_1"', 'ledger[0]') },
      { field: 'domain.generations[1].id', message: unique('generation id "gen_1"', 'generations[0]') },
      { field: 'domain.uploads[1].id', message: unique('upload id "upl_9"', 'uploads[0]') },
      { field: 'domain.idempotency[1][0]', message: unique('idempotency key "idem-1"', 'idempotency[0]') },
    ]);
  });

  it('names a repeated secret without repeating the secret', () => {
    const s = snapshot({ keys: [key(1, 'sk-media-shared-secret'), key(2, 'sk-media-shared-secret')] });
    const problems = duplicateProblems(s);
    expect(problems).toEqual([{ field: 'domain.keys[1].secret', message: unique('the same secret', 'keys[0]') }]);
    expect(JSON.stringify(problems)).not.toContain('sk-media-shared-secret');
  });

  it('names a generation seq that an earlier generation holds, under other ids', () => {
    const s = snapshot({ generations: [generation('gen_1', 4), generation('gen_2', 5), generation('gen_3', 4)] });
    expect(duplicateProblems(s)).toEqual([
      { field: 'domain.generations[2].seq', message: unique('seq 4', 'generations[0]') },
    ]);
  });

  it('takes ledger entries without an id (older exports) as distinct, however many there are', () => {
    const s = snapshot({ ledger: [funding(undefined, 1), funding(undefined, 2), funding(undefined, 3)] });
    expect(duplicateProblems(s)).toEqual([]);
  });
});
