// The plan hook: at acceptance, the first matching generation rule and then the prompt's magic markers script the outcome.
import type { PlanAdjuster } from '../../domain/context.js';
import type { World } from '../../http/world.js';
import { PLANE_STATE } from '../plane-state.js';
import { acceptanceFacts } from './fault-facts.js';
import type { GenerationFaultAction } from './fault-schema.js';
import { applyGenerationAction, linkOutcome } from './generation-actions.js';
import { markerActions } from './magic-prompts.js';

/** Everything it needs comes in its input (price, idempotency key); the rule that acted goes back as the note. */
export function controlPlanHook(world: World, magicPrompts: boolean): PlanAdjuster {
  return (input) => {
    // Markers first: a bad marker is a 422 before any rule counts this request as a match.
    const markers = magicPrompts ? markerActions(input.body.prompt) : [];
    const { faults } = world.part(PLANE_STATE);
    const facts = acceptanceFacts(input);
    const rule = faults.isEmpty ? undefined : faults.match('generation', facts, world.runtime.context().random.next);
    if (!rule && markers.length === 0) return undefined;
    const actions = rule ? [rule.parsed.action as GenerationFaultAction, ...markers] : markers;
    let next = input.plan;
    let outputUrls: ReturnType<typeof linkOutcome>;
    for (const action of actions) {
      next = applyGenerationAction(next, action, input.credits);
      outputUrls = linkOutcome(action) ?? outputUrls;
    }
    return {
      plan: next,
      by: rule?.id,
      reason: rule ? faults.explain(rule, facts) : undefined,
      // The links are the plane's to keep: scripted under the new id, asked by the core through OutputAccess.
      accepted: outputUrls && ((id) => world.part(PLANE_STATE).links.script(id, { outputUrls })),
    };
  };
}
