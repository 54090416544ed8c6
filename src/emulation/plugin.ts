// The emulation plane as one plugin: journal and fault hooks, /_emulator/* routes, the plan hook, its kept state, the client.
import type { World } from '../http/world.js';
import type { PathOptions, RouteEntry } from '../http/front-door.js';
import { STORE_HANDLE } from '../wiring/kept-state.js';
import type { EmulatorPlugin, PluginSetup } from '../wiring/plugin.js';
import { HEALTH_PATH_OPTIONS, healthRoute } from './admin/health-routes.js';
import { type Control, deriveControl } from './client.js';
import { PLANE_ERROR_STATUSES } from './error-codes.js';
import { faultHooks } from './faults/fault-hooks.js';
import { loadPatternEngine } from './faults/fault-patterns.js';
import { FaultSection } from './faults/fault-section.js';
import { markerActions } from './faults/magic-prompts.js';
import { LinksSection, upgradeLinks } from './generations/links-section.js';
import { controlPlanHook } from './faults/plan-hook.js';
import { journalHooks } from './journal/journal-hooks.js';
import { JournalSection } from './journal/journal-section.js';
import type { ResolvedPlaneOptions } from './plane-options.js';
import { ControlState, PLANE_STATE } from './plane-state.js';
import { SANDBOXES } from './sandboxes/sandbox-directory.js';
import { controlDeps, controlRoutes } from './registry/control-routes.js';
import { type AnyOperation, type HandlerInput, runOperation } from './registry/operation.js';
import { CONTROL_OPERATIONS } from './registry/registry.js';
import { loadScenario } from './scenarios/scenario-operations.js';
import type { ScenarioInput } from './scenarios/scenario-schema.js';
import type { HostScenarios } from './scenarios/scenario-shelf.js';
import { ScenarioSection } from './scenarios/scenario-section.js';

/**
 * The plane's options as the composition root resolved them, the scenario to apply at start and after a reset, and
 * what the host provides the plane: its named scenarios, and the console's static files when it serves them.
 */
export type PlaneStart = ResolvedPlaneOptions & {
  scenario?: string | ScenarioInput;
  /** The host's named scenarios (Node: fixtures/scenarios/ and files; a page: bundled). */
  scenarios: HostScenarios;
  /** The console's static files, when the host serves them (Node: src/console/; a page: none). */
  console?: { routes: RouteEntry[]; pathOptions: Record<string, PathOptions> };
};

export interface EmulationPlane extends EmulatorPlugin {
  /** The in-process control client of a world: the same operations as the /_emulator/* routes. */
  control(world: World): Control;
  /** Applies the start-up scenario to a world; throws when it is invalid. */
  start(world: World): void;
}

/**
 * One call serves one emulator; what it keeps per world (rules, journal, scenario) is that world's part, so two
 * emulators, or two worlds, never share rules, journal or scenario.
 */
export function emulationPlane(setup: PluginSetup, planeOptions: PlaneStart): EmulationPlane {
  // Its operations read the core's options and its own: one object, made once.
  const { scenario, scenarios, console: consoleFiles, ...own } = planeOptions;
  const options = { ...setup.options, ...own };
  const controlSetup = { options, rendererInfo: setup.rendererInfo, scenarios };
  const depsOf = (world: World, baseUrl: string | undefined) => controlDeps(world, controlSetup, baseUrl);
  const start = (world: World) => {
    // The start-up scenario is the default world's: a sandbox starts from its own options alone.
    if (scenario !== undefined && world.settings.options === undefined)
      loadScenario(depsOf(world, undefined), scenario);
  };

  return {
    // After the store of record's (a plugin of its own, composed first): the journal, so it sees what the fault rules
    // do and records the answer that actually went out (a 507 when the commit failed).
    hooks: [journalHooks, faultHooks],
    // Health always; the console (static files that use /_emulator/* like any client) and the control routes only
    // with the control plane on.
    routes: [
      healthRoute(setup),
      ...(options.controlPlane ? [...(consoleFiles?.routes ?? []), ...controlRoutes(controlSetup)] : []),
    ],
    pathOptions: { ...HEALTH_PATH_OPTIONS, ...(options.controlPlane ? consoleFiles?.pathOptions : {}) },
    worldParts: [{ key: PLANE_STATE, make: () => new ControlState() }],
    errorStatuses: PLANE_ERROR_STATUSES,
    planAdjuster: (world) => controlPlanHook(world, options.magicPrompts),
    outputAccess: (world) => world.part(PLANE_STATE).links,
    checkPrompt: options.magicPrompts ? (prompt) => void markerActions(prompt) : undefined,
    openapi: () =>
      import('./openapi/contribution.js').then((m) => m.emulationPaths({ controlPlane: options.controlPlane })),
    // Kept in the store of record with the world's records, in the export document's order.
    keptState: (world) => {
      const state = world.part(PLANE_STATE);
      return {
        sections: [FaultSection, JournalSection, ScenarioSection, LinksSection].map((Section) => new Section(state)),
        upgrade: upgradeLinks,
      };
    },
    afterReset: (world) => {
      world.part(PLANE_STATE).clear();
      start(world);
    },
    control(world) {
      let baseUrl: string | undefined;
      return deriveControl({
        // Runs the operation's handler, then writes its change to the store of record before the promise settles, as
        // an answer over HTTP is (a full disk rejects it with storage_full, the change rolled back).
        async invoke(id, input) {
          const operation: AnyOperation = CONTROL_OPERATIONS[id];
          // A change may compile fault patterns synchronously (a rule, a scenario, a state): re2js first (a page's
          // first change fetches it; Node's composition imported it).
          if (operation.method !== 'get') await loadPatternEngine();
          const result = await runOperation(operation, depsOf(world, baseUrl), input as Partial<HandlerInput<string>>);
          world.part(STORE_HANDLE).commit();
          world.find(SANDBOXES)?.used(world);
          return result;
        },
        setBaseUrl: (url) => {
          baseUrl = url;
        },
        // A sandbox's client signs its links for the same base URL as the client that made it.
        sandboxControl: ({ id }) => {
          const inner = this.control(world.part(SANDBOXES).world(id));
          inner.setBaseUrl(baseUrl);
          return inner;
        },
        scenarioBody: scenarios.loadBody,
      });
    },
    start,
  };
}
