// POST /v1/media/estimate: the price of an input and the wallet balance, with a breakdown a front end can show.
import type { ApiKey } from './accounts.js';
import type { DomainContext } from './context.js';
import { toGenerationInput, type ValidatedBody } from './generation-input.js';
import { quote } from './pricing.js';
import { checkKeyScope, checkRules, knownModel, resolveRefs } from './request-checks.js';

export function estimateCost(ctx: DomainContext, key: ApiKey, body: ValidatedBody) {
  const input = toGenerationInput(body);
  const model = knownModel(ctx, input.model_slug);
  checkRules(model, input);
  resolveRefs(ctx, key, model, input);
  checkKeyScope(key, model);
  // A prompt the submission's plan adjuster refuses (a 422) is refused here too: the estimate must not promise more.
  ctx.promptCheck?.(input.prompt);
  const price = quote(model, input.params);
  const balance = ctx.ledger.balance(key.accountId);
  return {
    model_slug: model.slug,
    kind: model.kind,
    credits: price.credits,
    wallet_balance: balance,
    sufficient_balance: balance >= price.credits,
    breakdown: {
      unit: price.unit,
      units: price.units,
      seconds: price.unit === 'second' ? price.units : null,
      count: price.count,
      credits_per_unit: price.credits_per_unit,
      multipliers: price.multipliers,
      rounding: 'ceil' as const,
    },
    params: price.params,
  };
}
