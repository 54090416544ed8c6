// The emulation plane as one plugin: journal and fault middleware, /_emulator/* routes, the plan hook, its OpenAPI paths, the client.
import { baseUrlOf } from '../http/base-url.js';
import type { EmulatorPlugin, PluginSetup } from '../wiring/plugin.js';
import { healthRoutes } from './admin/health-routes.js';
import { type Control, createControl } from './client.js';
import { consoleRoutes } from './console/console-routes.js';
import { PLANE_ERROR_STATUSES } from './error-codes.js';
import { faultMiddleware } from './faults/fault-middleware.js';
import { markerActions } from './faults/magic-prompts.js';
import { controlPlanHook } from './faults/plan-hook.js';
import { journalHooks, journalMiddleware } from './journal/journal-middleware.js';
import { type ControlDeps, ControlState } from './plane-state.js';
import { controlRoutes } from './registry/express-routes.js';
import { loadScenario } from './scenarios/scenario-operations.js';
import type { ScenarioInput } from './scenarios/scenario-schema.js';
import { createPersistence, type Persistence } from './state/persistence.js';

export interface EmulationPlane extends EmulatorPlugin {
  /** The in-process control client, the same operations as the /_emulator/* routes. */
  readonly control: Control;
  /** Applies the start-up scenario; throws when it is invalid. */
  start(): void;
  /** The store of record (a file with --state-file, private otherwise): opened by the entry point, closed after the emulator. */
  readonly persistence: Persistence;
}

/** What only the plane reads from the emulator's options: the core's options do not know its words. */
export interface PlaneOptions {
  scenario?: string | ScenarioInput;
}

/** One call serves one emulator: its state lives in this closure, so two emulators never share rules, journal or scenario. */
export function emulationPlane(setup: PluginSetup, planeOptions: PlaneOptions = {}): EmulationPlane {
  const { runtime, options, rendererInfo, uploadBlobs } = setup;
  const state = new ControlState();
  let baseUrl: string | undefined;
  const deps = (): ControlDeps => ({
    runtime,
    state,
    options,
    rendererInfo,
    uploadBlobs,
    baseUrl: baseUrl ?? options.publicBaseUrl,
  });
  const start = () => {
    if (planeOptions.scenario !== undefined) loadScenario(deps(), planeOptions.scenario);
  };

  const persistence = createPersistence(deps, {
    path: options.stateFile,
    sync: options.stateSync,
    log: options.log,
  });

  return {
    // The store first: it notes when each change began (its commit runs in its beforeSend hook, before the first byte).
    // Then the journal, so it sees what the fault rules do.
    middleware: [persistence.middleware(), journalMiddleware(state, runtime), faultMiddleware(state, runtime)],
    // Health always; the console (static files that use /_emulator/* like any client) and the control routes only
    // with the control plane on.
    routes: [
      healthRoutes(setup),
      ...(options.controlPlane
        ? [consoleRoutes(), controlRoutes((req) => ({ ...deps(), baseUrl: baseUrlOf(req, options.publicBaseUrl) }))]
        : []),
    ],
    errorStatuses: PLANE_ERROR_STATUSES,
    // The store's commit may replace the answer (a 507); the journal then keeps what actually goes out.
    responseHooks: [{ beforeSend: persistence.gate }, journalHooks(state)],
    planAdjuster: controlPlanHook(runtime, state, options.magicPrompts),
    checkPrompt: options.magicPrompts ? (prompt) => void markerActions(prompt) : undefined,
    openapi: () =>
      import('./openapi/contribution.js').then((m) => m.emulationPaths({ controlPlane: options.controlPlane })),
    afterReset: () => {
      state.clear();
      start();
    },
    control: createControl(
      deps,
      (url) => {
        baseUrl = url;
      },
      () => persistence.commit(),
    ),
    start,
    persistence,
  };
}
