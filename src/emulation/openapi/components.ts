// The control plane's named schemas: the components of /openapi.json that its operations' bodies and answers refer to.
import * as z from 'zod';
import {
  advanceInput,
  balanceInput,
  failInput,
  faultPatchInput,
  newKeyInput,
  refundInput,
  scenarioLoadInput,
  timingInput,
  waitInput,
} from '../inputs.js';
import { faultRuleSchema } from '../faults/fault-schema.js';
import { MAX_SCENARIO_ITEMS, scenarioSchema } from '../scenarios/scenario-schema.js';
import { CONSOLE_SCHEMAS } from './control-console.js';
import * as c from './control-schemas.js';

/**
 * `.meta()` makes a new schema: the one instance is both the component and what ScenarioLoad refers to. The server
 * reads `faults` as objects and then checks each as POST /_emulator/faults does (its messages prefixed with the
 * rule's index); the document says so with the rule's own schema.
 */
const scenarioFormat = scenarioSchema
  .extend({ faults: z.array(faultRuleSchema).max(MAX_SCENARIO_ITEMS).default([]) })
  .meta({
    description:
      'The scenario file format (fixtures/scenarios/*.json), also accepted inline by POST /_emulator/scenarios.',
  });

const fault = faultRuleSchema
  .extend(c.faultStateShape)
  .meta({ description: 'A fault rule as it was given, with its id, state and counters.' });

/** Request bodies and the rule and scenario formats, converted on their input side. */
export const CONTROL_INPUT_SCHEMAS = {
  BalanceChange: balanceInput,
  NewKey: newKeyInput,
  AdvanceRequest: advanceInput,
  TimingChange: timingInput,
  FailRequest: failInput,
  RefundRequest: refundInput,
  WaitRequest: waitInput,
  FaultRule: faultRuleSchema,
  FaultPatch: faultPatchInput,
  Fault: fault,
  // The server reads `scenario` as any object and then as a scenario (invalid_scenario); the document says the latter.
  ScenarioLoad: z.union([scenarioLoadInput.options[0], z.strictObject({ scenario: scenarioFormat })]),
  Scenario: scenarioFormat,
  // Answers, but converted with the inputs: they refer to the Fault component, which is an input-side conversion.
  FaultList: z.strictObject({ faults: z.array(fault) }),
  FaultEnvelope: z.strictObject({ fault }),
};

/** Answers of the control plane, converted on their output side. */
export const CONTROL_OUTPUT_SCHEMAS = {
  Health: c.healthSchema,
  Ok: c.okSchema,
  Account: c.accountSchema,
  AccountList: z.strictObject({ accounts: z.array(c.accountSchema) }),
  Balance: c.balanceSchema,
  Key: c.keySchema,
  KeyList: z.strictObject({ keys: z.array(c.keySchema) }),
  KeyEnvelope: z.strictObject({ key: c.keySchema }),
  SeededKey: z.strictObject({ api_key: z.string(), account_id: z.string() }),
  Clock: c.clockSchema,
  Advance: c.advanceSchema,
  Timing: c.timingSchema,
  AdminGeneration: c.adminGenerationSchema,
  AdminGenerationEnvelope: z.strictObject({ generation: c.adminGenerationSchema }),
  AdminGenerationList: z.strictObject({ generations: z.array(c.adminGenerationSchema) }),
  Refund: z.strictObject({ generation: c.adminGenerationSchema, refunded: z.int().positive() }),
  LedgerEntry: c.ledgerEntrySchema,
  Ledger: z.strictObject({ entries: z.array(c.ledgerEntrySchema) }),
  JournalEntry: c.journalEntrySchema,
  Journal: z.strictObject({ entries: z.array(c.journalEntrySchema) }),
  ScenarioProgress: c.scenarioProgressSchema,
  Scenarios: z.strictObject({ available: z.array(z.string()), active: c.scenarioProgressSchema.nullable() }),
  ActiveScenario: z.strictObject({ active: c.scenarioProgressSchema.nullable() }),
  State: c.stateSchema,
  ...CONSOLE_SCHEMAS,
};

/** What declarations name as their bodies and answers. */
export const CONTROL_SCHEMAS = { ...CONTROL_INPUT_SCHEMAS, ...CONTROL_OUTPUT_SCHEMAS };

const NAMES = new Map<z.ZodType, string>();
for (const [name, schema] of Object.entries(CONTROL_SCHEMAS)) {
  if (NAMES.has(schema)) throw new Error(`${name} and ${NAMES.get(schema)} are one schema: give each its own instance`);
  NAMES.set(schema, name);
}

/** The component a declaration's body or answer is; a schema that is none is a mistake in the declaration. */
export function componentName(schema: z.ZodType): string {
  const name = NAMES.get(schema);
  if (!name) throw new Error('A control operation names a schema that is not a component: add it to components.ts');
  return name;
}
