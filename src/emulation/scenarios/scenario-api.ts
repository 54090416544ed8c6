// /_emulator/scenarios, declared once (registry/operation.ts).
import { defineOperation } from '../registry/operation.js';
import { CONTROL_SCHEMAS as S } from '../openapi/components.js';
import { availableScenarios } from './scenario-files.js';
import { loadScenario, scenarioProgress, unloadScenario } from './scenario-operations.js';

/** What a scenario's steps may refuse with, besides the scenario's own codes. */
const STEP_ERRORS = [
  'account_not_found',
  'account_exists',
  'key_not_found',
  'key_exists',
  'invalid_key_format',
  'limit_reached',
  'invalid_amount',
  'invalid_duration',
  'invalid_fault_rule',
  'fault_exists',
];

export const SCENARIO_API = {
  listScenarios: defineOperation({
    method: 'get',
    path: '/_emulator/scenarios',
    summary: 'Available scenarios and the active one',
    answer: S.Scenarios,
    handle: (deps) => ({ available: availableScenarios(), active: scenarioProgress(deps) }),
  }),
  loadScenario: defineOperation({
    method: 'post',
    path: '/_emulator/scenarios',
    summary: 'Load a scenario by name or inline (replaces the active one)',
    body: S.ScenarioLoad,
    answer: S.ActiveScenario,
    errors: ['scenario_not_found', 'invalid_scenario', ...STEP_ERRORS],
    // A path that came in a request is never opened: names and inline scenarios only (the clients read files).
    handle: (deps, { body }) => ({ active: loadScenario(deps, body ?? {}, true) }),
  }),
  activeScenario: defineOperation({
    method: 'get',
    path: '/_emulator/scenarios/active',
    summary: 'Progress of the active scenario',
    answer: S.ActiveScenario,
    handle: (deps) => ({ active: scenarioProgress(deps) }),
  }),
  unloadScenario: defineOperation({
    method: 'delete',
    path: '/_emulator/scenarios/active',
    summary: 'Unload the active scenario and its rules',
    answer: S.ActiveScenario,
    handle: (deps) => ({ active: unloadScenario(deps) }),
  }),
};
