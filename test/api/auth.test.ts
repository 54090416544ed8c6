// Bearer authentication on all seven public routes: missing, malformed, unknown and revoked keys get 401 with their
// own codes, and authentication runs before any input is read or validated.
import { describe, expect, it } from 'vitest';
import { client, makeEmulator, MODEL_A } from '../helpers/emulator.js';
import { runtimeOf } from '../../src/testing.js';

interface Route {
  name: string;
  method: 'get' | 'post';
  path: string;
  /** A request that would be refused with 4xx (mostly 422) for its input if the key were good. */
  send?: (req: import('supertest').Test) => import('supertest').Test;
}

const ROUTES: Route[] = [
  { name: 'GET /v1/media/models', method: 'get', path: '/v1/media/models?kind=nonsense' },
  {
    name: 'POST /v1/media/estimate',
    method: 'post',
    path: '/v1/media/estimate',
    send: (r) => r.set('Content-Type', 'application/json').send('{"a": }'),
  },
  {
    name: 'POST /v1/media/generations',
    method: 'post',
    path: '/v1/media/generations',
    send: (r) => r.send({ nonsense: true }),
  },
  { name: 'GET /v1/media/generations', method: 'get', path: '/v1/media/generations?limit=0&kind=nonsense' },
  { name: 'GET /v1/media/generations/{id}', method: 'get', path: '/v1/media/generations/gen_does_not_exist' },
  { name: 'GET /v1/media/usage', method: 'get', path: '/v1/media/usage' },
  {
    name: 'POST /v1/media/uploads',
    method: 'post',
    path: '/v1/media/uploads',
    send: (r) => r.field('target_slot', 'nowhere'),
  },
];

const REVOKED = 'sk-media-revoked-key-0001';

const HEADERS: [string, string | undefined, string][] = [
  ['no Authorization header', undefined, 'missing_api_key'],
  ['an empty Authorization header', '', 'missing_api_key'],
  ['Basic credentials', 'Basic dXNlcjpwYXNz', 'malformed_api_key'],
  ['the key without "Bearer "', 'sk-media-local-emulator-key', 'malformed_api_key'],
  ['a wrong scheme before a good key', 'Token sk-media-local-emulator-key', 'malformed_api_key'],
  ['"Bearer" with no key', 'Bearer', 'malformed_api_key'],
  ['"Bearer " and spaces', 'Bearer    ', 'malformed_api_key'],
  ['a bearer token without the sk-media- prefix', 'Bearer sk-other-local-emulator-key', 'malformed_api_key'],
  ['two tokens', 'Bearer sk-media-local-emulator-key extra', 'malformed_api_key'],
  ['an unknown key', 'Bearer sk-media-unknown-key-0001', 'invalid_api_key'],
  ['the seeded key with one character changed', 'Bearer sk-media-local-emulator-kez', 'invalid_api_key'],
  ['a revoked key', `Bearer ${REVOKED}`, 'revoked_api_key'],
];

function setupWithRevokedKey() {
  const emulator = makeEmulator({ ffmpegPath: false });
  const ctx = runtimeOf(emulator).context();
  const key = ctx.accounts.createKey(
    { accountId: emulator.accountId, secret: REVOKED, name: 'to revoke' },
    ctx.clock.now(),
  );
  ctx.accounts.revokeKey(key.id, ctx.clock.now());
  return emulator;
}

describe.each(ROUTES)('$name', (route) => {
  it.each(HEADERS)('refuses %s with 401 (header %j, code %s)', async (_name, header, code) => {
    const emulator = setupWithRevokedKey();
    const balance = runtimeOf(emulator).context().ledger.balance(emulator.accountId);
    let req = client(emulator).raw[route.method](route.path);
    if (header !== undefined) req = req.set('Authorization', header);
    if (route.send) req = route.send(req);
    const res = await req;
    expect(res.status).toBe(401);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.body).toStrictEqual({ error: { code, message: expect.any(String) } });
    expect(res.body.error.message.length).toBeGreaterThan(10);
    expect(runtimeOf(emulator).context().generations.size).toBe(0);
    expect(runtimeOf(emulator).context().ledger.balance(emulator.accountId)).toBe(balance);
  });

  it('lets the seeded key through to input handling (the same request is no longer a 401)', async () => {
    const emulator = setupWithRevokedKey();
    let req = client(emulator).raw[route.method](route.path).set('Authorization', `Bearer ${emulator.apiKey}`);
    if (route.send) req = route.send(req);
    const res = await req;
    expect(res.status).not.toBe(401);
    expect(res.status).toBeLessThan(500);
  });
});

describe('authentication details', () => {
  it('gives each failure its own code', () => {
    expect(new Set(HEADERS.map(([, , code]) => code))).toEqual(
      new Set(['missing_api_key', 'malformed_api_key', 'invalid_api_key', 'revoked_api_key']),
    );
  });

  it('accepts the scheme in any case, as HTTP says', async () => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const res = await client(emulator).raw.get('/v1/media/usage').set('Authorization', `bearer ${emulator.apiKey}`);
    expect(res.status).toBe(200);
  });

  it('accepts a key created for the account, and refuses it from the moment it is revoked', async () => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const ctx = runtimeOf(emulator).context();
    const key = ctx.accounts.createKey(
      { accountId: emulator.accountId, secret: 'sk-media-second-key-0001' },
      ctx.clock.now(),
    );
    const api = client(emulator, key.secret);
    const accepted = await api.submit({ model_slug: MODEL_A, prompt: 'fox', max_credits: 100 }, 'revoke-test-1');
    expect(accepted.status).toBe(202);
    expect(accepted.body.generation.api_key_id).toBe(key.id);

    ctx.accounts.revokeKey(key.id, ctx.clock.now());
    const refused = await api.submit({ model_slug: MODEL_A, prompt: 'fox', max_credits: 100 }, 'revoke-test-2');
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('revoked_api_key');
    // Even a replay of an earlier request is refused once the key is revoked.
    const replay = await api.submit({ model_slug: MODEL_A, prompt: 'fox', max_credits: 100 }, 'revoke-test-1');
    expect(replay.status).toBe(401);
    expect(ctx.generations.size).toBe(1);
  });

  it('checks the key before the body: invalid JSON, no Idempotency-Key and a bad key give 401', async () => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const res = await client(emulator, 'sk-media-nobody-0001')
      .raw.post('/v1/media/generations')
      .set('Authorization', 'Bearer sk-media-nobody-0001')
      .set('Content-Type', 'application/json')
      .send('{"a": }');
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('invalid_api_key');
  });

  it('checks the key before the multipart body is parsed (malformed multipart with no key is a 401, not a 400)', async () => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const res = await client(emulator)
      .raw.post('/v1/media/uploads')
      .set('Content-Type', 'multipart/form-data; boundary=x')
      .send('--x\r\nbroken');
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('missing_api_key');
  });

  it('does not reveal whether a generation exists to a caller without a key', async () => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const created = await client(emulator).submit(
      { model_slug: MODEL_A, prompt: 'fox', max_credits: 100 },
      'exists-0001',
    );
    const id = created.body.generation.id as string;
    const existing = await client(emulator)
      .raw.get(`/v1/media/generations/${id}`)
      .set('Authorization', 'Bearer sk-media-unknown-0001');
    const missing = await client(emulator)
      .raw.get('/v1/media/generations/gen_nope')
      .set('Authorization', 'Bearer sk-media-unknown-0001');
    expect(existing.status).toBe(401);
    expect(missing.status).toBe(401);
    expect(existing.body).toEqual(missing.body);
  });

  it('honours a status override for an auth code from the errorStatuses table', async () => {
    const emulator = makeEmulator({ ffmpegPath: false, errorStatuses: { revoked_api_key: 403 } });
    const ctx = runtimeOf(emulator).context();
    const key = ctx.accounts.createKey({ accountId: emulator.accountId, secret: REVOKED }, ctx.clock.now());
    ctx.accounts.revokeKey(key.id, ctx.clock.now());
    const res = await client(emulator, REVOKED).get('/v1/media/usage');
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('revoked_api_key');
  });
});
