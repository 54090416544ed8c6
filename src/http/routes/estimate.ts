// POST /v1/media/estimate: price an input without charging.
import type { IRouter } from 'express';
import { estimateCost } from '../../domain/estimate.js';
import { authenticate } from '../auth.js';
import { apiKeyOf, jsonBodyOf } from '../request-locals.js';
import { methodNotAllowed } from '../errors.js';
import { sendJson } from '../send.js';
import { estimateBodySchema } from '../validation/request-schemas.js';
import { validateRequest } from '../validation/validate-request.js';
import type { RouteDeps } from './deps.js';
import { JSON_BODY_LIMIT } from './limits.js';

export function estimateRoutes(router: IRouter, deps: RouteDeps): void {
  const readBody = deps.bodies.bytes(JSON_BODY_LIMIT);
  router
    .route('/v1/media/estimate')
    .post(authenticate(deps.ctx), readBody, (req, res) => {
      const read = jsonBodyOf(req, res);
      const { body } = validateRequest({ body: { schema: estimateBodySchema, read } });
      sendJson(res, 200, estimateCost(deps.ctx(), apiKeyOf(res), body));
    })
    .all(methodNotAllowed(['POST']));
}
