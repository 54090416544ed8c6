// How a failed generation is worded and refunded: default messages per error code, refund requests as policies.
import { DomainError } from './errors.js';
import type { Generation, RefundPolicy } from './generation.js';

/** A refund as an operator (or a plugin) asks for it: all that is left, nothing, or a number of credits. */
export type RefundRequest = 'full' | 'none' | { partial: number };

/** The `error.code` values the emulator itself uses for failed generations, with the message each gets by default. */
export const FAILURE_MESSAGES: Readonly<Record<string, string>> = {
  content_policy:
    'The request was refused by the content policy. Change the prompt or the reference images and submit a new request.',
  internal_error: 'The generation failed because of an internal error. Submit it again with a new Idempotency-Key.',
  render_failed: 'The output could not be produced. Submit it again with a new Idempotency-Key.',
  timeout: 'The generation took too long and was stopped. Submit it again, or choose a shorter duration.',
  capacity_exceeded: 'No capacity was available to run the generation. Submit it again later.',
  input_unprocessable:
    'The inputs could not be processed (for example an unreadable reference image). Check them and submit a new request.',
};

/** A refund policy as JSON (`"full"`, `"none"`, `{ "partial": n }`) for a charge of `charged` credits; a partial refund of all of it is a full one. */
export function toRefundPolicy(input: RefundRequest, charged: number): RefundPolicy {
  if (input === 'full') return { kind: 'full' };
  if (input === 'none') return { kind: 'none' };
  return input.partial >= charged ? { kind: 'full' } : { kind: 'partial', amount: input.partial };
}

function refundSentence(policy: RefundPolicy, charged: number): string {
  if (policy.kind === 'full') return 'The charge was refunded.';
  if (policy.kind === 'none') return 'The charge stands.';
  return `${policy.amount} of the ${charged} credits charged were refunded.`;
}

/** The message a failed generation shows: the given one, or the default for its code, and what happened to the charge. */
export function failureMessage(code: string, refund: RefundPolicy, charged: number, message?: string): string {
  if (message) return message;
  return `${FAILURE_MESSAGES[code] ?? `The generation failed (${code}).`} ${refundSentence(refund, charged)}`;
}

/** The credits a refund policy gives back now; 0 only when nothing is left and that is allowed (a failure after a refund). */
export function refundAmount(
  g: Pick<Generation, 'id'>,
  credits: { charged: number; refunded: number },
  policy: Exclude<RefundPolicy, { kind: 'none' }>,
  { allowNothingLeft }: { allowNothingLeft: boolean },
): number {
  const left = credits.charged - credits.refunded;
  if (left <= 0) {
    if (allowNothingLeft) return 0;
    throw new DomainError('already_refunded', `Generation ${g.id} has already been refunded in full.`);
  }
  const amount = policy.kind === 'full' ? left : policy.amount;
  if (!Number.isSafeInteger(amount) || amount <= 0 || amount > left) throw invalidRefund(g, left);
  return amount;
}

export function invalidRefund(g: Pick<Generation, 'id'>, left: number): DomainError {
  return new DomainError(
    'invalid_refund_amount',
    `A refund of generation ${g.id} must be a whole number of credits from 1 to ${left}.`,
  );
}
