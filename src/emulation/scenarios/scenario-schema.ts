// The scenario file format: setup steps run in order at load, then fault rules installed in order (first match wins).
import * as z from 'zod';
import { accountIdSchema, KEY_SHAPE, KEY_SHAPE_RULE } from '../../domain/accounts.js';
import { durationSchema, type FaultRuleInput } from '../faults/fault-schema.js';
import { newKeyInput, timingInput } from '../inputs.js';

const accountId = z.string().min(1).max(80).optional();

const steps = [
  z.strictObject({ op: z.literal('set_balance'), balance: z.int().min(0), account_id: accountId }),
  z.strictObject({
    op: z.literal('top_up'),
    amount: z.int().refine((n) => n !== 0, 'must not be 0'),
    account_id: accountId,
  }),
  z.strictObject({
    op: z.literal('create_account'),
    id: accountIdSchema,
    name: z.string().max(200).optional(),
    balance: z.int().min(0).optional(),
  }),
  z.strictObject({
    op: z.literal('create_key'),
    secret: z.string().regex(KEY_SHAPE, KEY_SHAPE_RULE).optional(),
    account_id: accountId,
    // As POST /_emulator/keys takes them: the step runs that operation.
    name: newKeyInput.shape.name,
    model_scope: newKeyInput.shape.model_scope,
    daily_credit_limit: newKeyInput.shape.daily_credit_limit,
  }),
  z.strictObject({ op: z.literal('revoke_key'), id: z.int().positive() }),
  z.strictObject({ op: z.literal('set_timing'), ...timingInput.shape }),
  z.strictObject({ op: z.literal('freeze_clock') }),
  z.strictObject({ op: z.literal('unfreeze_clock') }),
  z.strictObject({
    op: z.literal('set_clock'),
    to: z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time such as 2026-01-01T23:59:00Z' }),
  }),
  z.strictObject({ op: z.literal('advance_clock'), by: durationSchema }),
] as const;

/** The steps' `op`s, in the order above, as an unknown op's message names them. */
const STEP_OPS = steps.map((step) => step.shape.op.value);

const stepSchema = z.discriminatedUnion('op', steps, {
  error: (issue) => (issue.code === 'invalid_union' ? `op must be one of ${STEP_OPS.join(', ')}` : undefined),
});

export const MAX_SCENARIO_ITEMS = 1000;

export const scenarioSchema = z.strictObject({
  name: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,79}$/, 'must be lower-case letters, digits and dashes, e.g. "flaky-network"'),
  description: z.string().max(2000).optional(),
  /** What a client should see, in words: shown by the console and the progress. */
  expect: z.string().max(2000).optional(),
  // Bounded, so one load cannot make a hundred thousand keys or rules (the shipped ones have under ten of each).
  steps: z.array(stepSchema).max(MAX_SCENARIO_ITEMS).default([]),
  /** Rules as for POST /_emulator/faults; validated by the fault rule parser so its messages are the same. */
  faults: z.array(z.record(z.string(), z.unknown())).max(MAX_SCENARIO_ITEMS).default([]),
});

export type ScenarioStep = z.output<typeof stepSchema>;
export type ScenarioDefinition = z.output<typeof scenarioSchema>;
/** A scenario as written: its fault rules as POST /_emulator/faults takes them (checked one by one at load). */
export type ScenarioInput = Omit<z.input<typeof scenarioSchema>, 'faults'> & { faults?: FaultRuleInput[] };
