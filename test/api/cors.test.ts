// CORS headers through the real app: preflights answered before auth, exposed headers, origin lists, signed files with ranges.
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { CliError, cliOptions } from '../../src/cli/options.js';
import { client, makeEmulator, MODEL_A } from '../helpers/emulator.js';

const APP_ORIGIN = 'http://localhost:5173';

describe('CORS', () => {
  it('answers a preflight for the headers a browser client sends, before authentication', async () => {
    const emulator = makeEmulator();
    const res = await request(emulator.app)
      .options('/v1/media/generations')
      .set('Origin', APP_ORIGIN)
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'authorization,content-type,idempotency-key');
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-methods']).toContain('POST');
    const allowed = res.headers['access-control-allow-headers'].toLowerCase().split(',');
    for (const header of ['authorization', 'content-type', 'idempotency-key', 'x-emulator-admin-token', 'range'])
      expect(allowed).toContain(header);
    expect(Number(res.headers['access-control-max-age'])).toBeGreaterThan(0);
  });

  it('lets a browser read Retry-After and the range headers on ordinary responses, errors included', async () => {
    const emulator = makeEmulator();
    const res = await request(emulator.app).get('/v1/media/models').set('Origin', APP_ORIGIN);
    expect(res.status).toBe(401);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    const exposed = res.headers['access-control-expose-headers'].toLowerCase().split(',');
    for (const header of ['retry-after', 'content-range', 'accept-ranges', 'content-length'])
      expect(exposed).toContain(header);
  });

  it('with a list of origins, reflects a listed origin and gives others no CORS headers', async () => {
    const emulator = makeEmulator({ corsOrigins: [APP_ORIGIN, 'http://127.0.0.1:3000'] });
    const listed = await client(emulator).get('/v1/media/models').set('Origin', APP_ORIGIN);
    expect(listed.status).toBe(200);
    expect(listed.headers['access-control-allow-origin']).toBe(APP_ORIGIN);
    expect(listed.headers.vary).toMatch(/origin/i);
    const other = await request(emulator.app)
      .options('/v1/media/generations')
      .set('Origin', 'http://evil.example')
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'authorization');
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('serves a signed output to another origin with byte ranges a <video> can seek through', async () => {
    const emulator = makeEmulator({ ffmpegPath: false });
    await emulator.ready;
    const api = client(emulator);
    const submitted = await api.submit(
      { model_slug: MODEL_A, prompt: 'a red fox', max_credits: 1000 },
      'cors-range-0001',
    );
    expect(submitted.status).toBe(202);
    await emulator.advance(10 * 60_000);
    const read = await api.get(`/v1/media/generations/${submitted.body.generation.id}`);
    expect(read.body.generation.status).toBe('completed');
    const url = new URL(read.body.generation.outputs[0].url);
    const file = await request(emulator.app)
      .get(url.pathname + url.search)
      .set('Origin', APP_ORIGIN)
      .set('Range', 'bytes=0-99');
    expect(file.status).toBe(206);
    expect(file.headers['access-control-allow-origin']).toBe('*');
    expect(file.headers['content-range']).toMatch(/^bytes 0-99\/\d+$/);
    expect(file.headers['accept-ranges']).toBe('bytes');
  });

  it("keeps CORS headers on a fault rule's 503, so a browser app can read the status and Retry-After and back off", async () => {
    const emulator = makeEmulator();
    const rule = {
      match: { method: 'POST', route: '/v1/media/generations' },
      times: 1,
      action: { type: 'status', status: 503, retry_after: '2s' },
    };
    expect((await request(emulator.app).post('/_emulator/faults').send(rule)).status).toBe(201);
    const res = await client(emulator)
      .submit({ model_slug: MODEL_A, prompt: 'a red fox', max_credits: 1000 }, 'cors-fault-0001')
      .set('Origin', APP_ORIGIN);
    expect(res.status).toBe(503);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['retry-after']).toBe('2');
    expect(res.headers['access-control-expose-headers']).toMatch(/Retry-After/);
  });

  it('reads the origin list from MEDIA_EMULATOR_CORS_ORIGINS or --cors-origins, flag first, and refuses a path', () => {
    expect(cliOptions([], {})).not.toHaveProperty('corsOrigins');
    expect(
      cliOptions([], { MEDIA_EMULATOR_CORS_ORIGINS: 'http://localhost:5173, http://127.0.0.1:3000/' }),
    ).toMatchObject({
      corsOrigins: ['http://localhost:5173', 'http://127.0.0.1:3000'],
    });
    expect(cliOptions(['--cors-origins', '*'], { MEDIA_EMULATOR_CORS_ORIGINS: 'http://a.test' })).toMatchObject({
      corsOrigins: '*',
    });
    expect(() => cliOptions(['--cors-origins', 'http://a.test/app'], {})).toThrow(CliError);
  });
});
