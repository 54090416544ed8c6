// The contract checker catches what it must: undocumented statuses, members and media types, bad 404/405 answers.
import { describe, expect, it } from 'vitest';
import { checkerFor, takeViolations } from '../helpers/contract.js';
import { client, makeEmulator } from '../helpers/emulator.js';

const checker = checkerFor();
const json = (
  status: number,
  body: unknown,
  method = 'GET',
  url = '/v1/media/usage',
  headers: Record<string, string> = {},
) =>
  checker.check({
    method,
    url,
    status,
    headers: { 'content-type': 'application/json', ...headers },
    body: Buffer.from(JSON.stringify(body)),
  });

const usage = {
  account_id: 'acct_local',
  wallet_balance: 10,
  today: { date: '2026-01-01', charged_credits: 0, refunded_credits: 0, net_credits: 0 },
  models: [],
  key: { id: 1, name: 'k', model_scope: null, daily_credit_limit: null, used_today: 0, remaining_today: null },
  as_of: '2026-01-01T00:00:00.000+00:00',
};

describe('the contract checker', () => {
  it('accepts a conforming answer', () => {
    expect(json(200, usage)).toEqual([]);
    expect(json(401, { error: { code: 'missing_api_key', message: 'm' } })).toEqual([]);
  });

  it('refuses an undocumented status', () => {
    expect(json(500, { error: { code: 'internal_error', message: 'm' } })[0]).toMatch(
      /undocumented status 500 for GET \/v1\/media\/usage/,
    );
  });

  it('accepts any 4xx/5xx a fault rule injects, when the answer names the rule', () => {
    const injected = { error: { code: 'service_unavailable', message: 'm' } };
    expect(json(503, injected, 'GET', '/v1/media/usage', { 'x-emulator-fault': 'f1' })).toEqual([]);
    expect(
      json(
        429,
        { error: { code: 'rate_limited', message: 'm', retry_after_seconds: 1 } },
        'POST',
        '/v1/media/generations',
        { 'x-emulator-fault': 'f1' },
      ),
    ).toEqual([]);
    expect(json(503, injected)[0]).toMatch(/undocumented status 503.*only from a fault rule/);
  });

  it("checks a fault rule's answer at a status the operation lists against that status, as a client reads it", () => {
    const marked = { 'x-emulator-fault': 'f1' };
    const submit = (status: number, body: unknown, headers: Record<string, string> = marked) =>
      json(status, body, 'POST', '/v1/media/generations', headers);
    // A status-only 402 and 500 carry no `credits`, and a 429 `rate_limited` is not the daily limit.
    expect(submit(402, { error: { code: 'bad_request', message: 'm' } })).toEqual([]);
    expect(submit(500, { error: { code: 'internal_error', message: 'm' } })).toEqual([]);
    expect(submit(429, { error: { code: 'rate_limited', message: 'm', retry_after_seconds: 1 } })).toEqual([]);
    expect(submit(429, { error: { code: 'rate_limited', message: 'm', retry_after_seconds: -1 } })).toHaveLength(1);
    // Unmarked, the same answers are the service's own, and must be what the status lists.
    expect(submit(402, { error: { code: 'bad_request', message: 'm' } }, {})).toHaveLength(1);
    expect(submit(500, { error: { code: 'internal_error', message: 'm' } }, {})[0]).toMatch(
      /only a fault rule answers 500/,
    );
  });

  it('refuses an undocumented member, a missing member and a wrong type', () => {
    expect(json(200, { ...usage, extra: 1 })[0]).toMatch(/must NOT have additional properties 'extra'/);
    const { as_of: _, ...missing } = usage;
    expect(json(200, missing)[0]).toMatch(/must have required property 'as_of'/);
    expect(json(200, { ...usage, wallet_balance: '10' })[0]).toMatch(/wallet_balance must be integer/);
  });

  it('refuses an error code not documented at that status', () => {
    expect(json(401, { error: { code: 'insufficient_credits', message: 'm' } })).toHaveLength(1);
    expect(json(401, { error: { code: 'missing_api_key', message: 'm', hint: 'x' } })).toHaveLength(1);
  });

  it('refuses an undocumented media type', () => {
    const found = checker.check({
      method: 'GET',
      url: '/v1/media/usage',
      status: 200,
      headers: { 'content-type': 'text/plain' },
      body: Buffer.from('x'),
    });
    expect(found[0]).toMatch(/content-type 'text\/plain' is not documented/);
  });

  it('allows only route_not_found on unknown paths and method_not_allowed with Allow on other methods', () => {
    expect(json(404, { error: { code: 'route_not_found', message: 'm' } }, 'GET', '/nope')).toEqual([]);
    expect(json(200, {}, 'GET', '/nope')).toHaveLength(1);
    expect(
      json(405, { error: { code: 'method_not_allowed', message: 'm' } }, 'DELETE', '/v1/media/usage', { allow: 'GET' }),
    ).toEqual([]);
    expect(json(405, { error: { code: 'method_not_allowed', message: 'm' } }, 'DELETE', '/v1/media/usage')[0]).toMatch(
      /without an Allow header/,
    );
  });

  it('records every response of a test emulator, including the ones nobody asserts on', async () => {
    const emulator = makeEmulator();
    const api = client(emulator);
    await api.get('/v1/media/usage');
    await api.get('/no/such/route');
    await api.raw.delete('/v1/media/usage');
    await api.raw
      .options('/v1/media/usage')
      .set('Origin', 'http://localhost:5173')
      .set('Access-Control-Request-Method', 'POST');
    expect(takeViolations()).toEqual([]);
  });
});
