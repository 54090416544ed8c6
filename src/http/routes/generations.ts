// /v1/media/generations: submit (202), list (newest first, cursor paging) and read one generation.
import type { IRouter } from 'express';
import { listGenerations, ownGeneration, publicView } from '../../domain/queries.js';
import { submitGeneration } from '../../domain/submission.js';
import { authenticate } from '../auth.js';
import { apiKeyOf, jsonBodyOf } from '../request-locals.js';
import { baseUrlOf } from '../base-url.js';
import { methodNotAllowed } from '../errors.js';
import { sendJson } from '../send.js';
import { firstHeader, lastValues } from '../validation/repeated-values.js';
import { generationBodySchema, idempotencyHeaderSchema, listQuerySchema } from '../validation/request-schemas.js';
import { validateRequest } from '../validation/validate-request.js';
import type { RouteDeps } from './deps.js';
import { JSON_BODY_LIMIT } from './limits.js';

export function generationRoutes(router: IRouter, deps: RouteDeps): void {
  const readBody = deps.bodies.bytes(JSON_BODY_LIMIT);
  router
    .route('/v1/media/generations')
    .post(authenticate(deps.ctx), readBody, (req, res) => {
      const read = jsonBodyOf(req, res);
      const { header, body } = validateRequest({
        header: { schema: idempotencyHeaderSchema, input: { 'idempotency-key': firstHeader(req, 'idempotency-key') } },
        body: { schema: generationBodySchema, read },
      });
      const result = submitGeneration(deps.ctx(), {
        key: apiKeyOf(res),
        idempotencyKey: header['idempotency-key'],
        rawBody: read.kind === 'value' ? read.value : null,
        body,
      });
      res.locals.generationId = result.generationId;
      if (result.adjustment) res.locals.planAdjustment = result.adjustment;
      sendJson(res, result.response.status, result.response.body);
    })
    .get(authenticate(deps.ctx), (req, res) => {
      const { query } = validateRequest({
        query: { schema: listQuerySchema, input: lastValues(req.query as Record<string, unknown>) },
      });
      const filter = {
        kind: query.kind,
        status: query.status,
        modelSlug: query.model_slug,
        from: query.from,
        to: query.to,
      };
      sendJson(
        res,
        200,
        listGenerations(
          deps.ctx(),
          apiKeyOf(res),
          baseUrlOf(req, deps.publicBaseUrl),
          filter,
          query.limit,
          query.cursor,
        ),
      );
    })
    .all(methodNotAllowed(['GET', 'POST']));

  router
    .route('/v1/media/generations/:generationId')
    .get(authenticate(deps.ctx), (req, res) => {
      const ctx = deps.ctx();
      const generation = ownGeneration(ctx, apiKeyOf(res), String(req.params.generationId));
      sendJson(res, 200, { generation: publicView(ctx, generation, baseUrlOf(req, deps.publicBaseUrl)) });
    })
    .all(methodNotAllowed(['GET']));
}
