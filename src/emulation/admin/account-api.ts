// /_emulator/accounts, /_emulator/keys, /_emulator/api-key and /_emulator/reset, declared once (registry/operation.ts).
import { defineOperation } from '../registry/operation.js';
import { CONTROL_SCHEMAS as S } from '../openapi/components.js';
import { changeBalance, createKey, listAccounts, listKeys, revokeKey } from './account-operations.js';

export const ACCOUNT_API = {
  reset: defineOperation({
    method: 'post',
    path: '/_emulator/reset',
    summary: 'Back to the seeded state',
    description: 'Keys, balances, generations, idempotency, journal, faults, scenario and files.',
    answer: S.Ok,
    handle: async (deps) => {
      await deps.runtime.reset();
      return { ok: true as const };
    },
  }),
  listAccounts: defineOperation({
    method: 'get',
    path: '/_emulator/accounts',
    summary: 'Accounts and balances',
    answer: S.AccountList,
    handle: (deps) => ({ accounts: listAccounts(deps) }),
  }),
  changeBalance: defineOperation({
    method: 'post',
    path: '/_emulator/accounts/:id/balance',
    summary: 'Set or add to a balance (a funding entry in the ledger)',
    body: S.BalanceChange,
    input: 'balance change',
    answer: S.Balance,
    errors: ['account_not_found', 'invalid_amount'],
    handle: (deps, { params, body }) => changeBalance(deps, params.id, body),
  }),
  seededKey: defineOperation({
    method: 'get',
    path: '/_emulator/api-key',
    summary: 'The seeded API key (--api-key) and its account, as startEmulator() returns it',
    answer: S.SeededKey,
    handle: (deps) => ({ api_key: deps.options.apiKey, account_id: deps.runtime.accountId }),
  }),
  listKeys: defineOperation({
    method: 'get',
    path: '/_emulator/keys',
    summary: 'API keys',
    answer: S.KeyList,
    handle: (deps) => ({ keys: listKeys(deps) }),
  }),
  createKey: defineOperation({
    method: 'post',
    path: '/_emulator/keys',
    summary: 'Create an API key',
    body: S.NewKey,
    input: 'new key',
    status: 201,
    answer: S.KeyEnvelope,
    errors: ['account_not_found', 'invalid_key_format', 'key_exists', 'limit_reached'],
    handle: (deps, { body }) => ({ key: createKey(deps, body) }),
  }),
  revokeKey: defineOperation({
    method: 'post',
    path: '/_emulator/keys/:id/revoke',
    summary: 'Revoke an API key',
    answer: S.KeyEnvelope,
    errors: ['key_not_found'],
    handle: (deps, { params }) => ({ key: revokeKey(deps, Number(params.id)) }),
  }),
};
