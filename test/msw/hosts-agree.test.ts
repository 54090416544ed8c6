// The two hosts agree byte for byte: the same requests, with seeded ids and a fixed clock, to the Node server's listener
// (supertest) and to the msw handler pack under setupServer (fetch) get the same status, type and body.
import { setupServer } from 'msw/node';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMediaHandlers, type MediaHandlers } from '../../src/msw/node.js';
import { MODEL_A, MODEL_B, makeEmulator } from '../helpers/emulator.js';
import { multipart, png } from '../helpers/images.js';

const BASE = 'http://emulator.test';
const OPTIONS = {
  seed: 1,
  timing: 'manual' as const,
  clockStart: '2026-01-01T00:00:00Z',
  signingSecret: 'the-same-secret-on-both-hosts',
  publicBaseUrl: BASE,
};

interface Step {
  method: 'GET' | 'POST' | 'DELETE' | 'PUT';
  path: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** Wall-clock readings in the body (the journal's latency), replaced on both sides before comparing. */
  mask?: RegExp;
  /** Moves both clocks before the request. */
  advance?: number;
}

const json = (value: unknown) => JSON.stringify(value);
const submit = (key: string, body: unknown): Step => ({
  method: 'POST',
  path: '/v1/media/generations',
  headers: { 'Content-Type': 'application/json', 'Idempotency-Key': key },
  body: typeof body === 'string' ? body : json(body),
});
const upload = multipart(
  { model_slug: MODEL_A, target_slot: 'start_image' },
  { filename: 'frame.png', data: png(96, 80) },
);

const STEPS: Step[] = [
  { method: 'GET', path: '/v1/media/models' },
  { method: 'GET', path: '/v1/media/models?kind=video&kind=image' },
  {
    method: 'POST',
    path: '/v1/media/estimate',
    headers: { 'Content-Type': 'application/json' },
    body: json({ model_slug: MODEL_A, duration_seconds: 4 }),
  },
  {
    method: 'POST',
    path: '/v1/media/estimate',
    headers: { 'Content-Type': 'application/json' },
    body: '{"model_slug": 5, "duration_seconds": 1e400}',
  },
  submit('same-key-0001', { model_slug: MODEL_A, prompt: 'a fox at dawn', max_credits: 1000 }),
  submit('same-key-0001', { model_slug: MODEL_A, prompt: 'a fox at dawn', max_credits: 1000 }),
  submit('same-key-0001', { model_slug: MODEL_A, prompt: 'another prompt', max_credits: 1000 }),
  submit('other-key-002', { model_slug: MODEL_B, prompt: 'a heron', max_credits: 1 }),
  submit('bad-body-0003', '{"model_slug": "motion-lite-v1", "prompt": "\\ud800", "extra": [1, 2.50, true]}'),
  submit('short', { model_slug: MODEL_A, prompt: 'x' }),
  submit('not-json-004', '{"model_slug":'),
  {
    ...submit('no-auth-00005', { model_slug: MODEL_A, prompt: 'x' }),
    headers: { 'Content-Type': 'application/json', 'Idempotency-Key': 'no-auth-00005', Authorization: 'Bearer wrong' },
  },
  { method: 'POST', path: '/v1/media/uploads', headers: { 'Content-Type': upload.contentType }, body: upload.body },
  { method: 'GET', path: '/v1/media/generations?limit=1' },
  { method: 'GET', path: '/v1/media/generations?limit=0&status=nope' },
  { method: 'GET', path: '/v1/media/generations/gen_000001', advance: 120_000 },
  { method: 'GET', path: '/v1/media/generations/gen_999999' },
  { method: 'GET', path: '/v1/media/usage' },
  { method: 'DELETE', path: '/v1/media/usage' },
  { method: 'GET', path: '/v1/nothing/here' },
  // Latency is measured on the wall clock, the one reading no seed fixes.
  { method: 'GET', path: '/_emulator/journal?limit=30', mask: /"latency_ms":[0-9.]+/g },
  { method: 'GET', path: '/_emulator/accounts' },
];

interface Answer {
  status: number;
  type: string | null;
  body: string;
}

describe('the Node server and the msw pack answer alike', () => {
  const server = setupServer();
  let pack: MediaHandlers;
  beforeAll(async () => {
    server.listen({ onUnhandledFrame: 'bypass' });
    pack = await createMediaHandlers({ ...OPTIONS, baseUrl: BASE });
    server.use(...pack.handlers);
  });
  afterAll(async () => {
    await pack.close();
    server.close();
  });

  it('on every JSON answer of a session: catalogue, estimates, submissions, 422s, uploads, lists, usage, the plane', async () => {
    const node = makeEmulator(OPTIONS);
    const auth = { Authorization: `Bearer ${node.apiKey}` };
    for (const step of STEPS) {
      if (step.advance) {
        await node.advance(step.advance);
        await pack.control.advance(step.advance);
      }
      const headers = { ...auth, ...step.headers };
      let viaNode = request(node.app)[step.method.toLowerCase() as 'get'](step.path).set(headers);
      if (step.body !== undefined)
        viaNode = viaNode.send(typeof step.body === 'string' ? step.body : Buffer.from(step.body));
      const fromNode = await viaNode.buffer(true).parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done(null, Buffer.concat(chunks).toString('utf8')));
      });
      const nodeAnswer: Answer = {
        status: fromNode.status,
        type: fromNode.headers['content-type'] ?? null,
        body: fromNode.body as string,
      };
      const viaMsw = await fetch(`${BASE}${step.path}`, {
        method: step.method,
        headers,
        body: step.body as RequestInit['body'],
      });
      const mswAnswer: Answer = {
        status: viaMsw.status,
        type: viaMsw.headers.get('content-type'),
        body: await viaMsw.text(),
      };
      if (step.mask) {
        nodeAnswer.body = nodeAnswer.body.replace(step.mask, '(masked)');
        mswAnswer.body = mswAnswer.body.replace(step.mask, '(masked)');
      }
      expect(mswAnswer, `${step.method} ${step.path}`).toEqual(nodeAnswer);
      if (nodeAnswer.type?.startsWith('application/json')) expect(nodeAnswer.body.length).toBeGreaterThan(2);
    }
  });
});
