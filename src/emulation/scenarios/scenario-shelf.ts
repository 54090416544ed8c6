// Where named scenarios come from, a host service: Node reads fixtures/scenarios/ (scenario-files.ts); a page has them
// bundled (memoryShelf over the same JSON, imported).
import { PlaneError } from '../error-codes.js';
import { inlineScenarioBody } from '../client.js';
import type { ScenarioShelf } from '../plane-state.js';
import { parseScenario } from './scenario-parse.js';
import type { ScenarioDefinition } from './scenario-schema.js';
import type { ClientContext } from '../registry/client-bindings.js';

/** The host's scenarios, and how its in-process client sends one. */
export interface HostScenarios extends ScenarioShelf {
  loadBody: ClientContext['scenarioBody'];
}

export const scenarioNotFound = (name: string, available: string[]) =>
  new PlaneError(
    'scenario_not_found',
    `No scenario named '${name}'. Available: ${available.join(', ')}. Over HTTP, send a name like these or the scenario itself as { "scenario": { ... } }.`,
  );

/** A shelf of scenarios held in memory (a page's, bundled from fixtures/scenarios/): no file is ever read. */
export function memoryShelf(scenarios: Readonly<Record<string, unknown>>): HostScenarios {
  const names = Object.keys(scenarios).sort();
  const named = (name: string): ScenarioDefinition => {
    if (!Object.hasOwn(scenarios, name)) throw scenarioNotFound(name, names);
    return parseScenario(scenarios[name], `'${name}'`);
  };
  return {
    available: () => [...names],
    named,
    fromOption: named,
    loadBody: inlineScenarioBody,
  };
}
