// /_emulator/accounts, /_emulator/keys, /_emulator/api-key and /_emulator/reset, declared once (registry/operation.ts).
import * as z from 'zod';
import { accountIdSchema, KEY_SHAPE, KEY_SHAPE_RULE } from '../../domain/accounts.js';
import { defineOperation } from '../registry/operation.js';
import { accountSchema, balanceSchema, keySchema, okAfter, okSchema } from '../openapi/control-schemas.js';
import { balanceInput, newKeyInput } from '../inputs.js';
import { contextOf, type ControlDeps } from '../plane-state.js';
import { operationStep, ownStep } from '../scenarios/scenario-step.js';
import { keyView } from '../views.js';
import { changeBalance, createAccount, createKey, listAccounts, listKeys, revokeKey } from './account-operations.js';

const keyEnvelope = z.strictObject({ key: keySchema }).meta({ id: 'KeyEnvelope' });
const dailyLimit = z
  .strictObject({
    daily_credit_limit: z
      .int()
      .min(0)
      .nullable()
      .meta({ description: 'Net credits the key may spend per UTC day, from its next request on; null removes it.' }),
  })
  .meta({ id: 'DailyLimitChange' });

export const ACCOUNT_API = {
  reset: defineOperation({
    method: 'post',
    path: '/_emulator/reset',
    summary: 'Back to the seeded state',
    description: 'Keys, balances, generations, idempotency, journal, faults, scenario and files.',
    answer: okSchema,
    handle: (deps) => okAfter(deps.runtime.reset()),
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
  setKeyDailyLimit: defineOperation({
    method: 'put',
    path: '/_emulator/keys/:id/daily-limit',
    summary: "Set or remove an API key's daily credit ceiling",
    body: dailyLimit,
    input: 'daily limit',
    answer: keyEnvelope,
    errors: ['key_not_found'],
    handle: (deps, { params, body }) => {
      const key = contextOf(deps).accounts.setDailyCreditLimit(Number(params.id), body.daily_credit_limit);
      return { key: keyView(key) };
    },
  }),
};

const accountId = z.string().min(1).max(80).optional();
const accountOf = (step: { account_id?: string }, deps: ControlDeps) => step.account_id ?? deps.runtime.accountId;

/** Scenario steps (scenarios/scenario-step.ts), in the order an unknown op's message lists them. */
export const ACCOUNT_STEPS = {
  set_balance: operationStep(ACCOUNT_API.changeBalance, {
    fields: { balance: z.int().min(0), account_id: accountId },
    input: (step, deps) => ({ params: { id: accountOf(step, deps) }, body: { set: step.balance } }),
    check: (run, { params, body }) => run.changeBalance(params.id, body),
  }),
  top_up: operationStep(ACCOUNT_API.changeBalance, {
    fields: { amount: z.int().refine((n) => n !== 0, 'must not be 0'), account_id: accountId },
    input: (step, deps) => ({ params: { id: accountOf(step, deps) }, body: { add: step.amount } }),
    check: (run, { params, body }) => run.changeBalance(params.id, body),
  }),
  create_account: ownStep({
    fields: { id: accountIdSchema, name: z.string().max(200).optional(), balance: z.int().min(0).optional() },
    check: (run, step) => run.createAccount(step),
    run: createAccount,
  }),
  create_key: operationStep(ACCOUNT_API.createKey, {
    // The body POST /_emulator/keys takes, with the secret's shape and the account id checked with the scenario.
    fields: {
      secret: z.string().regex(KEY_SHAPE, KEY_SHAPE_RULE).optional(),
      account_id: accountId,
      ...newKeyInput.omit({ secret: true, account_id: true }).shape,
    },
    check: (run, { body }) => run.createKey(body),
  }),
  revoke_key: operationStep(ACCOUNT_API.revokeKey, {
    fields: { id: z.int().positive() },
    input: (step) => ({ params: { id: String(step.id) } }),
    check: (run, { params }) => run.knownKey(Number(params.id)),
  }),
  set_daily_limit: operationStep(ACCOUNT_API.setKeyDailyLimit, {
    fields: { id: z.int().positive(), ...dailyLimit.shape },
    input: ({ id, ...body }) => ({ params: { id: String(id) }, body }),
    check: (run, { params }) => run.knownKey(Number(params.id)),
  }),
};
