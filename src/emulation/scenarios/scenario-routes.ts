// /_emulator/scenarios: what is available, load one by name or body, its progress, unload it.
import express, { Router } from 'express';
import { availableScenarios, loadScenario, scenarioProgress, unloadScenario } from './scenario-operations.js';
import { methodNotAllowed } from '../../http/errors.js';
import { sendJson } from '../../http/send.js';
import type { ControlRouteDeps } from '../admin/route-deps.js';

export function scenarioRoutes(r: ControlRouteDeps): Router {
  const router = Router({ caseSensitive: true });
  const json = express.json({ limit: '1mb' });
  router
    .route('/_emulator/scenarios')
    .get((req, res) => sendJson(res, 200, { available: availableScenarios(), active: scenarioProgress(r.deps(req)) }))
    .post(json, (req, res) => sendJson(res, 200, { active: loadScenario(r.deps(req), req.body ?? {}, true) }))
    .all(methodNotAllowed(['GET', 'POST']));
  router
    .route('/_emulator/scenarios/active')
    .get((req, res) => sendJson(res, 200, { active: scenarioProgress(r.deps(req)) }))
    .delete((req, res) => sendJson(res, 200, { active: unloadScenario(r.deps(req)) }))
    .all(methodNotAllowed(['GET', 'DELETE']));
  return router;
}
