// How a failed generation is worded and refunded: default messages per error code, refund requests as policies.
import type { RefundPolicy } from './generation.js';

/** A refund as a fault rule or an operator asks for it: all that is left, nothing, or a number of credits. */
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
