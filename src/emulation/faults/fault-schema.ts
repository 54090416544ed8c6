// The fault rule format, validated with zod at the door: what a rule matches, how often it fires, and what it does.
import * as z from 'zod';
import { DURATION_TEXT_PATTERN, MAX_DURATION_MS, parseDuration } from '../../domain/durations.js';
import { boundedPattern, refineRegex, regexSchema, routeSchema } from './fault-patterns.js';

/** "30s", "250ms", "1h30m" or a number of milliseconds, turned into milliseconds. */
export const durationSchema = z
  .union([
    // The document's bounds; parseDuration below is what checks them (with its own messages).
    z.string().meta({ pattern: DURATION_TEXT_PATTERN, examples: ['30s', '250ms', '1h30m'] }),
    z.number().meta({ minimum: 0, maximum: MAX_DURATION_MS, description: 'Milliseconds.' }),
  ])
  .transform((value, ctx) => {
    try {
      return parseDuration(value);
    } catch (error) {
      const tooLong = error instanceof Error && error.message.includes('at most');
      ctx.addIssue({
        code: 'custom',
        message: tooLong
          ? `must be a duration of at most 100 years (got ${JSON.stringify(value)})`
          : `must be a duration like "30s", "250ms" or a number of milliseconds (got ${JSON.stringify(value)})`,
      });
      return z.NEVER;
    }
  });

export const errorCode = z.string().regex(/^[a-z][a-z0-9_]{1,63}$/, 'must be lower_snake_case, 2-64 characters');

export const refundPolicySchema = z.union([z.enum(['full', 'none']), z.strictObject({ partial: z.int().positive() })], {
  error: 'must be "full", "none" or { "partial": n } with n a whole number of credits',
});

const latencyShape = {
  distribution: z.enum(['fixed', 'uniform', 'lognormal']).default('fixed'),
  ms: durationSchema.optional(),
  min_ms: z.number().min(0).optional(),
  max_ms: z.number().min(0).optional(),
  median_ms: z.number().positive().optional(),
  sigma: z.number().positive().max(5).optional(),
};

function checkLatency(value: LatencySpec, ctx: z.core.$RefinementCtx) {
  const need = (field: keyof LatencySpec) => {
    if (value[field] === undefined)
      ctx.addIssue({ code: 'custom', path: [field], message: `is required for a ${value.distribution} latency` });
  };
  if (value.distribution === 'fixed') need('ms');
  if (value.distribution === 'uniform') {
    need('min_ms');
    need('max_ms');
    if (value.min_ms !== undefined && value.max_ms !== undefined && value.min_ms > value.max_ms)
      ctx.addIssue({ code: 'custom', path: ['min_ms'], message: 'must not exceed max_ms' });
  }
  if (value.distribution === 'lognormal') {
    need('median_ms');
    need('sigma');
  }
}

/** Fixed (`{ "ms": 200 }`), uniform (`min_ms`..`max_ms`) or lognormal (`median_ms`, `sigma`, optional `max_ms` cap). */
const latencySchema = z.strictObject(latencyShape).superRefine(checkLatency);

const httpExtras = { latency: latencySchema.optional() };

const httpActions = [
  z.strictObject({
    type: z.literal('status'),
    status: z.int().min(400, 'must be between 400 and 599').max(599, 'must be between 400 and 599'),
    code: errorCode.optional(),
    message: z.string().min(1).max(2000).optional(),
    retry_after: durationSchema.optional(),
    ...httpExtras,
  }),
  z.strictObject({ type: z.literal('latency'), ...latencyShape }).superRefine(checkLatency),
  z.strictObject({ type: z.literal('reset'), ...httpExtras }),
  z.strictObject({ type: z.literal('empty'), ...httpExtras }),
  z.strictObject({ type: z.literal('hang') }),
  z.strictObject({
    type: z.literal('dribble'),
    chunks: z.int().min(1).max(1000).default(10),
    duration: durationSchema.default(1000),
    ...httpExtras,
  }),
  z.strictObject({ type: z.literal('lost_response'), ...httpExtras }),
] as const;

const generationActions = [
  z.strictObject({
    type: z.literal('fail'),
    at: z.enum(['pending', 'running']).default('running'),
    delay: durationSchema.default(0),
    code: errorCode.default('internal_error'),
    message: z.string().min(1).max(2000).optional(),
    refund: refundPolicySchema.default('full'),
  }),
  z.strictObject({ type: z.literal('stall') }),
  z.strictObject({ type: z.literal('slow'), factor: z.number().min(1).max(1000) }),
  z
    .strictObject({
      type: z.literal('delay'),
      pending: durationSchema.optional(),
      running: durationSchema.optional(),
      total: durationSchema.optional(),
    })
    .refine(
      (a) => a.pending !== undefined || a.running !== undefined || a.total !== undefined,
      'needs pending, running or total',
    ),
  // once: only the first read's links are expired, so an app's "read again for fresh links" recovery can be rehearsed.
  z.strictObject({ type: z.literal('expired_urls'), once: z.boolean().default(false) }),
  z.strictObject({ type: z.literal('missing_outputs') }),
] as const;

/** The actions' `type`s, in the order above: the console lists them, and an unknown type's message names them. */
export const HTTP_ACTIONS = httpActions.map((action) => action.shape.type.value);
export const GENERATION_ACTIONS = generationActions.map((action) => action.shape.type.value);

export const actionSchema = z.discriminatedUnion('type', [...httpActions, ...generationActions], {
  error: (issue) =>
    issue.code === 'invalid_union'
      ? `type must be one of ${[...HTTP_ACTIONS, ...GENERATION_ACTIONS].join(', ')}`
      : undefined,
});

const matchSchema = z.strictObject({
  method: z
    .string()
    .regex(/^[A-Za-z]+$/, 'must be an HTTP method such as POST')
    .transform((m) => m.toUpperCase())
    .optional(),
  route: routeSchema.optional(),
  model_slug: z.string().min(1).optional(),
  key_id: z.int().positive().optional(),
  /** A generation: the one read (`GET /v1/media/generations/{id}`) or whose output is downloaded (`GET /files/...`). */
  generation_id: z.string().min(1).max(200).optional(),
  prompt: regexSchema.optional(),
  /** A literal key, or a /pattern/flags checked like `prompt`. */
  idempotency_key: boundedPattern()
    .superRefine((value, ctx) => {
      if (value.startsWith('/')) refineRegex(value, ctx);
    })
    .optional(),
});

export const faultRuleSchema = z.strictObject({
  id: z
    .string()
    .regex(/^[A-Za-z0-9_.:-]{1,64}$/, 'must be 1-64 letters, digits or _ . : -')
    // A path segment of dots only is resolved away by URLs, so /_emulator/faults/{id} could never reach such a rule.
    .refine(
      (id) => !/^\.+$/.test(id),
      'must not be dots only: ".." and "." cannot be a URL path segment, so the rule could not be changed or removed',
    )
    // The refinement, for the document (a refinement has no JSON Schema of its own).
    .meta({ not: { pattern: '^\\.+$' } })
    .optional(),
  description: z.string().max(500).optional(),
  enabled: z.boolean().default(true),
  match: matchSchema.default({}),
  probability: z.number().min(0).max(1).default(1),
  after: z.int().min(0).default(0),
  times: z.int().min(1).nullable().default(null),
  action: actionSchema,
});

export type FaultRuleInput = z.input<typeof faultRuleSchema>;
export type ParsedFaultRule = z.output<typeof faultRuleSchema>;
type FaultAction = ParsedFaultRule['action'];
export type HttpFaultAction = Extract<FaultAction, { type: (typeof HTTP_ACTIONS)[number] }>;
export type GenerationFaultAction = Extract<FaultAction, { type: (typeof GENERATION_ACTIONS)[number] }>;
export type LatencySpec = z.output<typeof latencySchema>;

export const isGenerationAction = (action: FaultAction): action is GenerationFaultAction =>
  (GENERATION_ACTIONS as readonly string[]).includes(action.type);
