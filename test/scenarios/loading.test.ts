// Loading scenarios: by name, path, body or option; validated at load with errors that name the field; progress; unloading.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { availableScenarios, loadScenarioFile } from '../../src/emulation/scenarios/scenario-files.js';
import { parseScenario } from '../../src/emulation/scenarios/scenario-parse.js';
import { controlled, idem, submission } from '../helpers/controlled-emulator.js';

const SHIPPED = [
  'content-policy-refund',
  'daily-ceiling',
  'expired-urls',
  'failure-no-refund',
  'flaky-network',
  'insufficient-credits',
  'lost-response-retry',
  'rate-limited',
  'slow-queue',
  'stalled-generation',
];

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('shipped scenarios', () => {
  it('are all listed and all valid', () => {
    expect(availableScenarios()).toEqual(SHIPPED);
    for (const name of SHIPPED) expect(loadScenarioFile(name).name).toBe(name);
  });
});

describe('validation at load', () => {
  it.each([
    [{ name: 'Bad Name' }, 'name: must be lower-case letters, digits and dashes'],
    [{ name: 'x', steps: [{ op: 'set_balance', balance: -1 }] }, 'steps[0].balance: Too small'],
    [{ name: 'x', steps: [{ op: 'teleport' }] }, 'steps[0].op: op must be one of set_balance'],
    [{ name: 'x', steps: [{ op: 'advance_clock', by: 'later' }] }, 'steps[0].by: must be a duration'],
    [
      { name: 'x', faults: [{ action: { type: 'stall' } }, { action: { type: 'status', status: 302 } }] },
      'faults[1].action.status: must be between 400 and 599',
    ],
    [
      {
        name: 'x',
        faults: [
          { id: 'a', action: { type: 'stall' } },
          { id: 'a', action: { type: 'stall' } },
        ],
      },
      "faults: duplicate rule id 'a'",
    ],
    [{ name: 'x', fautls: [] }, '(root): unknown field "fautls"'],
  ])('refuses %j naming the field', (scenario, message) => {
    expect(() => parseScenario(scenario)).toThrow(
      expect.objectContaining({ code: 'invalid_scenario', message: expect.stringContaining(message) }),
    );
  });

  it('refuses more than 1,000 steps or rules in one scenario, naming the list', () => {
    const steps = Array.from({ length: 1001 }, () => ({ op: 'freeze_clock' }));
    expect(() => parseScenario({ name: 'x', steps })).toThrow(expect.objectContaining({ code: 'invalid_scenario' }));
    const faults = Array.from({ length: 1001 }, () => ({ action: { type: 'stall' } }));
    expect(() => parseScenario({ name: 'x', faults })).toThrow(/faults: Too big: expected array to have <=1000 items/);
    expect(() => parseScenario({ name: 'x', steps: steps.slice(0, 1000) })).not.toThrow();
  });

  it('answers 422 invalid_scenario over HTTP and 404 scenario_not_found for an unknown name, listing what exists', async () => {
    const { emulator } = controlled();
    const bad = await request(emulator.app)
      .post('/_emulator/scenarios')
      .send({ scenario: { name: 'x', steps: [{ op: 'set_balance' }] } });
    expect([bad.status, bad.body.error.code]).toEqual([422, 'invalid_scenario']);
    expect(bad.body.error.message).toContain('steps[0].balance: is required');
    const missing = await request(emulator.app).post('/_emulator/scenarios').send({ name: 'flaky-networks' });
    expect([missing.status, missing.body.error.code]).toEqual([404, 'scenario_not_found']);
    expect(missing.body.error.message).toContain('flaky-network, ');
  });

  it('refuses a scenario whose clock steps pass 9999-12-31 before any step runs, and the emulator keeps answering', async () => {
    const { emulator, control, api } = controlled();
    const before = (await control.now()).toISOString();
    const balance = (await control.accounts())[0].balance;
    const far = await request(emulator.app)
      .post('/_emulator/scenarios')
      .send({
        scenario: {
          name: 'time-travel',
          steps: [
            { op: 'top_up', amount: 50 },
            { op: 'set_clock', to: '9999-12-31T23:00:00Z' },
            { op: 'advance_clock', by: '30m' },
            { op: 'advance_clock', by: '31m' },
          ],
        },
      });
    expect([far.status, far.body.error.code]).toEqual([422, 'invalid_scenario']);
    expect(far.body.error.problems).toEqual([{ field: 'steps[3]', message: expect.stringContaining('9999-12-31') }]);
    // Nothing ran: not the top-up, not the clock.
    expect((await control.now()).toISOString()).toBe(before);
    expect((await control.accounts())[0].balance).toBe(balance);
    const res = await api.submit(submission(), idem('after-time-travel'));
    expect(res.status).toBe(202);
  });

  it('stops a running clock set near the end at 9999-12-31T23:59:59.999Z: answers and the export stay importable', async () => {
    // Real time is faked (Date only) so that a second passes without waiting for it.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const { emulator, api } = controlled();
      const loaded = await request(emulator.app)
        .post('/_emulator/scenarios')
        .send({
          scenario: {
            name: 'end-of-time',
            steps: [{ op: 'unfreeze_clock' }, { op: 'set_clock', to: '9999-12-31T23:59:59.500Z' }],
          },
        });
      expect(loaded.status).toBe(200);
      vi.setSystemTime(Date.now() + 1_200);
      expect((await request(emulator.app).get('/_emulator/clock')).body).toEqual({
        now: '9999-12-31T23:59:59.999Z',
        frozen: false,
      });
      const submitted = await api.submit(submission(), idem('at-the-end'));
      expect([submitted.status, submitted.body.generation.created_at]).toEqual([202, '9999-12-31T23:59:59.999+00:00']);
      const state = (await request(emulator.app).get('/_emulator/state')).body;
      // Wall time moves on between the export and its import: the running clock comes back held at the end.
      vi.setSystemTime(Date.now() + 5_000);
      const back = await request(emulator.app).put('/_emulator/state').send(state);
      expect(back.status, JSON.stringify(back.body)).toBe(200);
      expect((await request(emulator.app).get('/_emulator/clock')).body.now).toBe('9999-12-31T23:59:59.999Z');
    } finally {
      vi.useRealTimers();
    }
  });

  it.each(['1900-01-01T00:00:00Z', '0000-01-01T00:00:00Z', '1969-12-31T23:59:59.999Z'])(
    'refuses a scenario that sets the clock to %s, before 1970, naming the step',
    async (to) => {
      const { emulator, control } = controlled();
      const before = (await control.now()).toISOString();
      const early = await request(emulator.app)
        .post('/_emulator/scenarios')
        .send({ scenario: { name: 'too-early', steps: [{ op: 'unfreeze_clock' }, { op: 'set_clock', to }] } });
      expect([early.status, early.body.error.code]).toEqual([422, 'invalid_scenario']);
      expect(early.body.error.problems).toEqual([
        { field: 'steps[1]', message: expect.stringContaining('1970-01-01') },
      ]);
      expect((await control.now()).toISOString()).toBe(before);
      expect((await control.clock()).frozen).toBe(true);
      // The state still exports: nothing before 1970 was written.
      expect((await request(emulator.app).get('/_emulator/state')).status).toBe(200);
    },
  );

  it('refuses a broken file by path with the file named', () => {
    const dir = mkdtempSync(join(tmpdir(), 'scenario-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'broken.json'), '{ "name": ');
    expect(() => loadScenarioFile(join(dir, 'broken.json'))).toThrow(/broken\.json is not valid JSON/);
  });
});

describe('loading and progress', () => {
  it('loads by name over HTTP, reports progress, and unloads only its own rules', async () => {
    const { emulator, api, control } = controlled();
    const mine = await control.faults.add({
      id: 'mine',
      match: { route: '/v1/media/usage' },
      action: { type: 'status', status: 500 },
    });
    const loaded = await request(emulator.app).post('/_emulator/scenarios').send({ name: 'flaky-network' });
    expect(loaded.status).toBe(200);
    expect(loaded.body.active).toMatchObject({
      name: 'flaky-network',
      steps: { total: 0, run: 0 },
      complete: false,
      faults: [{ id: 'flaky-network-503', action: 'status', fired: 0, remaining: 2 }],
    });
    await api.submit(submission(), idem(1));
    await api.submit(submission(), idem(1));
    const listed = await request(emulator.app).get('/_emulator/scenarios');
    expect(listed.body.available).toEqual(SHIPPED);
    expect(listed.body.active).toMatchObject({ complete: true, faults: [{ fired: 2, remaining: 0, spent: true }] });
    expect((await control.faults.list()).map((f) => [f.id, f.source])).toEqual([
      [mine.id, 'api'],
      ['flaky-network-503', 'scenario:flaky-network'],
    ]);
    expect((await request(emulator.app).delete('/_emulator/scenarios/active')).body).toEqual({ active: null });
    expect((await control.faults.list()).map((f) => f.id)).toEqual([mine.id]);
  });

  it('runs steps in order at load, from a body, a path or an object', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'scenario-'));
    dirs.push(dir);
    const file = join(dir, 'mine.json');
    writeFileSync(
      file,
      JSON.stringify({
        name: 'my-setup',
        steps: [
          { op: 'set_clock', to: '2026-06-30T23:59:00Z' },
          { op: 'create_account', id: 'acct_poor', balance: 3 },
          { op: 'create_key', account_id: 'acct_poor', secret: 'sk-media-poor-key' },
          { op: 'top_up', amount: 2, account_id: 'acct_poor' },
          { op: 'set_timing', profile: 'instant' },
          { op: 'advance_clock', by: '2m' },
        ],
      }),
    );
    const { control } = controlled();
    const progress = await control.scenario.load(file);
    expect(progress).toMatchObject({ name: 'my-setup', steps: { total: 6, run: 6 }, faults: [], complete: false });
    expect((await control.now()).toISOString()).toBe('2026-07-01T00:01:00.000Z');
    expect(await control.accounts()).toContainEqual({ id: 'acct_poor', name: 'acct_poor', balance: 5, funding: 5 });
    expect((await control.keys()).at(-1)).toMatchObject({ account_id: 'acct_poor', secret: 'sk-media-poor-key' });
    expect((await control.timing()).profile).toBe('instant');

    const again = controlled();
    await again.control.scenario.load({ name: 'inline', faults: [{ action: { type: 'stall' } }] });
    expect((await again.control.scenario.progress())?.faults).toHaveLength(1);
  });

  it('applies the scenario option at creation', async () => {
    const { control } = controlled({ scenario: 'insufficient-credits' });
    expect((await control.accounts())[0].balance).toBe(10);
    expect((await control.scenario.progress())?.name).toBe('insufficient-credits');
  });

  it('fails creation with a clear error for a bad scenario option', () => {
    expect(() => controlled({ scenario: 'nope' })).toThrow(/No scenario named 'nope'/);
  });
});
