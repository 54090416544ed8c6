// What failing or refunding a generation gives back, read from the ledger: an operator's partial refund counts against
// what is left of the charge, and a generation with nothing left gets nothing back and says the charge stands.
import { describe, expect, it } from 'vitest';
import type { Generation } from '../../../src/domain/generation.js';
import { failureRefund, finalRefund, operatorFailure } from '../../../src/domain/generation-refunds.js';
import { Ledger } from '../../../src/domain/ledger.js';

const g = { id: 'gen_1', accountId: 'acct_1', apiKeyId: 1, modelSlug: 'veo-3' } as Generation;

/** A ledger where `g` was charged `charged` credits and `refunded` of them were given back. */
function ledgerWith(charged: number, refunded = 0): Ledger {
  let n = 0;
  const ledger = new Ledger(() => `led_${++n}`);
  const entry = { accountId: g.accountId, generationId: g.id, keyId: g.apiKeyId, modelSlug: g.modelSlug };
  ledger.append({ type: 'charge', amount: charged, at: 0, ...entry });
  if (refunded > 0) ledger.append({ type: 'refund', amount: refunded, at: 1, ...entry });
  return ledger;
}

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a refusal');
};

describe('failureRefund', () => {
  it('gives back nothing for a refund of none, and what is left for a full one', () => {
    expect(failureRefund(ledgerWith(30, 10), g, { kind: 'none' })).toBeUndefined();
    expect(failureRefund(ledgerWith(30, 10), g, { kind: 'full' })).toBe(20);
  });

  it('gives back 0, without refusing, when a refund already took all of the charge', () => {
    expect(failureRefund(ledgerWith(30, 30), g, { kind: 'full' })).toBe(0);
  });
});

describe('operatorFailure', () => {
  it('refuses a partial refund larger than what is left of the charge, naming what is', () => {
    const error = refusal(() => operatorFailure(ledgerWith(30, 10), g, { code: 'timeout', refund: { partial: 21 } }));
    expect(error).toMatchObject({
      code: 'invalid_refund_amount',
      message: 'A refund of generation gen_1 must be a whole number of credits from 1 to 20.',
    });
  });

  it('takes a partial refund of all that is left as a full one', () => {
    const { refund, error } = operatorFailure(ledgerWith(30, 10), g, { code: 'timeout', refund: { partial: 20 } });
    expect(refund).toEqual({ kind: 'full' });
    expect(error.message).toMatch(/ The charge was refunded\.$/);
  });

  it('takes a partial refund of less than is left as that many credits', () => {
    const { refund, error } = operatorFailure(ledgerWith(30), g, { code: 'timeout', refund: { partial: 12 } });
    expect(refund).toEqual({ kind: 'partial', amount: 12 });
    expect(error).toEqual({
      code: 'timeout',
      message:
        'The generation took too long and was stopped. Submit it again, or choose a shorter duration. 12 of the 30 credits charged were refunded.',
    });
  });

  it('refunds nothing when nothing is left, and says the charge stands', () => {
    const { refund, error } = operatorFailure(ledgerWith(30, 30), g, { code: 'render_failed', refund: 'full' });
    expect(refund).toEqual({ kind: 'none' });
    expect(error.message).toBe(
      'The output could not be produced. Submit it again with a new Idempotency-Key. The charge stands.',
    );
  });
});

describe('finalRefund', () => {
  it('gives back what is left, or the part asked for, and refuses a generation refunded in full', () => {
    expect(finalRefund(ledgerWith(30, 10), g, { kind: 'full' })).toBe(20);
    expect(finalRefund(ledgerWith(30, 10), g, { kind: 'partial', amount: 5 })).toBe(5);
    expect(refusal(() => finalRefund(ledgerWith(30, 30), g, { kind: 'full' }))).toMatchObject({
      code: 'already_refunded',
      message: 'Generation gen_1 has already been refunded in full.',
    });
  });
});
