// /_emulator/state: export the emulator's state, or import one (replacing what it holds).
import express, { Router } from 'express';
import { exportState, importState } from './emulator-state.js';
import { methodNotAllowed } from '../../http/errors.js';
import { sendJson } from '../../http/send.js';
import type { ControlRouteDeps } from '../admin/route-deps.js';

/** Uploads travel base64 inside an export, so an import body may be large. */
const STATE_BODY_LIMIT = '512mb';

export function stateRoutes(r: ControlRouteDeps): Router {
  const router = Router({ caseSensitive: true });
  router
    .route('/_emulator/state')
    .get((req, res) => sendJson(res, 200, exportState(r.deps(req))))
    .put(express.json({ limit: STATE_BODY_LIMIT }), async (req, res) => {
      await importState(r.deps(req), req.body);
      sendJson(res, 200, { ok: true });
    })
    .all(methodNotAllowed(['GET', 'PUT']));
  return router;
}
