// The views the console reads (summary, catalogue, generation detail, one journal entry) and its two extra actions.
import { Router } from 'express';
import { methodNotAllowed } from '../../http/errors.js';
import { sendJson } from '../../http/send.js';
import { expireLinks, generationDetail } from '../detail.js';
import { readJournalEntry } from '../journal/journal-operations.js';
import { advanceToNext, catalogueView, summary } from '../summary.js';
import { param, type ControlRouteDeps } from './route-deps.js';

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
  router
    .route('/_emulator/generations/:id/detail')
    .get((req, res) => sendJson(res, 200, generationDetail(r.deps(req), param(req, 'id'))))
    .all(methodNotAllowed(['GET']));
  router
    .route('/_emulator/generations/:id/expire-links')
    .post((req, res) => sendJson(res, 200, expireLinks(r.deps(req), param(req, 'id'))))
    .all(methodNotAllowed(['POST']));
  router
    .route('/_emulator/clock/advance-to-next')
    .post(async (req, res) => sendJson(res, 200, await advanceToNext(r.deps(req))))
    .all(methodNotAllowed(['POST']));
  router
    .route('/_emulator/journal/:id')
    .get((req, res) => sendJson(res, 200, { entry: readJournalEntry(r.deps(req), param(req, 'id')) }))
    .all(methodNotAllowed(['GET']));
  return router;
}
