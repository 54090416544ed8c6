// Control operations on fault rules: add (validated), list, enable or disable, remove, clear.
import type { FaultRuleInput } from './fault-schema.js';
import { contextOf, type ControlDeps } from '../plane-state.js';
import { faultPatchInput, parseInput } from '../inputs.js';
import { faultView, type FaultView } from '../views.js';

/** Appended at the end: earlier rules win. */
export function addFault(deps: ControlDeps, rule: FaultRuleInput | unknown): FaultView {
  return faultView(deps.state.faults.add(rule, { now: contextOf(deps).clock.now() }));
}

export function listFaults(deps: ControlDeps): FaultView[] {
  return deps.state.faults.list().map(faultView);
}

export function removeFault(deps: ControlDeps, id: string): FaultView[] {
  deps.state.faults.remove(id);
  const active = deps.state.scenario;
  if (active) active.ruleIds = active.ruleIds.filter((r) => r !== id);
  return listFaults(deps);
}

export function clearFaults(deps: ControlDeps): FaultView[] {
  deps.state.faults.clear();
  if (deps.state.scenario) deps.state.scenario.ruleIds = [];
  return [];
}

export function updateFault(deps: ControlDeps, id: string, input: unknown): FaultView {
  const { enabled } = parseInput(faultPatchInput, input, 'fault update');
  return faultView(deps.state.faults.setEnabled(id, enabled));
}
