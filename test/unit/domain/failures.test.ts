// Failed generations: the message a client reads, and the refund an operator asks for, policy and amount.
import { describe, it, expect } from 'vitest';
import { DomainError } from '../../../src/domain/errors.js';
import { failureMessage, refundAmount, toRefundPolicy } from '../../../src/domain/failures.js';

const g = { id: 'gen_1' };

function refusal(run: () => unknown): DomainError {
  try {
    run();
  } catch (e) {
    if (e instanceof DomainError) return e;
    throw e;
  }
  throw new Error('expected a DomainError');
}

describe('toRefundPolicy', () => {
  it('reads a partial refund of the whole charge as a full refund', () => {
    expect(toRefundPolicy({ partial: 10 }, 10)).toEqual({ kind: 'full' });
    expect(toRefundPolicy({ partial: 12 }, 10)).toEqual({ kind: 'full' });
  });

  it('keeps a partial refund below the charge as partial', () => {
    expect(toRefundPolicy({ partial: 9 }, 10)).toEqual({ kind: 'partial', amount: 9 });
  });
});

describe('failureMessage', () => {
  it('gives a known code its default message and says what happened to the charge', () => {
    expect(failureMessage('timeout', { kind: 'full' }, 10)).toBe(
      'The generation took too long and was stopped. Submit it again, or choose a shorter duration. ' +
        'The charge was refunded.',
    );
    expect(failureMessage('capacity_exceeded', { kind: 'partial', amount: 3 }, 10)).toBe(
      'No capacity was available to run the generation. Submit it again later. ' +
        '3 of the 10 credits charged were refunded.',
    );
  });

  it('names an unknown code in a generic message', () => {
    expect(failureMessage('plugin_broke', { kind: 'none' }, 10)).toBe(
      'The generation failed (plugin_broke). The charge stands.',
    );
  });

  it('shows a given message as it is', () => {
    expect(failureMessage('timeout', { kind: 'full' }, 10, 'Custom.')).toBe('Custom.');
  });
});

describe('refundAmount', () => {
  const full = { kind: 'full' } as const;
  const partial = (amount: number) => ({ kind: 'partial', amount }) as const;

  it('gives back what is left for a full refund, or the partial amount', () => {
    expect(refundAmount(g, { charged: 10, refunded: 4 }, full, { allowNothingLeft: false })).toBe(6);
    expect(refundAmount(g, { charged: 10, refunded: 4 }, partial(6), { allowNothingLeft: false })).toBe(6);
    expect(refundAmount(g, { charged: 10, refunded: 4 }, partial(1), { allowNothingLeft: false })).toBe(1);
  });

  it('gives back nothing when nothing is left and that is allowed', () => {
    expect(refundAmount(g, { charged: 10, refunded: 10 }, full, { allowNothingLeft: true })).toBe(0);
  });

  it('refuses a refund when nothing is left and that is not allowed', () => {
    const e = refusal(() => refundAmount(g, { charged: 10, refunded: 10 }, full, { allowNothingLeft: false }));
    expect(e.code).toBe('already_refunded');
    expect(e.message).toBe('Generation gen_1 has already been refunded in full.');
  });

  it.each([
    ['a fraction', 1.5],
    ['zero', 0],
    ['a negative amount', -1],
    ['more than is left', 7],
  ])('refuses %s of credits, naming the range allowed', (_, amount) => {
    const e = refusal(() => refundAmount(g, { charged: 10, refunded: 4 }, partial(amount), { allowNothingLeft: true }));
    expect(e.code).toBe('invalid_refund_amount');
    expect(e.message).toBe('A refund of generation gen_1 must be a whole number of credits from 1 to 6.');
  });
});
