// GET /v1/media/models: the catalogue, optionally filtered by kind.
import { Router } from 'express';
import { defaultPrice } from '../../domain/pricing.js';
import { authenticate } from '../auth.js';
import { methodNotAllowed } from '../errors.js';
import { sendJson } from '../send.js';
import { modelsQuerySchema } from '../validation/request-schemas.js';
import { validateRequest } from '../validation/validate-request.js';
import type { RouteDeps } from './deps.js';

export function modelsRoutes(deps: RouteDeps): Router {
  const router = Router({ caseSensitive: true });
  router
    .route('/v1/media/models')
    .get(authenticate(deps.ctx), (req, res) => {
      const { query } = validateRequest({ query: { schema: modelsQuerySchema, input: req.query } });
      const models = deps
        .ctx()
        .catalogue.list(query.kind)
        .map((m) => ({ ...m, default_price_credits: defaultPrice(m) }));
      sendJson(res, 200, { models });
    })
    .all(methodNotAllowed(['GET']));
  return router;
}
