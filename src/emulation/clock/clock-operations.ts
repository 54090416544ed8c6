// Control operations on the emulator clock (read, advance, freeze, unfreeze) and on its timing profiles.
import { type GenerationStatus, STATUS_RANK } from '../../domain/generation.js';
import type * as z from 'zod';
import { PlaneError } from '../error-codes.js';
import type { advanceSchema } from '../openapi/control-schemas.js';
import { contextOf, type ControlDeps } from '../plane-state.js';
import type { timingInput } from '../inputs.js';
import { clockView, type ClockView } from '../views.js';

/** The clock after the advance, and the status moves it caused (pending -> completed counts two). */
type AdvanceResult = z.output<typeof advanceSchema>;

/**
 * Moves the clock by `ms`, due transitions in order; resolves after the renders they started have finished. In a
 * scenario's load (`deps.synchronous`) it moves the clock in one step and returns at once: renders finish later.
 */
export function advanceClock(deps: ControlDeps, ms: number): AdvanceResult | Promise<AdvanceResult> {
  // Each generation's status before its first move and after its last: pending -> completed counts two, a failure one.
  const moved = new Map<string, { from: GenerationStatus; to: GenerationStatus }>();
  const stop = contextOf(deps).lifecycle.watchMoves((id, from, to) => {
    const seen = moved.get(id);
    if (seen) seen.to = to;
    else moved.set(id, { from, to });
  });
  const result = () => {
    let transitions = 0;
    for (const { from, to } of moved.values())
      if (to !== from) transitions += to === 'failed' ? 1 : STATUS_RANK[to] - STATUS_RANK[from];
    return { ...clockView(contextOf(deps)), transitions };
  };
  if (!deps.synchronous) return deps.runtime.advance(ms).finally(stop).then(result);
  try {
    contextOf(deps).scheduler.advance(ms);
  } finally {
    stop();
  }
  return result();
}

export function setFrozen(deps: ControlDeps, frozen: boolean): ClockView {
  const ctx = contextOf(deps);
  if (frozen) ctx.clock.freeze();
  else ctx.clock.unfreeze();
  return clockView(ctx);
}

/** Every model a timing change names is in the catalogue (checked before anything changes). */
export function checkTimingModels(deps: ControlDeps, body: z.output<typeof timingInput>) {
  for (const slug of Object.keys(body.by_model ?? {}))
    if (!contextOf(deps).catalogue.get(slug))
      throw new PlaneError('invalid_control_request', `by_model.${slug}: no model '${slug}' in the catalogue.`);
}
