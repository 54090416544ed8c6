// /_emulator/reset, /_emulator/journal and /_emulator/state: back to the seed, the request journal, export and import.
import express, { Router } from 'express';
import { clearJournal, readJournal } from '../journal/journal-operations.js';
import { exportState, importState } from './emulator-state.js';
import { methodNotAllowed } from '../../http/errors.js';
import { sendJson } from '../../http/send.js';
import type { ControlRouteDeps } from '../admin/route-deps.js';

/** Uploads travel base64 inside an export, so an import body may be large. */
const STATE_BODY_LIMIT = '512mb';

export function stateRoutes(r: ControlRouteDeps): Router {
  const router = Router({ caseSensitive: true });
  router
    .route('/_emulator/reset')
    .post(async (req, res) => {
      await r.deps(req).runtime.reset();
      sendJson(res, 200, { ok: true });
    })
    .all(methodNotAllowed(['POST']));
  router
    .route('/_emulator/journal')
    .get((req, res) => sendJson(res, 200, { entries: readJournal(r.deps(req), req.query) }))
    .delete((req, res) => sendJson(res, 200, clearJournal(r.deps(req))))
    .all(methodNotAllowed(['GET', 'DELETE']));
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
