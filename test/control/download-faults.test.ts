// Fault rules on signed downloads (GET /files/...): status, latency, reset, empty, dribble, lost_response, matched by
// the generation, its model or the key that created it; and every download in the journal (its type and size, no bytes).
import request from 'supertest';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Control, Emulator } from '../../src/index.js';
import { startTestEmulator } from '../helpers/emulator.js';
import { CHEAP_MODEL, controlled, idem, submission } from '../helpers/controlled-emulator.js';
import { rawRequest } from '../helpers/socket-request.js';

const status503 = { type: 'status', status: 503 } as const;

/** The path and query of a signed URL, to request it from the app without a socket. */
const local = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

/** A completed generation's id and the link to its first output. */
async function completed(api: ReturnType<typeof controlled>['api'], emulator: Emulator, n: number, body = {}) {
  const submitted = await api.submit(submission(body), idem(`download-${n}`));
  expect(submitted.status).toBe(202);
  await emulator.advance(10 * 60_000);
  const read = await api.get(`/v1/media/generations/${submitted.body.generation.id}`);
  expect(read.body.generation.status).toBe('completed');
  return { id: read.body.generation.id as string, url: read.body.generation.outputs[0].url as string };
}

const download = (emulator: Emulator, url: string) =>
  request(emulator.app)
    .get(local(url))
    .buffer(true)
    .parse((res, done) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done(null, Buffer.concat(chunks)));
    });

describe('fault rules on downloads', () => {
  it('answer a status once, marked, then the link works again: a front end can rehearse a failed download', async () => {
    const { emulator, control, api } = controlled();
    const { url } = await completed(api, emulator, 1);
    const rule = await control.faults.add({ match: { route: '/files/*' }, times: 1, action: status503 });
    const failed = await download(emulator, url);
    expect([failed.status, failed.headers['x-emulator-fault']]).toEqual([503, rule.id]);
    expect(JSON.parse((failed.body as Buffer).toString('utf8')).error.code).toBe('service_unavailable');
    const again = await download(emulator, url);
    expect([again.status, again.headers['content-type']]).toEqual([200, 'image/png']);
  });

  it('match the generation a link names, its model, or the key that created it', async () => {
    const { emulator, control, api } = controlled();
    const first = await completed(api, emulator, 1);
    const second = await completed(api, emulator, 2, { model_slug: 'keyframe-pro-v2', max_credits: 1000 });
    await control.faults.add({ id: 'by-id', match: { generation_id: first.id }, action: status503 });
    expect((await download(emulator, first.url)).status).toBe(503);
    expect((await download(emulator, second.url)).status).toBe(200);
    await control.faults.clear();
    await control.faults.add({ match: { route: '/files/*', model_slug: 'keyframe-pro-v2' }, action: status503 });
    expect((await download(emulator, first.url)).status).toBe(200);
    expect((await download(emulator, second.url)).status).toBe(503);
    await control.faults.clear();
    // No bearer key comes with a link: the key is the one that created the generation.
    await control.faults.add({ match: { route: '/files/*', key_id: 2 }, action: status503 });
    expect((await download(emulator, first.url)).status).toBe(200);
    await control.faults.clear();
    await control.faults.add({ match: { route: '/files/*', key_id: 1 }, action: status503 });
    expect((await download(emulator, first.url)).status).toBe(503);
  });

  it('delay a download, then serve it', async () => {
    const { emulator, control, api } = controlled();
    const { url } = await completed(api, emulator, 1);
    const rule = await control.faults.add({ match: { route: '/files/*' }, action: { type: 'latency', ms: 20 } });
    expect((await download(emulator, url)).status).toBe(200);
    const [entry] = await control.journal({ fault_id: rule.id });
    expect(entry.fault_id).toBe(rule.id);
  });
});

describe('connection faults on downloads, on a real socket', () => {
  const running: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((r) => r.close()));
  });

  async function start() {
    const started = await startTestEmulator({ seed: 1, timing: 'manual', ffmpegPath: false });
    running.push(started);
    const auth = { Authorization: `Bearer ${started.apiKey}` };
    const submitted = await rawRequest(`${started.url}/v1/media/generations`, {
      method: 'POST',
      headers: { ...auth, 'Idempotency-Key': idem('socket-download') },
      body: submission(),
    });
    await started.emulator.advance(10 * 60_000);
    const id = JSON.parse(submitted.body).generation.id as string;
    const read = await rawRequest(`${started.url}/v1/media/generations/${id}`, { headers: auth });
    return { control: started.control as Control, url: JSON.parse(read.body).generation.outputs[0].url as string };
  }

  /** The server sees the client's disconnect a moment after the client does: wait for that event, boundedly. */
  const eventually = (check: () => Promise<void>) => vi.waitFor(check, { timeout: 2000, interval: 5 });

  it.each([
    ['reset', /ECONNRESET/],
    ['empty', /socket hang up/],
  ] as const)('%s: the download is cut off, journaled with status 0', async (type, error) => {
    const { control, url } = await start();
    const rule = await control.faults.add({ match: { route: '/files/*' }, times: 1, action: { type } });
    await expect(rawRequest(url)).rejects.toThrow(error);
    await eventually(async () => expect(await control.journal({ fault_id: rule.id })).toMatchObject([{ status: 0 }]));
    expect((await rawRequest(url)).status).toBe(200);
  });

  it('dribble: the file arrives whole, in pieces', async () => {
    const { control, url } = await start();
    await control.faults.add({ match: { route: '/files/*' }, action: { type: 'dribble', chunks: 4, duration: 30 } });
    const whole = await rawRequest(url);
    expect(whole.status).toBe(200);
    expect(whole.chunks).toBeGreaterThan(1);
    expect(Number(whole.headers['content-length'])).toBeGreaterThan(0);
  });

  it('lost_response: the connection drops with no answer; the journal keeps the status that was dropped', async () => {
    const { control, url } = await start();
    const rule = await control.faults.add({
      match: { route: '/files/*' },
      times: 1,
      action: { type: 'lost_response' },
    });
    await expect(rawRequest(url)).rejects.toThrow(/socket hang up|ECONNRESET/);
    await eventually(async () =>
      expect(await control.journal({ fault_id: rule.id })).toMatchObject([{ status: 200, method: 'GET' }]),
    );
  });
});

describe('downloads in the journal', () => {
  it('records each with its status, type and size (never the bytes), its generation, and refusals too', async () => {
    const { emulator, control, api } = controlled();
    const { id, url } = await completed(api, emulator, 1);
    await control.clearJournal();
    const whole = await download(emulator, url);
    const head = await request(emulator.app).head(local(url));
    const range = await request(emulator.app).get(local(url)).set('Range', 'bytes=0-9');
    const forged = await request(emulator.app).get(local(url).replace(/signature=\w+/, 'signature=00'));
    expect([whole.status, head.status, range.status, forged.status]).toEqual([200, 200, 206, 403]);
    const size = (whole.body as Buffer).length;
    const entries = await control.journal({ path: '/files/*' });
    expect(entries.map((e) => [e.method, e.status, e.generation_id, e.key_id])).toEqual([
      ['GET', 200, id, null],
      ['HEAD', 200, id, null],
      ['GET', 206, id, null],
      ['GET', 403, id, null],
    ]);
    expect(entries[0].path).toBe(new URL(url).pathname);
    const [got, ranged, refused] = await Promise.all(
      [entries[0], entries[2], entries[3]].map((e) => control.journalEntry(e.id)),
    );
    expect(got.response_body).toEqual({ content_type: 'image/png', bytes: size, text: '', truncated: true });
    expect(ranged.response_body).toMatchObject({ content_type: 'image/png', bytes: 10, text: '' });
    expect(refused.response_body?.text).toContain('url_signature_invalid');
  });
});

describe('rules that could never fire', () => {
  it.each([
    [{ match: { route: '/v2/*' }, action: status503 }, 'match.route: "/v2/*" matches no route of the API'],
    [
      { match: { route: '/files/*', prompt: 'storm' }, action: status503 },
      'match.prompt: GET /files/{generation_id}/{name} never tells a rule the prompt',
    ],
    [
      { match: { route: '/files/:id/:name' }, action: { type: 'fail' } },
      'match.route: a fail action acts when a submission is accepted (POST /v1/media/generations), and "/files/:id/:name" never matches its path',
    ],
    [
      { match: { method: 'GET' }, action: { type: 'stall' } },
      'match.method: a stall action acts when a submission is accepted (POST /v1/media/generations), never on GET',
    ],
    [{ match: { method: 'OPTIONS' }, action: status503 }, 'match.method: no route of the API takes OPTIONS'],
    [
      { match: { route: '/v1/media/usage', generation_id: 'gen_000001' }, action: status503 },
      'match.generation_id: GET /v1/media/usage never tells a rule the generation_id',
    ],
    [
      { match: { method: 'POST', route: '/files/*' }, action: status503 },
      'match.route: "/files/*" matches no POST route of the API',
    ],
  ])('refuses %j with 422 invalid_fault_rule, saying why', async (rule, message) => {
    const { emulator, control } = controlled();
    const res = await request(emulator.app).post('/_emulator/faults').send(rule);
    expect([res.status, res.body.error.code]).toEqual([422, 'invalid_fault_rule']);
    expect(res.body.error.message).toContain(message);
    expect(await control.faults.list()).toEqual([]);
  });

  it('takes a rule whose route meets an operation only through a parameter or a wildcard', async () => {
    const { control } = controlled();
    for (const route of [
      '/files/gen_000001/*',
      '/v1/media/gen*',
      '/v1/media/generations/gen_000001/',
      '/*/media/usage',
    ])
      await control.faults.add({ match: { route }, action: status503 });
    await control.faults.add({ match: { model_slug: CHEAP_MODEL, route: '/files/*' }, action: status503 });
    expect(await control.faults.list()).toHaveLength(5);
  });
});
