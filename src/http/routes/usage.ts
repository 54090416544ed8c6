// GET /v1/media/usage: balance, today's credits, per-model totals and the calling key's limits.
import { usageFor } from '../../domain/queries.js';
import { jsonAnswer } from '../answers.js';
import { authenticate } from '../auth.js';
import type { Exchange } from '../exchange.js';

export function usage(x: Exchange) {
  const key = authenticate(x);
  return jsonAnswer(200, usageFor(x.world.runtime.context(), key));
}
