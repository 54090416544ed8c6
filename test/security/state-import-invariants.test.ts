// A state import is checked against the ledger's invariants before it is applied; the emulator's own export passes.
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { parseDomainSnapshot } from '../../src/domain/state-snapshot.js';
import { client, makeEmulator } from '../helpers/emulator.js';

async function exported(emulator: ReturnType<typeof makeEmulator>) {
  const api = client(emulator);
  await api.submit({ model_slug: 'still-sketch-v1', prompt: 'one', max_credits: 100 }, 'state-key-1');
  return (await request(emulator.app).get('/_emulator/state')).body;
}

/** A top-up of the seeded wallet so that its balance plus its generation's open charge comes to `total`. */
function fundTo(s: any, total: number) {
  const { ledger, balances } = s.domain;
  const amount = total - balances.acct_local - ledger[1].amount;
  ledger.push({ ...ledger[0], id: 'led_topup', seq: ledger.length + 1, amount });
  balances.acct_local += amount;
}

describe('state import checks its invariants', () => {
  it.each([
    [
      'a balance that differs from the ledger',
      (s: any) => (s.domain.balances.acct_local += 5),
      'domain.balances.acct_local',
    ],
    [
      'a charge that takes the balance below zero',
      (s: any) => (s.domain.ledger.find((e: any) => e.type === 'charge').amount = 10_000_000),
      'domain.ledger[1].amount',
    ],
    ['a generation without its charge', (s: any) => s.domain.ledger.splice(1, 1), 'domain.generations[0]'],
    [
      'a refund larger than the charge',
      (s: any) => s.domain.ledger.push({ ...s.domain.ledger[1], type: 'refund', amount: 1_000, seq: 3, id: 'led_x' }),
      'domain.ledger[2].amount',
    ],
    [
      'a ledger entry of an unknown account',
      (s: any) => (s.domain.ledger[0].accountId = 'acct_ghost'),
      'domain.ledger[0].accountId',
    ],
    [
      'a wallet whose balance plus what refunds may give back passes 2^53 - 1',
      (s: any) => fundTo(s, Number.MAX_SAFE_INTEGER + 1),
      'domain.accounts[0]',
    ],
  ])('refuses %s with 422 invalid_state naming the first bad field', async (_what, spoil, field) => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const state = await exported(emulator);
    spoil(state);
    const res = await request(emulator.app).put('/_emulator/state').send(state);
    expect([res.status, res.body.error.code]).toEqual([422, 'invalid_state']);
    expect(res.body.error.message).toContain(`${field}:`);
  });

  it('accepts a wallet whose balance plus what refunds may give back is exactly 2^53 - 1', async () => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const state = await exported(emulator);
    fundTo(state, Number.MAX_SAFE_INTEGER);
    expect((await request(emulator.app).put('/_emulator/state').send(state)).status).toBe(200);
  });

  it('accepts its own export', async () => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const state = await exported(emulator);
    expect((await request(emulator.app).put('/_emulator/state').send(state)).status).toBe(200);
  });
});

describe('state import refuses a record that is there twice', () => {
  const twice = (member: string) => (s: any) => s.domain[member].push(structuredClone(s.domain[member][0]));
  it.each([
    ['a key id', (s: any) => s.domain.keys.push({ ...s.domain.keys[0], secret: 'sk-media-another-1' }), 'keys[1].id'],
    ['a key secret', (s: any) => s.domain.keys.push({ ...s.domain.keys[0], id: 2 }), 'keys[1].secret'],
    ['an account id', twice('accounts'), 'accounts[1].id'],
    ['a ledger entry id', twice('ledger'), 'ledger[2].id'],
    ['a generation id', twice('generations'), 'generations[1].id'],
    ['an idempotency key', twice('idempotency'), 'idempotency[1][0]'],
    [
      'an upload id',
      (s: any) =>
        s.domain.uploads.push(
          { id: 'upl_000001', accountId: 'acct_local' },
          { id: 'upl_000001', accountId: 'acct_local' },
        ),
      'uploads[1].id',
    ],
  ])('refuses %s twice with 422 invalid_state naming it, and keeps the state', async (_what, spoil, field) => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const state = await exported(emulator);
    const spoilt = structuredClone(state);
    spoil(spoilt);
    const res = await request(emulator.app).put('/_emulator/state').send(spoilt);
    expect([res.status, res.body.error.code]).toEqual([422, 'invalid_state']);
    expect(res.body.error.problems[0]).toEqual({
      field: `domain.${field}`,
      message: expect.stringMatching(/each must be unique$/),
    });
    expect(res.body.error.message).toContain(`domain.${field}: `);
    expect((await request(emulator.app).get('/_emulator/state')).body.domain).toEqual(state.domain);
  });

  it('never lets a second key hide under an id: the secret that was not imported does not authenticate', async () => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const state = await exported(emulator);
    state.domain.keys.push({ ...state.domain.keys[0], secret: 'sk-media-hidden-key', name: 'dup' });
    expect((await request(emulator.app).put('/_emulator/state').send(state)).status).toBe(422);
    const usage = await request(emulator.app).get('/v1/media/usage').set('authorization', 'Bearer sk-media-hidden-key');
    expect([usage.status, usage.body.error.code]).toEqual([401, 'invalid_api_key']);
    expect((await request(emulator.app).get('/_emulator/keys')).body.keys).toHaveLength(1);
  });
});

describe('state import applies the rules of creating', () => {
  it.each(['..', '__proto__', 'a/b', ''])('refuses the account id %j as create_account does', async (id) => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const state = await exported(emulator);
    state.domain.accounts.push({ id, name: 'x', createdAt: state.domain.accounts[0].createdAt });
    const res = await request(emulator.app).put('/_emulator/state').send(state);
    expect([res.status, res.body.error.code]).toEqual([422, 'invalid_state']);
    expect(res.body.error.problems).toEqual([
      { field: 'domain.accounts[1].id', message: 'must be 1-80 letters, digits, _ or - (and not __proto__)' },
    ]);
    expect((await request(emulator.app).get('/_emulator/accounts')).body.accounts).toHaveLength(1);
  });

  it('reads the account ids a store holds, which an older emulator did not check, as they are', async () => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const state = await exported(emulator);
    state.domain.accounts.push({ id: 'team.one', name: 'x', createdAt: state.domain.accounts[0].createdAt });
    expect(parseDomainSnapshot(state.domain, 'store').accounts.map((a) => a.id)).toEqual(['acct_local', 'team.one']);
    expect(() => parseDomainSnapshot(state.domain, 'import')).toThrow('domain.accounts[1].id: must be 1-80 letters');
  });

  it('names a version sent as a string as one', async () => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const state = await exported(emulator);
    const res = await request(emulator.app)
      .put('/_emulator/state')
      .send({ ...state, version: '1' });
    expect([res.status, res.body.error.code]).toEqual([422, 'invalid_state']);
    expect(res.body.error.message).toBe(
      'State version "1" (a string) is not supported; this emulator reads version 1 (the number).',
    );
    expect(res.body.error.problems).toEqual([
      { field: 'version', message: 'must be the number 1, got "1" (a string)' },
    ]);
  });
});

describe('a balance change stays within what an import accepts', () => {
  it('refuses to take a balance past 2^53 - 1, changes nothing, and the export at the bound imports again', async () => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const http = request(emulator.app);
    const path = '/_emulator/accounts/acct_local/balance';
    const start = (await http.get('/_emulator/accounts')).body.accounts[0].balance as number;
    const refused = await http.post(path).send({ add: Number.MAX_SAFE_INTEGER });
    expect([refused.status, refused.body.error.code]).toEqual([422, 'invalid_amount']);
    expect(refused.body.error.message).toBe(
      `The balance is ${start}; adding ${Number.MAX_SAFE_INTEGER} would take it past ${Number.MAX_SAFE_INTEGER} credits (2^53 - 1), the most a balance holds exactly. Add at most ${Number.MAX_SAFE_INTEGER - start}.`,
    );
    expect((await http.get('/_emulator/ledger?account_id=acct_local')).body.entries).toHaveLength(1);
    const full = await http.post(path).send({ add: Number.MAX_SAFE_INTEGER - start });
    expect([full.status, full.body.balance]).toEqual([200, Number.MAX_SAFE_INTEGER]);
    expect((await http.post(path).send({ add: 1 })).status).toBe(422);
    expect((await http.post(path).send({ set: Number.MAX_SAFE_INTEGER })).status).toBe(200);
    const state = (await http.get('/_emulator/state')).body;
    expect((await http.put('/_emulator/state').send(state)).status).toBe(200);
    expect((await http.get('/_emulator/accounts')).body.accounts[0].balance).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('keeps the balance plus what refunds may still give back within 2^53 - 1, so a full refund stays exact', async () => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const http = request(emulator.app);
    const path = '/_emulator/accounts/acct_local/balance';
    await http.put('/_emulator/timing').send({ profile: 'manual' });
    expect((await http.post(path).send({ set: Number.MAX_SAFE_INTEGER })).status).toBe(200);
    const submitted = await client(emulator).submit(
      { model_slug: 'still-sketch-v1', prompt: 'a cat', max_credits: 1000 },
      'refund-at-the-bound',
    );
    expect(submitted.status).toBe(202);
    const charged = Number.MAX_SAFE_INTEGER - (await http.get('/_emulator/accounts')).body.accounts[0].balance;
    expect(charged).toBeGreaterThan(0);
    const refused = await http.post(path).send({ set: Number.MAX_SAFE_INTEGER });
    expect([refused.status, refused.body.error.code]).toEqual([422, 'invalid_amount']);
    expect(refused.body.error.message).toContain(`with the ${charged} credits its generations may still get back`);
    expect(refused.body.error.message).toContain('Add at most 0.');
    const failed = await http
      .post(`/_emulator/generations/${submitted.body.generation.id}/fail`)
      .send({ refund: 'full' });
    expect(failed.status).toBe(200);
    expect((await http.get('/_emulator/accounts')).body.accounts[0].balance).toBe(Number.MAX_SAFE_INTEGER);
    const state = (await http.get('/_emulator/state')).body;
    expect((await http.put('/_emulator/state').send(state)).status).toBe(200);
  });
});
