// POST /v1/media/generations: every check, then the charge and the new generation, in one synchronous step.
import type { ApiKey } from './accounts.js';
import { canonicalJson } from './canonical-json.js';
import type { DomainContext, PlanAdjustment } from './context.js';
import type { Generation, GenerationPlan } from './generation.js';
import { toGenerationInput, type ValidatedBody } from './generation-input.js';
import { toPublicGeneration } from './generation-view.js';
import type { StoredResponse } from './idempotency.js';
import { assignFrames } from './reference-rules.js';
import { quote } from './pricing.js';
import { checkKeyScope, checkRules, knownModel, resolveRefs } from './request-checks.js';
import { checkSpending } from './spending-checks.js';
import { plannedTimers, profileFor, workloadOf } from './timing.js';

export interface Submission {
  key: ApiKey;
  idempotencyKey: string;
  /** The body as parsed JSON, before validation: its canonical form is the idempotency fingerprint. */
  rawBody: unknown;
  body: ValidatedBody & { max_credits: number };
}

export interface SubmissionResult {
  /** The answer; its body's `replayed` tells a replay from a new submission. */
  response: StoredResponse;
  /** The generation created, or the one a replay answers with: whoever records the exchange links it to this. */
  generationId: string;
  /** Who adjusted this generation's plan at acceptance, and why; absent when the plan was left alone. */
  adjustment?: PlanAdjustment;
}

/**
 * No `await` anywhere in here: the checks and the charge happen in one turn of the event loop,
 * so parallel requests cannot overdraw a wallet or run one idempotency key twice.
 */
export function submitGeneration(ctx: DomainContext, s: Submission): SubmissionResult {
  const now = ctx.clock.now();
  const fingerprint = canonicalJson(s.rawBody);
  const prior = ctx.idempotency.lookup(s.key.id, s.idempotencyKey, fingerprint, now);
  if (prior.kind === 'replay') {
    return {
      response: { status: prior.response.status, body: { ...prior.response.body, replayed: true } },
      generationId: prior.generationId,
    };
  }

  const input = toGenerationInput(s.body);
  const model = knownModel(ctx, input.model_slug);
  checkRules(model, input);
  resolveRefs(ctx, s.key, model, input);
  checkKeyScope(s.key, model);
  const price = quote(model, input.params);
  checkSpending({
    credits: price.credits,
    maxCredits: s.body.max_credits,
    dailyCreditLimit: s.key.dailyCreditLimit,
    usedToday: () => ctx.ledger.keyNetOnDay(s.key.id, now),
    balance: () => ctx.ledger.balance(s.key.accountId),
    now,
  });

  // The plan first: a refusal from the plan adjuster must not use up a generation id.
  let plan: GenerationPlan = plannedTimers(
    profileFor(ctx.settings.timing, model.slug),
    workloadOf(model.kind, price.params, price.count),
    ctx.random.next,
  );
  const adjusted = ctx.planAdjuster({
    key: s.key,
    model,
    body: input,
    plan,
    credits: price.credits,
    idempotencyKey: s.idempotencyKey,
  });
  if (adjusted) plan = adjusted.plan;
  const generation = createGeneration(ctx, s, model.kind, price.params, assignFrames(model, input), now, plan);
  ctx.ledger.append({
    type: 'charge',
    accountId: s.key.accountId,
    amount: price.credits,
    at: now,
    generationId: generation.id,
    keyId: s.key.id,
    modelSlug: model.slug,
  });
  ctx.generations.add(generation);
  adjusted?.accepted?.(generation.id);
  const response: StoredResponse = {
    status: 202,
    body: {
      request_id: generation.requestId,
      // Its one ledger entry is the charge just made: no need to ask the store of record for the others.
      generation: toPublicGeneration(
        generation,
        { charged: price.credits, refunded: 0 },
        ctx.outputSigner(''),
        ctx.timestamps,
      ),
      replayed: false,
      poll_after_seconds: ctx.settings.pollAfterSeconds,
    },
  };
  ctx.idempotency.record(s.key.id, s.idempotencyKey, fingerprint, generation.id, response, now);
  ctx.lifecycle.begin(generation);
  return {
    response,
    generationId: generation.id,
    ...(adjusted ? { adjustment: { by: adjusted.by, reason: adjusted.reason } } : {}),
  };
}

function createGeneration(
  ctx: DomainContext,
  s: Submission,
  kind: Generation['kind'],
  resolvedParams: Record<string, string>,
  frames: Generation['frames'],
  now: number,
  plan: GenerationPlan,
): Generation {
  return {
    seq: ctx.generations.nextSeq(),
    id: ctx.ids.next('gen'),
    requestId: ctx.ids.next('req'),
    accountId: s.key.accountId,
    apiKeyId: s.key.id,
    kind,
    modelSlug: s.body.model_slug,
    prompt: s.body.prompt,
    params: s.body.params ?? {},
    texts: s.body.texts ?? {},
    resolvedParams,
    frames,
    status: 'pending',
    createdAt: now,
    startedAt: null,
    completedAt: null,
    error: null,
    outputs: [],
    plan,
  };
}
