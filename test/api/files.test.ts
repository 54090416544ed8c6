// Output files at signed, expiring URLs: signed afresh on each read, HMAC over path and expiry checked against the
// emulator clock (expired, tampered, unsigned -> 403), byte ranges (206), public base URL and X-Forwarded-* honoured.
import { describe, expect, it } from 'vitest';
import { createSigner } from '../../src/infra/signer.js';
import { nodeCrypto } from '../../src/infra/node/node-crypto.js';
import type { Emulator } from '../../src/index.js';
import { client, makeEmulator, MODEL_A, startTestEmulator } from '../helpers/emulator.js';
import { runtimeOf } from '../../src/testing.js';

const START = '2025-06-01T08:00:00.000Z';
const T0 = Date.parse(START);
const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString().replace('Z', '+00:00');

async function completed(emulator: Emulator, body: Record<string, unknown> = {}) {
  const res = await client(emulator).submit(
    { model_slug: MODEL_A, prompt: 'a tram at night', max_credits: 1000, ...body },
    `files-${Math.random().toString(36).slice(2, 12)}`,
  );
  expect(res.status).toBe(202);
  await emulator.advance(60_000);
  return res.body.generation.id as string;
}

async function outputs(emulator: Emulator, id: string, headers: Record<string, string> = {}) {
  const res = await client(emulator).get(`/v1/media/generations/${id}`).set(headers);
  expect(res.status).toBe(200);
  expect(res.body.generation.status).toBe('completed');
  return res.body.generation.outputs as {
    url: string;
    expires_at: string;
    bytes: number;
    mime_type: string;
    index: number;
  }[];
}

/** The path and query of a signed URL, to request it from the app without a socket. */
const local = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

function binary(req: import('supertest').Test) {
  return req.buffer(true).parse((res, done) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => done(null, Buffer.concat(chunks)));
  });
}

function fetchFile(emulator: Emulator, pathAndQuery: string, headers: Record<string, string> = {}) {
  return binary(client(emulator).raw.get(pathAndQuery).set(headers));
}

function refusal(res: { status: number; headers: Record<string, string>; body: unknown }, code: string) {
  expect(res.status).toBe(403);
  expect(res.headers['content-type']).toBe('application/json');
  expect(JSON.parse((res.body as Buffer).toString('utf8'))).toStrictEqual({
    error: { code, message: expect.any(String) },
  });
}

const SECRET = 'files-test-signing-secret';

describe('signed output URLs', () => {
  it('points at the emulator with an expiry one hour ahead and an HMAC signature', async () => {
    const emulator = makeEmulator({ ffmpegPath: false, clockStart: START, signingSecret: SECRET });
    const id = await completed(emulator);
    const now = runtimeOf(emulator).context().clock.now();
    const [out] = await outputs(emulator, id);
    const url = new URL(out.url);
    expect(url.protocol).toBe('http:');
    expect(url.hostname).toBe('127.0.0.1');
    expect(url.pathname).toBe(`/files/${id}/0.mp4`);
    const expires = Number(url.searchParams.get('expires'));
    expect(expires).toBe(Math.floor((now + HOUR) / 1000));
    expect(url.searchParams.get('signature')).toMatch(/^[0-9a-f]{64}$/);
    expect(out.expires_at).toBe(iso(expires * 1000));
    // The signature is HMAC-SHA256 over path and expiry, with the configured secret (a seed is no secret).
    expect(url.searchParams.get('signature')).toBe(createSigner(SECRET, nodeCrypto).sign(url.pathname, expires));
  });

  it('signs afresh on each read: the same clock gives the same URL, a later clock a later expiry and a new signature', async () => {
    const emulator = makeEmulator({ ffmpegPath: false, clockStart: START });
    const id = await completed(emulator);
    const first = (await outputs(emulator, id))[0].url;
    expect(local((await outputs(emulator, id))[0].url)).toBe(local(first));
    await emulator.advance(10_000);
    const later = (await outputs(emulator, id))[0].url;
    const [a, b] = [new URL(first), new URL(later)];
    expect(Number(b.searchParams.get('expires')) - Number(a.searchParams.get('expires'))).toBe(10);
    expect(b.searchParams.get('signature')).not.toBe(a.searchParams.get('signature'));
    // Both links work until their own expiry.
    expect((await fetchFile(emulator, local(first))).status).toBe(200);
    expect((await fetchFile(emulator, local(later))).status).toBe(200);
    // The list endpoint signs the same way.
    const listed = (await client(emulator).get('/v1/media/generations')).body.generations[0].outputs[0].url;
    expect(local(listed)).toBe(local(later));
  });

  it('serves the file with video/mp4, its length and Accept-Ranges', async () => {
    const emulator = makeEmulator({ ffmpegPath: false, clockStart: START });
    const [out] = await outputs(emulator, await completed(emulator));
    const res = await fetchFile(emulator, local(out.url));
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('video/mp4');
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(Number(res.headers['content-length'])).toBe(out.bytes);
    expect((res.body as Buffer).length).toBe(out.bytes);
    expect((res.body as Buffer).subarray(4, 8).toString('latin1')).toBe('ftyp');
    const head = await client(emulator).raw.head(local(out.url));
    expect(head.status).toBe(200);
    expect(Number(head.headers['content-length'])).toBe(out.bytes);
  });

  it('serves each output of a multi-output generation at its own URL', async () => {
    const emulator = makeEmulator({ ffmpegPath: false, clockStart: START });
    const outs = await outputs(emulator, await completed(emulator, { params: { count: '2' } }));
    expect(outs.map((o) => new URL(o.url).pathname)).toEqual([
      expect.stringMatching(/\/0\.mp4$/),
      expect.stringMatching(/\/1\.mp4$/),
    ]);
    for (const o of outs) expect((await fetchFile(emulator, local(o.url))).status).toBe(200);
  });
});

describe('refusals: 403 with the envelope', () => {
  it('refuses an expired URL once the emulator clock passes its expiry, and a fresh read gives a working one', async () => {
    const emulator = makeEmulator({ ffmpegPath: false, clockStart: START });
    const id = await completed(emulator);
    const [out] = await outputs(emulator, id);
    await emulator.advance(HOUR - 1);
    expect((await fetchFile(emulator, local(out.url))).status).toBe(200);
    await emulator.advance(1);
    refusal(await fetchFile(emulator, local(out.url)), 'url_expired');
    const [fresh] = await outputs(emulator, id);
    expect((await fetchFile(emulator, local(fresh.url))).status).toBe(200);
  });

  it('honours a configured lifetime (urlTtlSeconds)', async () => {
    const emulator = makeEmulator({ ffmpegPath: false, clockStart: START, urlTtlSeconds: 60 });
    const id = await completed(emulator);
    const now = runtimeOf(emulator).context().clock.now();
    const [out] = await outputs(emulator, id);
    expect(Number(new URL(out.url).searchParams.get('expires'))).toBe(Math.floor(now / 1000) + 60);
    expect(out.expires_at).toBe(iso(now + 60_000));
    await emulator.advance(59_999);
    expect((await fetchFile(emulator, local(out.url))).status).toBe(200);
    await emulator.advance(1);
    refusal(await fetchFile(emulator, local(out.url)), 'url_expired');
  });

  it('answers an expired link with the status the errorStatuses table gives it', async () => {
    const emulator = makeEmulator({ ffmpegPath: false, clockStart: START, errorStatuses: { url_expired: 410 } });
    const [out] = await outputs(emulator, await completed(emulator));
    await emulator.advance(HOUR);
    const res = await fetchFile(emulator, local(out.url));
    expect(res.status).toBe(410);
    expect(JSON.parse((res.body as Buffer).toString()).error.code).toBe('url_expired');
  });

  it('refuses tampered URLs with url_signature_invalid', async () => {
    const emulator = makeEmulator({ ffmpegPath: false, clockStart: START });
    const id = await completed(emulator, { params: { count: '2' } });
    const other = await completed(emulator);
    const [out] = await outputs(emulator, id);
    const url = new URL(out.url);
    const signature = url.searchParams.get('signature')!;
    const expires = Number(url.searchParams.get('expires'));
    const flipped = signature.slice(0, -1) + (signature.endsWith('0') ? '1' : '0');
    const variants = [
      `${url.pathname}?expires=${expires}&signature=${flipped}`,
      `${url.pathname}?expires=${expires + 3600}&signature=${signature}`,
      `${url.pathname}?expires=${expires - 1}&signature=${signature}`,
      `${url.pathname.replace('/0.mp4', '/1.mp4')}?expires=${expires}&signature=${signature}`,
      `${url.pathname.replace(id, other)}?expires=${expires}&signature=${signature}`,
      `${url.pathname}?expires=${expires}&signature=${signature.toUpperCase()}`,
      `${url.pathname}?expires=${expires}&signature=${signature.slice(0, 63)}`,
      `${url.pathname}?expires=${expires}&signature=${'z'.repeat(64)}`,
      `${url.pathname}?expires=${expires}`,
      `${url.pathname}?signature=${signature}`,
      `${url.pathname}?expires=soon&signature=${signature}`,
      `${url.pathname}?expires=${expires}&signature=${signature}&signature=${signature}`,
    ];
    for (const variant of variants) refusal(await fetchFile(emulator, variant), 'url_signature_invalid');
    expect((await fetchFile(emulator, local(out.url))).status).toBe(200);
  });

  it('refuses an unsigned URL with url_unsigned', async () => {
    const emulator = makeEmulator({ ffmpegPath: false, clockStart: START });
    const id = await completed(emulator);
    refusal(await fetchFile(emulator, `/files/${id}/0.mp4`), 'url_unsigned');
    refusal(await fetchFile(emulator, '/files/gen_424242/0.mp4'), 'url_unsigned');
  });

  it('answers a correctly signed URL for an output that does not exist with 404 output_not_found', async () => {
    const emulator = makeEmulator({ ffmpegPath: false, clockStart: START, signingSecret: SECRET });
    const res = await client(emulator).submit({ model_slug: MODEL_A, prompt: 'x', max_credits: 100 }, 'pending-file-1');
    const id = res.body.generation.id as string;
    const expires = Math.floor(T0 / 1000) + 600;
    const path = `/files/${id}/0.mp4`;
    const signed = `${path}?expires=${expires}&signature=${createSigner(SECRET, nodeCrypto).sign(path, expires)}`;
    const pending = await fetchFile(emulator, signed);
    expect(pending.status).toBe(404);
    expect(JSON.parse((pending.body as Buffer).toString()).error.code).toBe('output_not_found');
  });
});

describe('byte ranges', () => {
  it('answers 206 with Content-Range for a range, a suffix and an open end', async () => {
    const emulator = makeEmulator({ ffmpegPath: false, clockStart: START });
    const [out] = await outputs(emulator, await completed(emulator));
    const path = local(out.url);
    const full = (await fetchFile(emulator, path)).body as Buffer;
    const total = full.length;

    const first = await fetchFile(emulator, path, { Range: 'bytes=0-99' });
    expect(first.status).toBe(206);
    expect(first.headers['content-type']).toBe('video/mp4');
    expect(first.headers['content-range']).toBe(`bytes 0-99/${total}`);
    expect(first.headers['content-length']).toBe('100');
    expect((first.body as Buffer).equals(full.subarray(0, 100))).toBe(true);

    const middle = await fetchFile(emulator, path, { Range: 'bytes=1000-1999' });
    expect(middle.status).toBe(206);
    expect(middle.headers['content-range']).toBe(`bytes 1000-1999/${total}`);
    expect((middle.body as Buffer).equals(full.subarray(1000, 2000))).toBe(true);

    const suffix = await fetchFile(emulator, path, { Range: 'bytes=-50' });
    expect(suffix.status).toBe(206);
    expect(suffix.headers['content-range']).toBe(`bytes ${total - 50}-${total - 1}/${total}`);
    expect((suffix.body as Buffer).equals(full.subarray(total - 50))).toBe(true);

    const open = await fetchFile(emulator, path, { Range: `bytes=${total - 10}-` });
    expect(open.status).toBe(206);
    expect((open.body as Buffer).length).toBe(10);
  });

  it('answers an unsatisfiable range with 416, never a 500', async () => {
    const emulator = makeEmulator({ ffmpegPath: false, clockStart: START });
    const [out] = await outputs(emulator, await completed(emulator));
    const res = await fetchFile(emulator, local(out.url), { Range: `bytes=${out.bytes + 10}-` });
    expect(res.status).toBe(416);
    expect(res.headers['content-range']).toBe(`bytes */${out.bytes}`);
  });

  it('checks the signature before serving a range', async () => {
    const emulator = makeEmulator({ ffmpegPath: false, clockStart: START });
    const [out] = await outputs(emulator, await completed(emulator));
    await emulator.advance(HOUR);
    refusal(await fetchFile(emulator, local(out.url), { Range: 'bytes=0-9' }), 'url_expired');
  });

  it('serves ranges of a real render over a real socket, straight from the URL the API gave', async () => {
    const running = await startTestEmulator({ timing: 'manual', seed: 1, clockStart: START });
    const headers = { Authorization: `Bearer ${running.apiKey}`, 'Content-Type': 'application/json' };
    const submitted = await fetch(`${running.url}/v1/media/generations`, {
      method: 'POST',
      headers: { ...headers, 'Idempotency-Key': 'socket-range-0001' },
      body: JSON.stringify({ model_slug: MODEL_A, prompt: 'a tram at night', max_credits: 100 }),
    });
    const { generation } = (await submitted.json()) as { generation: { id: string } };
    await running.emulator.advance(60_000);
    const read = (await (await fetch(`${running.url}/v1/media/generations/${generation.id}`, { headers })).json()) as {
      generation: { outputs: { url: string; bytes: number }[] };
    };
    const [out] = read.generation.outputs;
    expect(out.url.startsWith(`${running.url}/files/`)).toBe(true);
    const full = Buffer.from(await (await fetch(out.url)).arrayBuffer());
    expect(full.length).toBe(out.bytes);
    const part = await fetch(out.url, { headers: { Range: 'bytes=8-263' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-type')).toBe('video/mp4');
    expect(part.headers.get('content-range')).toBe(`bytes 8-263/${out.bytes}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(full.subarray(8, 264))).toBe(true);
  });
});

describe('the base URL of output links', () => {
  it('uses the publicBaseUrl option (trailing slash trimmed), and the link still verifies', async () => {
    const emulator = makeEmulator({
      ffmpegPath: false,
      clockStart: START,
      publicBaseUrl: 'https://media.example.test/emu/',
    });
    const [out] = await outputs(emulator, await completed(emulator), {
      'X-Forwarded-Host': 'ignored.example.org',
      'X-Forwarded-Proto': 'http',
    });
    expect(out.url).toMatch(
      /^https:\/\/media\.example\.test\/emu\/files\/gen_000001\/0\.mp4\?expires=\d+&signature=[0-9a-f]{64}$/,
    );
    // Behind the proxy the /emu prefix is stripped; the signature covers /files/... only.
    expect((await fetchFile(emulator, local(out.url).replace(/^\/emu/, ''))).status).toBe(200);
  });

  it('honours X-Forwarded-Proto, X-Forwarded-Host and X-Forwarded-Prefix', async () => {
    const emulator = makeEmulator({ ffmpegPath: false, clockStart: START });
    const id = await completed(emulator);
    const [out] = await outputs(emulator, id, {
      'X-Forwarded-Proto': 'https',
      'X-Forwarded-Host': 'cdn.example.org:8443',
    });
    expect(out.url.startsWith(`https://cdn.example.org:8443/files/${id}/0.mp4?`)).toBe(true);
    const [prefixed] = await outputs(emulator, id, {
      'X-Forwarded-Proto': 'https',
      'X-Forwarded-Host': 'proxy.example.org',
      'X-Forwarded-Prefix': '/media-emulator/',
    });
    expect(prefixed.url.startsWith(`https://proxy.example.org/media-emulator/files/${id}/0.mp4?`)).toBe(true);
    const [chained] = await outputs(emulator, id, {
      'X-Forwarded-Proto': 'https, http',
      'X-Forwarded-Host': 'outer.example.org, inner.local',
    });
    expect(chained.url.startsWith('https://outer.example.org/files/')).toBe(true);
  });

  it('uses the Host header the client reached it at when nothing else is set', async () => {
    const emulator = makeEmulator({ ffmpegPath: false, clockStart: START });
    const [out] = await outputs(emulator, await completed(emulator), { Host: 'localhost:8787' });
    expect(out.url.startsWith('http://localhost:8787/files/')).toBe(true);
  });
});
