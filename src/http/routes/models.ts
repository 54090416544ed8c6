// GET /v1/media/models: the catalogue, optionally filtered by kind.
import { defaultPrice } from '../../domain/pricing.js';
import { jsonAnswer } from '../answers.js';
import { authenticate } from '../auth.js';
import type { Exchange } from '../exchange.js';
import { lastValues } from '../validation/repeated-values.js';
import { modelsQuerySchema } from '../validation/request-schemas.js';
import { validateRequest } from '../validation/validate-request.js';

export function listModels(x: Exchange) {
  authenticate(x);
  const { query } = validateRequest({ query: { schema: modelsQuerySchema, input: lastValues(x.request.query) } });
  const recorded = x.world.settings.recordedModels;
  if (recorded !== undefined) {
    const body = query.kind === undefined ? recorded.all : recorded.byKind[query.kind];
    if (body !== undefined) return jsonAnswer(200, body);
  }
  // A price table is how the emulator prices, not part of the catalogue it shows.
  const models = x.world.runtime
    .context()
    .catalogue.list(query.kind)
    .map((model) => {
      const { table: _table, ...price } = model.price;
      return { ...model, price, default_price_credits: defaultPrice(model) };
    });
  return jsonAnswer(200, { models });
}
