// The control plane under /_emulator/*: the admin token check first, then one router per area. Never under /v1/media.
import { Router } from 'express';
import { adminTokenMiddleware } from './admin-token.js';
import { accountRoutes } from './account-routes.js';
import { clockRoutes } from '../clock/clock-routes.js';
import type { ControlRouteDeps } from './route-deps.js';
import { faultRoutes } from '../faults/fault-routes.js';
import { generationControlRoutes } from './generation-routes.js';
import { scenarioRoutes } from '../scenarios/scenario-routes.js';
import { stateRoutes } from '../state/state-routes.js';

export function controlRoutes(r: ControlRouteDeps, adminToken: string | undefined): Router {
  const router = Router();
  router.use(adminTokenMiddleware(adminToken));
  for (const routes of [stateRoutes, accountRoutes, clockRoutes, generationControlRoutes, faultRoutes, scenarioRoutes])
    router.use(routes(r));
  return router;
}
