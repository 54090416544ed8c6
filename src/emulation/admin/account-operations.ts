// Control operations on accounts, balances and API keys. A balance change is always a ledger entry, never an overwrite.
import type * as z from 'zod';
import { checkNewSecret, KEY_PREFIX } from '../../domain/accounts.js';
import { DomainError } from '../../domain/errors.js';
import { PlaneError } from '../error-codes.js';
import { contextOf, type ControlDeps } from '../plane-state.js';
import type { balanceInput, newKeyInput } from '../inputs.js';
import { accountView, keyView, type AccountView, type KeyView } from '../views.js';

const SECRET_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

function checkAccount(deps: ControlDeps, accountId: string): void {
  if (!contextOf(deps).accounts.account(accountId))
    throw new DomainError(
      'account_not_found',
      `Account '${accountId}' does not exist. List the accounts with GET /_emulator/accounts.`,
    );
}

export function listAccounts(deps: ControlDeps): AccountView[] {
  const ctx = contextOf(deps);
  return ctx.accounts.listAccounts().map((a) => accountView(ctx, a.id));
}

/**
 * What a balance change leaves, or the refusal it meets: below 0, or past 2^53 - 1, where a credit sum is no longer
 * exact (+1 added 2) and the import refuses the export. `refundable` (charged and not yet refunded) counts too: a
 * refund cannot be refused, so the balance plus what may still come back stays within 2^53 - 1. A scenario's dry run
 * asks the same before any step runs.
 */
export function balanceAfter(
  balance: number,
  change: z.output<typeof balanceInput>,
  toEmpty: string,
  refundable: number,
): number {
  const amount = 'set' in change ? change.set - balance : change.add;
  if (balance + amount < 0)
    throw new DomainError(
      'invalid_amount',
      `The balance is ${balance}; taking away ${-amount} would make it negative. ${toEmpty}`,
    );
  if (amount > 0 && balance + amount + refundable > Number.MAX_SAFE_INTEGER) {
    const room = Math.max(0, Number.MAX_SAFE_INTEGER - refundable - balance);
    const held = refundable > 0 ? ` with the ${refundable} credits its generations may still get back as refunds` : '';
    throw new DomainError(
      'invalid_amount',
      `The balance is ${balance}; adding ${amount} would take it${held} past ${Number.MAX_SAFE_INTEGER} credits (2^53 - 1), the most a balance holds exactly. Add at most ${room}.`,
    );
  }
  return balance + amount;
}

/** Credits the account was charged and not yet given back: what refunds may still add to its balance. */
export function refundable(deps: ControlDeps, accountId: string): number {
  let sum = 0;
  for (const totals of contextOf(deps).ledger.modelTotals(accountId).values()) sum += totals.charged - totals.refunded;
  return sum;
}

/** `{ set: n }` or `{ add: n }`: the difference is written as one funding entry (negative when the balance goes down). */
export function changeBalance(deps: ControlDeps, accountId: string, change: z.output<typeof balanceInput>) {
  checkAccount(deps, accountId);
  const ctx = contextOf(deps);
  const balance = ctx.ledger.balance(accountId);
  const amount =
    balanceAfter(balance, change, 'Use { "set": 0 } to empty the wallet.', refundable(deps, accountId)) - balance;
  if (amount !== 0)
    ctx.ledger.append({
      type: 'funding',
      accountId,
      amount,
      at: ctx.clock.now(),
      note: 'set' in change ? `balance set to ${change.set} by the control plane` : 'top-up by the control plane',
    });
  return { account_id: accountId, balance: ctx.ledger.balance(accountId) };
}

export function listKeys(deps: ControlDeps): KeyView[] {
  return contextOf(deps).accounts.listKeys().map(keyView);
}

/** A new key; without a secret one is drawn from the seeded random, so a seed repeats it. */
export function createKey(deps: ControlDeps, body: z.output<typeof newKeyInput>): KeyView {
  const ctx = contextOf(deps);
  const accountId = body.account_id ?? deps.runtime.accountId;
  checkAccount(deps, accountId);
  if (body.model_scope && !ctx.catalogue.get(body.model_scope))
    throw new PlaneError('invalid_control_request', `model_scope: no model '${body.model_scope}' in the catalogue.`);
  // Checked before the secret is drawn: with a seed, a refused call must not move the secrets that follow.
  ctx.accounts.checkRoomForKey();
  // A sandbox's drawn secrets carry its id: two sandboxes with one seed draw the same characters.
  const prefix = deps.world === undefined ? KEY_PREFIX : `${KEY_PREFIX}${deps.world.replace(/_/g, '')}_`;
  // Key secrets are unique across worlds (the front door finds a world by its key): refused as any duplicate.
  if (body.secret !== undefined && deps.sandboxes?.secretHeldElsewhere(body.secret, deps.runtime))
    checkNewSecret(body.secret, true);
  const secret =
    body.secret ??
    `${prefix}${Array.from({ length: 24 }, () => SECRET_ALPHABET[Math.floor(ctx.random.next() * SECRET_ALPHABET.length)]).join('')}`;
  const key = ctx.accounts.createKey(
    {
      accountId,
      secret,
      name: body.name,
      modelScope: body.model_scope ?? null,
      dailyCreditLimit: body.daily_credit_limit ?? null,
    },
    ctx.clock.now(),
  );
  return keyView(key);
}

export function revokeKey(deps: ControlDeps, id: number): KeyView {
  if (!Number.isSafeInteger(id))
    throw new DomainError('key_not_found', `API key ${String(id)} does not exist; key ids are integers.`);
  const ctx = contextOf(deps);
  return keyView(ctx.accounts.revokeKey(id, ctx.clock.now()));
}

/** The refusal of an account id in use (a scenario's dry run throws it too). */
export const accountExists = (id: string) => new PlaneError('account_exists', `Account '${id}' already exists.`);

/** For scenarios: a further account with its own wallet, so a scenario can give a client a poor or capped identity. */
export function createAccount(deps: ControlDeps, input: { id: string; name?: string; balance?: number }): AccountView {
  const ctx = contextOf(deps);
  if (ctx.accounts.account(input.id)) throw accountExists(input.id);
  const now = ctx.clock.now();
  ctx.accounts.createAccount(input.id, input.name ?? input.id, now);
  if (input.balance)
    ctx.ledger.append({
      type: 'funding',
      accountId: input.id,
      amount: input.balance,
      at: now,
      note: 'scenario balance',
    });
  return accountView(ctx, input.id);
}
