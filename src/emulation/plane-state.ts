// The emulation plane's own state for one world: fault rules, the journal, the active scenario, the scripted output
// links. Rebuilt by reset.
import type { Runtime } from '../domain/runtime.js';
import { WorldPart } from '../http/world.js';
import type { RendererInfo } from '../infra/renderer.js';
import type { StoreHandle } from '../wiring/kept-state.js';
import type { SandboxDirectory } from './sandboxes/sandbox-directory.js';
import { FaultStore } from './faults/fault-store.js';
import { OutputLinks } from './generations/output-links.js';
import type { PlaneSettings } from './plane-options.js';
import { Journal } from './journal/journal-store.js';
import type { ScenarioDefinition } from './scenarios/scenario-schema.js';
import type { ActiveScenario } from './scenarios/scenario-section.js';

export class ControlState {
  faults = new FaultStore();
  journal = new Journal();
  scenario: ActiveScenario | null = null;
  /** The same object for the world's whole life: the domain context asks it (OutputAccess) across resets. */
  readonly links = new OutputLinks();

  clear() {
    this.links.clear();
    this.faults = new FaultStore();
    this.journal = new Journal();
    this.scenario = null;
  }
}

/** A kept section over one world's plane state: a class, not closures, since every world (each sandbox) holds one. */
export abstract class PlaneSection {
  constructor(protected readonly state: ControlState) {}
}

export const PLANE_STATE = new WorldPart<ControlState>('the emulation plane');

/** Named scenarios as the host keeps them (Node: fixtures/scenarios/ and files; a page: bundled). */
export interface ScenarioShelf {
  /** The shipped scenarios' names, sorted. */
  available(): string[];
  /** A shipped scenario by name: the only kind an HTTP caller can name. */
  named(name: string): ScenarioDefinition;
  /** A name, or a file path from a trusted caller (the scenario option, the in-process client). */
  fromOption(nameOrPath: string): ScenarioDefinition;
}

/** What every control operation is given: the runtime (the current domain context) and the plane's state. */
export interface ControlDeps {
  runtime: Runtime;
  state: ControlState;
  options: PlaneSettings;
  rendererInfo(): RendererInfo | undefined;
  /** The store of record: the export document and its import. */
  store: StoreHandle;
  /** The registry of sandboxes, for the lifecycle operations. */
  sandboxes?: SandboxDirectory;
  /** The sandbox these deps act on; undefined for the default world. */
  world?: string;
  /** Where output URLs point; the HTTP routes pass the base URL of the request. */
  baseUrl?: string;
  /** The host's named scenarios (Node: fixtures/scenarios/). */
  scenarios: ScenarioShelf;
  /**
   * Set while a scenario's steps run: a load is synchronous, so an operation that would wait (an advance, for the
   * renders its transitions start) acts at once and leaves the waiting to the background.
   */
  synchronous?: boolean;
}

export const contextOf = (deps: ControlDeps) => deps.runtime.context();
