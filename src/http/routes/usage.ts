// GET /v1/media/usage: balance, today's credits, per-model totals and the calling key's limits.
import type { IRouter } from 'express';
import { usageFor } from '../../domain/queries.js';
import { authenticate } from '../auth.js';
import { apiKeyOf } from '../request-locals.js';
import { methodNotAllowed } from '../errors.js';
import { sendJson } from '../send.js';
import type { RouteDeps } from './deps.js';

export function usageRoutes(router: IRouter, deps: RouteDeps): void {
  router
    .route('/v1/media/usage')
    .get(authenticate(deps.ctx), (_req, res) => sendJson(res, 200, usageFor(deps.ctx(), apiKeyOf(res))))
    .all(methodNotAllowed(['GET']));
}
