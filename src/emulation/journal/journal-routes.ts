// /_emulator/journal and /_emulator/journal/:id: the request journal, filtered or one entry with its bodies; clearing it.
import { Router } from 'express';
import { clearJournal, readJournal, readJournalEntry } from './journal-operations.js';
import { methodNotAllowed } from '../../http/errors.js';
import { sendJson } from '../../http/send.js';
import { param, type ControlRouteDeps } from '../admin/route-deps.js';

export function journalRoutes(r: ControlRouteDeps): Router {
  const router = Router({ caseSensitive: true });
  router
    .route('/_emulator/journal')
    .get((req, res) => sendJson(res, 200, { entries: readJournal(r.deps(req), req.query) }))
    .delete((req, res) => sendJson(res, 200, clearJournal(r.deps(req))))
    .all(methodNotAllowed(['GET', 'DELETE']));
  router
    .route('/_emulator/journal/:id')
    .get((req, res) => sendJson(res, 200, { entry: readJournalEntry(r.deps(req), param(req, 'id')) }))
    .all(methodNotAllowed(['GET']));
  return router;
}
