// GET /v1/media/models: the catalogue, optionally filtered by kind.
import type { IRouter } from 'express';
import { defaultPrice } from '../../domain/pricing.js';
import { authenticate } from '../auth.js';
import { methodNotAllowed } from '../errors.js';
import { sendJson } from '../send.js';
import { lastValues } from '../validation/repeated-values.js';
import { modelsQuerySchema } from '../validation/request-schemas.js';
import { validateRequest } from '../validation/validate-request.js';
import type { RouteDeps } from './deps.js';

export function modelsRoutes(router: IRouter, deps: RouteDeps): void {
  router
    .route('/v1/media/models')
    .get(authenticate(deps.ctx), (req, res) => {
      const { query } = validateRequest({
        query: { schema: modelsQuerySchema, input: lastValues(req.query as Record<string, unknown>) },
      });
      const recorded = deps.recordedModels;
      if (recorded !== undefined) {
        const body = query.kind === undefined ? recorded.all : recorded.byKind[query.kind];
        if (body !== undefined) return sendJson(res, 200, body);
      }
      // A price table is how the emulator prices, not part of the catalogue it shows.
      const models = deps
        .ctx()
        .catalogue.list(query.kind)
        .map((model) => {
          const { table: _table, ...price } = model.price;
          return { ...model, price, default_price_credits: defaultPrice(model) };
        });
      sendJson(res, 200, { models });
    })
    .all(methodNotAllowed(['GET']));
}
