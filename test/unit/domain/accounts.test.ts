// Unit tests of the account store: keys belong to known accounts, secrets are unique, authentication fails with a code per cause.
import { describe, expect, it } from 'vitest';
import { AccountStore, MAX_ACCOUNTS, MAX_KEYS } from '../../../src/domain/accounts.js';

const SECRET = 'sk-media-unit-test-key';

function store() {
  let id = 0;
  const accounts = new AccountStore({ peek: () => id + 1, take: () => ++id });
  accounts.createAccount('acct', 'Account', 0);
  return accounts;
}

const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return (error as { code?: string }).code;
  }
  return undefined;
};

describe('AccountStore', () => {
  it('holds at most MAX_KEYS keys and MAX_ACCOUNTS accounts, refusing the next with limit_reached', () => {
    const accounts = store();
    for (let i = 0; i < MAX_KEYS; i++) accounts.createKey({ accountId: 'acct', secret: `sk-media-key-${i}` }, 0);
    expect(code(() => accounts.createKey({ accountId: 'acct', secret: 'sk-media-one-more' }, 0))).toBe('limit_reached');
    expect(accounts.listKeys()).toHaveLength(MAX_KEYS);
    for (let i = 1; i < MAX_ACCOUNTS; i++) accounts.createAccount(`acct-${i}`, 'Account', 0);
    expect(code(() => accounts.createAccount('one-more', 'Account', 0))).toBe('limit_reached');
    expect(accounts.listAccounts()).toHaveLength(MAX_ACCOUNTS);
  });

  it('creates a key for a known account and authenticates its bearer header', () => {
    const accounts = store();
    const key = accounts.createKey({ accountId: 'acct', secret: SECRET }, 5);
    expect(key).toMatchObject({ id: 1, accountId: 'acct', name: 'key 1', modelScope: null, createdAt: 5 });
    expect(accounts.authenticate(`Bearer ${SECRET}`)).toBe(key);
  });

  it('refuses a key for an unknown account, a badly shaped secret and a duplicate secret', () => {
    const accounts = store();
    accounts.createKey({ accountId: 'acct', secret: SECRET }, 0);
    expect(code(() => accounts.createKey({ accountId: 'nobody', secret: 'sk-media-other' }, 0))).toBe(
      'account_not_found',
    );
    expect(code(() => accounts.createKey({ accountId: 'acct', secret: 'not-a-key' }, 0))).toBe('invalid_key_format');
    expect(code(() => accounts.createKey({ accountId: 'acct', secret: SECRET }, 0))).toBe('key_exists');
    // The refused keys took no id: the next key is the second.
    expect(accounts.createKey({ accountId: 'acct', secret: 'sk-media-second-key' }, 0).id).toBe(2);
  });

  it('tells a missing, malformed, unknown and revoked key apart', () => {
    const accounts = store();
    const key = accounts.createKey({ accountId: 'acct', secret: SECRET }, 0);
    expect(code(() => accounts.authenticate(undefined))).toBe('missing_api_key');
    expect(code(() => accounts.authenticate('Basic abc'))).toBe('malformed_api_key');
    expect(code(() => accounts.authenticate('Bearer sk-media-nobody'))).toBe('invalid_api_key');
    accounts.revokeKey(key.id, 9);
    expect(code(() => accounts.authenticate(`Bearer ${SECRET}`))).toBe('revoked_api_key');
  });

  it('keeps the first revocation time when a key is revoked twice', () => {
    const accounts = store();
    const key = accounts.createKey({ accountId: 'acct', secret: SECRET }, 0);
    accounts.revokeKey(key.id, 9);
    expect(accounts.revokeKey(key.id, 20).revokedAt).toBe(9);
    expect(code(() => accounts.revokeKey(99, 0))).toBe('key_not_found');
  });
});
