// /v1/media/generations: submit (202), list (newest first, cursor paging) and read one generation.
import { listGenerations as listPage, ownGeneration, publicView } from '../../domain/queries.js';
import { submitGeneration as submit } from '../../domain/submission.js';
import { jsonAnswer } from '../answers.js';
import { authenticate } from '../auth.js';
import { baseUrlOf } from '../base-url.js';
import type { Exchange } from '../exchange.js';
import { lastValues } from '../validation/repeated-values.js';
import { generationBodySchema, idempotencyHeaderSchema, listQuerySchema } from '../validation/request-schemas.js';
import { validateRequest } from '../validation/validate-request.js';

export async function submitGeneration(x: Exchange) {
  const key = authenticate(x);
  const read = await x.json();
  const { header, body } = validateRequest({
    header: {
      schema: idempotencyHeaderSchema,
      input: { 'idempotency-key': x.request.firstHeader('idempotency-key') },
    },
    body: { schema: generationBodySchema, read },
  });
  const result = submit(x.world.runtime.context(), {
    key,
    idempotencyKey: header['idempotency-key'],
    rawBody: read.kind === 'value' ? read.value : null,
    body,
  });
  x.generationId = result.generationId;
  if (result.adjustment) x.planAdjustment = result.adjustment;
  return jsonAnswer(result.response.status, result.response.body);
}

export function listGenerations(x: Exchange) {
  const key = authenticate(x);
  const { query } = validateRequest({ query: { schema: listQuerySchema, input: lastValues(x.request.query) } });
  const filter = {
    kind: query.kind,
    status: query.status,
    modelSlug: query.model_slug,
    from: query.from,
    to: query.to,
  };
  return jsonAnswer(
    200,
    listPage(
      x.world.runtime.context(),
      key,
      baseUrlOf(x.request, x.world.settings.publicBaseUrl),
      filter,
      query.limit,
      query.cursor,
    ),
  );
}

export function getGeneration(x: Exchange) {
  const key = authenticate(x);
  const ctx = x.world.runtime.context();
  const generation = ownGeneration(ctx, key, x.dispatch.params.generation_id);
  return jsonAnswer(200, {
    generation: publicView(ctx, generation, baseUrlOf(x.request, x.world.settings.publicBaseUrl)),
  });
}
