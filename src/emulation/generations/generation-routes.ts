// /_emulator/generations and /_emulator/ledger: generations, their detail, forced outcomes, refunds, link expiry, ledger.
import express, { Router } from 'express';
import {
  completeGeneration,
  failGeneration,
  getGeneration,
  ledgerEntries,
  listGenerations,
  refundGeneration,
} from './generation-operations.js';
import { expireLinks, generationDetail } from './generation-detail.js';
import { waitForRequest } from '../clock/wait-for.js';
import { methodNotAllowed } from '../../http/errors.js';
import { sendJson } from '../../http/send.js';
import { param, type ControlRouteDeps } from '../admin/route-deps.js';

export function generationControlRoutes(r: ControlRouteDeps): Router {
  const router = Router({ caseSensitive: true });
  const json = express.json({ limit: '1mb' });
  router
    .route('/_emulator/generations')
    .get((req, res) => sendJson(res, 200, { generations: listGenerations(r.deps(req), req.query) }))
    .all(methodNotAllowed(['GET']));
  router
    .route('/_emulator/generations/:id')
    .get((req, res) => sendJson(res, 200, { generation: getGeneration(r.deps(req), param(req, 'id')) }))
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
    .route('/_emulator/generations/:id/complete')
    .post(async (req, res) =>
      sendJson(res, 200, { generation: await completeGeneration(r.deps(req), param(req, 'id')) }),
    )
    .all(methodNotAllowed(['POST']));
  router
    .route('/_emulator/generations/:id/fail')
    .post(json, (req, res) =>
      sendJson(res, 200, { generation: failGeneration(r.deps(req), param(req, 'id'), req.body) }),
    )
    .all(methodNotAllowed(['POST']));
  router
    .route('/_emulator/generations/:id/wait')
    .post(json, async (req, res) =>
      sendJson(res, 200, { generation: await waitForRequest(r.deps(req), param(req, 'id'), req.body) }),
    )
    .all(methodNotAllowed(['POST']));
  router
    .route('/_emulator/generations/:id/refund')
    .post(json, (req, res) => sendJson(res, 200, refundGeneration(r.deps(req), param(req, 'id'), req.body)))
    .all(methodNotAllowed(['POST']));
  router
    .route('/_emulator/ledger')
    .get((req, res) => sendJson(res, 200, { entries: ledgerEntries(r.deps(req), req.query) }))
    .all(methodNotAllowed(['GET']));
  return router;
}
