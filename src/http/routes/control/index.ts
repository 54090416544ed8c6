// The control plane under /_emulator/*: the admin token check first, then one router per area. Never under /v1/media.
import { Router } from 'express';
import { adminTokenMiddleware } from '../../middleware/admin-token.js';
import { accountRoutes } from './accounts.js';
import { clockRoutes } from './clock.js';
import { consoleViewRoutes } from './console-views.js';
import type { ControlRouteDeps } from './deps.js';
import { faultRoutes } from './faults.js';
import { generationControlRoutes } from './generations.js';
import { scenarioRoutes } from './scenarios.js';
import { stateRoutes } from './state.js';

export function controlRoutes(r: ControlRouteDeps, adminToken: string | undefined): Router {
  const router = Router();
  router.use(adminTokenMiddleware(adminToken));
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
