// Accounts and their API keys: bearer authentication, model scope and daily ceiling live here.
import * as z from 'zod';
import { MAX_COUNTER } from './counters.js';
import { DomainError } from './errors.js';
import { thousands } from './thousands.js';

export interface Account {
  id: string;
  name: string;
  createdAt: number;
}

export interface ApiKey {
  /** The spec types api_key_id as an integer. */
  id: number;
  secret: string;
  accountId: string;
  name: string;
  /** Only this model may be used with the key; null for every active model. */
  modelScope: string | null;
  /** Net credits the key may spend per UTC day; null for no ceiling. */
  dailyCreditLimit: number | null;
  createdAt: number;
  revokedAt: number | null;
}

/**
 * Far past any test's needs; keys are never deleted (a revoked key stays listed), so without a bound a script creating
 * keys in a loop would grow every key list and console refresh until the process ran out of memory. The bound is on
 * creating and on importing (state-records.ts): a store kept before it existed may hold more, and still loads whole.
 */
export const MAX_KEYS = 10_000;
export const MAX_ACCOUNTS = 10_000;

const limitReached = (what: string, max: number) =>
  new DomainError(
    'limit_reached',
    `This emulator already holds ${thousands(max)} ${what}, its maximum; reset the emulator, or import a state with fewer.`,
  );

/**
 * Refuses a new key id past MAX_COUNTER: an export holding it would no longer import (ids follow an import's).
 * AccountStore.createKey and any check made ahead of it ask this one function, so the two cannot disagree.
 */
export function checkNewKeyId(id: number) {
  if (id > MAX_COUNTER)
    throw new DomainError(
      'limit_reached',
      `API key ids have reached ${MAX_COUNTER}, the largest a state holds; reset the emulator, or import a state with smaller key ids.`,
    );
}

/** The IdGenerator scope API key ids are drawn from (IdGenerator.nextInt). */
export const KEY_ID_SCOPE = 'api_key';

export const KEY_PREFIX = 'sk-media-';
export const KEY_SHAPE = /^sk-media-[A-Za-z0-9_-]{4,200}$/;
/** KEY_SHAPE in words, after the name of what is refused ("An API key ...", "--api-key ..."). */
export const KEY_SHAPE_RULE = `must look like '${KEY_PREFIX}' followed by 4-200 letters, digits, '_' or '-'`;

/** Refuses a new key's secret of the wrong shape, or one `inUse`; asked by the store and by checks made ahead of it. */
export function checkNewSecret(secret: string, inUse: boolean) {
  if (!KEY_SHAPE.test(secret)) throw new DomainError('invalid_key_format', `An API key ${KEY_SHAPE_RULE}.`);
  if (inUse) throw new DomainError('key_exists', 'An API key with this secret already exists; choose another.');
}

/**
 * What `create_account` accepts, and so what an import may bring: no `..` or path-like ids, and not `__proto__`, which
 * as the key of an exported `balances` object would set its prototype wherever the document is read as an object.
 */
const ACCOUNT_ID_RULE = 'must be 1-80 letters, digits, _ or - (and not __proto__)';
/** As the document states it; an import checks it with accountIdSchema. */
export const ACCOUNT_ID_PATTERN = '^[A-Za-z0-9_-]{1,80}$';
export const accountIdSchema = z
  .string()
  .regex(new RegExp(ACCOUNT_ID_PATTERN), ACCOUNT_ID_RULE)
  .refine((id) => id !== '__proto__', ACCOUNT_ID_RULE);

export interface NewKey {
  accountId: string;
  secret: string;
  name?: string;
  modelScope?: string | null;
  dailyCreditLimit?: number | null;
}

export class AccountStore {
  private readonly accounts = new Map<string, Account>();
  private readonly keysById = new Map<number, ApiKey>();
  private readonly keysBySecret = new Map<string, ApiKey>();
  /** Accounts and keys changed since the store of record last took them. */
  private changedAccounts = new Set<Account>();
  private changedKeys = new Set<ApiKey>();

  /** `keyIds` tells the next key id and takes it: a key refused by its checks takes none. */
  constructor(private readonly keyIds: { peek(): number; take(): number }) {}

  createAccount(id: string, name: string, now: number): Account {
    if (this.accounts.size >= MAX_ACCOUNTS) throw limitReached('accounts', MAX_ACCOUNTS);
    return this.restoreAccount(id, name, now);
  }

  /** An account as a state kept it: not bounded (see MAX_KEYS). */
  restoreAccount(id: string, name: string, now: number): Account {
    const account = { id, name, createdAt: now };
    this.accounts.set(id, account);
    this.changedAccounts.add(account);
    return account;
  }

  account(id: string): Account | undefined {
    return this.accounts.get(id);
  }

  listAccounts(): Account[] {
    return [...this.accounts.values()];
  }

  /** Refuses a new key when no id or no room is left: asked before a secret is drawn for it, so a refusal draws none. */
  checkRoomForKey(): number {
    const id = this.keyIds.peek();
    checkNewKeyId(id);
    if (this.keysById.size >= MAX_KEYS) throw limitReached('API keys', MAX_KEYS);
    return id;
  }

  createKey(input: NewKey, now: number): ApiKey {
    const id = this.checkRoomForKey();
    const key = this.addKey(input, now, id);
    this.keyIds.take();
    return key;
  }

  /** A key as a state kept it, with its id: not bounded (see MAX_KEYS). */
  restoreKey(input: NewKey, now: number, id: number): ApiKey {
    return this.addKey(input, now, id);
  }

  private addKey(input: NewKey, now: number, id: number): ApiKey {
    if (!this.accounts.has(input.accountId))
      throw new DomainError('account_not_found', `Account '${input.accountId}' does not exist.`);
    checkNewSecret(input.secret, this.keysBySecret.has(input.secret));
    const key: ApiKey = {
      id,
      secret: input.secret,
      accountId: input.accountId,
      name: input.name ?? `key ${id}`,
      modelScope: input.modelScope ?? null,
      dailyCreditLimit: input.dailyCreditLimit ?? null,
      createdAt: now,
      revokedAt: null,
    };
    this.keysById.set(key.id, key);
    this.keysBySecret.set(key.secret, key);
    this.changedKeys.add(key);
    return key;
  }

  revokeKey(id: number, now: number): ApiKey {
    const key = this.keysById.get(id);
    if (!key) throw new DomainError('key_not_found', `API key ${id} does not exist.`);
    key.revokedAt ??= now;
    this.changedKeys.add(key);
    return key;
  }

  /** Sets a key's daily credit ceiling (null removes it); the next request is checked against it. */
  setDailyCreditLimit(id: number, limit: number | null): ApiKey {
    const key = this.keysById.get(id);
    if (!key) throw new DomainError('key_not_found', `API key ${id} does not exist.`);
    key.dailyCreditLimit = limit;
    this.changedKeys.add(key);
    return key;
  }

  /** How many accounts and keys takeChanged() would give (a cheap look for the store of record). */
  get changedCount(): number {
    return this.changedAccounts.size + this.changedKeys.size;
  }

  /** The accounts and keys created or changed since the last call. */
  takeChanged(): { accounts: Account[]; keys: ApiKey[] } {
    const out = { accounts: [...this.changedAccounts], keys: [...this.changedKeys] };
    this.changedAccounts = new Set();
    this.changedKeys = new Set();
    return out;
  }

  /** The store knows this secret, revoked or not (the front door's index of keys across worlds asks). */
  holdsSecret(secret: string): boolean {
    return this.keysBySecret.has(secret);
  }

  key(id: number): ApiKey | undefined {
    return this.keysById.get(id);
  }

  listKeys(accountId?: string): ApiKey[] {
    return [...this.keysById.values()].filter((k) => !accountId || k.accountId === accountId);
  }

  /** Resolves an Authorization header value; every failure is a 401 with its own code. */
  authenticate(header: string | undefined): ApiKey {
    if (!header) throw new DomainError('missing_api_key', 'Send your API key as "Authorization: Bearer sk-media-...".');
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match?.[1].startsWith(KEY_PREFIX))
      throw new DomainError(
        'malformed_api_key',
        'The Authorization header must be "Bearer sk-media-..." with a key that starts with "sk-media-".',
      );
    const key = this.keysBySecret.get(match[1]);
    if (!key)
      throw new DomainError(
        'invalid_api_key',
        'This API key is not known. Check the key, or create one in the emulator (the control client: createKey).',
      );
    if (key.revokedAt !== null)
      throw new DomainError('revoked_api_key', 'This API key has been revoked. Use another key or create a new one.');
    return key;
  }
}
