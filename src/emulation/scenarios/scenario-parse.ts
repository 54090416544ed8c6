// Scenario definitions: validated with errors that name the field (the files are read in scenario-files.ts).
import { invalidInput } from '../inputs.js';
import { faultRuleSchema } from '../faults/fault-schema.js';
import { scenarioSchema, type ScenarioDefinition } from './scenario-schema.js';
import { fieldProblems, type FieldProblem } from '../../domain/zod-issues.js';

/** Validates a scenario object; fault rules are checked with the same parser as POST /_emulator/faults. */
export function parseScenario(input: unknown, source = '(body)'): ScenarioDefinition {
  const result = scenarioSchema.safeParse(input);
  if (!result.success) throw invalidInput('invalid_scenario', `Scenario ${source}`, fieldProblems(result.error.issues));
  const problems: FieldProblem[] = [];
  result.data.faults.forEach((rule, i) => {
    const parsed = faultRuleSchema.safeParse(rule);
    if (!parsed.success) problems.push(...fieldProblems(parsed.error.issues, ['faults', i]));
  });
  const ids = result.data.faults.map((f) => f.id).filter((id) => id !== undefined);
  ids.forEach((id, i) => {
    if (ids.indexOf(id) !== i) problems.push({ field: 'faults', message: `duplicate rule id '${String(id)}'` });
  });
  if (problems.length) throw invalidInput('invalid_scenario', `Scenario ${source}`, problems);
  return result.data;
}
