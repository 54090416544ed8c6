// The plan hook: at acceptance, the first matching generation rule and then the prompt's magic markers script the outcome.
import type { PlanHook } from '../domain/context.js';
import { applyGenerationAction } from '../domain/fault-plans.js';
import type { GenerationFaultAction } from '../domain/fault-schema.js';
import { markerActions } from '../domain/magic-prompts.js';
import { quote } from '../domain/pricing.js';
import type { Emulator } from '../emulator.js';
import type { ControlState } from './control-state.js';

export function controlPlanHook(emulator: Emulator, state: ControlState): PlanHook {
  return ({ key, model, body, plan }) => {
    // Markers first: a bad marker is a 422 before any rule counts this request as a match.
    const markers = emulator.options.magicPrompts ? markerActions(body.prompt) : [];
    const scope = state.requests.getStore();
    const request = {
      method: 'POST',
      path: '/v1/media/generations',
      keyId: key.id,
      modelSlug: model.slug,
      prompt: body.prompt,
      idempotencyKey: scope?.idempotencyKey ?? undefined,
    };
    const rule = state.faults.match('generation', request, emulator.context().random.next);
    if (!rule && markers.length === 0) return plan;
    const charged = quote(model, body.params).credits;
    let next = plan;
    if (rule) {
      next = applyGenerationAction(next, rule.parsed.action as GenerationFaultAction, charged);
      if (scope && scope.faultId === null) {
        scope.faultId = rule.id;
        scope.faultReason = state.faults.explain(rule, request);
      }
    }
    for (const action of markers) next = applyGenerationAction(next, action, charged);
    return next;
  };
}
