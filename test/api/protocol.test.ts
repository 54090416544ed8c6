// Protocol-level answers: 404 for unknown routes, 405 with Allow for wrong methods, 413 over 16 MiB, all in the
// {error:{code,message}} envelope, and no client input that makes the emulator answer 500.
import { describe, expect, it } from 'vitest';
import { client, makeEmulator, MODEL_A, startTestEmulator } from '../helpers/emulator.js';
import { runtimeOf } from '../../src/testing.js';

const MiB = 1024 * 1024;

function envelope(res: { headers: Record<string, string>; body: unknown }, code: string) {
  expect(res.headers['content-type']).toBe('application/json');
  expect(res.body).toStrictEqual({ error: { code, message: expect.any(String) } });
}

const auth = (key: string) => ({ Authorization: `Bearer ${key}` });
/** A raw JSON body, sent byte for byte as written. */
const json = (
  api: ReturnType<typeof client>,
  key: string,
  path: string,
  text: string,
  extra: Record<string, string> = {},
) => api.raw.post(path).set(auth(key)).set('Content-Type', 'application/json').set(extra).send(text);

describe('unknown routes: 404 with the envelope', () => {
  it.each([
    '/',
    '/v1',
    '/v1/media',
    '/v1/media/nope',
    '/v1/media/generation',
    '/v2/media/models',
    '/v1/media/models/extra',
    '/v1/media/generations/a/b',
  ])('GET %s', async (path) => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const res = await client(emulator).get(path);
    expect(res.status).toBe(404);
    envelope(res, 'route_not_found');
  });

  it('answers 404 for an unknown route even without a key (routing before auth, as FastAPI)', async () => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const res = await client(emulator).raw.post('/v1/media/nothing-here');
    expect(res.status).toBe(404);
    envelope(res, 'route_not_found');
  });

  it('answers 404 generation_not_found for an unknown generation id', async () => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const res = await client(emulator).get('/v1/media/generations/gen_000999');
    expect(res.status).toBe(404);
    envelope(res, 'generation_not_found');
  });
});

describe('wrong methods: 405 with the envelope and Allow', () => {
  const cases: ['put' | 'post' | 'delete' | 'patch' | 'get', string, string][] = [
    ['post', '/v1/media/models', 'GET'],
    ['delete', '/v1/media/models', 'GET'],
    ['get', '/v1/media/estimate', 'POST'],
    ['put', '/v1/media/estimate', 'POST'],
    ['put', '/v1/media/generations', 'GET, POST'],
    ['delete', '/v1/media/generations', 'GET, POST'],
    ['post', '/v1/media/generations/gen_000001', 'GET'],
    ['delete', '/v1/media/generations/gen_000001', 'GET'],
    ['post', '/v1/media/usage', 'GET'],
    ['patch', '/v1/media/usage', 'GET'],
    ['get', '/v1/media/uploads', 'POST'],
    ['post', '/files/gen_000001/0.mp4', 'GET, HEAD'],
    ['post', '/_emulator/health', 'GET, HEAD'],
  ];
  it.each(cases)('%s %s', async (method, path, allow) => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const res = await client(emulator).raw[method](path).set('Authorization', `Bearer ${emulator.apiKey}`);
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe(allow);
    envelope(res, 'method_not_allowed');
  });

  it('answers 405 before authentication, as FastAPI routing does', async () => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const res = await client(emulator).raw.delete('/v1/media/models');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET');
  });
});

describe('JSON bodies over 16 MiB: 413 with the envelope', () => {
  const head = Buffer.from(JSON.stringify({ model_slug: MODEL_A, prompt: 'x' }));
  const padded = (size: number) => Buffer.concat([head, Buffer.alloc(size - head.length, 0x20)]);

  it('accepts exactly 16 MiB and refuses one byte more, on estimate and on submission (real socket)', async () => {
    const running = await startTestEmulator({ ffmpegPath: false, timing: 'manual', seed: 1 });
    {
      const headers = { Authorization: `Bearer ${running.apiKey}`, 'Content-Type': 'application/json' };
      const atLimit = await fetch(`${running.url}/v1/media/estimate`, {
        method: 'POST',
        headers,
        body: padded(16 * MiB),
      });
      expect(atLimit.status).toBe(200);
      expect(((await atLimit.json()) as { credits: number }).credits).toBe(88);

      for (const path of ['/v1/media/estimate', '/v1/media/generations']) {
        const over = await fetch(`${running.url}${path}`, {
          method: 'POST',
          headers: { ...headers, 'Idempotency-Key': 'big-body-0001' },
          body: padded(16 * MiB + 1),
        });
        expect(over.status).toBe(413);
        expect(over.headers.get('content-type')).toBe('application/json');
        expect(await over.json()).toStrictEqual({ error: { code: 'payload_too_large', message: expect.any(String) } });
      }
      expect(runtimeOf(running.emulator).context().generations.size).toBe(0);
    }
  });

  it('refuses a chunked body (no Content-Length) once it passes 16 MiB', async () => {
    const running = await startTestEmulator({ ffmpegPath: false, timing: 'manual', seed: 1 });
    {
      const chunk = Buffer.alloc(MiB, 0x20);
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          for (let i = 0; i < 17; i++) controller.enqueue(chunk);
          controller.close();
        },
      });
      const res = await fetch(`${running.url}/v1/media/estimate`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${running.apiKey}`, 'Content-Type': 'application/json' },
        body,
        duplex: 'half',
      } as RequestInit & { duplex: 'half' });
      expect(res.status).toBe(413);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('payload_too_large');
    }
  });
});

describe('a 413 names the limit that applied', () => {
  it('says 1 MiB on a control-plane route and 16 MiB on the public API', async () => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const api = client(emulator);
    const over = Buffer.alloc(MiB + MiB / 10, 0x20);
    const control = await api.raw.post('/_emulator/keys').set('Content-Type', 'application/json').send(over);
    expect(control.status).toBe(413);
    expect(control.body.error).toStrictEqual({
      code: 'payload_too_large',
      message: 'The request body is larger than 1 MiB. Send a smaller body.',
    });
    const head = Buffer.from(JSON.stringify({ model_slug: MODEL_A, prompt: 'x' }));
    const publicApi = await json(
      api,
      emulator.apiKey,
      '/v1/media/estimate',
      Buffer.concat([head, Buffer.alloc(16 * MiB, 0x20)]).toString(),
    );
    expect(publicApi.status).toBe(413);
    expect(publicApi.body.error.message).toBe('The request body is larger than 16 MiB. Send a smaller body.');
  });
});

describe('nothing a client sends causes a 500', () => {
  const deepArray = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
  type Nasty = [
    string,
    (
      api: ReturnType<typeof client>,
      key: string,
    ) => PromiseLike<{ status: number; headers: Record<string, string>; body: unknown; text: string }>,
  ];
  const cases: Nasty[] = [
    ['a body nested 100,000 arrays deep', (api, key) => json(api, key, '/v1/media/estimate', deepArray(100_000))],
    [
      'a field nested 100,000 arrays deep',
      (api, key) => json(api, key, '/v1/media/estimate', `{"model_slug":${deepArray(100_000)},"prompt":"x"}`),
    ],
    ['an unclosed nesting 100,000 deep', (api, key) => json(api, key, '/v1/media/estimate', '['.repeat(100_000))],
    [
      'a submission whose params value is nested deep',
      (api, key) =>
        json(
          api,
          key,
          '/v1/media/generations',
          `{"model_slug":"${MODEL_A}","prompt":"x","max_credits":100,"params":{"a":${deepArray(50_000)}}}`,
          { 'Idempotency-Key': 'deep-0001' },
        ),
    ],
    [
      'invalid UTF-8 as JSON',
      (api, key) =>
        api.raw
          .post('/v1/media/estimate')
          .set(auth(key))
          .set('Content-Type', 'application/json')
          .send(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]) as unknown as string),
    ],
    [
      'a UTF-8 byte-order mark before the JSON',
      (api, key) => json(api, key, '/v1/media/estimate', `\uFEFF{"model_slug":"${MODEL_A}","prompt":"x"}`),
    ],
    [
      'a __proto__ member',
      (api, key) =>
        json(api, key, '/v1/media/estimate', `{"__proto__":{"polluted":1},"model_slug":"${MODEL_A}","prompt":"x"}`),
    ],
    [
      '__proto__ and constructor as params and ref_roles keys',
      (api, key) =>
        json(
          api,
          key,
          '/v1/media/estimate',
          `{"model_slug":"${MODEL_A}","prompt":"x","params":{"__proto__":"x","constructor":"y","toString":"z"},"ref_roles":{"__proto__":"first"}}`,
        ),
    ],
    [
      'NUL characters in strings',
      (api, key) => json(api, key, '/v1/media/estimate', `{"model_slug":"a\\u0000b","prompt":"\\u0000"}`),
    ],
    [
      'a gzip Content-Encoding with a body that is not gzip',
      (api, key) => json(api, key, '/v1/media/estimate', '{"a":1}', { 'Content-Encoding': 'gzip' }),
    ],
    [
      'an unknown Content-Encoding',
      (api, key) => json(api, key, '/v1/media/estimate', '{"a":1}', { 'Content-Encoding': 'zstd-unknown' }),
    ],
    ['a bad percent-encoding in the path', (api, key) => api.raw.get('/v1/media/generations/%E0%A4%A').set(auth(key))],
    ['a bad percent-encoding in a file path', (api) => api.raw.get('/files/%ZZ/0.mp4?expires=1&signature=00')],
    [
      'bracketed and repeated query parameters',
      (api, key) =>
        api.raw
          .get('/v1/media/generations?kind[]=video&limit[a]=1&status=completed&status=failed&from=&to=')
          .set(auth(key)),
    ],
    [
      'a 5,000-character query value',
      (api, key) => api.raw.get(`/v1/media/generations?cursor=${'x'.repeat(5000)}`).set(auth(key)),
    ],
    [
      'a cursor that decodes to JSON of the wrong shape',
      (api, key) =>
        api.raw
          .get(`/v1/media/generations?cursor=${Buffer.from('{"v":1,"before":"x"}').toString('base64url')}`)
          .set(auth(key)),
    ],
    [
      'a multipart body without a boundary',
      (api, key) =>
        api.raw.post('/v1/media/uploads').set(auth(key)).set('Content-Type', 'multipart/form-data').send('--x\r\n'),
    ],
    [
      'a multipart body cut short',
      (api, key) =>
        api.raw
          .post('/v1/media/uploads')
          .set(auth(key))
          .set('Content-Type', 'multipart/form-data; boundary=zzz')
          .send('--zzz\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\nabc'),
    ],
    [
      'two file parts',
      (api, key) =>
        api.raw
          .post('/v1/media/uploads')
          .set(auth(key))
          .field('model_slug', MODEL_A)
          .attach('file', Buffer.from('a'), 'a.png')
          .attach('file', Buffer.from('b'), 'b.png'),
    ],
    [
      'an unexpected file field name',
      (api, key) =>
        api.raw
          .post('/v1/media/uploads')
          .set(auth(key))
          .field('model_slug', MODEL_A)
          .attach('image', Buffer.from('a'), 'a.png'),
    ],
    [
      'a Range header of garbage on an unsigned file URL',
      (api) => api.raw.get('/files/gen_000001/0.mp4').set('Range', 'bytes=zz-'),
    ],
    [
      'an Idempotency-Key of non-ASCII bytes',
      (api, key) =>
        api.raw
          .post('/v1/media/generations')
          .set(auth(key))
          .set('Idempotency-Key', Buffer.from('ÿÿÿÿÿÿÿÿÿ', 'latin1').toString('latin1'))
          .send({ model_slug: MODEL_A, prompt: 'x', max_credits: 100 }),
    ],
  ];

  it.each(cases)('%s', async (_name, send) => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const res = await send(client(emulator), emulator.apiKey);
    expect(res.status).toBeGreaterThanOrEqual(200);
    expect(res.status).toBeLessThan(500);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const body = res.body as { detail?: unknown; error?: { code: string; message: string } };
    if (res.status >= 400 && res.status !== 422)
      expect(body.error).toEqual({ code: expect.any(String), message: expect.any(String) });
    if (res.status === 422 && body.detail === undefined) expect(body.error).toBeDefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses a JSON body that Python cannot decode with 400 body_not_utf8', async () => {
    const running = await startTestEmulator({ ffmpegPath: false });
    const res = await fetch(`${running.url}/v1/media/estimate`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${running.apiKey}`, 'Content-Type': 'application/json' },
      body: new Uint8Array([0x7b, 0xc3, 0x28, 0x7d]),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toStrictEqual({ error: { code: 'body_not_utf8', message: expect.any(String) } });
  });

  it('answers a malformed multipart body (no boundary) with 400 malformed_multipart', async () => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const res = await client(emulator)
      .raw.post('/v1/media/uploads')
      .set('Authorization', `Bearer ${emulator.apiKey}`)
      .set('Content-Type', 'multipart/form-data')
      .send('--x\r\n');
    expect(res.status).toBe(400);
    envelope(res, 'malformed_multipart');
  });
});

describe('inputs the real service cannot echo: its own plain 500 (FastAPI 0.142.2 / Starlette 1.7.0), mirrored', () => {
  const cases: [string, (api: ReturnType<typeof client>, key: string) => ReturnType<typeof json>][] = [
    [
      'invalid UTF-8 as text',
      (api, key) =>
        api.raw
          .post('/v1/media/estimate')
          .set(auth(key))
          .set('Content-Type', 'text/plain')
          .send(Buffer.from([0xc3, 0x28]) as unknown as string),
    ],
    [
      'NaN, Infinity and 1e400 for max_credits',
      (api, key) =>
        json(api, key, '/v1/media/generations', `{"model_slug":"${MODEL_A}","prompt":"x","max_credits":1e400}`, {
          'Idempotency-Key': 'inf-0001',
        }),
    ],
    [
      'NaN for max_credits',
      (api, key) =>
        json(api, key, '/v1/media/generations', `{"model_slug":"${MODEL_A}","prompt":"x","max_credits":NaN}`, {
          'Idempotency-Key': 'nan-0001',
        }),
    ],
    [
      'a lone surrogate escape in a constrained string (prompt)',
      (api, key) => json(api, key, '/v1/media/estimate', `{"model_slug":"${MODEL_A}","prompt":"\\ud800"}`),
    ],
    [
      'a lone surrogate in an echoed member',
      (api, key) => json(api, key, '/v1/media/estimate', '{"model_slug":"\\ud800","prompt":"x"}'),
    ],
  ];

  it.each(cases)('%s', async (_name, send) => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const api = client(emulator);
    const before = (await api.get('/v1/media/usage')).text;
    const res = await send(api, emulator.apiKey);
    expect(res.status).toBe(500);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.text).toBe('Internal Server Error');
    expect((await api.get('/v1/media/usage')).text).toBe(before);
  });
});
