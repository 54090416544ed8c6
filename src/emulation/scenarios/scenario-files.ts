// Scenario files: found by name in fixtures/scenarios/ or by path, validated at load with errors that name the field.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DomainError } from '../../domain/errors.js';
import { parseFaultRule } from '../faults/fault-store.js';
import { scenarioSchema, type ScenarioDefinition } from './scenario-schema.js';
import { describeProblems, fieldProblems, type FieldProblem } from '../../domain/zod-issues.js';

export const SCENARIO_DIRECTORY: string = fileURLToPath(new URL('../../../fixtures/scenarios/', import.meta.url));

function invalid(source: string, problems: FieldProblem[]): never {
  throw new DomainError('invalid_scenario', `Scenario ${source} is not valid: ${describeProblems(problems)}.`, {
    problems,
  });
}

/** Validates a scenario object; fault rules are checked with the same parser as POST /_emulator/faults. */
export function parseScenario(input: unknown, source = '(body)'): ScenarioDefinition {
  const result = scenarioSchema.safeParse(input);
  if (!result.success) invalid(source, fieldProblems(result.error.issues));
  const problems: FieldProblem[] = [];
  result.data.faults.forEach((rule, i) => {
    try {
      parseFaultRule(rule);
    } catch (error) {
      const inner = ((error as DomainError).details?.problems ?? []) as FieldProblem[];
      problems.push(
        ...inner.map((p) => ({
          field: `faults[${i}]${p.field === '(root)' ? '' : `.${p.field}`}`,
          message: p.message,
        })),
      );
    }
  });
  const ids = result.data.faults.map((f) => f.id).filter((id) => id !== undefined);
  ids.forEach((id, i) => {
    if (ids.indexOf(id) !== i) problems.push({ field: 'faults', message: `duplicate rule id '${String(id)}'` });
  });
  if (problems.length) invalid(source, problems);
  return result.data;
}

/** Names of the scenarios shipped in fixtures/scenarios/. */
export function availableScenarios(directory = SCENARIO_DIRECTORY): string[] {
  if (!existsSync(directory)) return [];
  return readdirSync(directory)
    .filter((f) => f.endsWith('.json'))
    .map((f) => basename(f, '.json'))
    .sort();
}

/** A name ("flaky-network") looks in fixtures/scenarios/; anything with a slash or ending in .json is a file path. */
export function loadScenarioFile(nameOrPath: string, directory = SCENARIO_DIRECTORY): ScenarioDefinition {
  const isPath = nameOrPath.includes('/') || nameOrPath.includes('\\') || nameOrPath.endsWith('.json');
  if (!isPath && !/^[a-z0-9][a-z0-9-]*$/.test(nameOrPath))
    throw new DomainError(
      'scenario_not_found',
      `No scenario named '${nameOrPath}'. Available: ${availableScenarios(directory).join(', ')}.`,
    );
  const file = isPath ? resolve(nameOrPath) : resolve(directory, `${nameOrPath}.json`);
  if (!existsSync(file))
    throw new DomainError(
      'scenario_not_found',
      isPath
        ? `Scenario file ${file} does not exist.`
        : `No scenario named '${nameOrPath}'. Available: ${availableScenarios(directory).join(', ')}.`,
    );
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new DomainError('invalid_scenario', `Scenario ${file} is not valid JSON: ${(error as Error).message}.`);
  }
  return parseScenario(data, isPath ? file : `'${nameOrPath}'`);
}
