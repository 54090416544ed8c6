// The charge side of failing or refunding a generation: how many credits go back, read from the ledger, and the entry that gives them.
import { failureMessage, invalidRefund, type RefundRequest, refundAmount, toRefundPolicy } from './failures.js';
import type { Generation, GenerationError, RefundPolicy } from './generation.js';
import type { Ledger } from './ledger.js';

/** What a failure refunds now; called before the generation moves, so a refused refund leaves it as it was. */
export function failureRefund(ledger: Ledger, g: Generation, refund: RefundPolicy): number | undefined {
  return refund.kind === 'none'
    ? undefined
    : refundAmount(g, ledger.generationCredits(g.id), refund, { allowNothingLeft: true });
}

/**
 * An operator's request to fail a generation, as the error and refund it fails with: `refund` counts against what is
 * left of the charge, and the message defaults to the one for `code` plus what happened to the charge.
 */
export function operatorFailure(
  ledger: Ledger,
  g: Generation,
  request: { code: string; message?: string; refund: RefundRequest },
): { error: GenerationError; refund: RefundPolicy } {
  const credits = ledger.generationCredits(g.id);
  const left = credits.charged - credits.refunded;
  if (typeof request.refund === 'object' && request.refund.partial > left) throw invalidRefund(g, left);
  const refund: RefundPolicy = left > 0 ? toRefundPolicy(request.refund, left) : { kind: 'none' };
  const message = failureMessage(request.code, refund, credits.charged, request.message);
  return { error: { code: request.code, message }, refund };
}

/** What a refund of a completed or failed generation gives back: what is left of the charge (full) or a part, never more. */
export function finalRefund(ledger: Ledger, g: Generation, policy: Exclude<RefundPolicy, { kind: 'none' }>): number {
  return refundAmount(g, ledger.generationCredits(g.id), policy, { allowNothingLeft: false });
}

export function bookRefund(ledger: Ledger, g: Generation, amount: number, at: number) {
  ledger.append({
    type: 'refund',
    accountId: g.accountId,
    amount,
    at,
    generationId: g.id,
    keyId: g.apiKeyId,
    modelSlug: g.modelSlug,
  });
}
