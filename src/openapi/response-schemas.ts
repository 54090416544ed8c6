// Response bodies of the public API as zod schemas, defined once and converted to the document's JSON Schemas.
// Strict objects everywhere: a member the document does not name is a contract violation in the test suite.
import * as z from 'zod';
import { MEDIA_KINDS, modelEntrySchema } from '../domain/catalogue-schema.js';
import { GENERATION_STATUSES } from '../domain/generation.js';

export const dateTime = () => z.string().meta({ format: 'date-time' });
const credits = () => z.int().min(0);
const stringMap = () => z.record(z.string(), z.string());

export const outputItemSchema = z
  .strictObject({
    url: z
      .string()
      .meta({ format: 'uri', description: 'Signed, time-limited link (about one hour); a fresh one on every read.' }),
    index: z.int().min(0),
    mime_type: z.string(),
    format: z.string().meta({ examples: ['mp4', 'png', 'm4a', 'glb'] }),
    bytes: z.int().min(0),
    width: z.int().positive().optional(),
    height: z.int().positive().optional(),
    duration_seconds: z.number().positive().optional(),
    expires_at: dateTime().meta({ description: 'When `url` stops working, on the emulator clock.' }),
  })
  // Named by its `id` too, so a plugin's answer that holds one refers to this component (json-schema.ts, namedComponents).
  .meta({ id: 'OutputItem', description: "One output file (spec 2.2); members besides `url` are the emulator's." });

export const generationErrorSchema = z
  .strictObject({
    code: z.string().meta({
      description:
        'Why it failed, e.g. `render_failed`, `content_policy`, or a code set by a fault rule or control call.',
    }),
    message: z.string(),
  })
  .meta({ id: 'GenerationError' });

export const generationSchema = z
  .strictObject({
    id: z.string(),
    request_id: z.string(),
    api_key_id: z.int(),
    kind: z.enum(MEDIA_KINDS),
    model_slug: z.string(),
    prompt: z.string(),
    params: stringMap().meta({ description: 'Echo of the request options, as sent (no defaults filled in).' }),
    texts: stringMap(),
    status: z.enum(GENERATION_STATUSES),
    created_at: dateTime(),
    completed_at: dateTime().nullable(),
    charged_credits: credits(),
    refunded_credits: credits(),
    net_credits: credits().meta({ description: 'charged_credits - refunded_credits' }),
    billing_status: z.enum(['charged', 'partially_refunded', 'refunded']),
    outputs: z.array(outputItemSchema).meta({ description: 'Empty until `completed`.' }),
    error: generationErrorSchema.nullable(),
  })
  .meta({ description: 'The generation record (spec 2.1).' });

export const acceptanceSchema = z
  .strictObject({
    request_id: z.string(),
    generation: generationSchema,
    replayed: z
      .boolean()
      .meta({ description: 'True when an earlier response is returned for a repeated Idempotency-Key and body.' }),
    poll_after_seconds: z.int().min(0),
  })
  .meta({
    description: 'Answer of a submission (spec 2.3). A replay returns the original body with `replayed: true`.',
  });

export const generationEnvelopeSchema = z.strictObject({ generation: generationSchema });

export const generationPageSchema = z.strictObject({
  generations: z.array(generationSchema).meta({ description: 'Newest first.' }),
  next_cursor: z.string().nullable().meta({
    description: 'Pass as `cursor` for the next page; null on the last page. Stable while new generations arrive.',
  }),
  has_more: z.boolean(),
  limit: z.int().min(1).max(100),
});

export const estimateSchema = z
  .strictObject({
    model_slug: z.string(),
    kind: z.enum(MEDIA_KINDS),
    credits: credits().meta({ description: 'Price of this input.' }),
    wallet_balance: z.int(),
    sufficient_balance: z.boolean(),
    breakdown: z.strictObject({
      unit: z.enum(['second', 'output', 'image', 'track', 'asset']),
      units: z.int().min(0),
      seconds: z.int().min(0).nullable(),
      count: z.int().min(1),
      credits_per_unit: z
        .string()
        .meta({ description: 'Exact catalogue figure, decimal ("21.8") or fraction ("763/3").' }),
      multipliers: stringMap().meta({
        description: 'Factors that applied, by option group, e.g. { "quality": "9/4" }.',
      }),
      rounding: z.literal('ceil'),
    }),
    params: stringMap().meta({ description: 'Every option group of the model with defaults filled in.' }),
  })
  .meta({ description: 'Price of an input (spec 2.4); nothing is charged.' });

const creditTotals = {
  charged_credits: credits(),
  refunded_credits: credits(),
  net_credits: z.int().meta({ description: 'Can be negative for a day on which older charges were refunded.' }),
};

export const usageSchema = z
  .strictObject({
    account_id: z.string(),
    wallet_balance: z.int(),
    today: z
      .strictObject({ date: z.string().meta({ format: 'date' }), ...creditTotals })
      .meta({ description: 'The current UTC day on the emulator clock.' }),
    models: z.array(z.strictObject({ model_slug: z.string(), generations: z.int().min(0), ...creditTotals })),
    key: z.strictObject({
      id: z.int(),
      name: z.string(),
      model_scope: z.string().nullable(),
      daily_credit_limit: z.int().min(0).nullable(),
      used_today: z.int(),
      remaining_today: z.int().min(0).nullable(),
    }),
    as_of: dateTime(),
  })
  .meta({
    description:
      "Balance, today's credits, per-model totals and the calling key's limits (shape left open by the spec).",
  });

export const uploadSchema = z
  .strictObject({
    id: z.string().meta({ description: 'Put this in `refs` or `ref_slots`.' }),
    upload_id: z.string().meta({ description: 'Same as `id`.' }),
    model_slug: z.string(),
    target_slot: z.string().nullable(),
    filename: z.string().nullable(),
    mime_type: z.enum(['image/png', 'image/jpeg', 'image/webp']),
    format: z.enum(['png', 'jpeg', 'webp']),
    width: z.int().positive(),
    height: z.int().positive(),
    bytes: z.int().positive(),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
    created_at: dateTime(),
  })
  .meta({ description: 'A registered reference file (shape left open by the spec).' });

export const modelSchema = modelEntrySchema
  .extend({
    // A price table is how an emulator prices (a calibration's observed prices), never part of the answer.
    price: modelEntrySchema.shape.price.omit({ table: true }),
    default_price_credits: credits().meta({ description: 'Price with every option at its default.' }),
  })
  .meta({ description: 'A catalogue entry: option groups, reference-input limits, output and price rule.' });

export const modelsSchema = z.strictObject({ models: z.array(modelSchema) });

export const validationItemSchema = z
  .strictObject({
    type: z.string().meta({ examples: ['missing', 'string_too_long', 'literal_error', 'model_option_unknown'] }),
    loc: z.array(z.union([z.string(), z.int()])).min(1),
    msg: z.string(),
    // Optional in the spec (7.3): the emulator always sends it, as FastAPI does, but a client must not rely on it.
    input: z.unknown().optional().meta({ description: 'The offending value (may be null). Optional (spec 7.3).' }),
    ctx: z
      .record(z.string(), z.unknown())
      .optional()
      .meta({ description: 'The check that failed, for the types that have one. Optional (spec 7.3).' }),
  })
  .meta({ description: 'One FastAPI/Pydantic v2 error item (members in this order).' });

export const validationErrorSchema = z
  .strictObject({ detail: z.array(validationItemSchema).min(1) })
  .meta({ description: 'Status 422: every error of the request, header errors first, then query, then body.' });

/** Every named public response schema: the document refers to each by this name. */
export const PUBLIC_RESPONSE_SCHEMAS = {
  OutputItem: outputItemSchema,
  GenerationError: generationErrorSchema,
  Generation: generationSchema,
  Acceptance: acceptanceSchema,
  GenerationEnvelope: generationEnvelopeSchema,
  GenerationPage: generationPageSchema,
  Estimate: estimateSchema,
  Usage: usageSchema,
  Upload: uploadSchema,
  Model: modelSchema,
  ModelList: modelsSchema,
  ValidationItem: validationItemSchema,
  ValidationError: validationErrorSchema,
} as const;
