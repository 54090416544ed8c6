// The fault rule format, validated with zod at the door: what a rule matches, how often it fires, and what it does.
import { RE2JS } from 're2js';
import * as z from 'zod';
import { DURATION_TEXT_PATTERN, MAX_DURATION_MS, parseDuration } from '../../domain/durations.js';

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

/** Rules name prompts, keys and paths, not documents: what a pattern or route may be, checked before it is compiled. */
export const MAX_PATTERN_LENGTH = 500;
export const MAX_ROUTE_LENGTH = 200;
/**
 * RE2 compiles a counted repetition into one copy per count, so `(.{1000}){1000}` is a million instructions (seconds
 * of compiling, tens of MB per rule). A pattern's length times the product of its counts stays under this.
 */
const MAX_PATTERN_COST = 50_000;

/** An upper bound on the size of the compiled program, read from the source text alone (an escaped `\{2}` counts too). */
function patternCost(source: string): number {
  let product = 1;
  for (const count of source.matchAll(/\{(\d+)(?:,(\d*))?\}/g))
    product = Math.min(product * Math.max(1, Number(count[1]), Number(count[2] || 0)), Number.MAX_SAFE_INTEGER);
  return source.length * product;
}

/** A regular expression source, or a /literal/flags form; checked by compiling it. */
export const regexSchema = z.string().min(1).max(MAX_PATTERN_LENGTH).superRefine(refineRegex);

/** Compiles the pattern in RE2 (linear time), so a rule that cannot compile is refused with the field named. */
function refineRegex(value: string, ctx: z.RefinementCtx): void {
  // Too long is the schema's own message; nothing is compiled.
  if (value.length > MAX_PATTERN_LENGTH) return;
  if (patternCost(value) > MAX_PATTERN_COST) {
    ctx.addIssue({
      code: 'custom',
      message: `repeats too much to compile cheaply: its counted repetitions ({n}) multiply past ${MAX_PATTERN_COST} with its length; use * or + or smaller counts`,
    });
    return;
  }
  try {
    compileRegex(value);
  } catch (error) {
    ctx.addIssue({
      code: 'custom',
      message: `is not a valid regular expression in RE2 syntax (no backreferences or lookaround): ${(error as Error).message}`,
    });
  }
}

/** What a rule needs of a pattern: a yes/no answer in time linear in the input. */
export interface Pattern {
  test(input: string): boolean;
}

/**
 * RE2 semantics (re2js): no backreferences or lookaround, and matching time linear in the input, so a rule such as
 * /^(a+)+$/ cannot stall the server. `i`, `m` and `s` map to RE2 flags; `d`, `g`, `u` and `y` change nothing for a test.
 */
export function compileRegex(value: string): Pattern {
  const literal = /^\/(.*)\/([dgimsuy]*)$/s.exec(value);
  const source = literal ? literal[1] : value;
  const flags = literal ? literal[2] : '';
  const re = RE2JS.compile(
    source,
    (flags.includes('i') ? RE2JS.CASE_INSENSITIVE : 0) |
      (flags.includes('m') ? RE2JS.MULTILINE : 0) |
      (flags.includes('s') ? RE2JS.DOTALL : 0),
  );
  return { test: (input) => re.test(input) };
}

/**
 * `/v1/media/*` or `/v1/media/generations/:id` as a pattern. Compiled by RE2 (re2js) like the other matchers: with a
 * backtracking engine a route of a few dozen `*` takes exponential time against a path that does not match.
 */
export function compileRoute(route: string): Pattern {
  const pattern = route
    .split(/(:[A-Za-z_]\w*|\*)/)
    .map((part) => (part === '*' ? '.*' : part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  const re = RE2JS.compile(`^${pattern.replace(/\/$/, '')}/?$`);
  return { test: (path) => re.test(path) };
}

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

const latencyObject = z.strictObject(latencyShape);
type LatencyFields = z.output<typeof latencyObject>;

function checkLatency(value: LatencyFields, ctx: z.core.$RefinementCtx) {
  const need = (field: keyof LatencyFields) => {
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
export const latencySchema = latencyObject.superRefine(checkLatency);

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

export const matchSchema = z.strictObject({
  method: z
    .string()
    .regex(/^[A-Za-z]+$/, 'must be an HTTP method such as POST')
    .transform((m) => m.toUpperCase())
    .optional(),
  route: z
    .string()
    .startsWith('/', 'must start with "/", e.g. "/v1/media/generations" or "/v1/media/*"')
    .max(MAX_ROUTE_LENGTH)
    .superRefine((value, ctx) => {
      if (value.length > MAX_ROUTE_LENGTH) return;
      try {
        compileRoute(value);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: `cannot be matched: ${(error as Error).message}` });
      }
    })
    .optional(),
  model_slug: z.string().min(1).optional(),
  key_id: z.int().positive().optional(),
  prompt: regexSchema.optional(),
  /** A literal key, or a /pattern/flags checked like `prompt`. */
  idempotency_key: z
    .string()
    .min(1)
    .max(MAX_PATTERN_LENGTH)
    .superRefine((value, ctx) => {
      if (value.startsWith('/')) refineRegex(value, ctx);
    })
    .optional(),
});

export const faultRuleSchema = z.strictObject({
  id: z
    .string()
    .regex(/^[A-Za-z0-9_.:-]{1,64}$/, 'must be 1-64 letters, digits or _ . : -')
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
export type FaultAction = ParsedFaultRule['action'];
export type HttpFaultAction = Extract<FaultAction, { type: (typeof HTTP_ACTIONS)[number] }>;
export type GenerationFaultAction = Extract<FaultAction, { type: (typeof GENERATION_ACTIONS)[number] }>;
export type LatencySpec = z.output<typeof latencySchema>;
export type RefundPolicyInput = z.output<typeof refundPolicySchema>;

export const isGenerationAction = (action: FaultAction): action is GenerationFaultAction =>
  (GENERATION_ACTIONS as readonly string[]).includes(action.type);
