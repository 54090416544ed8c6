// A refused scenario load changes nothing: not the state its earlier steps would have touched, not the active scenario or its rules.
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { KEY_ID_SCOPE } from '../../src/domain/accounts.js';
import { runtimeOf } from '../../src/testing.js';
import { CHEAP_PRICE, controlled, idem, submission } from '../helpers/controlled-emulator.js';

type Emulator = ReturnType<typeof controlled>['emulator'];

/** Everything the emulator keeps (the clock is frozen, so two exports of an unchanged state are equal). */
const exported = async (emulator: Emulator) => (await request(emulator.app).get('/_emulator/state')).body;

const load = (emulator: Emulator, scenario: Record<string, unknown>) =>
  request(emulator.app).post('/_emulator/scenarios').send({ scenario });

describe('a refused scenario load', () => {
  it.each([
    [
      'an account that exists',
      [
        { op: 'top_up', amount: 7 },
        { op: 'create_account', id: 'acct_local' },
      ],
      409,
      'account_exists',
      'steps[1] (create_account)',
    ],
    [
      'a key that does not exist',
      [
        { op: 'create_key', secret: 'sk-media-first-key' },
        { op: 'revoke_key', id: 999 },
      ],
      404,
      'key_not_found',
      'steps[1] (revoke_key)',
    ],
    [
      'a secret an earlier step creates',
      [
        { op: 'create_account', id: 'acct_two', balance: 5 },
        { op: 'create_key', secret: 'sk-media-twice-key' },
        { op: 'create_key', account_id: 'acct_two', secret: 'sk-media-twice-key' },
      ],
      409,
      'key_exists',
      'steps[2] (create_key)',
    ],
    [
      'an account nobody creates',
      [{ op: 'freeze_clock' }, { op: 'set_balance', balance: 3, account_id: 'acct_ghost' }],
      404,
      'account_not_found',
      'steps[1] (set_balance)',
    ],
    [
      'a top-up that takes the balance past 2^53 - 1 after an earlier one',
      [
        { op: 'create_account', id: 'acct_rich', balance: 5 },
        { op: 'top_up', account_id: 'acct_rich', amount: Number.MAX_SAFE_INTEGER - 5 },
        { op: 'top_up', account_id: 'acct_rich', amount: 1 },
      ],
      422,
      'invalid_amount',
      'steps[2] (top_up)',
    ],
    [
      'a top-up that takes the balance below zero after an earlier one',
      [
        { op: 'set_balance', balance: 10 },
        { op: 'top_up', amount: -11 },
      ],
      422,
      'invalid_amount',
      'steps[1] (top_up)',
    ],
    [
      'a key for a model not in the catalogue',
      [
        { op: 'top_up', amount: 1 },
        { op: 'create_key', model_scope: 'no-such-model' },
      ],
      422,
      'invalid_scenario',
      "steps[1]: model_scope: no model 'no-such-model'",
    ],
    [
      'a key with an empty name, as POST /_emulator/keys refuses it',
      [
        { op: 'top_up', amount: 1 },
        { op: 'create_key', name: '' },
      ],
      422,
      'invalid_scenario',
      'steps[1].name',
    ],
    [
      'a key secret of the wrong shape, refused in the words POST /_emulator/keys and --api-key use',
      [
        { op: 'top_up', amount: 1 },
        { op: 'create_key', secret: 'sk-live-nope' },
      ],
      422,
      'invalid_scenario',
      "steps[1].secret: must look like 'sk-media-' followed by 4-200 letters, digits, '_' or '-'",
    ],
    [
      'a timing for a model not in the catalogue',
      [
        { op: 'set_timing', profile: 'instant' },
        { op: 'set_timing', by_model: { 'no-such-model': 'fast' } },
      ],
      422,
      'invalid_scenario',
      'steps[1]',
    ],
  ])('with %s changes nothing, and names the step', async (_, steps, status, code, named) => {
    const { emulator } = controlled();
    const before = await exported(emulator);
    const res = await load(emulator, { name: 'half-way', steps });
    expect([res.status, res.body.error.code]).toEqual([status, code]);
    expect(res.body.error.message).toContain(named);
    expect(await exported(emulator)).toEqual(before);
    expect((await request(emulator.app).get('/_emulator/scenarios')).body.active).toBeNull();
  });

  it('counts what refunds may still give back, as the balance operation does', async () => {
    const { emulator, control, api } = controlled();
    expect((await api.submit(submission(), idem('refundable'))).status).toBe(202);
    await control.setBalance(Number.MAX_SAFE_INTEGER - 10 - CHEAP_PRICE);
    const before = await exported(emulator);
    // Alone, the second top-up leaves the balance 3 under 2^53 - 1; the pending charge could come back on top of it.
    const res = await load(emulator, {
      name: 'near-the-top',
      steps: [
        { op: 'top_up', amount: 1 },
        { op: 'top_up', amount: 10 },
      ],
    });
    expect([res.status, res.body.error.code]).toEqual([422, 'invalid_amount']);
    expect(res.body.error.message).toContain('steps[1] (top_up)');
    expect(await exported(emulator)).toEqual(before);
  });

  it('keeps the active scenario and its rules when a rule id is taken by a rule of the user', async () => {
    const { emulator, control } = controlled();
    await control.scenario.load('flaky-network');
    await control.faults.add({ id: 'mine', action: { type: 'status', status: 500 } });
    const before = await exported(emulator);
    const res = await load(emulator, {
      name: 'clash',
      steps: [{ op: 'top_up', amount: 7 }],
      faults: [{ id: 'mine', action: { type: 'stall' } }],
    });
    expect([res.status, res.body.error.code]).toEqual([409, 'fault_exists']);
    expect(await exported(emulator)).toEqual(before);
    expect((await control.scenario.progress())?.name).toBe('flaky-network');
    expect((await control.faults.list()).map((f) => f.id)).toEqual(['flaky-network-503', 'mine']);
  });

  it('refuses an explicit rule id that an earlier id-less rule of the scenario would be given', async () => {
    const { emulator, control } = controlled();
    await load(emulator, { name: 'prev', faults: [{ id: 'keepme', action: { type: 'status', status: 500 } }] });
    const before = await exported(emulator);
    const res = await load(emulator, {
      name: 'collide',
      steps: [
        { op: 'top_up', amount: 5 },
        { op: 'create_account', id: 'acc2', balance: 7 },
      ],
      faults: [
        { match: { route: '/v1/media/models' }, action: { type: 'status', status: 500 } },
        { id: 'flt_000001', match: { route: '/v1/media/usage' }, action: { type: 'status', status: 500 } },
      ],
    });
    expect([res.status, res.body.error.code]).toEqual([409, 'fault_exists']);
    expect(res.body.error.message).toContain("faults[1] would have id 'flt_000001'");
    expect(await exported(emulator)).toEqual(before);
    expect((await control.scenario.progress())?.name).toBe('prev');
    expect((await control.faults.list()).map((f) => f.id)).toEqual(['keepme']);
  });

  it('gives id-less rules the ids it predicted, skipping ids in force', async () => {
    const { emulator, control } = controlled();
    await control.faults.add({ id: 'flt_000001', action: { type: 'status', status: 500 } });
    const res = await load(emulator, {
      name: 'skips',
      faults: [{ action: { type: 'stall' } }, { id: 'flt_000003', action: { type: 'stall' } }],
    });
    expect(res.status).toBe(200);
    expect((await control.faults.list()).map((f) => f.id)).toEqual(['flt_000001', 'flt_000002', 'flt_000003']);
  });

  it('refuses a key whose id would pass 2^31 - 1 before any step runs', async () => {
    const { emulator, control } = controlled();
    // Where a store written up to the bound leaves the key ids (an import stops short of it, to leave room).
    runtimeOf(emulator)
      .context()
      .ids.skipPastInt(KEY_ID_SCOPE, 2 ** 31 - 1);
    await load(emulator, { name: 'prev', faults: [{ id: 'keepme', action: { type: 'status', status: 500 } }] });
    const before = await exported(emulator);
    const res = await load(emulator, { name: 'mk', steps: [{ op: 'top_up', amount: 5 }, { op: 'create_key' }] });
    expect([res.status, res.body.error.code]).toEqual([409, 'limit_reached']);
    expect(res.body.error.message).toContain('steps[1] (create_key)');
    expect(await exported(emulator)).toEqual(before);
    expect((await control.scenario.progress())?.name).toBe('prev');
  });

  it('refuses keys past 10,000 before creating any', async () => {
    const { emulator, control } = controlled();
    const state = await control.exportState();
    const [seeded] = state.domain.keys;
    state.domain.keys = Array.from({ length: 9_990 }, (_, i) => ({
      ...seeded,
      id: i + 1,
      secret: `sk-media-key-${i}`,
    }));
    await control.importState(state);
    const before = await exported(emulator);
    const steps = Array.from({ length: 11 }, () => ({ op: 'create_key' }));
    const res = await load(emulator, { name: 'many-keys', steps });
    expect([res.status, res.body.error.code]).toEqual([409, 'limit_reached']);
    expect(res.body.error.message).toContain('steps[10] (create_key)');
    expect(await exported(emulator)).toEqual(before);
    expect((await load(emulator, { name: 'ten-keys', steps: steps.slice(1) })).status).toBe(200);
    expect(await control.keys()).toHaveLength(10_000);
  });

  it('still lets a step revoke a key an earlier step creates, by the id it will get', async () => {
    const { emulator, control } = controlled();
    const next = Math.max(...(await control.keys()).map((k) => k.id)) + 1;
    const res = await load(emulator, {
      name: 'create-then-revoke',
      steps: [
        { op: 'create_key', secret: 'sk-media-short-lived' },
        { op: 'revoke_key', id: next },
      ],
    });
    expect(res.status).toBe(200);
    expect((await control.keys()).find((k) => k.id === next)).toMatchObject({ secret: 'sk-media-short-lived' });
    expect((await control.keys()).find((k) => k.id === next)?.revoked_at).not.toBeNull();
  });
});
