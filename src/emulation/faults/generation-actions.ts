// Turns a generation-level fault action (from a rule or a magic prompt marker) into the generation's plan.
import { failureMessage, toRefundPolicy } from '../../domain/failures.js';
import type { GenerationPlan } from '../../domain/generation.js';
import type { GenerationFaultAction } from './fault-schema.js';

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
      // `once`: the first read that shows the outputs sees them expired, later reads get valid links.
      return { ...linksLeft(plan), outputUrls: 'expired', ...(action.once ? { expiredReads: 1 } : {}) };
    case 'missing_outputs':
      return { ...linksLeft(plan), outputUrls: 'missing' };
  }
}

/** A later action replaces an earlier one's link outcome, read count included. */
function linksLeft(plan: GenerationPlan): GenerationPlan {
  const { expiredReads: _spent, ...rest } = plan;
  return rest;
}
