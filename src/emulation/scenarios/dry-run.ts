// A scenario's dry run: what the steps checked so far would have left, so a later step is checked against it.
import type * as z from 'zod';
import { checkNewKeyId, checkNewSecret, KEY_ID_SCOPE, MAX_ACCOUNTS, MAX_KEYS } from '../../domain/accounts.js';
import { BEFORE_FIRST_INSTANT, FIRST_INSTANT_MS, LAST_INSTANT_MS, PAST_LAST_INSTANT } from '../../domain/durations.js';
import { DomainError } from '../../domain/errors.js';
import { thousands } from '../../domain/thousands.js';
import { accountExists, balanceAfter, refundable } from '../admin/account-operations.js';
import { PlaneError } from '../error-codes.js';
import type { newKeyInput } from '../inputs.js';
import { contextOf, type ControlDeps } from '../plane-state.js';

/**
 * What the steps checked so far would have left, as far as a later step's checks read it: the accounts, balances,
 * key secrets and ids they create or change, and where the clock stands. Nothing is written and no id is taken.
 */
export class DryRun {
  private readonly createdAccounts = new Set<string>();
  private readonly balances = new Map<string, number>();
  private readonly createdKeyIds = new Set<number>();
  private secrets?: Set<string>;
  private accountCount?: number;
  private keyCount?: number;
  private nextKeyId: number;
  clockAt: number;

  constructor(private readonly deps: ControlDeps) {
    const ctx = contextOf(deps);
    this.nextKeyId = ctx.ids.peekInt(KEY_ID_SCOPE);
    this.clockAt = ctx.clock.now();
  }

  private get ctx() {
    return contextOf(this.deps);
  }

  knownAccount(id: string) {
    if (!this.createdAccounts.has(id) && !this.ctx.accounts.account(id))
      throw new DomainError(
        'account_not_found',
        `Account '${id}' does not exist (nor does an earlier step create it).`,
      );
  }

  balance(id: string): number {
    return this.balances.get(id) ?? (this.createdAccounts.has(id) ? 0 : this.ctx.ledger.balance(id));
  }

  changeBalance(id: string, change: { set: number } | { add: number }) {
    this.knownAccount(id);
    const after = balanceAfter(
      this.balance(id),
      change,
      'Use { "op": "set_balance", "balance": 0 } to empty the wallet.',
      this.createdAccounts.has(id) ? 0 : refundable(this.deps, id),
    );
    this.balances.set(id, after);
  }

  createAccount(step: { id: string; balance?: number }) {
    if (this.createdAccounts.has(step.id) || this.ctx.accounts.account(step.id)) throw accountExists(step.id);
    this.accountCount ??= this.ctx.accounts.listAccounts().length;
    if (this.accountCount >= MAX_ACCOUNTS)
      throw new DomainError('limit_reached', `This step would pass ${thousands(MAX_ACCOUNTS)} accounts.`);
    this.accountCount += 1;
    this.createdAccounts.add(step.id);
    this.balances.set(step.id, step.balance ?? 0);
  }

  createKey(body: z.output<typeof newKeyInput>) {
    this.knownAccount(body.account_id ?? this.deps.runtime.accountId);
    if (body.model_scope && !this.ctx.catalogue.get(body.model_scope))
      throw new PlaneError('invalid_control_request', `model_scope: no model '${body.model_scope}' in the catalogue.`);
    checkNewKeyId(this.nextKeyId);
    const keys = this.ctx.accounts.listKeys();
    this.secrets ??= new Set(keys.map((k) => k.secret));
    this.keyCount ??= keys.length;
    if (body.secret !== undefined) {
      checkNewSecret(body.secret, this.secrets.has(body.secret));
      this.secrets.add(body.secret);
    }
    if (this.keyCount >= MAX_KEYS)
      throw new DomainError('limit_reached', `This step would pass ${thousands(MAX_KEYS)} API keys.`);
    this.keyCount += 1;
    // Ids are handed out in sequence, and after this dry run no key creation can be refused, so none is skipped.
    this.createdKeyIds.add(this.nextKeyId++);
  }

  /** A step that acts on key `id` (revokes it...) needs it to exist, or an earlier step to create it. */
  knownKey(id: number) {
    if (!this.createdKeyIds.has(id) && !this.ctx.accounts.key(id))
      throw new DomainError('key_not_found', `API key ${id} does not exist (nor does an earlier step create it).`);
  }

  moveClock(to: number) {
    if (!(to >= FIRST_INSTANT_MS)) throw new PlaneError('invalid_scenario', BEFORE_FIRST_INSTANT);
    if (to > LAST_INSTANT_MS) throw new PlaneError('invalid_scenario', PAST_LAST_INSTANT);
    this.clockAt = to;
  }
}
