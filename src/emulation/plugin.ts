// The control plane as an emulator extension: journal and fault middleware, /_emulator/* routes, the plan hook, reset, the client.
import type { EmulatorExtensions, Emulator } from '../emulator.js';
import { baseUrlOf } from '../http/base-url.js';
import { faultMiddleware } from './faults/fault-middleware.js';
import { journalMiddleware } from './journal/journal-middleware.js';
import { controlRoutes } from './admin/control-routes.js';
import { createControl } from './client.js';
import { ControlState, type ControlDeps } from './plane-state.js';
import { controlPlanHook } from './faults/plan-hook.js';
import { loadScenario } from './scenarios/scenario-operations.js';

export type ControlPlaneExtension = Required<
  Pick<EmulatorExtensions, 'before' | 'extra' | 'planHook' | 'onReset' | 'control'>
>;

/** One call serves one emulator: its state lives in this closure, so two emulators never share rules, journal or scenario. */
export function controlPlaneExtension(): ControlPlaneExtension {
  const state = new ControlState();
  let bound: Emulator | undefined;
  let baseUrl: string | undefined;

  const bind = (emulator: Emulator): Emulator => {
    if (bound && bound !== emulator)
      throw new Error('A control plane extension serves one emulator; call standardExtensions() again for another.');
    bound = emulator;
    return emulator;
  };
  const deps = (): ControlDeps => ({ emulator: bound!, state, baseUrl: baseUrl ?? bound!.options.publicBaseUrl });
  const startupScenario = () => {
    const scenario = bound?.options.scenario;
    if (scenario !== undefined) loadScenario(deps(), scenario);
  };

  return {
    // The journal first, so it sees what the fault rules do.
    before: (emulator) => [journalMiddleware(state, bind(emulator)), faultMiddleware(state, emulator)],
    extra: (emulator) =>
      bind(emulator).options.controlPlane
        ? [
            controlRoutes(
              { deps: (req) => ({ ...deps(), baseUrl: baseUrlOf(req, emulator.options.publicBaseUrl) }) },
              emulator.options.adminToken,
            ),
          ]
        : [],
    planHook: (emulator) => controlPlanHook(bind(emulator), state),
    onReset: () => {
      state.clear();
      startupScenario();
    },
    control: (emulator) => {
      bind(emulator);
      try {
        startupScenario();
      } catch (error) {
        // createEmulator fails: release what it already started (the renderer's work directory).
        void emulator.close().catch(() => undefined);
        throw error;
      }
      return createControl(deps, (url) => (baseUrl = url));
    },
  };
}
