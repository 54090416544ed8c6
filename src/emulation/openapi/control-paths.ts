// The control plane's schemas, and its account, key, clock, timing and generation operations (faults, scenarios, journal
// and state are in rules-and-state-paths.ts). Request schemas are the zod inputs the control plane parses with.
import * as z from 'zod';
import { generationsQuery, ledgerQuery } from '../inputs.js';
import { CONSOLE_SCHEMAS } from './control-console.js';
import * as c from './control-schemas.js';
import { ref, type OperationSpec } from '../../openapi/operation.js';
import { op } from './control-op.js';

/** Answers of the control plane. */
export const CONTROL_SCHEMAS = {
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

export function controlOperations(): OperationSpec[] {
  const found = ['generation_not_found'];
  return [
    op({
      method: 'post',
      path: '/_emulator/reset',
      id: 'reset',
      summary: 'Back to the seeded state',
      description: 'Keys, balances, generations, idempotency, journal, faults, scenario and files.',
      answer: 'Ok',
    }),
    op({
      method: 'get',
      path: '/_emulator/accounts',
      id: 'listAccounts',
      summary: 'Accounts and balances',
      answer: 'AccountList',
    }),
    op({
      method: 'post',
      path: '/_emulator/accounts/{id}/balance',
      id: 'changeBalance',
      summary: 'Set or add to a balance (a funding entry in the ledger)',
      body: 'BalanceChange',
      answer: 'Balance',
      errors: ['account_not_found', 'invalid_amount'],
    }),
    op({
      method: 'get',
      path: '/_emulator/api-key',
      id: 'seededKey',
      summary: 'The seeded API key (--api-key) and its account, as startEmulator() returns it',
      answer: 'SeededKey',
    }),
    op({ method: 'get', path: '/_emulator/keys', id: 'listKeys', summary: 'API keys', answer: 'KeyList' }),
    op({
      method: 'post',
      path: '/_emulator/keys',
      id: 'createKey',
      summary: 'Create an API key',
      body: 'NewKey',
      status: 201,
      answer: 'KeyEnvelope',
      errors: ['account_not_found', 'invalid_key_format', 'key_exists'],
    }),
    op({
      method: 'post',
      path: '/_emulator/keys/{id}/revoke',
      id: 'revokeKey',
      summary: 'Revoke an API key',
      answer: 'KeyEnvelope',
      errors: ['key_not_found'],
    }),
    op({ method: 'get', path: '/_emulator/clock', id: 'getClock', summary: 'The emulator clock', answer: 'Clock' }),
    op({
      method: 'post',
      path: '/_emulator/clock/advance',
      id: 'advanceClock',
      summary: 'Move the clock forward, running due transitions and waiting for their renders',
      body: 'AdvanceRequest',
      answer: 'Advance',
      errors: ['invalid_duration'],
    }),
    op({
      method: 'post',
      path: '/_emulator/clock/freeze',
      id: 'freezeClock',
      summary: 'Stop the clock',
      answer: 'Clock',
    }),
    op({
      method: 'post',
      path: '/_emulator/clock/unfreeze',
      id: 'unfreezeClock',
      summary: 'Let the clock follow real time again',
      answer: 'Clock',
    }),
    op({ method: 'get', path: '/_emulator/timing', id: 'getTiming', summary: 'Timing profiles', answer: 'Timing' }),
    op({
      method: 'put',
      path: '/_emulator/timing',
      id: 'setTiming',
      summary: 'Change timing profiles (by_model entries merge; null removes one)',
      body: 'TimingChange',
      answer: 'Timing',
    }),
    op({
      method: 'get',
      path: '/_emulator/generations',
      id: 'adminListGenerations',
      summary: 'Generations of every account, newest first',
      answer: 'AdminGenerationList',
      query: generationsQuery,
    }),
    op({
      method: 'get',
      path: '/_emulator/generations/{id}',
      id: 'adminGetGeneration',
      summary: 'One generation of any account',
      answer: 'AdminGenerationEnvelope',
      errors: found,
    }),
    op({
      method: 'post',
      path: '/_emulator/generations/{id}/complete',
      id: 'completeGeneration',
      summary: 'Complete a generation now, once its outputs are rendered',
      answer: 'AdminGenerationEnvelope',
      errors: [...found, 'generation_final'],
    }),
    op({
      method: 'post',
      path: '/_emulator/generations/{id}/fail',
      id: 'failGeneration',
      summary: 'Fail a generation now, with a code and a refund policy',
      body: 'FailRequest',
      answer: 'AdminGenerationEnvelope',
      errors: [...found, 'generation_final', 'invalid_refund_amount'],
    }),
    op({
      method: 'post',
      path: '/_emulator/generations/{id}/wait',
      id: 'waitForGeneration',
      summary: 'Move the clock transition by transition until the generation reaches target (waitFor)',
      body: 'WaitRequest',
      answer: 'AdminGenerationEnvelope',
      errors: [...found, 'unreachable_state', 'invalid_duration'],
    }),
    op({
      method: 'post',
      path: '/_emulator/generations/{id}/refund',
      id: 'refundGeneration',
      summary: 'Refund a completed or failed generation',
      body: 'RefundRequest',
      answer: 'Refund',
      errors: [...found, 'generation_not_final', 'already_refunded', 'invalid_refund_amount'],
    }),
    op({
      method: 'get',
      path: '/_emulator/ledger',
      id: 'ledger',
      summary: 'Ledger entries, oldest first',
      answer: 'Ledger',
      query: ledgerQuery,
    }),
  ];
}

/** Answers that wrap fault rules, built from the input-side Fault component. */
export const FAULT_ANSWERS = {
  FaultList: {
    type: 'object',
    properties: { faults: { type: 'array', items: ref('Fault') } },
    required: ['faults'],
    additionalProperties: false,
  },
  FaultEnvelope: {
    type: 'object',
    properties: { fault: ref('Fault') },
    required: ['fault'],
    additionalProperties: false,
  },
};
