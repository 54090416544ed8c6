// At most 1,000 fault rules in force at once, scenario rules included: through the API, a scenario load and an import.
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { controlled } from '../helpers/controlled-emulator.js';

const rule = (i: number) => ({
  id: `r${i}`,
  match: { route: '/v1/media/models', idempotency_key: 'never-sent' },
  action: { type: 'hang' as const },
});

/** An emulator holding `count` rules, put in by an import (the quick way to fill it). */
async function withRules(count: number) {
  const setup = controlled();
  const state = await setup.control.exportState();
  await setup.control.faults.add(rule(0));
  const [template] = (await setup.control.exportState()).control.faults;
  state.control.faults = Array.from({ length: count }, (_, i) => ({ ...template, id: `r${i}` }));
  return { ...setup, state };
}

describe('the fault rule limit', () => {
  it('refuses the 1,001st rule with 409 limit_reached, and takes one again once a rule is removed', async () => {
    const { emulator, control, state } = await withRules(1000);
    await control.importState(state);
    const res = await request(emulator.app).post('/_emulator/faults').send(rule(1000));
    expect([res.status, res.body.error.code]).toEqual([409, 'limit_reached']);
    expect(res.body.error.message).toContain('1,000 fault rules');
    expect(await control.faults.list()).toHaveLength(1000);
    await control.faults.remove('r0');
    expect((await request(emulator.app).post('/_emulator/faults').send(rule(1000))).status).toBe(201);
  });

  it('counts the rules a scenario would install, and a refused load keeps the state and the active scenario', async () => {
    const { emulator, control, state } = await withRules(999);
    await control.importState(state);
    await control.scenario.load('flaky-network');
    const res = await request(emulator.app)
      .post('/_emulator/scenarios')
      .send({
        scenario: {
          name: 'two-more',
          steps: [{ op: 'top_up', amount: 5 }],
          faults: [{ action: { type: 'stall' } }, { action: { type: 'stall' } }],
        },
      });
    expect([res.status, res.body.error.code]).toEqual([409, 'limit_reached']);
    expect((await control.scenario.progress())?.name).toBe('flaky-network');
    expect(await control.faults.list()).toHaveLength(1000);
    // The active scenario's own rule makes way for the new one's: one rule replacing one fits.
    const one = await control.scenario.load({ name: 'one-more', faults: [{ action: { type: 'stall' } }] });
    expect(one.faults).toHaveLength(1);
  });

  it('refuses an import holding more with 422 invalid_state naming control.faults, before reading a rule', async () => {
    const { emulator, control, state } = await withRules(1001);
    const res = await request(emulator.app).put('/_emulator/state').send(state);
    expect([res.status, res.body.error.code]).toEqual([422, 'invalid_state']);
    expect(res.body.error.message).toContain('control.faults: holds 1001 rules');
    expect(await control.faults.list()).toEqual([expect.objectContaining({ id: 'r0' })]);
  });
});
