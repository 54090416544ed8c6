// /_emulator/clock and /_emulator/timing, declared once (registry/operation.ts), and the scenario steps on the clock.
import * as z from 'zod';
import { defineOperation } from '../registry/operation.js';
import { advanceSchema, clockSchema, timingSchema } from '../openapi/control-schemas.js';
import { advanceInput, timingInput } from '../inputs.js';
import { contextOf } from '../plane-state.js';
import { clockView, timingView } from '../views.js';
import { operationStep, ownStep } from '../scenarios/scenario-step.js';
import { advanceClock, checkTimingModels, setFrozen } from './clock-operations.js';
import { PlaneError } from '../error-codes.js';

export const CLOCK_API = {
  getClock: defineOperation({
    method: 'get',
    path: '/_emulator/clock',
    summary: 'The emulator clock',
    answer: clockSchema,
    handle: (deps) => clockView(contextOf(deps)),
  }),
  advanceClock: defineOperation({
    method: 'post',
    path: '/_emulator/clock/advance',
    summary: 'Move the clock forward, running due transitions and waiting for their renders',
    body: advanceInput,
    input: 'advance',
    answer: advanceSchema.meta({ id: 'Advance' }),
    errors: ['invalid_duration'],
    handle: (deps, { body }) => advanceClock(deps, body.by),
  }),
  advanceToNext: defineOperation({
    method: 'post',
    path: '/_emulator/clock/advance-to-next',
    summary: 'Move the clock exactly to the next scheduled transition',
    answer: advanceSchema.meta({ id: 'AdvanceToNext' }),
    errors: ['nothing_scheduled'],
    handle: async (deps) => {
      const ctx = contextOf(deps);
      await deps.runtime.settle();
      const due = ctx.scheduler.nextDueAt();
      if (due === undefined)
        throw new PlaneError(
          'nothing_scheduled',
          'No transition is scheduled: every generation is final or stalled. Submit one, or complete or fail a stalled one.',
        );
      // The call takes no duration: a transition the clock can never reach is "nothing scheduled", not a bad advance.
      if (due > ctx.clock.latest)
        throw new PlaneError(
          'nothing_scheduled',
          'The next transition is due after 9999-12-31T23:59:59.999Z, where the emulator clock stops. Set the clock back (a scenario set_clock step) or reset.',
        );
      return advanceClock(deps, Math.max(0, due - ctx.clock.now()));
    },
  }),
  freezeClock: defineOperation({
    method: 'post',
    path: '/_emulator/clock/freeze',
    summary: 'Stop the clock',
    answer: clockSchema,
    handle: (deps) => setFrozen(deps, true),
  }),
  unfreezeClock: defineOperation({
    method: 'post',
    path: '/_emulator/clock/unfreeze',
    summary: 'Let the clock follow real time again',
    answer: clockSchema,
    handle: (deps) => setFrozen(deps, false),
  }),
  getTiming: defineOperation({
    method: 'get',
    path: '/_emulator/timing',
    summary: 'Timing profiles',
    answer: timingSchema,
    handle: (deps) => timingView(contextOf(deps)),
  }),
  setTiming: defineOperation({
    method: 'put',
    path: '/_emulator/timing',
    summary: 'Change timing profiles (by_model entries merge; null removes one)',
    body: timingInput,
    input: 'timing',
    answer: timingSchema,
    handle: (deps, { body }) => {
      const ctx = contextOf(deps);
      checkTimingModels(deps, body);
      if (body.profile) ctx.settings.timing.profile = body.profile;
      for (const [slug, profile] of Object.entries(body.by_model ?? {})) {
        if (profile === null) delete ctx.settings.timing.byModel[slug];
        else ctx.settings.timing.byModel[slug] = profile;
      }
      return timingView(ctx);
    },
  }),
};

/** Scenario steps (scenarios/scenario-step.ts), in the order an unknown op's message lists them. */
export const CLOCK_STEPS = {
  set_timing: operationStep(CLOCK_API.setTiming, {
    fields: timingInput.shape,
    check: (_, { body }, deps) => checkTimingModels(deps, body),
  }),
  freeze_clock: operationStep(CLOCK_API.freezeClock, { fields: {} }),
  unfreeze_clock: operationStep(CLOCK_API.unfreezeClock, { fields: {} }),
  // The clock put at an instant (daily ceilings near midnight, URL expiry).
  set_clock: ownStep({
    fields: {
      to: z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time such as 2026-01-01T23:59:00Z' }),
    },
    check: (run, step) => run.moveClock(Date.parse(step.to)),
    // In range: the dry run's moveClock refused any other instant before the first step ran.
    run: (deps, step) => contextOf(deps).clock.set(Date.parse(step.to)),
  }),
  advance_clock: operationStep(CLOCK_API.advanceClock, {
    fields: advanceInput.shape,
    check: (run, { body }) => run.moveClock(run.clockAt + body.by),
  }),
};
