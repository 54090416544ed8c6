// /_emulator/scenarios, declared once (registry/operation.ts).
import * as z from 'zod';
import { defineOperation } from '../registry/operation.js';
import { scenarioProgressSchema } from '../openapi/control-schemas.js';
import { faultRule } from '../faults/fault-api.js';
import { scenarioLoadInput } from '../inputs.js';
import { MAX_SCENARIO_ITEMS, scenarioSchema } from './scenario-schema.js';
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

/**
 * The scenario file format. The server reads `faults` as objects and then checks each as POST /_emulator/faults does
 * (its messages prefixed with the rule's index); the document says so with the rule's own schema.
 */
const scenarioFormat = scenarioSchema.extend({ faults: z.array(faultRule).max(MAX_SCENARIO_ITEMS).default([]) }).meta({
  id: 'Scenario',
  description:
    'The scenario file format (fixtures/scenarios/*.json), also accepted inline by POST /_emulator/scenarios.',
});

const active = z.strictObject({ active: scenarioProgressSchema.nullable() }).meta({ id: 'ActiveScenario' });

export const SCENARIO_API = {
  listScenarios: defineOperation({
    method: 'get',
    path: '/_emulator/scenarios',
    summary: 'Available scenarios and the active one',
    answer: z
      .strictObject({ available: z.array(z.string()), active: scenarioProgressSchema.nullable() })
      .meta({ id: 'Scenarios' }),
    handle: (deps) => ({ available: deps.scenarios.available(), active: scenarioProgress(deps) }),
  }),
  loadScenario: defineOperation({
    method: 'post',
    path: '/_emulator/scenarios',
    summary: 'Load a scenario by name or inline (replaces the active one)',
    // The server reads `scenario` as any object and then as a scenario (invalid_scenario); the document says the latter.
    body: z
      .union([scenarioLoadInput.options[0], z.strictObject({ scenario: scenarioFormat })])
      .meta({ id: 'ScenarioLoad' }),
    answer: active,
    errors: ['scenario_not_found', 'invalid_scenario', ...STEP_ERRORS],
    // A path that came in a request is never opened: names and inline scenarios only (the clients read files).
    handle: (deps, { body }) => ({ active: loadScenario(deps, body ?? {}, true) }),
  }),
  activeScenario: defineOperation({
    method: 'get',
    path: '/_emulator/scenarios/active',
    summary: 'Progress of the active scenario',
    answer: active,
    handle: (deps) => ({ active: scenarioProgress(deps) }),
  }),
  unloadScenario: defineOperation({
    method: 'delete',
    path: '/_emulator/scenarios/active',
    summary: 'Unload the active scenario and its rules',
    answer: active,
    handle: (deps) => ({ active: unloadScenario(deps) }),
  }),
};
