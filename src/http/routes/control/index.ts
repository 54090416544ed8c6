// The control plane under /_emulator/*: one router per area (the plane guard in front checks Host and token). Never under /v1/media.
import { Router } from 'express';
import { accountRoutes } from './accounts.js';
import { clockRoutes } from './clock.js';
import { consoleViewRoutes } from './console-views.js';
import type { ControlRouteDeps } from './deps.js';
import { faultRoutes } from './faults.js';
import { generationControlRoutes } from './generations.js';
import { scenarioRoutes } from './scenarios.js';
import { stateRoutes } from './state.js';

export function controlRoutes(r: ControlRouteDeps): Router {
  const router = Router({ caseSensitive: true });
  for (const routes of [
    consoleViewRoutes,
    stateRoutes,
    accountRoutes,
    clockRoutes,
    generationControlRoutes,
    faultRoutes,
    scenarioRoutes,
  ])
    router.use(routes(r));
  return router;
}
