// The standard set of extensions every entry point gets: later layers (control plane, faults, CORS, console) register here.
import { controlPlaneExtension } from './control/extension.js';
import type { EmulatorExtensions } from './emulator.js';
import { splitCorsMiddleware } from './http/middleware/cors.js';
import { consoleRoutes } from './http/routes/console.js';
import { openapiRoutes } from './openapi/openapi-route.js';

export function standardExtensions(): EmulatorExtensions {
  // The control plane: journal + fault middleware, /_emulator/* routes, the plan hook for faults and magic prompts, reset, `control`.
  const control = controlPlaneExtension();
  return {
    // CORS first, so a browser's preflight is answered before auth, faults or the journal can refuse or count it.
    before: (emulator) => [
      splitCorsMiddleware(emulator.options.corsOrigins, emulator.options.controlCorsOrigins),
      ...control.before(emulator),
    ],
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
    persistence: control.persistence,
  };
}
