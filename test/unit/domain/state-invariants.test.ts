// checkInvariants on its own: an imported (or stored) state whose ledger, accounts and generations disagree is refused
// with 422 invalid_state naming the first bad field; one that agrees loads. Plain snapshots, no emulator.
import { describe, expect, it } from 'vitest';
import type { DomainSnapshot } from '../../../src/domain/domain-snapshot.js';
import type { LedgerEntry } from '../../../src/domain/ledger.js';
import { checkInvariants } from '../../../src/domain/state-invariants.js';
import { account, completedGeneration, snapshot as baseSnapshot } from '../../helpers/domain-snapshots.js';

const MAX = Number.MAX_SAFE_INTEGER;

const key = (id: number, accountId: string) =>
  ({ id, secret: `sk_${id}`, accountId, name: 'k', modelScope: null, dailyCreditLimit: null, createdAt: 0 }) as never;
const generation = (id: string, accountId = 'acct_a') => completedGeneration(id, { accountId });

let seq = 0;
const entry = (type: LedgerEntry['type'], amount: number, rest: Partial<LedgerEntry> = {}): LedgerEntry => ({
  id: `led_${++seq}`,
  seq,
  type,
  accountId: 'acct_a',
  amount,
  at: 0,
  ...rest,
});
const funding = (amount: number, accountId = 'acct_a') => entry('funding', amount, { accountId });
const charge = (generationId: string | undefined, amount: number, accountId = 'acct_a') =>
  entry('charge', amount, { generationId, accountId });
const refund = (generationId: string, amount: number, accountId = 'acct_a') =>
  entry('refund', amount, { generationId, accountId });

const snapshot = (parts: Partial<DomainSnapshot>) =>
  baseSnapshot({ accounts: [account('acct_a'), account('acct_b')], ...parts });

/** The refusal checkInvariants throws, as the API answers it: its code, message and the one bad field. */
function refusal(s: DomainSnapshot, origin: 'import' | 'store') {
  try {
    checkInvariants(s, origin);
  } catch (err) {
    return err as { code: string; message: string; details: unknown };
  }
  throw new Error('the state was accepted');
}

function expectRefused(s: DomainSnapshot, field: string, message: string, origin: 'import' | 'store' = 'import') {
  const error = refusal(s, origin);
  expect(error.code).toBe('invalid_state');
  expect(error.message).toBe(`The state is inconsistent: domain.${field}: ${message}.`);
  expect(error.details).toEqual({ problems: [{ field: `domain.${field}`, message }] });
}

describe('checkInvariants: a state that agrees loads', () => {
  it('accepts fundings, a charge to exactly zero, a refund of the whole charge and balances equal to the sums', () => {
    const s = snapshot({
      keys: [key(1, 'acct_a')],
      generations: [generation('gen_1'), generation('gen_2', 'acct_b')],
      ledger: [
        funding(10),
        charge('gen_1', 10),
        refund('gen_1', 4),
        refund('gen_1', 6),
        funding(5, 'acct_b'),
        charge('gen_2', 3, 'acct_b'),
        funding(-2, 'acct_b'),
      ],
      balances: { acct_a: 10, acct_b: 0 },
    });
    expect(() => checkInvariants(s, 'import')).not.toThrow();
    expect(() => checkInvariants(s, 'store')).not.toThrow();
  });

  it('accepts a funding adjustment downwards that takes a balance below zero', () => {
    const s = snapshot({ ledger: [funding(3), funding(-5)], balances: { acct_a: -2 } });
    expect(() => checkInvariants(s, 'import')).not.toThrow();
  });

  it('accepts an account without a listed balance, and one whose balance is zero with no entries', () => {
    expect(() => checkInvariants(snapshot({ ledger: [funding(7)], balances: { acct_b: 0 } }), 'import')).not.toThrow();
  });
});

describe('checkInvariants: records that name what does not exist', () => {
  it('refuses a key of an unknown account', () => {
    expectRefused(snapshot({ keys: [key(1, 'acct_a'), key(2, 'acct_x')] }), 'keys[1].accountId', "no account 'acct_x'");
  });

  it('refuses a ledger entry of an unknown account', () => {
    expectRefused(
      snapshot({ ledger: [funding(1), funding(2, 'acct_x')] }),
      'ledger[1].accountId',
      "no account 'acct_x'",
    );
  });

  it('refuses a charge or refund that names no generation, or one the state lacks', () => {
    expectRefused(
      snapshot({ ledger: [funding(5), charge(undefined, 1)] }),
      'ledger[1].generationId',
      'a charge must name a generation of the state',
    );
    expectRefused(
      snapshot({ generations: [generation('gen_1')], ledger: [funding(5), refund('gen_2', 1)] }),
      'ledger[1].generationId',
      'a refund must name a generation of the state',
    );
  });

  it("refuses a charge of another account's generation", () => {
    expectRefused(
      snapshot({ generations: [generation('gen_1', 'acct_b')], ledger: [funding(5), charge('gen_1', 1)] }),
      'ledger[1].accountId',
      "generation gen_1 belongs to 'acct_b', not 'acct_a'",
    );
  });

  it('refuses a generation of an unknown account', () => {
    expectRefused(
      snapshot({
        generations: [generation('gen_1'), generation('gen_2', 'acct_x')],
        ledger: [funding(5), charge('gen_1', 1)],
      }),
      'generations[1].accountId',
      "no account 'acct_x'",
    );
  });

  it('refuses a balance of an unknown account', () => {
    expectRefused(snapshot({ balances: { acct_a: 0, acct_x: 0 } }), 'balances.acct_x', "no account 'acct_x'");
  });
});

describe('checkInvariants: the credits add up', () => {
  it('refuses a charge or refund of zero or fewer credits, naming its type', () => {
    const g = [generation('gen_1')];
    expectRefused(
      snapshot({ generations: g, ledger: [funding(5), charge('gen_1', 0)] }),
      'ledger[1].amount',
      'a charge must be a positive amount',
    );
    expectRefused(
      snapshot({ generations: g, ledger: [funding(5), charge('gen_1', 2), refund('gen_1', -1)] }),
      'ledger[2].amount',
      'a refund must be a positive amount',
    );
  });

  it('refuses a generation charged twice', () => {
    expectRefused(
      snapshot({ generations: [generation('gen_1')], ledger: [funding(5), charge('gen_1', 1), charge('gen_1', 1)] }),
      'ledger[2]',
      'generation gen_1 is charged twice',
    );
  });

  it('refuses a refund of more than was charged, counting every refund of the generation', () => {
    expectRefused(
      snapshot({
        generations: [generation('gen_1')],
        ledger: [funding(5), charge('gen_1', 4), refund('gen_1', 3), refund('gen_1', 2)],
      }),
      'ledger[3].amount',
      'generation gen_1 is refunded more than it was charged',
    );
  });

  it('refuses a refund before its generation is charged', () => {
    expectRefused(
      snapshot({ generations: [generation('gen_1')], ledger: [funding(5), refund('gen_1', 1), charge('gen_1', 1)] }),
      'ledger[1].amount',
      'generation gen_1 is refunded more than it was charged',
    );
  });

  it('refuses a charge that takes a balance below zero, naming the balance it would leave', () => {
    expectRefused(
      snapshot({
        generations: [generation('gen_1'), generation('gen_2')],
        ledger: [funding(5), charge('gen_1', 3), charge('gen_2', 3)],
      }),
      'ledger[2].amount',
      "this charge takes account 'acct_a' to -1 credits",
    );
  });

  it('keeps each account its own balance', () => {
    expectRefused(
      snapshot({
        generations: [generation('gen_1', 'acct_b')],
        ledger: [funding(5), charge('gen_1', 1, 'acct_b')],
      }),
      'ledger[1].amount',
      "this charge takes account 'acct_b' to -1 credits",
    );
  });

  it('refuses an entry that takes a balance past 2^53 - 1, either way', () => {
    const message = `this entry takes a sum past ${MAX} credits`;
    expectRefused(snapshot({ ledger: [funding(MAX), funding(1)] }), 'ledger[1].amount', message);
    expectRefused(snapshot({ ledger: [funding(-MAX), funding(-1)] }), 'ledger[1].amount', message);
  });

  it('refuses a generation with no charge in the ledger', () => {
    expectRefused(
      snapshot({ generations: [generation('gen_1'), generation('gen_2')], ledger: [funding(5), charge('gen_1', 1)] }),
      'generations[1]',
      'generation gen_2 has no charge in the ledger',
    );
  });

  it("refuses an exported balance that differs from the ledger's sum, an absent account's sum being zero", () => {
    const s = (balances: Record<string, number>) =>
      snapshot({ generations: [generation('gen_1')], ledger: [funding(9), charge('gen_1', 4)], balances });
    expectRefused(s({ acct_a: 9 }), 'balances.acct_a', "9 differs from the ledger's sum, 5");
    expectRefused(s({ acct_a: 5, acct_b: 1 }), 'balances.acct_b', "1 differs from the ledger's sum, 0");
  });
});

describe('checkInvariants: room for refunds', () => {
  /** acct_a (listed second) funded near 2^53 - 1: gen_1 charged 10 and refunded 3, gen_2 charged 1; acct_b has its own. */
  const nearTheEdge = (topUp: number) =>
    snapshot({
      accounts: [account('acct_b'), account('acct_a')],
      generations: [generation('gen_1'), generation('gen_2'), generation('gen_3', 'acct_b')],
      ledger: [
        funding(MAX - 5),
        funding(100, 'acct_b'),
        charge('gen_1', 10),
        charge('gen_3', 50, 'acct_b'),
        refund('gen_1', 3),
        charge('gen_2', 1),
        funding(topUp),
      ],
    });

  it('accepts an import whose wallet plus what its generations may still get back is exactly 2^53 - 1', () => {
    // Balance MAX - 5 - 10 + 3 - 1 + 5 = MAX - 8; refundable 7 + 1 = 8.
    expect(() => checkInvariants(nearTheEdge(5), 'import')).not.toThrow();
  });

  it('refuses an import one credit past it, naming the account, its balance and its refundable credits', () => {
    expectRefused(
      nearTheEdge(6),
      'accounts[1]',
      `account 'acct_a' holds ${MAX - 7} credits and its generations may still get 8 back as refunds: together past ${MAX}, where a refund is no longer exact`,
    );
  });

  it("keeps the store of record's own state, written before that rule, loading", () => {
    const s = snapshot({
      generations: [generation('gen_1')],
      ledger: [funding(MAX), charge('gen_1', 10), funding(10)],
    });
    expect(() => checkInvariants(s, 'store')).not.toThrow();
    expectRefused(
      s,
      'accounts[0]',
      `account 'acct_a' holds ${MAX} credits and its generations may still get 10 back as refunds: together past ${MAX}, where a refund is no longer exact`,
      'import',
    );
  });
});
