// Control operations on scenarios: load one (steps run in order, then its rules installed), read its progress, unload it.
import { parseScenario } from './scenario-parse.js';
import { preflightScenario } from './scenario-preflight.js';
import { type ScenarioDefinition, stepOf } from './scenario-schema.js';
import { contextOf, type ControlDeps } from '../plane-state.js';
import { parseInput, scenarioLoadInput } from '../inputs.js';
import { scenarioProgressView, type ScenarioProgress } from '../views.js';

const sourceOf = (name: string) => `scenario:${name}`;

/**
 * A name in fixtures/scenarios/, a file path (trusted callers only), a scenario object, or a body `{ name }` /
 * `{ scenario }`. `fromHttp` allows names and inline objects only: a path from a request is never opened.
 */
function resolveScenario(deps: ControlDeps, input: unknown, fromHttp = false): ScenarioDefinition {
  const shelf = deps.scenarios;
  if (typeof input === 'string') return fromHttp ? shelf.named(input) : shelf.fromOption(input);
  if (
    input &&
    typeof input === 'object' &&
    ('name' in input || 'scenario' in input) &&
    Object.keys(input).length === 1
  ) {
    const body = parseInput(scenarioLoadInput, input, 'scenario request');
    return 'name' in body ? resolveScenario(deps, body.name, fromHttp) : parseScenario(body.scenario);
  }
  return parseScenario(input);
}

/**
 * Replaces the active scenario: its rules go, the new steps run in order, then the new rules are appended in order.
 * A refused load changes nothing, the active scenario and its rules included: every refusal is found by a dry run
 * (scenario-preflight.ts) before the first change, which costs what the steps cost, whatever the state holds.
 * Synchronous, so a scenario is fully in place when reset() or createEmulator() returns: each step runs its
 * operation (scenario-step.ts) as a request would, except that nothing waits for renders.
 */
export function loadScenario(deps: ControlDeps, input: unknown, fromHttp = false): ScenarioProgress {
  const definition = resolveScenario(deps, input, fromHttp);
  const { faults } = deps.state;
  const previous = deps.state.scenario;
  const staying = faults.list().filter((r) => !previous || r.source !== sourceOf(previous.definition.name));
  preflightScenario(deps, definition, staying);
  unloadScenario(deps);
  const active = { definition, loadedAt: contextOf(deps).clock.now(), ruleIds: [] as string[], stepsRun: 0 };
  deps.state.scenario = active;
  for (const step of definition.steps) {
    stepOf(step).run(deps);
    active.stepsRun += 1;
  }
  definition.faults.forEach((rule, i) => {
    const added = faults.add(rule, {
      now: contextOf(deps).clock.now(),
      source: sourceOf(definition.name),
      label: `rule faults[${i}] of scenario '${definition.name}'`,
    });
    active.ruleIds.push(added.id);
  });
  return scenarioProgressView(active, faults.list());
}

export function scenarioProgress(deps: ControlDeps): ScenarioProgress | null {
  const active = deps.state.scenario;
  return active ? scenarioProgressView(active, deps.state.faults.list()) : null;
}

/** Removes the active scenario and its rules; what its steps changed (balances, keys, clock) stays until reset. */
export function unloadScenario(deps: ControlDeps): null {
  const active = deps.state.scenario;
  if (active) deps.state.faults.removeWhere((r) => r.source === sourceOf(active.definition.name));
  deps.state.scenario = null;
  return null;
}
