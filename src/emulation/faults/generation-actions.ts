// Turns a generation-level fault action (from a rule or a magic prompt marker) into the generation's plan.
import type { GenerationFaultAction, RefundPolicyInput } from './fault-schema.js';
import type { GenerationPlan, RefundPolicy } from '../../domain/generation.js';

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
export function toRefundPolicy(input: RefundPolicyInput, charged: number): RefundPolicy {
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

/** `charged` is the price of the request, needed to word the message and to cap a partial refund. */
export function applyGenerationAction(
  plan: GenerationPlan,
  action: GenerationFaultAction,
  charged: number,
): GenerationPlan {
  switch (action.type) {
    case 'fail': {
      const refund = toRefundPolicy(action.refund, charged);
      return {
        ...plan,
        fail: {
          at: action.at,
          afterMs: action.delay,
          code: action.code,
          message: failureMessage(action.code, refund, charged, action.message),
          refund,
        },
      };
    }
    case 'stall':
      return { ...plan, stall: true };
    case 'slow':
      return {
        ...plan,
        pendingMs: Math.round(plan.pendingMs * action.factor),
        runningMs: Math.round(plan.runningMs * action.factor),
      };
    case 'delay': {
      if (action.total !== undefined) {
        const pendingMs = Math.min(action.pending ?? plan.pendingMs, action.total);
        return { ...plan, pendingMs, runningMs: action.total - pendingMs };
      }
      return { ...plan, pendingMs: action.pending ?? plan.pendingMs, runningMs: action.running ?? plan.runningMs };
    }
    case 'expired_urls':
      return { ...plan, outputUrls: 'expired' };
    case 'missing_outputs':
      return { ...plan, outputUrls: 'missing' };
  }
}
