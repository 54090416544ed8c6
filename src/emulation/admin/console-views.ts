// /_emulator/summary and /_emulator/catalogue: the views the console reads on every refresh and once.
import { Router } from 'express';
import { methodNotAllowed } from '../../http/errors.js';
import { sendJson } from '../../http/send.js';
import { catalogueView, summary } from '../summary.js';
import type { ControlRouteDeps } from './route-deps.js';

export function consoleViewRoutes(r: ControlRouteDeps): Router {
  const router = Router({ caseSensitive: true });
  router
    .route('/_emulator/summary')
    .get((req, res) => sendJson(res, 200, summary(r.deps(req), req.query)))
    .all(methodNotAllowed(['GET']));
  router
    .route('/_emulator/catalogue')
    .get((req, res) => sendJson(res, 200, catalogueView(r.deps(req))))
    .all(methodNotAllowed(['GET']));
  return router;
}
