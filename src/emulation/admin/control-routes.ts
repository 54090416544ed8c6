// The control plane under /_emulator/*: one router per area (the plane guard in front checks Host and token). Never under /v1/media.
import { Router } from 'express';
import { consoleViewRoutes } from './console-views.js';
import { accountRoutes } from './account-routes.js';
import { resetRoutes } from './reset-routes.js';
import type { ControlRouteDeps } from './route-deps.js';
import { clockRoutes } from '../clock/clock-routes.js';
import { faultRoutes } from '../faults/fault-routes.js';
import { generationControlRoutes } from '../generations/generation-routes.js';
import { journalRoutes } from '../journal/journal-routes.js';
import { scenarioRoutes } from '../scenarios/scenario-routes.js';
import { stateRoutes } from '../state/state-routes.js';

/** No two areas share a path, so this order decides nothing but which router is tried first. */
export function controlRoutes(r: ControlRouteDeps): Router {
  const router = Router({ caseSensitive: true });
  for (const routes of [
    consoleViewRoutes,
    resetRoutes,
    journalRoutes,
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
