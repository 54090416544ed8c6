// /_emulator/accounts, /_emulator/keys, /_emulator/api-key and /_emulator/reset, declared once (registry/operation.ts).
import * as z from 'zod';
import { defineOperation } from '../registry/operation.js';
import { accountSchema, balanceSchema, keySchema, okSchema } from '../openapi/control-schemas.js';
import { balanceInput, newKeyInput } from '../inputs.js';
import { changeBalance, createKey, listAccounts, listKeys, revokeKey } from './account-operations.js';

const keyEnvelope = z.strictObject({ key: keySchema }).meta({ id: 'KeyEnvelope' });

export const ACCOUNT_API = {
  reset: defineOperation({
    method: 'post',
    path: '/_emulator/reset',
    summary: 'Back to the seeded state',
    description: 'Keys, balances, generations, idempotency, journal, faults, scenario and files.',
    answer: okSchema,
    handle: async (deps) => {
      await deps.runtime.reset();
      return { ok: true as const };
    },
  }),
  listAccounts: defineOperation({
    method: 'get',
    path: '/_emulator/accounts',
    summary: 'Accounts and balances',
    answer: z.strictObject({ accounts: z.array(accountSchema) }).meta({ id: 'AccountList' }),
    handle: (deps) => ({ accounts: listAccounts(deps) }),
  }),
  changeBalance: defineOperation({
    method: 'post',
    path: '/_emulator/accounts/:id/balance',
    summary: 'Set or add to a balance (a funding entry in the ledger)',
    body: balanceInput,
    input: 'balance change',
    answer: balanceSchema,
    errors: ['account_not_found', 'invalid_amount'],
    handle: (deps, { params, body }) => changeBalance(deps, params.id, body),
  }),
  seededKey: defineOperation({
    method: 'get',
    path: '/_emulator/api-key',
    summary: 'The seeded API key (--api-key) and its account, as startEmulator() returns it',
    answer: z.strictObject({ api_key: z.string(), account_id: z.string() }).meta({ id: 'SeededKey' }),
    handle: (deps) => ({ api_key: deps.options.apiKey, account_id: deps.runtime.accountId }),
  }),
  listKeys: defineOperation({
    method: 'get',
    path: '/_emulator/keys',
    summary: 'API keys',
    answer: z.strictObject({ keys: z.array(keySchema) }).meta({ id: 'KeyList' }),
    handle: (deps) => ({ keys: listKeys(deps) }),
  }),
  createKey: defineOperation({
    method: 'post',
    path: '/_emulator/keys',
    summary: 'Create an API key',
    body: newKeyInput,
    input: 'new key',
    status: 201,
    answer: keyEnvelope,
    errors: ['account_not_found', 'invalid_key_format', 'key_exists', 'limit_reached'],
    handle: (deps, { body }) => ({ key: createKey(deps, body) }),
  }),
  revokeKey: defineOperation({
    method: 'post',
    path: '/_emulator/keys/:id/revoke',
    summary: 'Revoke an API key',
    answer: keyEnvelope,
    errors: ['key_not_found'],
    handle: (deps, { params }) => ({ key: revokeKey(deps, Number(params.id)) }),
  }),
};
