// The control plane (/_emulator/*) as documented operations, after docs/control-plane-contract.md.
import { z } from 'zod';
import * as c from './control-schemas.js';
import { single, type JsonSchema } from './json-schema.js';
import { generationSchema } from './response-schemas.js';
import { json, ref, type ErrorEntry, type OperationSpec } from './operation.js';
import { BAD_PATH } from './public-paths.js';

const ADMIN_ERRORS = ['admin_token_required', 'admin_token_invalid'];

/** Named control schemas, converted with the public ones so they can share components. */
export const CONTROL_SCHEMAS = {
  Health: c.healthSchema,
  Ok: c.okSchema,
  Account: c.accountSchema,
  AccountList: z.strictObject({ accounts: z.array(c.accountSchema) }),
  BalanceRequest: c.balanceRequestSchema,
  Balance: c.balanceSchema,
  Key: c.keySchema,
  KeyList: z.strictObject({ keys: z.array(c.keySchema) }),
  KeyEnvelope: z.strictObject({ key: c.keySchema }),
  NewKey: c.newKeySchema,
  Clock: c.clockSchema,
  AdvanceRequest: c.advanceRequestSchema,
  Advance: c.advanceSchema,
  Timing: c.timingSchema,
  TimingRequest: c.timingRequestSchema,
  AdminGeneration: c.adminGenerationSchema,
  AdminGenerationList: z.strictObject({ generations: z.array(c.adminGenerationSchema) }),
  FailRequest: c.failRequestSchema,
  RefundRequest: c.refundRequestSchema,
  Refund: z.strictObject({ generation: generationSchema, refunded: z.int().positive() }),
  LedgerEntry: c.ledgerEntrySchema,
  Ledger: z.strictObject({ entries: z.array(c.ledgerEntrySchema) }),
  JournalEntry: c.journalEntrySchema,
  Journal: z.strictObject({ entries: z.array(c.journalEntrySchema) }),
  Fault: c.faultSchema,
  FaultList: z.strictObject({ faults: z.array(c.faultSchema) }),
  FaultEnvelope: z.strictObject({ fault: c.faultSchema }),
  Scenarios: z.strictObject({ available: z.array(z.string()), active: c.scenarioProgressSchema.nullable() }),
  ActiveScenario: z.strictObject({ active: c.scenarioProgressSchema.nullable() }),
};

interface ControlOp {
  method: OperationSpec['method'];
  path: string;
  id: string;
  summary: string;
  body?: string;
  status?: number;
  answer: string;
  errors?: ErrorEntry[];
  query?: OperationSpec['parameters'];
}

const idParam = (name: string, type: 'string' | 'integer' = 'string') => ({ name, in: 'path' as const, required: true, schema: { type } });

function op(spec: ControlOp): OperationSpec {
  const pathParams = [...spec.path.matchAll(/\{(\w+)\}/g)].map((m) => idParam(m[1]));
  const parameters = [...pathParams, ...(spec.query ?? [])];
  return {
    method: spec.method,
    path: spec.path,
    operationId: spec.id,
    summary: spec.summary,
    tag: 'Control',
    auth: 'admin',
    ...(parameters.length ? { parameters } : {}),
    ...(spec.body ? { requestBody: { required: true, content: { 'application/json': { schema: ref(spec.body) } } } } : {}),
    responses: { [spec.status ?? 200]: json(ref(spec.answer), spec.summary) },
    errors: [...ADMIN_ERRORS, ...(spec.errors ?? []), ...(pathParams.length ? [BAD_PATH] : [])],
    validation: spec.body !== undefined,
  };
}

const query = (schema: z.ZodObject) =>
  Object.entries((single(schema, 'input').properties ?? {}) as Record<string, JsonSchema>).map(([name, s]) => ({ name, in: 'query' as const, schema: s }));

export function controlOperations(): OperationSpec[] {
  const generationErrors = ['generation_not_found'];
  return [
    op({ method: 'post', path: '/_emulator/reset', id: 'reset', summary: 'Back to the seeded state', answer: 'Ok' }),
    op({ method: 'get', path: '/_emulator/accounts', id: 'listAccounts', summary: 'Accounts and balances', answer: 'AccountList' }),
    op({ method: 'post', path: '/_emulator/accounts/{id}/balance', id: 'setBalance', summary: 'Set or add to a balance', body: 'BalanceRequest', answer: 'Balance', errors: ['account_not_found', 'invalid_amount'] }),
    op({ method: 'get', path: '/_emulator/keys', id: 'listKeys', summary: 'API keys', answer: 'KeyList' }),
    op({ method: 'post', path: '/_emulator/keys', id: 'createKey', summary: 'Create an API key', body: 'NewKey', status: 201, answer: 'KeyEnvelope', errors: ['account_not_found', 'invalid_key_format', 'key_exists'] }),
    op({ method: 'post', path: '/_emulator/keys/{id}/revoke', id: 'revokeKey', summary: 'Revoke an API key', answer: 'KeyEnvelope', errors: ['key_not_found'] }),
    op({ method: 'get', path: '/_emulator/clock', id: 'getClock', summary: 'The emulator clock', answer: 'Clock' }),
    op({ method: 'post', path: '/_emulator/clock/advance', id: 'advanceClock', summary: 'Move the clock forward, running due transitions', body: 'AdvanceRequest', answer: 'Advance' }),
    op({ method: 'post', path: '/_emulator/clock/freeze', id: 'freezeClock', summary: 'Stop the clock', answer: 'Clock' }),
    op({ method: 'post', path: '/_emulator/clock/unfreeze', id: 'unfreezeClock', summary: 'Let the clock follow real time', answer: 'Clock' }),
    op({ method: 'get', path: '/_emulator/timing', id: 'getTiming', summary: 'Timing profiles', answer: 'Timing' }),
    op({ method: 'put', path: '/_emulator/timing', id: 'setTiming', summary: 'Change timing profiles', body: 'TimingRequest', answer: 'Timing' }),
    op({ method: 'get', path: '/_emulator/generations', id: 'adminListGenerations', summary: 'Generations of every account, newest first', answer: 'AdminGenerationList', query: query(c.CONTROL_STATUS_QUERY) }),
    op({ method: 'post', path: '/_emulator/generations/{id}/complete', id: 'completeGeneration', summary: 'Complete a generation now', answer: 'GenerationEnvelope', errors: [...generationErrors, 'generation_final'] }),
    op({ method: 'post', path: '/_emulator/generations/{id}/fail', id: 'failGeneration', summary: 'Fail a generation now', body: 'FailRequest', answer: 'GenerationEnvelope', errors: [...generationErrors, 'generation_final', 'invalid_refund_amount'] }),
    op({ method: 'post', path: '/_emulator/generations/{id}/refund', id: 'refundGeneration', summary: 'Refund a generation', body: 'RefundRequest', answer: 'Refund', errors: [...generationErrors, 'already_refunded', 'invalid_refund_amount'] }),
    op({ method: 'get', path: '/_emulator/ledger', id: 'ledger', summary: 'Ledger entries', answer: 'Ledger', query: [{ name: 'account_id', in: 'query', schema: { type: 'string' } }, { name: 'generation_id', in: 'query', schema: { type: 'string' } }] }),
    op({ method: 'get', path: '/_emulator/faults', id: 'listFaults', summary: 'Fault rules', answer: 'FaultList' }),
    op({ method: 'post', path: '/_emulator/faults', id: 'addFault', summary: 'Add a fault rule', body: 'Fault', status: 201, answer: 'FaultEnvelope' }),
    op({ method: 'delete', path: '/_emulator/faults', id: 'clearFaults', summary: 'Remove every fault rule', answer: 'FaultList' }),
    op({ method: 'delete', path: '/_emulator/faults/{id}', id: 'deleteFault', summary: 'Remove a fault rule', answer: 'FaultList' }),
    op({ method: 'patch', path: '/_emulator/faults/{id}', id: 'updateFault', summary: 'Enable or disable a fault rule', body: 'Fault', answer: 'FaultEnvelope' }),
    op({ method: 'get', path: '/_emulator/scenarios', id: 'listScenarios', summary: 'Scenarios', answer: 'Scenarios' }),
    op({ method: 'post', path: '/_emulator/scenarios', id: 'startScenario', summary: 'Start a scenario', body: 'Fault', answer: 'ActiveScenario' }),
    op({ method: 'delete', path: '/_emulator/scenarios/active', id: 'stopScenario', summary: 'Stop the active scenario', answer: 'ActiveScenario' }),
    op({ method: 'get', path: '/_emulator/journal', id: 'journal', summary: 'Requests the emulator received', answer: 'Journal' }),
    op({ method: 'delete', path: '/_emulator/journal', id: 'clearJournal', summary: 'Empty the journal', answer: 'Ok' }),
  ];
}
