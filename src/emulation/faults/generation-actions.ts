// Turns a generation-level fault action (from a rule or a magic prompt marker) into the generation's plan, or into the
// outcome of its links, which the plane keeps itself (generations/output-links.ts).
import { failureMessage, toRefundPolicy } from '../../domain/failures.js';
import type { GenerationPlan } from '../../domain/generation.js';
import type { OutputUrls } from '../generations/output-links.js';
import type { GenerationFaultAction } from './fault-schema.js';

/** The link outcome an action scripts; a later action replaces an earlier one's. */
export function linkOutcome(action: GenerationFaultAction): Exclude<OutputUrls, 'valid'> | undefined {
  if (action.type === 'missing_outputs') return 'missing';
  // `once`: the first read that shows the outputs sees them expired, later reads get valid links.
  if (action.type === 'expired_urls') return action.once ? 'expired-once' : 'expired';
  return undefined;
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
    default:
      return plan;
  }
}
