// POST /v1/media/estimate: price an input without charging.
import { estimateCost } from '../../domain/estimate.js';
import { jsonAnswer } from '../answers.js';
import { authenticate } from '../auth.js';
import type { Exchange } from '../exchange.js';
import { estimateBodySchema } from '../validation/request-schemas.js';
import { validateRequest } from '../validation/validate-request.js';

export async function estimate(x: Exchange) {
  const key = authenticate(x);
  const { body } = validateRequest({ body: { schema: estimateBodySchema, read: await x.json() } });
  return jsonAnswer(200, estimateCost(x.world.runtime.context(), key, body));
}
