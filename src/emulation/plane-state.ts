// The control plane's own state for one emulator: fault rules, the journal, the active scenario. Rebuilt by reset.
import { AsyncLocalStorage } from 'node:async_hooks';
import { FaultStore } from './faults/fault-store.js';
import { Journal } from './journal/journal-store.js';
import type { ScenarioDefinition } from './scenarios/scenario-schema.js';
import type { Emulator } from '../emulator.js';

/** What the middleware knows about one /v1/media request, shared with the plan hook and read back by the journal. */
export interface RequestScope {
  keyId: number | null;
  idempotencyKey: string | null;
  /** The rule that acted on the request (HTTP rule, else the generation rule the plan hook applied). */
  faultId: string | null;
  /** A lost-response fault dropped the answer the route produced: the journal still records its status. */
  lost: boolean;
}

export interface ActiveScenario {
  definition: ScenarioDefinition;
  loadedAt: number;
  /** Ids of the rules it installed, in its order. */
  ruleIds: string[];
  stepsRun: number;
}

export class ControlState {
  faults = new FaultStore();
  journal = new Journal();
  scenario: ActiveScenario | null = null;
  /** Carries a request's scope from the middleware into the plan hook, which sees no request object. */
  readonly requests = new AsyncLocalStorage<RequestScope>();

  clear() {
    this.faults = new FaultStore();
    this.journal = new Journal();
    this.scenario = null;
  }
}

/** What every control operation is given: the emulator (its current domain context) and the control state. */
export interface ControlDeps {
  emulator: Emulator;
  state: ControlState;
  /** Where output URLs point; the HTTP routes pass the base URL of the request. */
  baseUrl?: string;
}

export const contextOf = (deps: ControlDeps) => deps.emulator.context();
