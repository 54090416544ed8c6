// checkSpending: a submission's three spending refusals, what each says and carries, where each lets a request through,
// and the order they come in (what a client that fixes one problem at a time sees next).
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../../src/domain/errors.js';
import { checkSpending, type Spending } from '../../../src/domain/spending-checks.js';

const NOW = Date.parse('2026-08-10T18:00:00.000Z');
const MIDNIGHT = Date.parse('2026-08-11T00:00:00.000Z');

const spending = (over: Partial<Spending> = {}): Spending => ({
  credits: 40,
  maxCredits: 100,
  dailyCreditLimit: null,
  usedToday: () => 0,
  balance: () => 1000,
  now: NOW,
  ...over,
});

/** What checkSpending throws, as the HTTP layer sends it; undefined when it lets the request through. */
function refusal(over: Partial<Spending>) {
  try {
    checkSpending(spending(over));
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return { code: error.code, message: error.message, details: error.details };
  }
  return undefined;
}

describe('checkSpending: max_credits', () => {
  it('refuses a price over max_credits, naming both and pointing to the estimate', () => {
    expect(refusal({ credits: 40, maxCredits: 39 })).toEqual({
      code: 'max_credits_exceeded',
      message:
        'This request costs 40 credits, more than max_credits (39). Raise max_credits or choose cheaper options; ' +
        'POST /v1/media/estimate shows the price.',
      details: { credits: 40, max_credits: 39 },
    });
  });

  it('lets a price equal to max_credits through', () => {
    expect(refusal({ credits: 40, maxCredits: 40 })).toBeUndefined();
  });
});

describe("checkSpending: the key's daily ceiling", () => {
  it('refuses what would pass the ceiling, with the ceiling, the day so far, the price and the reset', () => {
    expect(refusal({ credits: 40, dailyCreditLimit: 100, usedToday: () => 61 })).toEqual({
      code: 'daily_credit_limit_exceeded',
      message:
        'This key may spend 100 credits per UTC day; 61 are used and this request costs 40. Wait for the reset at ' +
        '2026-08-11T00:00:00.000Z or use another key.',
      details: { daily_credit_limit: 100, used_today: 61, credits: 40, retry_after_seconds: (MIDNIGHT - NOW) / 1000 },
    });
  });

  it('rounds the wait up to a whole second', () => {
    const details = refusal({ dailyCreditLimit: 10, now: MIDNIGHT - 1500 })?.details;
    expect(details).toMatchObject({ retry_after_seconds: 2 });
  });

  it('lets a request that reaches the ceiling exactly through', () => {
    expect(refusal({ credits: 40, dailyCreditLimit: 100, usedToday: () => 60 })).toBeUndefined();
  });

  it("does not read the day's spending of a key without a ceiling", () => {
    const usedToday = () => {
      throw new Error('read the day of a key without a ceiling');
    };
    expect(refusal({ dailyCreditLimit: null, usedToday })).toBeUndefined();
  });
});

describe('checkSpending: the wallet', () => {
  it('refuses a price over the balance, naming both', () => {
    expect(refusal({ credits: 40, balance: () => 39 })).toEqual({
      code: 'insufficient_credits',
      message: 'This request costs 40 credits but the wallet holds 39. Top up the wallet or choose cheaper options.',
      details: { credits: 40, wallet_balance: 39 },
    });
  });

  it('lets a price equal to the balance through', () => {
    expect(refusal({ credits: 40, balance: () => 40 })).toBeUndefined();
  });
});

describe('checkSpending: one refusal at a time, in order', () => {
  const everythingWrong = { credits: 40, maxCredits: 39, dailyCreditLimit: 10, balance: () => 0 };

  it('answers max_credits first, then the daily ceiling, then the wallet', () => {
    expect(refusal(everythingWrong)?.code).toBe('max_credits_exceeded');
    expect(refusal({ ...everythingWrong, maxCredits: 40 })?.code).toBe('daily_credit_limit_exceeded');
    expect(refusal({ ...everythingWrong, maxCredits: 40, dailyCreditLimit: null })?.code).toBe('insufficient_credits');
  });

  it('reads the balance only once both ceilings allow the request', () => {
    const balance = () => {
      throw new Error('read the wallet of a request a ceiling refuses');
    };
    expect(refusal({ credits: 40, dailyCreditLimit: 10, balance })?.code).toBe('daily_credit_limit_exceeded');
  });
});
