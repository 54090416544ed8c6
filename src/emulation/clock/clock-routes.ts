// /_emulator/clock and /_emulator/timing: read, advance (to the next move), freeze and unfreeze the clock; timing profiles.
import express, { Router } from 'express';
import { advanceClock, advanceToNext, freezeClock, readClock, unfreezeClock } from './clock-operations.js';
import { readTiming, setTiming } from './timing-operations.js';
import { methodNotAllowed } from '../../http/errors.js';
import { sendJson } from '../../http/send.js';
import type { ControlRouteDeps } from '../admin/route-deps.js';

export function clockRoutes(r: ControlRouteDeps): Router {
  const router = Router({ caseSensitive: true });
  const json = express.json({ limit: '1mb' });
  router
    .route('/_emulator/clock')
    .get((req, res) => sendJson(res, 200, readClock(r.deps(req))))
    .all(methodNotAllowed(['GET']));
  router
    .route('/_emulator/clock/advance')
    .post(json, async (req, res) => sendJson(res, 200, await advanceClock(r.deps(req), req.body ?? {})))
    .all(methodNotAllowed(['POST']));
  router
    .route('/_emulator/clock/advance-to-next')
    .post(async (req, res) => sendJson(res, 200, await advanceToNext(r.deps(req))))
    .all(methodNotAllowed(['POST']));
  router
    .route('/_emulator/clock/freeze')
    .post((req, res) => sendJson(res, 200, freezeClock(r.deps(req))))
    .all(methodNotAllowed(['POST']));
  router
    .route('/_emulator/clock/unfreeze')
    .post((req, res) => sendJson(res, 200, unfreezeClock(r.deps(req))))
    .all(methodNotAllowed(['POST']));
  router
    .route('/_emulator/timing')
    .get((req, res) => sendJson(res, 200, readTiming(r.deps(req))))
    .put(json, (req, res) => sendJson(res, 200, setTiming(r.deps(req), req.body)))
    .all(methodNotAllowed(['GET', 'PUT']));
  return router;
}
