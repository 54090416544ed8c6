// The standard set of extensions every entry point gets: later layers (control plane, faults, CORS, console) register here.
import { controlPlaneExtension } from './emulation/plugin.js';
import type { EmulatorExtensions } from './emulator.js';
import { corsMiddleware } from './http/middleware/cors.js';
import { consoleRoutes } from './emulation/console/console-routes.js';
import { openapiRoutes } from './openapi/openapi-route.js';

export function standardExtensions(): EmulatorExtensions {
  // The control plane: journal + fault middleware, /_emulator/* routes, the plan hook for faults and magic prompts, reset, `control`.
  const control = controlPlaneExtension();
  return {
    // CORS first, so a browser's preflight is answered before auth, faults or the journal can refuse or count it.
    before: (emulator) => [corsMiddleware(emulator.options.corsOrigins), ...control.before(emulator)],
    // GET /_emulator/console: static files only; everything it shows comes from /_emulator/* and /v1/media like any client,
    // so it goes when the control plane is turned off. GET /openapi.json: the contract, from the schemas the routes validate with.
    extra: (emulator) => [
      ...(emulator.options.controlPlane ? [consoleRoutes()] : []),
      openapiRoutes(emulator),
      ...control.extra(emulator),
    ],
    planHook: control.planHook,
    onReset: control.onReset,
    control: control.control,
  };
}
