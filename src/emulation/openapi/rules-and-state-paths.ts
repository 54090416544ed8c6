// The control plane's fault, scenario, journal and state operations, as documented operations.
import { journalQuery } from '../inputs.js';
import type { OperationSpec } from '../../openapi/operation.js';
import { op } from './control-op.js';

const SCENARIO_STEP_ERRORS = [
  'account_not_found',
  'account_exists',
  'key_not_found',
  'key_exists',
  'invalid_key_format',
  'invalid_amount',
  'invalid_duration',
  'invalid_fault_rule',
  'fault_exists',
];

export function rulesAndStateOperations(): OperationSpec[] {
  return [
    op({
      method: 'get',
      path: '/_emulator/faults',
      id: 'listFaults',
      summary: 'Fault rules, in match order',
      answer: 'FaultList',
    }),
    op({
      method: 'post',
      path: '/_emulator/faults',
      id: 'addFault',
      summary: 'Add a fault rule',
      body: 'FaultRule',
      status: 201,
      answer: 'FaultEnvelope',
      errors: ['invalid_fault_rule', 'fault_exists'],
    }),
    op({
      method: 'delete',
      path: '/_emulator/faults',
      id: 'clearFaults',
      summary: 'Remove every fault rule',
      answer: 'FaultList',
    }),
    op({
      method: 'patch',
      path: '/_emulator/faults/{id}',
      id: 'updateFault',
      summary: 'Enable or disable a fault rule',
      body: 'FaultPatch',
      answer: 'FaultEnvelope',
      errors: ['fault_not_found'],
    }),
    op({
      method: 'delete',
      path: '/_emulator/faults/{id}',
      id: 'deleteFault',
      summary: 'Remove a fault rule',
      answer: 'FaultList',
      errors: ['fault_not_found'],
    }),
    op({
      method: 'get',
      path: '/_emulator/scenarios',
      id: 'listScenarios',
      summary: 'Available scenarios and the active one',
      answer: 'Scenarios',
    }),
    op({
      method: 'post',
      path: '/_emulator/scenarios',
      id: 'loadScenario',
      summary: 'Load a scenario by name or inline (replaces the active one)',
      body: 'ScenarioLoad',
      answer: 'ActiveScenario',
      errors: ['scenario_not_found', 'invalid_scenario', ...SCENARIO_STEP_ERRORS],
    }),
    op({
      method: 'get',
      path: '/_emulator/scenarios/active',
      id: 'activeScenario',
      summary: 'Progress of the active scenario',
      answer: 'ActiveScenario',
    }),
    op({
      method: 'delete',
      path: '/_emulator/scenarios/active',
      id: 'unloadScenario',
      summary: 'Unload the active scenario and its rules',
      answer: 'ActiveScenario',
    }),
    op({
      method: 'get',
      path: '/_emulator/journal',
      id: 'journal',
      summary: 'The /v1/media requests the emulator received',
      answer: 'Journal',
      query: journalQuery,
    }),
    op({
      method: 'delete',
      path: '/_emulator/journal',
      id: 'clearJournal',
      summary: 'Empty the journal',
      answer: 'Ok',
    }),
    op({
      method: 'get',
      path: '/_emulator/state',
      id: 'exportState',
      summary: 'Export the whole state',
      answer: 'State',
    }),
    op({
      method: 'put',
      path: '/_emulator/state',
      id: 'importState',
      summary: 'Replace the whole state with an export',
      body: 'State',
      answer: 'Ok',
      errors: ['invalid_state', 'invalid_fault_rule', 'invalid_scenario'],
    }),
  ];
}
