// Request bodies of the control plane and the rule and scenario formats: the zod inputs the control plane parses with.
import * as z from 'zod';
import {
  advanceInput,
  balanceInput,
  failInput,
  faultPatchInput,
  newKeyInput,
  refundInput,
  waitInput,
  scenarioLoadInput,
  timingInput,
} from '../inputs.js';
import { faultRuleSchema } from '../faults/fault-schema.js';
import { scenarioSchema } from '../scenarios/scenario-schema.js';
import * as c from './control-schemas.js';

/** `.meta()` makes a new schema: the one instance is both the component and what ScenarioLoad refers to. */
const scenarioFormat = scenarioSchema.meta({
  description:
    'The scenario file format (fixtures/scenarios/*.json), also accepted inline by POST /_emulator/scenarios.',
});

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
  Fault: faultRuleSchema
    .extend(c.faultStateShape)
    .meta({ description: 'A fault rule as it was given, with its id, state and counters.' }),
  // The server reads `scenario` as any object and then as a scenario (invalid_scenario); the document says the latter.
  ScenarioLoad: z.union([scenarioLoadInput.options[0], z.strictObject({ scenario: scenarioFormat })]),
  Scenario: scenarioFormat,
};

/** A body is required when the control plane refuses an absent one (it reads an absent body as `{}`). */
export function bodyRequired(component: string): boolean {
  const schema = (CONTROL_INPUT_SCHEMAS as Record<string, z.ZodType>)[component];
  return schema ? !schema.safeParse({}).success : true;
}
