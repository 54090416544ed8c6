// The emulation plane as one plugin: journal and fault middleware, /_emulator/* routes, the plan hook, its OpenAPI paths, the client.
import { baseUrlOf } from '../http/base-url.js';
import type { EmulatorPlugin, PluginSetup } from '../wiring/plugin.js';
import { controlRoutes } from './admin/control-routes.js';
import { healthRoutes } from './admin/health-routes.js';
import { type Control, createControl } from './client.js';
import { consoleRoutes } from './console/console-routes.js';
import { faultMiddleware } from './faults/fault-middleware.js';
import { controlPlanHook } from './faults/plan-hook.js';
import { journalMiddleware } from './journal/journal-middleware.js';
import { type ControlDeps, ControlState } from './plane-state.js';
import { loadScenario } from './scenarios/scenario-operations.js';

export interface EmulationPlane extends EmulatorPlugin {
  /** The in-process control client, the same operations as the /_emulator/* routes. */
  readonly control: Control;
  /** Applies the start-up scenario; throws when it is invalid. */
  start(): void;
}

/** One call serves one emulator: its state lives in this closure, so two emulators never share rules, journal or scenario. */
export function emulationPlane(setup: PluginSetup): EmulationPlane {
  const { runtime, options } = setup;
  const state = new ControlState();
  let baseUrl: string | undefined;
  const deps = (): ControlDeps => ({ runtime, state, baseUrl: baseUrl ?? options.publicBaseUrl });
  const start = () => {
    if (options.scenario !== undefined) loadScenario(deps(), options.scenario);
  };

  return {
    // The journal first, so it sees what the fault rules do.
    middleware: [journalMiddleware(state, runtime), faultMiddleware(state, runtime)],
    // Health always; the console (static files that use /_emulator/* like any client) and the control routes only
    // with the control plane on.
    routes: [
      healthRoutes(setup),
      ...(options.controlPlane
        ? [
            consoleRoutes(),
            controlRoutes(
              { deps: (req) => ({ ...deps(), baseUrl: baseUrlOf(req, options.publicBaseUrl) }) },
              options.adminToken,
            ),
          ]
        : []),
    ],
    planHook: controlPlanHook(runtime, state, options.magicPrompts),
    openapi: () =>
      import('./openapi/contribution.js').then((m) => m.emulationPaths({ controlPlane: options.controlPlane })),
    afterReset: () => {
      state.clear();
      start();
    },
    control: createControl(deps, (url) => {
      baseUrl = url;
    }),
    start,
  };
}
