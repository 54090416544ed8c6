// A dry run of a scenario against the state as it stands: every refusal its steps and rules could meet, before anything runs.
import { CodedError } from '../../domain/errors.js';
import { type FieldProblem, nestProblems } from '../../domain/zod-issues.js';
import { PlaneError } from '../error-codes.js';
import { faultLimitReached, MAX_FAULT_RULES, planIds } from '../faults/fault-rule-ids.js';
import { type FaultRule, parseFaultRule } from '../faults/fault-store.js';
import { invalidInput } from '../inputs.js';
import type { ControlDeps } from '../plane-state.js';
import { DryRun } from './dry-run.js';
import { type ScenarioDefinition, stepOf } from './scenario-schema.js';

/** A step's refusal as the load's: the same code, the step named; a field problem becomes one of the scenario. */
function refusal(definition: ScenarioDefinition, i: number, error: CodedError): CodedError {
  const step = `steps[${i}]`;
  const inner = error.details?.problems as FieldProblem[] | undefined;
  if (error.code === 'invalid_scenario' || error.code === 'invalid_control_request' || inner) {
    const problems = inner ? nestProblems(step, inner) : [{ field: step, message: error.message }];
    return invalidInput('invalid_scenario', `Scenario ${definition.name}`, problems);
  }
  return new CodedError(
    error.code,
    `Scenario '${definition.name}' was not loaded and nothing changed: ${step} (${definition.steps[i].op}): ${error.message}`,
    error.details,
  );
}

/**
 * Throws what loading `definition` would be refused with, having changed nothing: each step checked in order against
 * the state its earlier steps would leave, then its rules against `staying` (the rules in force once the active
 * scenario's own are removed). A step that takes credits away is checked against the balance before any refund a
 * clock step of the same scenario might bring.
 */
export function preflightScenario(deps: ControlDeps, definition: ScenarioDefinition, staying: readonly FaultRule[]) {
  const run = new DryRun(deps);
  definition.steps.forEach((step, i) => {
    try {
      stepOf(step).check(run, deps);
    } catch (error) {
      throw error instanceof CodedError ? refusal(definition, i, error) : error;
    }
  });
  if (staying.length + definition.faults.length > MAX_FAULT_RULES)
    throw faultLimitReached(
      `Scenario '${definition.name}' (${definition.faults.length} rules, beside ${staying.length} already in force)`,
    );
  // The ids the store will generate are predicted as the key ids are: a given id may clash with one generated earlier.
  planIds(
    deps.state.faults.generatedIds,
    definition.faults.map((rule) => parseFaultRule(rule).id),
    staying.map((r) => r.id),
    (id, i) =>
      new PlaneError(
        'fault_exists',
        `Scenario '${definition.name}' was not loaded and nothing changed: faults[${i}] would have id '${id}', which a rule in force or an earlier rule of the scenario (id-less rules are given flt_000001, flt_000002, ...) already has; choose another id, or remove that rule first.`,
      ),
  );
}
