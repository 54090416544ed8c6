// Inputs of control calls (HTTP bodies and client arguments alike), validated with zod; errors name the field.
// A body names itself for /openapi.json (`.meta({ id })`); queries are parameters, so they have no name.
import * as z from 'zod';
import { KEY_SHAPE } from '../domain/accounts.js';
import { PlaneError, type PlaneErrorCode } from './error-codes.js';
import { GENERATION_STATUSES } from '../domain/generation.js';
import { durationSchema, errorCode, refundPolicySchema } from './faults/fault-schema.js';
import { TIMING_PROFILES } from '../domain/timing.js';
import { describeProblems, type FieldProblem, fieldProblems } from '../domain/zod-issues.js';

const profile = z.enum(TIMING_PROFILES);

export const balanceInput = z
  .union([z.strictObject({ set: z.int().min(0) }), z.strictObject({ add: z.int() })], {
    error: 'must be { "set": n } with n >= 0, or { "add": n } with n a whole number of credits (negative takes away)',
  })
  .meta({ id: 'BalanceChange' });

export const newKeyInput = z
  .strictObject({
    account_id: z.string().min(1).optional(),
    name: z.string().min(1).max(200).optional(),
    model_scope: z.string().min(1).nullable().optional(),
    daily_credit_limit: z.int().min(0).nullable().optional(),
    // Checked by the accounts store (invalid_key_format); the pattern is its own.
    secret: z.string().meta({ pattern: KEY_SHAPE.source }).optional(),
  })
  .meta({ id: 'NewKey' });

export const advanceInput = z.strictObject({ by: durationSchema }).meta({ id: 'AdvanceRequest' });

export const timingInput = z
  .strictObject({
    profile: profile.optional(),
    /** null removes a model's override. */
    by_model: z.record(z.string(), profile.nullable()).optional(),
  })
  .meta({ id: 'TimingChange' });

export const failInput = z
  .strictObject({
    code: errorCode.optional(),
    message: z.string().min(1).max(2000).optional(),
    refund: refundPolicySchema.optional(),
  })
  .meta({ id: 'FailRequest' });

/** POST /_emulator/generations/{id}/wait: what the remote client's waitFor sends. */
export const waitInput = z
  .strictObject({
    target: z.enum([...GENERATION_STATUSES, 'final']),
    /** How far the clock may be moved before giving up; default "24h" of emulator time. */
    within: durationSchema.optional(),
  })
  .meta({ id: 'WaitRequest' });

export const refundInput = z.strictObject({ amount: z.int().positive().optional() }).meta({ id: 'RefundRequest' });

export const faultPatchInput = z.strictObject({ enabled: z.boolean() }).meta({ id: 'FaultPatch' });

export const scenarioLoadInput = z.union(
  [z.strictObject({ name: z.string().min(1) }), z.strictObject({ scenario: z.record(z.string(), z.unknown()) })],
  {
    error: 'must be { "name": "flaky-network" } or { "scenario": { ... } }',
  },
);

/**
 * One whole number from `min` (to `max`), or its digits as a query string gives them. Every way to miss (a word, a
 * fraction, a repeated parameter, 2^64, out of range) is one problem saying what is accepted, not zod's own texts.
 */
function wholeNumber(min: number, max?: number) {
  const error = `must be one whole number from ${min}${max === undefined ? ' up' : ` to ${max}`}`;
  const atLeast = z.int({ error, abort: true }).min(min, { error, abort: true });
  return z
    .union([z.int(), z.string().regex(/^\d+$/).transform(Number)], { error })
    .pipe(max === undefined ? atLeast : atLeast.max(max, { error }));
}

/** The largest `since` given as milliseconds: 15 digits (a date far past any the emulator clock reaches). */
const MAX_EPOCH_DIGITS = 999_999_999_999_999;

export const journalQuery = z.object({
  /** Exact path, or a prefix ending in `*`. */
  path: z.string({ error: 'must be one path, or a pattern ending in * such as /v1/media/generations*' }).optional(),
  method: z.string({ error: 'must be one method such as POST' }).optional(),
  // One value each: a repeated parameter is an array, refused in the words the store uses for a bad value.
  /** 503, "503" or a class such as "5xx"; 0 for requests that got no HTTP answer; empty for any. */
  status: z
    .union([z.string().regex(/^(\d{1,3}|[1-5][xX][xX])?$/), z.int().min(0).max(999)], {
      error: 'must be one status such as 503 or a class such as 5xx',
    })
    .optional(),
  // What the journal reads as an instant, and nothing else: a query sends a number as its digits.
  since: z
    .union([z.iso.datetime({ offset: true }), z.string().regex(/^\d{1,15}$/), z.int().min(0).max(MAX_EPOCH_DIGITS)], {
      error: 'must be one time: an ISO 8601 date-time such as 2026-01-01T00:00:00Z, or milliseconds since 1970',
    })
    // The instant in ms: digits as their number, a date-time (its calendar already checked) as Date.parse reads it.
    .transform((t) => (typeof t === 'number' || /^\d+$/.test(t) ? Number(t) : Date.parse(t)))
    .optional(),
  fault_id: z.string({ error: 'must be one fault rule id' }).optional(),
  limit: wholeNumber(1, 10_000).optional(),
});

export const generationsQuery = z.object({
  status: z.enum(GENERATION_STATUSES).optional(),
  limit: wholeNumber(1, 1000).optional(),
  account_id: z.string().optional(),
});

export const summaryQuery = z.object({
  status: z.enum(GENERATION_STATUSES).optional(),
  model: z.string().max(200).optional(),
  /** A plain substring of the id or the prompt; never compiled as a pattern. */
  q: z.string().max(500).optional(),
  offset: wholeNumber(0).optional(),
  limit: wholeNumber(1, 100).optional(),
  journal_limit: wholeNumber(1, 200).optional(),
});

export const ledgerQuery = z.object({ account_id: z.string().optional(), generation_id: z.string().optional() });

/** Parses with `schema`; a failure is a 422 `code` whose message and `problems` name every bad field. */
export function parseOrRefuse<T extends z.ZodType>(
  code: PlaneErrorCode,
  schema: T,
  input: unknown,
  what: string,
): z.output<T> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw invalidInput(code, `The ${what}`, fieldProblems(result.error.issues));
}

/** A refusal naming every bad field: "`subject` is not valid: ...", with the problems as its details. */
export const invalidInput = (code: PlaneErrorCode, subject: string, problems: FieldProblem[]) =>
  new PlaneError(code, `${subject} is not valid: ${describeProblems(problems)}.`, { problems });

/** Parses a control input (an absent body or query reads as `{}`); a failure is `invalid_control_request`. */
export const parseInput = <T extends z.ZodType>(schema: T, input: unknown, what: string): z.output<T> =>
  parseOrRefuse('invalid_control_request', schema, input ?? {}, what);
