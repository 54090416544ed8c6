// The /_emulator/* routes of docs/control-plane-contract.md, through supertest: answers, status codes and error codes.
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { CHEAP_PRICE, controlled, idem, submission } from '../helpers/controlled-emulator.js';

function admin(app: Parameters<typeof request>[0]) {
  const agent = request(app);
  return {
    get: (path: string) => agent.get(path),
    post: (path: string, body?: object) => (body === undefined ? agent.post(path) : agent.post(path).send(body)),
    put: (path: string, body: object) => agent.put(path).send(body),
    delete: (path: string) => agent.delete(path),
  };
}

describe('accounts and keys', () => {
  it('lists accounts, sets and tops up balances as funding entries', async () => {
    const { emulator } = controlled();
    const http = admin(emulator.app);
    expect((await http.get('/_emulator/accounts')).body).toEqual({
      accounts: [{ id: 'acct_local', name: 'Local account', balance: 1_000_000, funding: 1_000_000 }],
    });
    expect((await http.post('/_emulator/accounts/acct_local/balance', { add: 500 })).body).toEqual({
      account_id: 'acct_local',
      balance: 1_000_500,
    });
    expect((await http.post('/_emulator/accounts/acct_local/balance', { set: 2_000_000 })).body).toEqual({
      account_id: 'acct_local',
      balance: 2_000_000,
    });
    const ledger = (await http.get('/_emulator/ledger?account_id=acct_local')).body.entries;
    expect(ledger.map((e: { type: string; amount: number }) => [e.type, e.amount])).toEqual([
      ['funding', 1_000_000],
      ['funding', 500],
      ['funding', 999_500],
    ]);
  });

  it('lowers a balance with a negative funding entry, so funding minus balance still equals what generations cost', async () => {
    const { control, emulator, api } = controlled();
    await api.submit(submission(), idem(1));
    expect(await control.setBalance(10)).toEqual({ account_id: 'acct_local', balance: 10 });
    const [account] = await control.accounts();
    expect(account.funding - account.balance).toBe(CHEAP_PRICE);
    expect((await control.ledger()).at(-1)).toMatchObject({ type: 'funding', amount: -(1_000_000 - CHEAP_PRICE - 10) });
    const refused = await admin(emulator.app).post('/_emulator/accounts/acct_local/balance', { add: -11 });
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe('invalid_amount');
  });

  it('refuses unknown accounts and bad bodies with the error envelope', async () => {
    const http = admin(controlled().emulator.app);
    const missing = await http.post('/_emulator/accounts/acct_nobody/balance', { set: 1 });
    expect([missing.status, missing.body.error.code]).toEqual([404, 'account_not_found']);
    const bad = await http.post('/_emulator/accounts/acct_local/balance', { set: -1 });
    expect([bad.status, bad.body.error.code]).toEqual([422, 'invalid_control_request']);
    expect(bad.body.error.message).toContain('set: Too small: expected number to be >=0');
  });

  it('says a paging number in a query must be one whole number in its range, as one problem', async () => {
    const http = admin(controlled().emulator.app);
    for (const [path, field, range] of [
      ['/_emulator/journal?limit=abc', 'journal query: limit', 'from 1 to 10000'],
      ['/_emulator/generations?limit=2.5', 'generations query: limit', 'from 1 to 1000'],
      ['/_emulator/generations?limit=0', 'generations query: limit', 'from 1 to 1000'],
      ['/_emulator/generations?limit=1&limit=2', 'generations query: limit', 'from 1 to 1000'],
      ['/_emulator/generations?limit=99999999999999999999', 'generations query: limit', 'from 1 to 1000'],
      ['/_emulator/summary?offset=-1', 'summary query: offset', 'from 0 up'],
    ]) {
      const res = await http.get(path);
      expect([res.status, res.body.error.code]).toEqual([422, 'invalid_control_request']);
      const [what, name] = field.split(': ');
      expect(res.body.error.message).toBe(`The ${what} is not valid: ${name}: must be one whole number ${range}.`);
      expect(res.body.error.problems).toEqual([{ field: name, message: `must be one whole number ${range}` }]);
    }
  });

  it('says a journal filter given twice must be given once, in words that say what it takes', async () => {
    const http = admin(controlled().emulator.app);
    for (const [query, field, message] of [
      ['status=5xx&status=4xx', 'status', 'must be one status such as 503 or a class such as 5xx'],
      [
        'since=1&since=2',
        'since',
        'must be one time: an ISO 8601 date-time such as 2026-01-01T00:00:00Z, or milliseconds since 1970',
      ],
      ['path=/a&path=/b', 'path', 'must be one path, or a pattern ending in * such as /v1/media/generations*'],
      ['method=GET&method=POST', 'method', 'must be one method such as POST'],
    ]) {
      const res = await http.get(`/_emulator/journal?${query}`);
      expect([res.status, res.body.error.code]).toEqual([422, 'invalid_control_request']);
      expect(res.body.error.problems).toEqual([{ field, message }]);
    }
  });

  it('creates keys with a model scope and a daily ceiling, and revokes them', async () => {
    const { emulator } = controlled();
    const http = admin(emulator.app);
    const created = await http.post('/_emulator/keys', {
      name: 'scoped',
      model_scope: 'still-sketch-v1',
      daily_credit_limit: 100,
      secret: 'sk-media-scoped-key',
    });
    expect(created.status).toBe(201);
    expect(created.body.key).toMatchObject({
      id: 2,
      secret: 'sk-media-scoped-key',
      account_id: 'acct_local',
      model_scope: 'still-sketch-v1',
      daily_credit_limit: 100,
      revoked_at: null,
    });
    const scoped = request(emulator.app);
    const refused = await scoped
      .post('/v1/media/estimate')
      .set('Authorization', 'Bearer sk-media-scoped-key')
      .send({ model_slug: 'motion-lite-v1', prompt: 'x' });
    expect(refused.body.error.code).toBe('model_not_allowed_for_key');
    const revoked = await http.post('/_emulator/keys/2/revoke');
    expect(revoked.body.key.revoked_at).not.toBeNull();
    const after = await scoped.get('/v1/media/models').set('Authorization', 'Bearer sk-media-scoped-key');
    expect(after.body.error.code).toBe('revoked_api_key');
    expect((await http.get('/_emulator/keys')).body.keys).toHaveLength(2);
    expect((await http.post('/_emulator/keys/99/revoke')).body.error.code).toBe('key_not_found');
  });

  it('draws secrets from the seed when none is given', async () => {
    const a = await controlled({ seed: 3 }).control.createKey();
    const b = await controlled({ seed: 3 }).control.createKey();
    expect(a.secret).toMatch(/^sk-media-[a-z0-9]{24}$/);
    expect(b.secret).toBe(a.secret);
  });
});

describe('control bodies', () => {
  it('refuses a body that is not sent as JSON with 415, naming the content type to send', async () => {
    const { emulator } = controlled();
    const res = await request(emulator.app)
      .post('/_emulator/faults')
      .set('Content-Type', 'text/plain')
      .send('{"match":{"path":"/v1/media/models"},"action":{"type":"error","status":503}}');
    expect(res.status).toBe(415);
    expect(res.body.error.code).toBe('bad_request');
    expect(res.body.error.message).toContain('text/plain; send it as JSON with Content-Type: application/json');
    expect((await request(emulator.app).get('/_emulator/faults')).body.faults).toEqual([]);
    const empty = await request(emulator.app).post('/_emulator/clock/advance').set('Content-Type', 'text/plain');
    expect(empty.body.error.code).toBe('invalid_control_request');
  });
});

describe('clock and timing', () => {
  it('reads, advances (counting transitions), freezes and unfreezes the clock', async () => {
    const { emulator, api } = controlled({ clockStart: '2026-03-01T00:00:00Z' });
    const http = admin(emulator.app);
    expect((await http.get('/_emulator/clock')).body).toEqual({ now: '2026-03-01T00:00:00.000Z', frozen: true });
    await api.submit(submission(), idem(1));
    const advanced = await http.post('/_emulator/clock/advance', { by: '10m' });
    expect(advanced.body).toEqual({ now: '2026-03-01T00:10:00.000Z', frozen: true, transitions: 2 });
    expect((await http.post('/_emulator/clock/advance', { by: 1500 })).body.now).toBe('2026-03-01T00:10:01.500Z');
    expect((await http.post('/_emulator/clock/unfreeze')).body.frozen).toBe(false);
    expect((await http.post('/_emulator/clock/freeze')).body.frozen).toBe(true);
    expect((await http.post('/_emulator/clock/advance', { by: 'soon' })).body.error.code).toBe(
      'invalid_control_request',
    );
  });

  it('counts what an advance moved: two for a completion, one for a failure, none once all are final', async () => {
    const { emulator, api } = controlled({ clockStart: '2026-03-01T00:00:00Z' });
    const http = admin(emulator.app);
    await api.submit(submission(), idem(11));
    await api.submit(submission({ prompt: 'a lighthouse [emulator:fail=internal_error]' }), idem(12));
    expect((await http.post('/_emulator/clock/advance', { by: '10m' })).body.transitions).toBe(3);
    expect((await http.post('/_emulator/clock/advance', { by: '10m' })).body.transitions).toBe(0);
    await api.submit(submission(), idem(13));
    expect((await http.post('/_emulator/clock/advance-to-next')).body.transitions).toBe(1);
  });

  it('sets the timing profile globally and per model; new generations follow it', async () => {
    const { emulator, api, control } = controlled();
    const http = admin(emulator.app);
    expect((await http.get('/_emulator/timing')).body).toEqual({ profile: 'manual', by_model: {} });
    expect((await http.put('/_emulator/timing', { by_model: { 'still-sketch-v1': 'instant' } })).body).toEqual({
      profile: 'manual',
      by_model: { 'still-sketch-v1': 'instant' },
    });
    const res = await api.submit(submission(), idem(2));
    await control.advance(0);
    expect((await control.generation(res.body.generation.id)).status).toBe('completed');
    expect(
      (await http.put('/_emulator/timing', { profile: 'fast', by_model: { 'still-sketch-v1': null } })).body,
    ).toEqual({ profile: 'fast', by_model: {} });
    expect(
      (await http.put('/_emulator/timing', { by_model: { 'no-such-model': 'fast' } })).body.error.message,
    ).toContain("by_model.no-such-model: no model 'no-such-model'");
  });
});

describe('generations', () => {
  it('lists every account’s generations newest first, filtered by status', async () => {
    const { emulator, api, control } = controlled();
    const first = (await api.submit(submission(), idem(1))).body.generation.id;
    const second = (await api.submit(submission(), idem(2))).body.generation.id;
    await control.complete(first);
    const http = admin(emulator.app);
    const all = (await http.get('/_emulator/generations')).body.generations;
    expect(all.map((g: { id: string }) => g.id)).toEqual([second, first]);
    expect(all[0].account_id).toBe('acct_local');
    expect(
      (await http.get('/_emulator/generations?status=completed&limit=5')).body.generations.map(
        (g: { id: string }) => g.id,
      ),
    ).toEqual([first]);
  });

  it('completes now, or fails now with a code, a message and a refund policy', async () => {
    const { emulator, api } = controlled();
    const http = admin(emulator.app);
    const a = (await api.submit(submission(), idem(1))).body.generation.id;
    const b = (await api.submit(submission(), idem(2))).body.generation.id;
    const completed = await http.post(`/_emulator/generations/${a}/complete`);
    expect(completed.body.generation).toMatchObject({ id: a, status: 'completed', billing_status: 'charged' });
    expect(completed.body.generation.outputs[0].url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/files\//);
    const failed = await http.post(`/_emulator/generations/${b}/fail`, {
      code: 'content_policy',
      message: 'Nope.',
      refund: { partial: 1 },
    });
    expect(failed.body.generation).toMatchObject({
      status: 'failed',
      error: { code: 'content_policy', message: 'Nope.' },
      refunded_credits: 1,
      billing_status: 'partially_refunded',
    });
    expect((await http.post(`/_emulator/generations/${b}/fail`, {})).body.error.code).toBe('generation_final');
    expect((await http.post(`/_emulator/generations/${a}/complete`)).body.error.code).toBe('generation_final');
    expect((await http.post('/_emulator/generations/gen_nope/complete')).status).toBe(404);
  });

  it('refunds exactly once, even when forced twice', async () => {
    const { emulator, api, control } = controlled();
    const http = admin(emulator.app);
    const id = (await api.submit(submission(), idem(1))).body.generation.id;
    await control.complete(id);
    const [first, second] = await Promise.all([
      http.post(`/_emulator/generations/${id}/refund`, {}),
      http.post(`/_emulator/generations/${id}/refund`, {}),
    ]);
    const statuses = [first.status, second.status].sort();
    expect(statuses).toEqual([200, 409]);
    const ok = first.status === 200 ? first : second;
    const refused = first.status === 200 ? second : first;
    expect(ok.body).toMatchObject({
      refunded: CHEAP_PRICE,
      generation: { billing_status: 'refunded', net_credits: 0 },
    });
    expect(refused.body.error.code).toBe('already_refunded');
    await expect(control.refund(id)).rejects.toMatchObject({ code: 'already_refunded' });
    expect((await control.ledger({ generation_id: id })).filter((e) => e.type === 'refund')).toHaveLength(1);
    expect((await control.accounts())[0].balance).toBe(1_000_000);
  });

  it('refunds partially, then what is left; refuses more than is left and in-flight generations', async () => {
    const { api, control } = controlled();
    const id = (await api.submit(submission(), idem(1))).body.generation.id;
    await expect(control.refund(id)).rejects.toMatchObject({ code: 'generation_not_final' });
    await control.complete(id);
    expect((await control.refund(id, 1)).generation.billing_status).toBe('partially_refunded');
    await expect(control.refund(id, CHEAP_PRICE)).rejects.toMatchObject({ code: 'invalid_refund_amount' });
    expect((await control.refund(id)).refunded).toBe(CHEAP_PRICE - 1);
  });
});

describe('protocol', () => {
  it('answers 405 with Allow for a wrong method, and 404 for unknown control paths', async () => {
    const http = admin(controlled().emulator.app);
    const wrong = await http.put('/_emulator/reset', {});
    expect(wrong.status).toBe(405);
    expect(wrong.headers.allow).toBe('POST');
    expect((await http.get('/_emulator/nothing-here')).status).toBe(404);
  });

  it('never serves the control plane under /v1/media', async () => {
    const { api } = controlled();
    expect((await api.get('/v1/media/_emulator/faults')).status).toBe(404);
  });
});
