// The scenario file format: setup steps run in order at load, then fault rules installed in order (first match wins).
import * as z from 'zod';
import { ACCOUNT_STEPS } from '../admin/account-api.js';
import { CLOCK_STEPS } from '../clock/clock-api.js';
import type { FaultRuleInput } from '../faults/fault-schema.js';
import type { ControlDeps } from '../plane-state.js';
import type { DryRun } from './dry-run.js';
import type { ScenarioStep } from './scenario-step.js';

/** Every step, by its `op`, declared beside the operation it runs; in this order an unknown op's message names them. */
const STEPS = { ...ACCOUNT_STEPS, ...CLOCK_STEPS };
type Steps = typeof STEPS;
type Op = keyof Steps;
type FieldsOf<K extends Op> = Steps[K] extends ScenarioStep<infer S> ? S : never;

const STEP_OPS = Object.keys(STEPS) as Op[];

const stepSchema = z.discriminatedUnion(
  'op',
  STEP_OPS.map((op) => z.strictObject({ op: z.literal(op), ...STEPS[op].fields })) as unknown as [
    { [K in Op]: z.ZodObject<{ op: z.ZodLiteral<K> } & FieldsOf<K>, z.core.$strict> }[Op],
  ],
  { error: (issue) => (issue.code === 'invalid_union' ? `op must be one of ${STEP_OPS.join(', ')}` : undefined) },
);

/** A step a scenario holds (one the scenario schema has read), ready to check and to run with its fields. */
export function stepOf({ op, ...fields }: { op: string }) {
  const step = STEPS[op as Op] as unknown as ScenarioStep;
  return {
    check: (run: DryRun, deps: ControlDeps) => step.check(run, fields, deps),
    run: (deps: ControlDeps) => step.run(deps, fields),
  };
}

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

/** A scenario as loaded: each step an operation's input with its `op`, each fault rule checked at load. */
export type ScenarioDefinition = z.output<typeof scenarioSchema>;
/** A scenario as written: its fault rules as POST /_emulator/faults takes them (checked one by one at load). */
export type ScenarioInput = Omit<z.input<typeof scenarioSchema>, 'faults'> & { faults?: FaultRuleInput[] };
