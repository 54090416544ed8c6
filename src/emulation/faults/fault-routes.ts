// /_emulator/faults: the ordered fault rules; add, list, enable or disable, remove one, remove all.
import express, { Router } from 'express';
import { addFault, clearFaults, listFaults, removeFault, updateFault } from './fault-operations.js';
import { methodNotAllowed } from '../../http/errors.js';
import { sendJson } from '../../http/send.js';
import { param, type ControlRouteDeps } from '../admin/route-deps.js';

export function faultRoutes(r: ControlRouteDeps): Router {
  const router = Router({ caseSensitive: true });
  const json = express.json({ limit: '1mb' });
  router
    .route('/_emulator/faults')
    .get((req, res) => sendJson(res, 200, { faults: listFaults(r.deps(req)) }))
    .post(json, (req, res) => sendJson(res, 201, { fault: addFault(r.deps(req), req.body) }))
    .delete((req, res) => sendJson(res, 200, { faults: clearFaults(r.deps(req)) }))
    .all(methodNotAllowed(['GET', 'POST', 'DELETE']));
  router
    .route('/_emulator/faults/:id')
    .patch(json, (req, res) => sendJson(res, 200, { fault: updateFault(r.deps(req), param(req, 'id'), req.body) }))
    .delete((req, res) => sendJson(res, 200, { faults: removeFault(r.deps(req), param(req, 'id')) }))
    .all(methodNotAllowed(['PATCH', 'DELETE']));
  return router;
}
