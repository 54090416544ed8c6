// /_emulator/faults, declared once (registry/operation.ts).
import { defineOperation } from '../registry/operation.js';
import { CONTROL_INPUT_SCHEMAS as I, CONTROL_SCHEMAS as S } from '../openapi/components.js';
import { addFault, clearFaults, listFaults, removeFault, updateFault } from './fault-operations.js';

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
    body: I.FaultRule,
    status: 201,
    answer: S.FaultEnvelope,
    errors: ['invalid_fault_rule', 'fault_exists'],
    handle: (deps, { body }) => ({ fault: addFault(deps, body) }),
  }),
  clearFaults: defineOperation({
    method: 'delete',
    path: '/_emulator/faults',
    summary: 'Remove every fault rule',
    answer: S.FaultList,
    handle: (deps) => ({ faults: clearFaults(deps) }),
  }),
  updateFault: defineOperation({
    method: 'patch',
    path: '/_emulator/faults/:id',
    summary: 'Enable or disable a fault rule',
    body: I.FaultPatch,
    answer: S.FaultEnvelope,
    errors: ['fault_not_found'],
    handle: (deps, { params, body }) => ({ fault: updateFault(deps, params.id, body) }),
  }),
  deleteFault: defineOperation({
    method: 'delete',
    path: '/_emulator/faults/:id',
    summary: 'Remove a fault rule',
    answer: S.FaultList,
    errors: ['fault_not_found'],
    handle: (deps, { params }) => ({ faults: removeFault(deps, params.id) }),
  }),
};
