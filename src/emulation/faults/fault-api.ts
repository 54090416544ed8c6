// /_emulator/faults, declared once (registry/operation.ts): the ordered fault rules; add, list, enable or disable, remove.
import { defineOperation } from '../registry/operation.js';
import { CONTROL_SCHEMAS as S } from '../openapi/components.js';
import { contextOf, type ControlDeps } from '../plane-state.js';
import { faultView } from '../views.js';

export const listFaults = (deps: ControlDeps) => deps.state.faults.list().map(faultView);

export const FAULT_API = {
  listFaults: defineOperation({
    method: 'get',
    path: '/_emulator/faults',
    summary: 'Fault rules, in match order',
    answer: S.FaultList,
    handle: (deps) => ({ faults: listFaults(deps) }),
  }),
  addFault: defineOperation({
    method: 'post',
    path: '/_emulator/faults',
    summary: 'Add a fault rule',
    body: S.FaultRule,
    status: 201,
    answer: S.FaultEnvelope,
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
    answer: S.FaultList,
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
    body: S.FaultPatch,
    input: 'fault update',
    answer: S.FaultEnvelope,
    errors: ['fault_not_found'],
    handle: (deps, { params, body }) => ({ fault: faultView(deps.state.faults.setEnabled(params.id, body.enabled)) }),
  }),
  deleteFault: defineOperation({
    method: 'delete',
    path: '/_emulator/faults/:id',
    summary: 'Remove a fault rule',
    answer: S.FaultList,
    errors: ['fault_not_found'],
    handle: (deps, { params }) => {
      deps.state.faults.remove(params.id);
      const active = deps.state.scenario;
      if (active) active.ruleIds = active.ruleIds.filter((r) => r !== params.id);
      return { faults: listFaults(deps) };
    },
  }),
};
