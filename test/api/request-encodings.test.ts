// A request body is read as sent, whatever its Content-Encoding says: FastAPI 0.142.2 / Starlette 1.7.0 decode none,
// so a compressed body is refused as the bytes it is (captured from that stack), and nothing is charged for it.
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Control, RunningEmulator } from '../../src/index.js';
import { startSharedEmulator } from '../helpers/emulator.js';
import { multipart, png } from '../helpers/images.js';
import { bearer, jsonType, rawClient, type RawClient } from '../helpers/raw-http.js';

let running: RunningEmulator & { control: Control };
let http: RawClient;

beforeAll(async () => {
  running = await startSharedEmulator({ seed: 1, timing: 'manual', ffmpegPath: false });
  http = rawClient(running.url, 4);
});
afterAll(async () => {
  http.close();
  await running.close();
});
beforeEach(async () => {
  await running.control.faults.clear();
});

const CODINGS = { gzip: gzipSync, deflate: deflateSync, br: brotliCompressSync };
const SUBMISSION = Buffer.from(JSON.stringify({ model_slug: 'motion-lite-v1', prompt: 'a fox', max_credits: 1000 }));
let keys = 0;
const idempotency = (): [string, string] => ['Idempotency-Key', `encoding-${++keys}-key`];

async function submit(body: Buffer, coding: string | undefined, type: [string, string] = jsonType) {
  const headers: [string, string][] = [bearer(running.apiKey), type, idempotency()];
  if (coding !== undefined) headers.push(['Content-Encoding', coding]);
  const res = await http.send({ method: 'POST', path: '/v1/media/generations', headers, body });
  return { status: res.status, type: res.headers['content-type'], text: res.body.toString('utf8') };
}

async function ledger() {
  const [account] = await running.control.accounts();
  return { balance: account.balance, generations: (await running.control.generations()).length };
}

describe('a compressed JSON body is refused as its bytes, and nothing is charged', () => {
  it.each(
    Object.entries(CODINGS).flatMap(([coding, compress]) => [
      [coding, compress],
      [coding.toUpperCase(), compress],
    ]),
  )('Content-Encoding: %s answers 400 body_not_utf8 naming the coding', async (coding, compress) => {
    const before = await ledger();
    const res = await submit(compress(SUBMISSION), coding);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text)).toStrictEqual({
      error: {
        code: 'body_not_utf8',
        message: `The request body could not be decoded (UTF-8, UTF-16 or UTF-32 as json.loads reads them). Send JSON as UTF-8. It was sent with Content-Encoding: ${coding}, which the service does not decode: send the body uncompressed.`,
      },
    });
    expect(await ledger()).toEqual(before);
  });

  it('answers a compressed body that happens to be text as FastAPI does: br of nothing is ";", a JSON decode error', async () => {
    const res = await submit(brotliCompressSync(Buffer.alloc(0)), 'br');
    expect(res).toEqual({
      status: 422,
      type: 'application/json',
      text: '{"detail":[{"type":"json_invalid","loc":["body",0],"msg":"JSON decode error","input":{},"ctx":{"error":"Expecting value"}}]}',
    });
  });

  it('answers a compressed text/plain body with Starlette plain 500: its 422 echo cannot be decoded', async () => {
    const res = await submit(gzipSync(SUBMISSION), 'gzip', ['Content-Type', 'text/plain']);
    expect(res).toEqual({ status: 500, type: 'text/plain; charset=utf-8', text: 'Internal Server Error' });
  });
});

describe('a body whose Content-Encoding the service ignores is read as it is', () => {
  it.each(['identity', 'gzip', 'x-unknown'])(
    'Content-Encoding: %s on an uncompressed body is accepted and charged once (202)',
    async (coding) => {
      const before = await ledger();
      const res = await submit(SUBMISSION, coding);
      expect(res.status).toBe(202);
      const after = await ledger();
      expect(after.generations).toBe(before.generations + 1);
      expect(after.balance).toBeLessThan(before.balance);
    },
  );

  it('reads a body ahead for a fault rule the same way: a gzip body still answers 400, the rule never sees it', async () => {
    await running.control.faults.add({
      match: { model_slug: 'motion-lite-v1' },
      action: { type: 'status', status: 503 },
    });
    const before = await ledger();
    const res = await submit(gzipSync(SUBMISSION), 'gzip');
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text).error.code).toBe('body_not_utf8');
    expect(await ledger()).toEqual(before);
  });
});

describe('uploads: forms are read as sent too', () => {
  const upload = async (body: Buffer, type: string, coding: string) => {
    const res = await http.send({
      method: 'POST',
      path: '/v1/media/uploads',
      headers: [bearer(running.apiKey), ['Content-Type', type], ['Content-Encoding', coding]],
      body,
    });
    return { status: res.status, text: res.body.toString('utf8') };
  };
  const uploads = async () => (await running.control.exportState()).domain.uploads.length;

  it.each(Object.entries(CODINGS))(
    'a %s multipart body is 400 malformed_multipart, and nothing is stored',
    async (coding, compress) => {
      const form = multipart({ model_slug: 'motion-lite-v1' }, { data: png(64, 64) });
      const before = await uploads();
      const res = await upload(compress(form.body), form.contentType, coding);
      expect(res.status).toBe(400);
      const { error } = JSON.parse(res.text);
      expect(error.code).toBe('malformed_multipart');
      expect(error.message).toContain(`Content-Encoding: ${coding}, which the service does not decode`);
      expect(await uploads()).toBe(before);
    },
  );

  it('an urlencoded body is parsed as its compressed bytes: neither field is there (FastAPI bytes)', async () => {
    const res = await upload(deflateSync('model_slug=m&target_slot=t'), 'application/x-www-form-urlencoded', 'deflate');
    expect(res).toEqual({
      status: 422,
      text: '{"detail":[{"type":"missing","loc":["body","file"],"msg":"Field required","input":null},{"type":"missing","loc":["body","model_slug"],"msg":"Field required","input":null}]}',
    });
  });
});
