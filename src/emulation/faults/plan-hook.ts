// The plan hook: at acceptance, the first matching generation rule and then the prompt's magic markers script the outcome.
import type { PlanAdjuster } from '../../domain/context.js';
import type { Runtime } from '../../domain/runtime.js';
import type { ControlState } from '../plane-state.js';
import type { GenerationFaultAction } from './fault-schema.js';
import { applyGenerationAction } from './generation-actions.js';
import { markerActions } from './magic-prompts.js';

/** Everything it needs comes in its input (price, idempotency key); the rule that acted goes back as the note. */
export function controlPlanHook(runtime: Runtime, state: ControlState, magicPrompts: boolean): PlanAdjuster {
  return ({ key, model, body, plan, credits, idempotencyKey }) => {
    // Markers first: a bad marker is a 422 before any rule counts this request as a match.
    const markers = magicPrompts ? markerActions(body.prompt) : [];
    const request = {
      method: 'POST',
      path: '/v1/media/generations',
      keyId: key.id,
      modelSlug: model.slug,
      prompt: body.prompt,
      idempotencyKey,
    };
    const rule = state.faults.match('generation', request, runtime.context().random.next);
    if (!rule && markers.length === 0) return undefined;
    let next = plan;
    if (rule) next = applyGenerationAction(next, rule.parsed.action as GenerationFaultAction, credits);
    for (const action of markers) next = applyGenerationAction(next, action, credits);
    return { plan: next, by: rule?.id, reason: rule ? state.faults.explain(rule, request) : undefined };
  };
}
