// Fault rules: validation with errors that name the field, every matcher, first match wins, `after`, `times`, `probability`.
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { controlled, idem, submission } from '../helpers/controlled-emulator.js';

const status503 = { type: 'status', status: 503 } as const;

describe('rule validation', () => {
  it.each([
    [{ action: { type: 'status', status: 200 } }, 'action.status: must be between 400 and 599'],
    [
      { action: { type: 'explode' } },
      'action.type: type must be one of status, latency, reset, empty, hang, dribble, lost_response, fail',
    ],
    [{ probabilty: 0.5, action: status503 }, '(root): unknown field "probabilty"'],
    [{ match: { prompt: '(' }, action: status503 }, 'match.prompt: is not a valid regular expression'],
    [{ match: { route: 'v1/media' }, action: status503 }, 'match.route: must start with "/"'],
    [
      { action: { type: 'latency', distribution: 'uniform', min_ms: 5 } },
      'action.max_ms: is required for a uniform latency',
    ],
    [{ action: { type: 'fail', refund: { partial: 0 } } }, 'action.refund'],
    [{ action: { type: 'fail', delay: 'later' } }, 'action.delay: must be a duration'],
    [{ probability: 2, action: status503 }, 'probability:'],
    [{ times: 0, action: status503 }, 'times:'],
    [{}, 'action: is required'],
    [{ id: '..', action: { type: 'hang' } }, 'id: must not be dots only'],
    [{ id: '.', action: status503 }, 'id: must not be dots only'],
  ])('refuses %j naming the field', async (rule, message) => {
    const { emulator } = controlled();
    const res = await request(emulator.app).post('/_emulator/faults').send(rule);
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('invalid_fault_rule');
    expect(res.body.error.message).toContain(message);
    expect(res.body.error.problems.length).toBeGreaterThan(0);
  });

  it('keeps ids with dots among other characters addressable', async () => {
    const { emulator, control } = controlled();
    await control.faults.add({ id: 'v1.retry', action: status503 });
    const removed = await request(emulator.app).delete('/_emulator/faults/v1.retry');
    expect([removed.status, removed.body.faults]).toEqual([200, []]);
  });

  it('refuses a second rule with the same id', async () => {
    const { control } = controlled();
    await control.faults.add({ id: 'mine', action: status503 });
    await expect(control.faults.add({ id: 'mine', action: status503 })).rejects.toMatchObject({ code: 'fault_exists' });
  });
});

describe('matchers', () => {
  it('matches method and route, with :param and * patterns', async () => {
    const { control, api } = controlled();
    await control.faults.add({ match: { method: 'get', route: '/v1/media/generations/:id' }, action: status503 });
    expect((await api.get('/v1/media/generations/gen_000999')).status).toBe(503);
    expect((await api.get('/v1/media/generations')).status).toBe(200);
    expect((await api.post('/v1/media/estimate', { model_slug: 'still-sketch-v1', prompt: 'x' })).status).toBe(200);
    await control.faults.clear();
    await control.faults.add({ match: { route: '/v1/media/*' }, action: status503 });
    expect((await api.get('/v1/media/models')).status).toBe(503);
    expect((await api.get('/_emulator/health')).status).toBe(200);
  });

  it('matches model_slug in a JSON body and in the query', async () => {
    const { control, api } = controlled();
    await control.faults.add({ match: { model_slug: 'motion-lite-v1' }, action: status503 });
    expect((await api.post('/v1/media/estimate', { model_slug: 'motion-lite-v1', prompt: 'x' })).status).toBe(503);
    expect((await api.post('/v1/media/estimate', { model_slug: 'still-sketch-v1', prompt: 'x' })).status).toBe(200);
    expect((await api.get('/v1/media/generations?model_slug=motion-lite-v1')).status).toBe(503);
    expect((await api.get('/v1/media/generations?model_slug=still-sketch-v1')).status).toBe(200);
  });

  it('matches the API key id, and never a request whose key does not authenticate', async () => {
    const { control, api, emulator } = controlled();
    const other = await control.createKey({ secret: 'sk-media-other-key-1' });
    await control.faults.add({ match: { key_id: other.id }, action: status503 });
    expect((await api.get('/v1/media/models')).status).toBe(200);
    expect(
      (await request(emulator.app).get('/v1/media/models').set('Authorization', `Bearer ${other.secret}`)).status,
    ).toBe(503);
    expect(
      (await request(emulator.app).get('/v1/media/models').set('Authorization', 'Bearer sk-media-unknown-key')).status,
    ).toBe(401);
  });

  it('matches the prompt with a regular expression, plain or /literal/flags', async () => {
    const { control, api } = controlled();
    await control.faults.add({ match: { prompt: '/STORM/i' }, action: status503 });
    expect((await api.submit(submission({ prompt: 'a storm at sea' }), idem(1))).status).toBe(503);
    expect((await api.submit(submission({ prompt: 'a calm sea' }), idem(2))).status).toBe(202);
    await control.faults.clear();
    await control.faults.add({ match: { prompt: '^exact$' }, action: status503 });
    expect((await api.submit(submission({ prompt: 'exact' }), idem(3))).status).toBe(503);
    expect((await api.submit(submission({ prompt: 'not exact' }), idem(4))).status).toBe(202);
  });

  it('matches the Idempotency-Key exactly or by /regex/', async () => {
    const { control, api } = controlled();
    await control.faults.add({ match: { idempotency_key: 'idem-key-special' }, action: status503 });
    await control.faults.add({ match: { idempotency_key: '/^retry-/' }, action: { type: 'status', status: 502 } });
    expect((await api.submit(submission(), 'idem-key-special')).status).toBe(503);
    expect((await api.submit(submission(), 'retry-0001')).status).toBe(502);
    expect((await api.submit(submission(), 'idem-key-plain')).status).toBe(202);
  });

  it('reads a repeated Idempotency-Key as the submission does: the first one, in the rule and in the journal', async () => {
    const { control, emulator } = controlled();
    await control.faults.add({ match: { idempotency_key: 'idem-first-1' }, action: status503 });
    const res = await request(emulator.app)
      .post('/v1/media/generations')
      .set('Authorization', `Bearer ${emulator.apiKey}`)
      // An array goes out as one header line per value (Node's setHeader); superagent's types name only a string.
      .set('Idempotency-Key', ['idem-first-1', 'idem-second-2'] as unknown as string)
      .send(submission());
    expect(res.status).toBe(503);
    expect(await control.journal({ limit: 1 })).toMatchObject([{ status: 503, idempotency_key: 'idem-first-1' }]);
  });

  it('leaves CORS preflights alone unless a rule names OPTIONS', async () => {
    const { control, emulator } = controlled();
    await control.faults.add({ action: status503 });
    const preflight = await request(emulator.app)
      .options('/v1/media/models')
      .set('Origin', 'http://localhost:3000')
      .set('Access-Control-Request-Method', 'GET');
    expect(preflight.status).toBe(204);
  });
});

describe('order and counters', () => {
  it('applies the first matching rule only', async () => {
    const { control, api } = controlled();
    await control.faults.add({
      match: { route: '/v1/media/models' },
      times: 1,
      action: { type: 'status', status: 502 },
    });
    await control.faults.add({ match: { route: '/v1/media/models' }, action: { type: 'status', status: 504 } });
    expect((await api.get('/v1/media/models')).status).toBe(502);
    expect((await api.get('/v1/media/models')).status).toBe(504);
    expect((await api.get('/v1/media/models')).status).toBe(504);
  });

  it('`after` lets the first N matches through, `times` spends the rule', async () => {
    const { control, api } = controlled();
    const rule = await control.faults.add({
      match: { route: '/v1/media/models' },
      after: 2,
      times: 2,
      action: status503,
    });
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await api.get('/v1/media/models')).status);
    expect(statuses).toEqual([200, 200, 503, 503, 200, 200]);
    const [listed] = await control.faults.list();
    expect(listed).toMatchObject({ id: rule.id, matched: 4, fired: 2, remaining: 0, spent: true });
  });

  it('a disabled rule does not match until enabled again; removed rules are gone', async () => {
    const { control, api, emulator } = controlled();
    const rule = await control.faults.add({ action: status503 });
    const off = await request(emulator.app).patch(`/_emulator/faults/${rule.id}`).send({ enabled: false });
    expect(off.body.fault).toMatchObject({ id: rule.id, enabled: false });
    expect((await api.get('/v1/media/models')).status).toBe(200);
    await control.faults.enable(rule.id);
    expect((await api.get('/v1/media/models')).status).toBe(503);
    const removed = await request(emulator.app).delete(`/_emulator/faults/${rule.id}`);
    expect(removed.body).toEqual({ faults: [] });
    expect((await api.get('/v1/media/models')).status).toBe(200);
    expect((await request(emulator.app).delete(`/_emulator/faults/${rule.id}`)).body.error.code).toBe(
      'fault_not_found',
    );
  });

  it('probability draws from the seeded random: the same seed gives the same sequence twice', async () => {
    const run = async (seed: number) => {
      const { control, api } = controlled({ seed });
      await control.faults.add({ match: { route: '/v1/media/models' }, probability: 0.5, action: status503 });
      const out: number[] = [];
      for (let i = 0; i < 24; i++) out.push((await api.get('/v1/media/models')).status);
      return out;
    };
    const first = await run(7);
    expect(await run(7)).toEqual(first);
    expect(first).toContain(503);
    expect(first).toContain(200);
    expect(await run(8)).not.toEqual(first);
  });

  it('probability 0 never fires and still counts the match', async () => {
    const { control, api } = controlled();
    await control.faults.add({ probability: 0, action: status503 });
    for (let i = 0; i < 5; i++) expect((await api.get('/v1/media/models')).status).toBe(200);
    expect((await control.faults.list())[0]).toMatchObject({ matched: 5, fired: 0 });
  });
});
