// The account store's lookups (a key by id, keys by account), the bearer header forms it accepts, and the words of its refusals.
import { describe, expect, it } from 'vitest';
import { AccountStore, KEY_SHAPE_RULE, MAX_ACCOUNTS } from '../../../src/domain/accounts.js';

function store() {
  let id = 0;
  const accounts = new AccountStore({ peek: () => id + 1, take: () => ++id });
  accounts.createAccount('acct', 'Account', 0);
  return accounts;
}

/** The refusal `fn` throws, as the API would answer it: its code and its message. */
const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    const { code, message } = error as { code?: string; message: string };
    return { code, message };
  }
  return undefined;
};

describe('AccountStore lookups', () => {
  it('finds a key by its id, and nothing for an id it never gave', () => {
    const accounts = store();
    const key = accounts.createKey({ accountId: 'acct', secret: 'sk-media-lookup-key' }, 0);
    expect(accounts.key(key.id)).toBe(key);
    expect(accounts.key(key.id + 1)).toBeUndefined();
  });

  it("lists one account's keys when asked for that account, and every key when asked for none", () => {
    const accounts = store();
    accounts.createAccount('other', 'Other', 0);
    const mine = accounts.createKey({ accountId: 'acct', secret: 'sk-media-mine-1' }, 0);
    const theirs = accounts.createKey({ accountId: 'other', secret: 'sk-media-theirs' }, 0);
    const mineToo = accounts.createKey({ accountId: 'acct', secret: 'sk-media-mine-2' }, 0);
    expect(accounts.listKeys('acct')).toEqual([mine, mineToo]);
    expect(accounts.listKeys('other')).toEqual([theirs]);
    expect(accounts.listKeys('nobody')).toEqual([]);
    expect(accounts.listKeys()).toEqual([mine, theirs, mineToo]);
  });
});

describe('AccountStore.authenticate header forms', () => {
  const SECRET = 'sk-media-header-form';

  it('accepts any run of whitespace after Bearer and trailing whitespace after the key', () => {
    const accounts = store();
    const key = accounts.createKey({ accountId: 'acct', secret: SECRET }, 0);
    expect(accounts.authenticate(`Bearer  ${SECRET}`)).toBe(key);
    expect(accounts.authenticate(`Bearer \t${SECRET}`)).toBe(key);
    expect(accounts.authenticate(`Bearer ${SECRET}  `)).toBe(key);
    expect(accounts.authenticate(`bearer ${SECRET}`)).toBe(key);
  });

  it('refuses as malformed a header with anything before Bearer', () => {
    const accounts = store();
    accounts.createKey({ accountId: 'acct', secret: SECRET }, 0);
    expect(refusal(() => accounts.authenticate(`Token Bearer ${SECRET}`))?.code).toBe('malformed_api_key');
    expect(refusal(() => accounts.authenticate(`xBearer ${SECRET}`))?.code).toBe('malformed_api_key');
  });
});

describe('AccountStore refusals say what is wrong', () => {
  it('names the shape a secret must have, and asks for another when the secret is taken', () => {
    const accounts = store();
    accounts.createKey({ accountId: 'acct', secret: 'sk-media-taken' }, 0);
    expect(refusal(() => accounts.createKey({ accountId: 'acct', secret: 'not-a-key' }, 0))).toEqual({
      code: 'invalid_key_format',
      message: `An API key ${KEY_SHAPE_RULE}.`,
    });
    expect(KEY_SHAPE_RULE).toContain('sk-media-');
    expect(refusal(() => accounts.createKey({ accountId: 'acct', secret: 'sk-media-taken' }, 0))).toEqual({
      code: 'key_exists',
      message: 'An API key with this secret already exists; choose another.',
    });
  });

  it('names the unknown account a key was asked for, and the unknown key id revoked or capped', () => {
    const accounts = store();
    expect(refusal(() => accounts.createKey({ accountId: 'nobody', secret: 'sk-media-orphan' }, 0))).toEqual({
      code: 'account_not_found',
      message: "Account 'nobody' does not exist.",
    });
    expect(refusal(() => accounts.revokeKey(41, 0))).toEqual({
      code: 'key_not_found',
      message: 'API key 41 does not exist.',
    });
    expect(refusal(() => accounts.setDailyCreditLimit(42, 10))).toEqual({
      code: 'key_not_found',
      message: 'API key 42 does not exist.',
    });
  });

  it('says that the accounts are what reached the maximum', () => {
    const accounts = store();
    for (let i = 1; i < MAX_ACCOUNTS; i++) accounts.createAccount(`acct-${i}`, 'Account', 0);
    const refused = refusal(() => accounts.createAccount('one-more', 'Account', 0));
    expect(refused?.code).toBe('limit_reached');
    expect(refused?.message).toContain('already holds 10,000 accounts, its maximum');
  });
});
