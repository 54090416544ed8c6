// Control operations on scenarios: load one (steps run in order, then its rules installed), read its progress, unload it.
import type { ScenarioDefinition, ScenarioStep } from './scenario-schema.js';
import { loadNamedScenario, loadScenarioFile } from './scenario-files.js';
import { parseScenario } from './scenario-parse.js';
import { balanceChange, preflightScenario, stepAccount, withoutOp } from './scenario-preflight.js';
import { ACCOUNT_API } from '../admin/account-api.js';
import { createAccount, revokeKey } from '../admin/account-operations.js';
import { CLOCK_API } from '../clock/clock-api.js';
import { setClock, setFrozen } from '../clock/clock-operations.js';
import { runOperation } from '../registry/operation.js';
import { contextOf, type ControlDeps } from '../plane-state.js';
import { parseInput, scenarioLoadInput } from '../inputs.js';
import { scenarioProgressView, type ScenarioProgress } from '../views.js';

const sourceOf = (name: string) => `scenario:${name}`;

/**
 * Synchronous, so a scenario is fully in place when reset() or createEmulator() returns. A step that is a control
 * operation runs as one, its body parsed as a request's is; preflightScenario has already checked it would pass.
 */
function runStep(deps: ControlDeps, step: ScenarioStep) {
  switch (step.op) {
    case 'set_balance':
    case 'top_up':
      return runOperation(ACCOUNT_API.changeBalance, deps, {
        params: { id: stepAccount(deps, step) },
        body: balanceChange(step),
      });
    case 'create_account':
      return createAccount(deps, step);
    case 'create_key':
      return runOperation(ACCOUNT_API.createKey, deps, { body: withoutOp(step) });
    case 'revoke_key':
      return revokeKey(deps, step.id);
    case 'set_timing':
      return runOperation(CLOCK_API.setTiming, deps, { body: withoutOp(step) });
    case 'freeze_clock':
    case 'unfreeze_clock':
      return setFrozen(deps, step.op === 'freeze_clock');
    case 'set_clock':
      return setClock(deps, Date.parse(step.to));
    case 'advance_clock':
      // Due transitions run in order; renders they start finish in the background.
      return contextOf(deps).scheduler.advance(step.by);
  }
}

/**
 * A name in fixtures/scenarios/, a file path (trusted callers only), a scenario object, or a body `{ name }` /
 * `{ scenario }`. `fromHttp` allows names and inline objects only: a path from a request is never opened.
 */
function resolveScenario(input: unknown, fromHttp = false): ScenarioDefinition {
  if (typeof input === 'string') return fromHttp ? loadNamedScenario(input) : loadScenarioFile(input);
  if (
    input &&
    typeof input === 'object' &&
    ('name' in input || 'scenario' in input) &&
    Object.keys(input).length === 1
  ) {
    const body = parseInput(scenarioLoadInput, input, 'scenario request');
    if (!('name' in body)) return parseScenario(body.scenario);
    return fromHttp ? loadNamedScenario(body.name) : loadScenarioFile(body.name);
  }
  return parseScenario(input);
}

/**
 * Replaces the active scenario: its rules go, the new steps run in order, then the new rules are appended in order.
 * A refused load changes nothing, the active scenario and its rules included: every refusal is found by a dry run
 * (scenario-preflight.ts) before the first change, which costs what the steps cost, whatever the state holds.
 */
export function loadScenario(deps: ControlDeps, input: unknown, fromHttp = false): ScenarioProgress {
  const definition = resolveScenario(input, fromHttp);
  const { faults } = deps.state;
  const previous = deps.state.scenario;
  const staying = faults.list().filter((r) => !previous || r.source !== sourceOf(previous.definition.name));
  preflightScenario(deps, definition, staying);
  unloadScenario(deps);
  const active = { definition, loadedAt: contextOf(deps).clock.now(), ruleIds: [] as string[], stepsRun: 0 };
  deps.state.scenario = active;
  for (const step of definition.steps) {
    runStep(deps, step);
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
