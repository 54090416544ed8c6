// /_emulator/accounts, /_emulator/keys and /_emulator/api-key: wallets and API keys.
import express, { Router } from 'express';
import { changeBalance, createKey, listAccounts, listKeys, revokeKey, seededKey } from './account-operations.js';
import { methodNotAllowed } from '../../http/errors.js';
import { sendJson } from '../../http/send.js';
import { param, type ControlRouteDeps } from './route-deps.js';

export function accountRoutes(r: ControlRouteDeps): Router {
  const router = Router({ caseSensitive: true });
  const json = express.json({ limit: '1mb' });
  router
    .route('/_emulator/accounts')
    .get((req, res) => sendJson(res, 200, { accounts: listAccounts(r.deps(req)) }))
    .all(methodNotAllowed(['GET']));
  router
    .route('/_emulator/accounts/:id/balance')
    .post(json, (req, res) => sendJson(res, 200, changeBalance(r.deps(req), param(req, 'id'), req.body)))
    .all(methodNotAllowed(['POST']));
  router
    .route('/_emulator/keys')
    .get((req, res) => sendJson(res, 200, { keys: listKeys(r.deps(req)) }))
    .post(json, (req, res) => sendJson(res, 201, { key: createKey(r.deps(req), req.body) }))
    .all(methodNotAllowed(['GET', 'POST']));
  // Behind the plane guard like every route but health and the console: the admin token beyond loopback.
  router
    .route('/_emulator/api-key')
    .get((req, res) => sendJson(res, 200, seededKey(r.deps(req))))
    .all(methodNotAllowed(['GET']));
  router
    .route('/_emulator/keys/:id/revoke')
    .post((req, res) => sendJson(res, 200, { key: revokeKey(r.deps(req), Number(param(req, 'id'))) }))
    .all(methodNotAllowed(['POST']));
  return router;
}
