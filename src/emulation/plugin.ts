// The emulation plane as one plugin: journal and fault middleware, /_emulator/* routes, the plan hook, its kept state, the client.
import { baseUrlOf } from '../http/base-url.js';
import type { StoreHandle } from '../wiring/kept-state.js';
import type { EmulatorPlugin, PluginSetup } from '../wiring/plugin.js';
import { healthRoutes } from './admin/health-routes.js';
import { type Control, createControl } from './client.js';
import { consoleRoutes } from './console/console-routes.js';
import { PLANE_ERROR_STATUSES } from './error-codes.js';
import { faultMiddleware } from './faults/fault-middleware.js';
import { faultSection } from './faults/fault-section.js';
import { markerActions } from './faults/magic-prompts.js';
import { controlPlanHook } from './faults/plan-hook.js';
import { journalHooks, journalMiddleware } from './journal/journal-middleware.js';
import { journalSection } from './journal/journal-section.js';
import { type ControlDeps, ControlState } from './plane-state.js';
import { controlRoutes } from './registry/express-routes.js';
import { loadScenario } from './scenarios/scenario-operations.js';
import type { ScenarioInput } from './scenarios/scenario-schema.js';
import { scenarioSection } from './scenarios/scenario-section.js';
import { upgradeOnceExpiredLinks } from './state/emulator-state.js';

export interface EmulationPlane extends EmulatorPlugin {
  /** The in-process control client, the same operations as the /_emulator/* routes. */
  readonly control: Control;
  /** Applies the start-up scenario; throws when it is invalid. */
  start(): void;
}

/** What only the plane reads from the emulator's options: the core's options do not know its words. */
export interface PlaneOptions {
  scenario?: string | ScenarioInput;
  /** The store of record's handle, looked up when first used: the store is built after the plane, from its sections. */
  store: () => StoreHandle;
}

/** One call serves one emulator: its state lives in this closure, so two emulators never share rules, journal or scenario. */
export function emulationPlane(setup: PluginSetup, planeOptions: PlaneOptions): EmulationPlane {
  const { runtime, options, rendererInfo } = setup;
  const state = new ControlState();
  let baseUrl: string | undefined;
  const deps = (): ControlDeps => ({
    runtime,
    state,
    options,
    rendererInfo,
    store: planeOptions.store(),
    baseUrl: baseUrl ?? options.publicBaseUrl,
  });
  const start = () => {
    if (planeOptions.scenario !== undefined) loadScenario(deps(), planeOptions.scenario);
  };

  return {
    // After the store of record's (a plugin of its own, composed first): the journal, so it sees what the fault rules do.
    middleware: [journalMiddleware(runtime), faultMiddleware(state, runtime, setup.bodies)],
    // Health always; the console (static files that use /_emulator/* like any client) and the control routes only
    // with the control plane on.
    routes: [
      healthRoutes(setup),
      ...(options.controlPlane
        ? [consoleRoutes(), controlRoutes((req) => ({ ...deps(), baseUrl: baseUrlOf(req, options.publicBaseUrl) }))]
        : []),
    ],
    errorStatuses: PLANE_ERROR_STATUSES,
    // After the store's beforeSend, whose commit may replace the answer (a 507): the journal keeps what actually goes out.
    responseHooks: [journalHooks(state)],
    planAdjuster: controlPlanHook(runtime, state, options.magicPrompts),
    checkPrompt: options.magicPrompts ? (prompt) => void markerActions(prompt) : undefined,
    openapi: () =>
      import('./openapi/contribution.js').then((m) => m.emulationPaths({ controlPlane: options.controlPlane })),
    // Kept in the store of record with the service's records, in the export document's order.
    keptState: {
      sections: [faultSection(state), journalSection(state), scenarioSection(state)],
      upgrade: upgradeOnceExpiredLinks,
    },
    afterReset: () => {
      state.clear();
      start();
    },
    control: createControl(
      deps,
      (url) => {
        baseUrl = url;
      },
      () => planeOptions.store().commit(),
    ),
    start,
  };
}
