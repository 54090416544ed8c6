// The facts a fault rule matches on, taken from the exchange the front door resolved (or, at acceptance, from the submission).
import type { ApiKey } from '../../domain/accounts.js';
import type { DomainContext, PlanAdjusterInput } from '../../domain/context.js';
import type { Exchange } from '../../http/exchange.js';
import { PUBLIC_ROUTES } from '../../http/public-routes.js';

/**
 * What a rule can look at: the facts of the resolved operation. `path` is the request's, or for a
 * submission being accepted, the submission's route. Body members are known only for JSON bodies read ahead.
 */
export interface FaultFacts {
  method: string;
  path: string;
  keyId?: number;
  modelSlug?: string;
  prompt?: string;
  idempotencyKey?: string;
  generationId?: string;
}

/** The key a valid bearer key resolves to; never throws (the route still authenticates and answers its 401). */
export function peekKey(ctx: DomainContext, authorization: string | undefined): ApiKey | undefined {
  try {
    return ctx.accounts.authenticate(authorization);
  } catch {
    return undefined;
  }
}

/**
 * An exchange's facts before its handler runs. A download tells the generation it names, that generation's model and
 * the key that created it (no bearer key comes with a link); the public API, the calling key, a repeated
 * Idempotency-Key read as the submission reads it (the first), and the model filter of a list.
 */
export function exchangeFacts(x: Exchange, ctx: DomainContext): FaultFacts {
  const { request, dispatch } = x;
  const facts: FaultFacts = { method: request.method, path: request.path };
  const generationId = dispatch.params.generation_id;
  if (dispatch.kind === 'download') {
    facts.generationId = generationId;
    const generation = generationId === undefined ? undefined : ctx.generations.get(generationId);
    facts.modelSlug = generation?.modelSlug;
    facts.keyId = generation?.apiKeyId;
    return facts;
  }
  facts.keyId = peekKey(ctx, x.header('authorization'))?.id;
  facts.idempotencyKey = request.firstHeader('idempotency-key');
  if (generationId !== undefined) facts.generationId = generationId;
  if (dispatch.operation === 'listGenerations') {
    const model = request.query.model_slug;
    facts.modelSlug = Array.isArray(model) ? model[model.length - 1] : model;
  }
  return facts;
}

/** model_slug and prompt of a JSON body already parsed; none when it is not an object (it matches no body rule). */
export function bodyFacts(value: unknown): Pick<FaultFacts, 'modelSlug' | 'prompt'> {
  if (typeof value !== 'object' || value === null) return {};
  const { model_slug, prompt } = value as { model_slug?: unknown; prompt?: unknown };
  return {
    modelSlug: typeof model_slug === 'string' ? model_slug : undefined,
    prompt: typeof prompt === 'string' ? prompt : undefined,
  };
}

const ACCEPTED = PUBLIC_ROUTES.find((route) => route.operation === 'submitGeneration');

/** A submission being accepted: its facts as the submission passes them in, on the submission's own route. */
export function acceptanceFacts(input: PlanAdjusterInput): FaultFacts {
  return {
    method: ACCEPTED?.method ?? 'POST',
    path: ACCEPTED?.path ?? '',
    keyId: input.key.id,
    modelSlug: input.model.slug,
    prompt: input.body.prompt,
    idempotencyKey: input.idempotencyKey,
  };
}
