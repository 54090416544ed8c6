// The three spending refusals of a submission, in the order the service checks them: the request's own ceiling
// (max_credits), the key's daily ceiling, then the wallet. Each says what it costs and what to change.
import { DomainError } from './errors.js';
import { utcDay } from './ledger.js';

const DAY_MS = 86_400_000;

export interface Spending {
  /** The quoted price of the request. */
  credits: number;
  maxCredits: number;
  /** The key's ceiling per UTC day; null when it has none. */
  dailyCreditLimit: number | null;
  /** What the key has spent, net of refunds, on the UTC day of `now`; read only when the key has a ceiling. */
  usedToday: () => number;
  /** The wallet's balance; read only once both ceilings allow the request. */
  balance: () => number;
  now: number;
}

export function checkSpending(s: Spending): void {
  if (s.credits > s.maxCredits)
    throw new DomainError(
      'max_credits_exceeded',
      `This request costs ${s.credits} credits, more than max_credits (${s.maxCredits}). Raise max_credits or choose cheaper options; POST /v1/media/estimate shows the price.`,
      { credits: s.credits, max_credits: s.maxCredits },
    );
  if (s.dailyCreditLimit !== null) {
    const used = s.usedToday();
    if (used + s.credits > s.dailyCreditLimit) {
      const resetsAt = (utcDay(s.now) + 1) * DAY_MS;
      throw new DomainError(
        'daily_credit_limit_exceeded',
        `This key may spend ${s.dailyCreditLimit} credits per UTC day; ${used} are used and this request costs ${s.credits}. Wait for the reset at ${new Date(resetsAt).toISOString()} or use another key.`,
        {
          daily_credit_limit: s.dailyCreditLimit,
          used_today: used,
          credits: s.credits,
          retry_after_seconds: Math.ceil((resetsAt - s.now) / 1000),
        },
      );
    }
  }
  const balance = s.balance();
  if (balance < s.credits)
    throw new DomainError(
      'insufficient_credits',
      `This request costs ${s.credits} credits but the wallet holds ${balance}. Top up the wallet or choose cheaper options.`,
      { credits: s.credits, wallet_balance: balance },
    );
}
