// Bodies of the control plane (/_emulator/*) as zod schemas, after docs/control-plane-contract.md and its routes.
import { z } from 'zod';
import { TIMING_PROFILES } from '../domain/timing.js';
import { GENERATION_STATUSES } from '../http/validation/request-schemas.js';
import { dateTime, generationSchema } from './response-schemas.js';

const timingProfile = z.enum(TIMING_PROFILES);

export const rendererInfoSchema = z.strictObject({
  mode: z.enum(['ffmpeg', 'fixture']),
  source: z.enum(['FFMPEG_PATH', 'ffmpeg-static', 'PATH']).optional(),
  binary: z.string().optional(),
  version: z.string().optional(),
  warning: z.string().optional(),
  maxParallel: z.int().min(1),
});

export const clockSchema = z.strictObject({ now: dateTime(), frozen: z.boolean() });

export const healthSchema = z
  .strictObject({
    status: z.enum(['ok', 'starting']).meta({ description: '`starting` until the renderer has found ffmpeg or fallen back to fixtures.' }),
    version: z.string(),
    renderer: rendererInfoSchema.nullable(),
    timing: z.strictObject({ profile: timingProfile, byModel: z.record(z.string(), timingProfile) }),
    clock: clockSchema,
    generations: z.int().min(0),
  })
  .meta({ description: 'Readiness, for Docker health checks and tests.' });

export const okSchema = z.strictObject({ ok: z.literal(true) });

export const accountSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  balance: z.int(),
  funding: z.int().meta({ description: 'Everything ever credited: the seed grant, top-ups and adjustments.' }),
});

export const balanceRequestSchema = z
  .union([z.strictObject({ set: z.int().min(0) }), z.strictObject({ add: z.int() })])
  .meta({ description: 'Set the balance, or add to it (negative to take away); written as a funding entry in the ledger.' });

export const balanceSchema = z.strictObject({ account_id: z.string(), balance: z.int() });

export const keySchema = z.strictObject({
  id: z.int(),
  secret: z.string(),
  account_id: z.string(),
  name: z.string(),
  model_scope: z.string().nullable(),
  daily_credit_limit: z.int().min(0).nullable(),
  revoked_at: dateTime().nullable(),
  created_at: dateTime(),
});

export const newKeySchema = z.strictObject({
  account_id: z.string().optional(),
  name: z.string().optional(),
  model_scope: z.string().nullable().optional(),
  daily_credit_limit: z.int().min(0).nullable().optional(),
  secret: z.string().regex(/^sk-media-[A-Za-z0-9_-]{4,200}$/).optional(),
});

export const advanceRequestSchema = z.strictObject({
  by: z.union([z.string().regex(/^\d+(ms|s|m|h|d)$/), z.int().min(0)]).meta({ description: 'A duration such as "10m", or milliseconds.' }),
});

export const advanceSchema = z.strictObject({
  now: dateTime(),
  frozen: z.boolean(),
  transitions: z.int().min(0).meta({ description: 'Scheduled moves that ran.' }),
});

export const timingSchema = z.strictObject({ profile: timingProfile, by_model: z.record(z.string(), timingProfile) });
export const timingRequestSchema = z.strictObject({ profile: timingProfile.optional(), by_model: z.record(z.string(), timingProfile).optional() });

export const adminGenerationSchema = generationSchema.extend({ account_id: z.string() });

export const refundPolicySchema = z.union([z.enum(['full', 'none']), z.strictObject({ partial: z.int().positive() })]);
export const failRequestSchema = z.strictObject({ code: z.string().optional(), message: z.string().optional(), refund: refundPolicySchema.optional() });
export const refundRequestSchema = z.strictObject({ amount: z.int().positive().optional() });

export const ledgerEntrySchema = z.looseObject({
  id: z.string(),
  type: z.enum(['funding', 'charge', 'refund']),
  account_id: z.string(),
  amount: z.int().positive(),
  at: dateTime(),
});

export const journalEntrySchema = z.strictObject({
  id: z.union([z.string(), z.int()]),
  at: dateTime(),
  method: z.string(),
  path: z.string(),
  key_id: z.int().nullable(),
  idempotency_key: z.string().nullable(),
  status: z.int(),
  latency_ms: z.number().min(0),
  fault_id: z.union([z.string(), z.int()]).nullable(),
});

/** Fault rules and scenarios are open objects until their routes settle. */
export const faultSchema = z.looseObject({ id: z.union([z.string(), z.int()]) });
export const scenarioProgressSchema = z.looseObject({});

export const CONTROL_STATUS_QUERY = z.object({ status: z.enum(GENERATION_STATUSES).optional(), limit: z.int().min(1).optional() });
