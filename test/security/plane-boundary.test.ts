// The plane's boundary. Case, encoding, slashes and dot segments cannot get past the token; foreign
// hosts (DNS rebinding) and foreign pages are refused; /_emulator/* answers no CORS unless configured.
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { rawClient } from '../helpers/raw-http.js';
import { client, MODEL_A, makeEmulator, startTestEmulator } from '../helpers/emulator.js';

const TOKEN = 'sec-admin-token-0123456789';

describe('the admin token cannot be bypassed', () => {
  it('answers 404 route_not_found to /_EMULATOR/keys, like the real (case-sensitive) service, and never a secret', async () => {
    const emulator = makeEmulator({ adminToken: TOKEN });
    for (const path of ['/_EMULATOR/keys', '/_Emulator/keys', '/_EMULATOR/KEYS']) {
      const res = await request(emulator.app).get(path);
      expect([path, res.status, res.body.error.code]).toEqual([path, 404, 'route_not_found']);
      expect(JSON.stringify(res.body)).not.toContain(emulator.apiKey);
    }
    // Under the real prefix, the token is asked for first, then the route is not found.
    expect((await request(emulator.app).get('/_emulator/KEYS')).status).toBe(401);
    const withToken = await request(emulator.app).get('/_emulator/KEYS').set('X-Emulator-Admin-Token', TOKEN);
    expect([withToken.status, withToken.body.error.code]).toEqual([404, 'route_not_found']);
  });

  it('refuses encoded, doubled and dot-segment spellings of the plane on a real socket without leaking a secret', async () => {
    const { url, emulator } = await startTestEmulator({ adminToken: TOKEN, seed: 1 });
    const http = rawClient(url, 1);
    const paths = [
      '/%5Femulator/keys',
      '/%5femulator/keys',
      '/_emulator%2Fkeys',
      '//_emulator/keys',
      '/_emulator//keys',
      '/./_emulator/keys',
      '/v1/media/../../_emulator/keys',
      '/_emulator/./keys',
      '/_emulator/%6Beys',
      '/_emulator/health/../keys',
      '/_emulator/console/../keys',
    ];
    for (const path of paths) {
      const res = await http.send({ method: 'GET', path, headers: [] });
      expect([path, res.status === 200]).toEqual([path, false]);
      expect(res.body.toString()).not.toContain(emulator.apiKey);
    }
  });

  it('does not charge /v1/MEDIA/generations: 404 route_not_found and the balance unchanged', async () => {
    const emulator = makeEmulator();
    const api = client(emulator);
    const before = (await api.get('/v1/media/usage')).body.wallet_balance;
    const res = await api.submit({ model_slug: MODEL_A, prompt: 'mixed case', max_credits: 1000 }, 'mixed-case-key-1');
    expect(res.status).toBe(202);
    const upper = await api.raw
      .post('/v1/MEDIA/generations')
      .set('Authorization', `Bearer ${emulator.apiKey}`)
      .set('Idempotency-Key', 'mixed-case-key-2')
      .send({ model_slug: MODEL_A, prompt: 'mixed case', max_credits: 1000 });
    expect([upper.status, upper.body.error.code]).toEqual([404, 'route_not_found']);
    const after = (await api.get('/v1/media/usage')).body.wallet_balance;
    expect(before - after).toBe(res.body.generation.charged_credits);
  });
});

describe('Host allow-list (DNS rebinding)', () => {
  it('refuses a foreign Host on the plane and the console with 403 host_not_allowed, and keeps the public API open', async () => {
    const emulator = makeEmulator();
    for (const path of ['/_emulator/keys', '/_emulator/console', '/_emulator/health']) {
      const res = await request(emulator.app).get(path).set('Host', 'rebind.attacker.example:8787');
      expect([path, res.status, res.body.error?.code]).toEqual([path, 403, 'host_not_allowed']);
    }
    expect((await request(emulator.app).get('/_emulator/keys').set('Host', 'localhost:8787')).status).toBe(200);
    expect((await request(emulator.app).get('/_emulator/keys').set('Host', '[::1]:8787')).status).toBe(200);
    const api = await request(emulator.app)
      .get('/v1/media/models')
      .set('Host', 'rebind.attacker.example')
      .set('Authorization', `Bearer ${emulator.apiKey}`);
    expect(api.status).toBe(200);
  });

  it('allows the public URL host and the names given in allowedHosts', async () => {
    const emulator = makeEmulator({ publicBaseUrl: 'http://media.test:8787', allowedHosts: ['devbox.local'] });
    for (const host of ['media.test', 'devbox.local:9000', 'DEVBOX.LOCAL'])
      expect((await request(emulator.app).get('/_emulator/keys').set('Host', host)).status).toBe(200);
    expect((await request(emulator.app).get('/_emulator/keys').set('Host', 'other.local')).status).toBe(403);
  });
});

describe('no CORS on the plane', () => {
  it('sends no Access-Control-Allow-Origin on /_emulator/* while the public API keeps its CORS', async () => {
    const emulator = makeEmulator();
    const origin = 'http://localhost:5173';
    const plane = await request(emulator.app).get('/_emulator/keys').set('Origin', origin);
    expect(plane.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await request(emulator.app)
      .options('/_emulator/accounts/acct_local/balance')
      .set('Origin', origin)
      .set('Access-Control-Request-Method', 'POST');
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    const api = await request(emulator.app).get('/v1/media/models').set('Origin', origin);
    expect(api.headers['access-control-allow-origin']).toBe('*');
  });

  it('answers CORS on the plane only to an origin configured for it', async () => {
    const emulator = makeEmulator({ controlCorsOrigins: ['http://localhost:5173'] });
    const ok = await request(emulator.app).get('/_emulator/keys').set('Origin', 'http://localhost:5173');
    expect([ok.status, ok.headers['access-control-allow-origin']]).toEqual([200, 'http://localhost:5173']);
    const other = await request(emulator.app).get('/_emulator/keys').set('Origin', 'http://evil.example');
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('with an admin token, answers the preflight of a configured origin and still requires the token on the request', async () => {
    const origin = 'http://localhost:5173';
    const emulator = makeEmulator({ controlCorsOrigins: [origin], adminToken: 's3cret-token' });
    const preflight = (from: string) =>
      request(emulator.app)
        .options('/_emulator/reset')
        .set('Origin', from)
        .set('Access-Control-Request-Method', 'POST')
        .set('Access-Control-Request-Headers', 'authorization,content-type');
    const ok = await preflight(origin);
    expect([ok.status, ok.headers['access-control-allow-origin']]).toEqual([204, origin]);
    expect(ok.headers['access-control-allow-headers']).toMatch(/Authorization/);
    // Another origin's preflight is refused before CORS, as its requests are.
    expect((await preflight('http://evil.example')).status).toBe(403);
    const without = await request(emulator.app).post('/_emulator/reset').set('Origin', origin);
    expect([without.status, without.body.error.code]).toEqual([401, 'admin_token_required']);
    const withToken = await request(emulator.app)
      .post('/_emulator/reset')
      .set('Origin', origin)
      .set('Authorization', 'Bearer s3cret-token');
    expect([withToken.status, withToken.headers['access-control-allow-origin']]).toEqual([200, origin]);
  });

  it('refuses a simple cross-site POST (no preflight) with 403 origin_not_allowed before it changes anything', async () => {
    const emulator = makeEmulator();
    const api = client(emulator);
    const before = (await api.get('/v1/media/usage')).body.wallet_balance;
    const res = await request(emulator.app)
      .post('/_emulator/accounts/acct_local/balance')
      .set('Origin', 'http://evil.example')
      .set('Content-Type', 'text/plain')
      .send('{"set":0}');
    expect([res.status, res.body.error.code]).toEqual([403, 'origin_not_allowed']);
    const reset = await request(emulator.app).post('/_emulator/reset').set('Origin', 'null');
    expect(reset.status).toBe(403);
    expect((await api.get('/v1/media/usage')).body.wallet_balance).toBe(before);
  });
});
