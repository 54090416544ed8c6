// The control plane under /_emulator/*: one router per area (the plane guard in front checks Host and token). Never under /v1/media.
import { Router } from 'express';
import { consoleViewRoutes } from './console-views.js';
import { accountRoutes } from './account-routes.js';
import { clockRoutes } from '../clock/clock-routes.js';
import type { ControlRouteDeps } from './route-deps.js';
import { faultRoutes } from '../faults/fault-routes.js';
import { generationControlRoutes } from './generation-routes.js';
import { scenarioRoutes } from '../scenarios/scenario-routes.js';
import { stateRoutes } from '../state/state-routes.js';

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
