// Request schemas of the public API with the spec's bounds (sections 4.2-4.7 and 8): types and validation in one place.
import * as z from 'zod';
import { MEDIA_KINDS } from '../../domain/catalogue-schema.js';
import { GENERATION_STATUSES } from '../../domain/generation.js';
import { pDatetime, pDict, pInt, pList, pLiteral, pStr } from './pydantic-types.js';

export const MODEL_SLUG_PATTERN = '^[a-zA-Z0-9][a-zA-Z0-9._-]*$';
export const REF_ROLES = ['first', 'last'] as const;

/** Optional members accept JSON null as "not sent", as `Optional[...] = None` does in the real service. */
const optional = <T extends z.ZodType>(schema: T) => schema.nullable().optional();

const estimateShape = {
  model_slug: pStr({ min: 1, max: 80, pattern: MODEL_SLUG_PATTERN }),
  prompt: pStr({ max: 50_000 }),
  params: optional(pDict(pStr(), 40)),
  texts: optional(pDict(pStr(), 20)),
  refs: optional(pList(pStr(), 50)),
  ref_slots: optional(pDict(pList(pStr()), 20)),
  ref_roles: optional(pDict(pLiteral(REF_ROLES), 50)),
};

export const estimateBodySchema = z.strictObject(estimateShape);

export const generationBodySchema = z.strictObject({
  ...estimateShape,
  max_credits: pInt({ ge: 1, le: 1_000_000_000, required: true }).pipe(z.int()),
});

/**
 * What a client can send in a header value (RFC 9110: visible ASCII, inner spaces; Node drops the outer ones). FastAPI
 * then checks only the length, so this is the document's whole rule for a key.
 */
const HEADER_VALUE_ASCII = '^[\\x21-\\x7E](?:[\\x20-\\x7E]*[\\x21-\\x7E])?$';

export const idempotencyHeaderSchema = z.object({
  'idempotency-key': pStr({ min: 8, max: 200 }).meta({ pattern: HEADER_VALUE_ASCII }),
});

export const modelsQuerySchema = z.object({
  kind: pLiteral(MEDIA_KINDS).optional(),
});

export const listQuerySchema = z.object({
  kind: pLiteral(MEDIA_KINDS).optional(),
  status: pLiteral(GENERATION_STATUSES).optional(),
  model_slug: pStr({ max: 80 }).optional(),
  from: pDatetime().optional(),
  to: pDatetime().optional(),
  cursor: pStr({ max: 300 }).optional(),
  limit: pInt({ ge: 1, le: 100 }).optional(),
});

export const uploadFormSchema = z.object({
  model_slug: pStr({ max: 80 }),
  target_slot: pStr({ max: 80 }).optional(),
});

export type EstimateBody = z.output<typeof estimateBodySchema>;
export type GenerationBody = z.output<typeof generationBodySchema>;
export type ListQuery = z.output<typeof listQuerySchema>;
