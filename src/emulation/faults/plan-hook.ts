// The plan hook: at acceptance, the first matching generation rule and then the prompt's magic markers script the outcome.
import type { PlanHook } from '../../domain/context.js';
import { applyGenerationAction } from './generation-actions.js';
import type { GenerationFaultAction } from './fault-schema.js';
import { markerActions } from './magic-prompts.js';
import { quote } from '../../domain/pricing.js';
import type { Emulator } from '../../emulator.js';
import type { ControlState } from '../plane-state.js';

export function controlPlanHook(emulator: Emulator, state: ControlState): PlanHook {
  return ({ key, model, body, plan }) => {
    // Markers first: a bad marker is a 422 before any rule counts this request as a match.
    const markers = emulator.options.magicPrompts ? markerActions(body.prompt) : [];
    const scope = state.requests.getStore();
    const rule = state.faults.match(
      'generation',
      {
        method: 'POST',
        path: '/v1/media/generations',
        keyId: key.id,
        modelSlug: model.slug,
        prompt: body.prompt,
        idempotencyKey: scope?.idempotencyKey ?? undefined,
      },
      emulator.context().random.next,
    );
    if (!rule && markers.length === 0) return plan;
    const charged = quote(model, body.params).credits;
    let next = plan;
    if (rule) {
      next = applyGenerationAction(next, rule.parsed.action as GenerationFaultAction, charged);
      if (scope && scope.faultId === null) scope.faultId = rule.id;
    }
    for (const action of markers) next = applyGenerationAction(next, action, charged);
    return next;
  };
}
