// waitFor(id, state): drives the emulator clock to the next scheduled transition until the generation gets there. Never sleeps.
import type * as z from 'zod';
import { parseDuration } from '../../domain/durations.js';
import { PlaneError } from '../error-codes.js';
import { isFinal, STATUS_RANK, type Generation } from '../../domain/generation.js';
import { contextOf, type ControlDeps } from '../plane-state.js';
import { findGeneration, generationOf } from '../generations/generation-operations.js';
import type { waitInput } from '../inputs.js';
import type { AdminGenerationView } from '../views.js';

const MAX_STEPS = 10_000;

/** A status, or `final` for completed-or-failed. */
type WaitTarget = z.output<typeof waitInput>['target'];

function reached(g: Generation, target: WaitTarget): boolean {
  return target === 'final' ? isFinal(g.status) : g.status === target;
}

function unreachable(g: Generation, target: WaitTarget, why: string): never {
  throw new PlaneError('unreachable_state', `Generation ${g.id} cannot become ${target}: ${why}.`, {
    generation_id: g.id,
    status: g.status,
    target,
  });
}

/**
 * Each step: done? Else wait for renders in flight, then move the clock to the earliest scheduled due time
 * (any generation's: transitions run in time order). Throws `unreachable_state` when the target can no longer
 * happen (another final state, already past it, a stall with nothing scheduled, or beyond `within`). `body` is what
 * both clients send, `{ target, within? }`, so the remote client moves the clock the same way.
 */
export async function waitFor(
  deps: ControlDeps,
  id: string,
  { target, within }: z.output<typeof waitInput>,
): Promise<AdminGenerationView> {
  const budget = parseDuration(within ?? '24h', 'within');
  const start = contextOf(deps).clock.now();
  for (let step = 0; step < MAX_STEPS; step++) {
    const g = findGeneration(deps, id);
    if (reached(g, target)) return generationOf(deps, g);
    if (isFinal(g.status))
      unreachable(g, target, `it ended ${g.status}${g.error ? ` with error.code ${g.error.code}` : ''}`);
    if (target !== 'final' && STATUS_RANK[g.status] > STATUS_RANK[target])
      unreachable(g, target, `it is already ${g.status}`);
    await deps.runtime.settle();
    if (reached(findGeneration(deps, id), target)) continue;
    const ctx = contextOf(deps);
    const due = ctx.scheduler.nextDueAt();
    if (due === undefined) {
      if (ctx.lifecycle.rendersInFlight() > 0) continue;
      unreachable(
        g,
        target,
        `it is ${g.status} and nothing is scheduled that could move it (a stall?); use control.complete() or control.fail()`,
      );
    }
    if (due > ctx.clock.latest)
      unreachable(
        g,
        target,
        'its next transition is due after 9999-12-31T23:59:59.999Z, where the emulator clock stops',
      );
    if (due - start > budget)
      unreachable(
        g,
        target,
        `its next transition is due more than ${within ?? '24h'} of emulator time from now; pass { within } to allow more`,
      );
    await deps.runtime.advance(Math.max(0, due - ctx.clock.now()));
  }
  return unreachable(findGeneration(deps, id), target, `it did not get there in ${MAX_STEPS} transitions`);
}
