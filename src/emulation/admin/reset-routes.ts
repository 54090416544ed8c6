// /_emulator/reset: the whole emulator back to its seed (core state, then the plane's rules, journal and scenario).
import { Router } from 'express';
import { methodNotAllowed } from '../../http/errors.js';
import { sendJson } from '../../http/send.js';
import type { ControlRouteDeps } from './route-deps.js';

export function resetRoutes(r: ControlRouteDeps): Router {
  const router = Router({ caseSensitive: true });
  router
    .route('/_emulator/reset')
    .post(async (req, res) => {
      await r.deps(req).runtime.reset();
      sendJson(res, 200, { ok: true });
    })
    .all(methodNotAllowed(['POST']));
  return router;
}
