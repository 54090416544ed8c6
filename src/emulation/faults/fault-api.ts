// /_emulator/faults, declared once (registry/operation.ts): the ordered fault rules; add, list, enable or disable, remove.
import * as z from 'zod';
import { defineOperation } from '../registry/operation.js';
import { faultStateShape } from '../openapi/control-schemas.js';
import { faultPatchInput } from '../inputs.js';
import { faultRuleSchema } from './fault-schema.js';
import { contextOf, type ControlDeps } from '../plane-state.js';
import { faultView } from '../views.js';

export const listFaults = (deps: ControlDeps) => deps.state.faults.list().map(faultView);

/** The rule format as the document names it; the store parses a rule itself (invalid_fault_rule). */
export const faultRule = faultRuleSchema.meta({ id: 'FaultRule' });

const fault = faultRule
  .extend(faultStateShape)
  .meta({ id: 'Fault', description: 'A fault rule as it was given, with its id, state and counters.' });
// An answer repeats a rule as it was sent: documented, with its rule, on the input side.
const faultList = z.strictObject({ faults: z.array(fault) }).meta({ id: 'FaultList', io: 'input' });
const faultEnvelope = z.strictObject({ fault }).meta({ id: 'FaultEnvelope', io: 'input' });

export const FAULT_API = {
  listFaults: defineOperation({
    method: 'get',
    path: '/_emulator/faults',
    summary: 'Fault rules, in match order',
    answer: faultList,
    handle: (deps) => ({ faults: listFaults(deps) }),
  }),
  addFault: defineOperation({
    method: 'post',
    path: '/_emulator/faults',
    summary: 'Add a fault rule',
    body: faultRule,
    status: 201,
    answer: faultEnvelope,
    errors: ['invalid_fault_rule', 'fault_exists', 'limit_reached'],
    // Appended at the end: earlier rules win.
    handle: (deps, { body }) => ({
      fault: faultView(deps.state.faults.add(body, { now: contextOf(deps).clock.now() })),
    }),
  }),
  clearFaults: defineOperation({
    method: 'delete',
    path: '/_emulator/faults',
    summary: 'Remove every fault rule',
    answer: faultList,
    handle: (deps) => {
      deps.state.faults.clear();
      if (deps.state.scenario) deps.state.scenario.ruleIds = [];
      return { faults: listFaults(deps) };
    },
  }),
  updateFault: defineOperation({
    method: 'patch',
    path: '/_emulator/faults/:id',
    summary: 'Enable or disable a fault rule',
    body: faultPatchInput,
    input: 'fault update',
    answer: faultEnvelope,
    errors: ['fault_not_found'],
    handle: (deps, { params, body }) => ({ fault: faultView(deps.state.faults.setEnabled(params.id, body.enabled)) }),
  }),
  deleteFault: defineOperation({
    method: 'delete',
    path: '/_emulator/faults/:id',
    summary: 'Remove a fault rule',
    answer: faultList,
    errors: ['fault_not_found'],
    handle: (deps, { params }) => {
      deps.state.faults.remove(params.id);
      const active = deps.state.scenario;
      if (active) active.ruleIds = active.ruleIds.filter((r) => r !== params.id);
      return { faults: listFaults(deps) };
    },
  }),
};
