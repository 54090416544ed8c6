// A request that stops arriving is answered and freed (headersTimeout, bodyTimeout), and the bytes the bodies being
// read hold at once stay under maxBufferedBodyBytes: 503 server_busy with Retry-After, reserved before a byte is read
// and released on every path. Real sockets; every wait is on an event (an answer, a close), never on a sleep.
import type { Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { Control, Emulator, EmulatorOptions } from '../../src/index.js';
import { createCheckedEmulator } from '../helpers/contract.js';
import { multipart, paddedPng } from '../helpers/images.js';
import { bearer, jsonType, rawClient } from '../helpers/raw-http.js';

const opened: Emulator[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((e) => e.close()));
});

async function start(options: EmulatorOptions) {
  const emulator = createCheckedEmulator({ seed: 1, timing: 'manual', ffmpegPath: false, ...options });
  opened.push(emulator);
  const { url, server } = await emulator.start({ port: 0, host: '127.0.0.1' });
  // The published type names only what every host has; this one is Node's.
  const node = server as unknown as Server;
  return { emulator, url, server: node, control: emulator.control as Control, port: Number(new URL(url).port) };
}

/** A client that writes what it is told, when it is told, and collects what the server sends until it closes. */
class Connection {
  private readonly socket: Socket;
  private received = '';
  private readonly waiting: (() => void)[] = [];
  readonly closed: Promise<void>;

  constructor(port: number) {
    this.socket = connect(port, '127.0.0.1');
    this.socket.on('data', (chunk: Buffer) => {
      this.received += chunk.toString('latin1');
      for (const wake of this.waiting.splice(0)) wake();
    });
    this.socket.on('error', () => {});
    this.closed = new Promise((resolve) => this.socket.on('close', () => resolve()));
  }

  write(bytes: string | Buffer): void {
    this.socket.write(bytes);
  }

  /** Resolves with everything received once it contains `text`; rejects if the server closes first. */
  async until(text: string): Promise<string> {
    let open = true;
    void this.closed.then(() => {
      open = false;
    });
    while (!this.received.includes(text)) {
      if (!open) throw new Error(`closed before "${text}" came; received ${JSON.stringify(this.received)}`);
      await Promise.race([new Promise<void>((wake) => this.waiting.push(wake)), this.closed]);
    }
    return this.received;
  }

  /** Everything received once the server has closed. */
  async all(): Promise<string> {
    await this.closed;
    return this.received;
  }

  destroy(): void {
    this.socket.destroy();
  }
}

/** The next exchange on `path` to end (answered, refused or cut off): its 'close' comes after the emulator's own. */
function nextClosed(server: Server, path: string): Promise<void> {
  return new Promise((resolve) => {
    const onRequest = (req: { url?: string }, res: { once(event: 'close', f: () => void): void }) => {
      if (!req.url?.startsWith(path)) return;
      server.off('request', onRequest);
      res.once('close', () => resolve());
    };
    server.on('request', onRequest);
  });
}

const head = (method: string, path: string, key: string, headers: Record<string, string | number>) =>
  `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('')}\r\n`;

const envelopeOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));

const SUBMISSION = JSON.stringify({ model_slug: 'motion-lite-v1', prompt: 'a fox', max_credits: 1000 });
const submissionHead = (apiKey: string, idempotencyKey: string) =>
  head('POST', '/v1/media/generations', apiKey, {
    'Content-Type': 'application/json',
    'Content-Length': SUBMISSION.length,
    'Idempotency-Key': idempotencyKey,
  });

async function wallet(control: Control) {
  const [account] = await control.accounts();
  return { balance: account.balance, generations: (await control.generations()).length };
}

describe('a body that stops arriving (bodyTimeout)', () => {
  it('is answered 408 request_timeout in the envelope, its connection closed, and nothing charged', async () => {
    const { port, control, emulator } = await start({ bodyTimeout: '150ms' });
    const before = await wallet(control);
    const client = new Connection(port);
    client.write(submissionHead(emulator.apiKey, 'stalled-body-0001'));
    client.write(SUBMISSION.slice(0, 20));
    const answer = await client.all();
    expect(answer).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(answer).toMatch(/\r\nConnection: close\r\n/i);
    expect(envelopeOf(answer)).toStrictEqual({
      error: {
        code: 'request_timeout',
        message:
          'The request body stopped arriving: no byte for 150 ms. Send the whole body without pausing, or start the emulator with a longer --body-timeout.',
      },
    });
    expect(await wallet(control)).toEqual(before);
  });

  it('holds the control plane to the same deadline: a stalled fault rule is answered 408 and adds no rule', async () => {
    const { port, control, emulator } = await start({ bodyTimeout: '150ms' });
    const rule = JSON.stringify({ action: { type: 'status', status: 503 } });
    const client = new Connection(port);
    client.write(
      head('POST', '/_emulator/faults', emulator.apiKey, {
        'Content-Type': 'application/json',
        'Content-Length': rule.length,
      }),
    );
    client.write(rule.slice(0, 10));
    const answer = await client.all();
    expect(answer).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(envelopeOf(answer).error.code).toBe('request_timeout');
    expect(await control.faults.list()).toEqual([]);
  });

  it('answers a stalled upload 408 and frees what it held: the next upload of that size fits under the cap', async () => {
    const file = paddedPng(800, 600, 600 * 1024);
    const form = multipart({ model_slug: 'motion-lite-v1' }, { data: file });
    const { port, emulator, url } = await start({ bodyTimeout: '150ms', maxBufferedBodyBytes: 1024 * 1024 });
    const stalled = new Connection(port);
    // Node answers 100 Continue just before it hands the request to the app, which reserves in the same turn.
    stalled.write(
      head('POST', '/v1/media/uploads', emulator.apiKey, {
        'Content-Type': form.contentType,
        'Content-Length': form.body.length,
        Expect: '100-continue',
      }),
    );
    await stalled.until('HTTP/1.1 100 Continue\r\n\r\n');
    stalled.write(form.body.subarray(0, 200 * 1024));

    const http = rawClient(url, 2);
    const send = () =>
      http.send({
        method: 'POST',
        path: '/v1/media/uploads',
        headers: [bearer(emulator.apiKey), ['Content-Type', form.contentType]],
        body: form.body,
      });
    const busy = await send();
    expect(busy.status).toBe(503);
    expect(busy.headers['retry-after']).toBe('1');
    expect(busy.json()).toStrictEqual({
      error: {
        code: 'server_busy',
        message: expect.stringMatching(/^The request bodies being read already hold .* of the 1 MiB cap/),
        retry_after_seconds: 1,
      },
    });

    expect(await stalled.all()).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 408 Request Timeout\r\n/);
    expect((await send()).status).toBe(201);
    http.close();
  });

  it('keeps a body that arrives slowly but steadily: each byte restarts the wait', async () => {
    const { port, control, emulator } = await start({ bodyTimeout: '1500ms' });
    const client = new Connection(port);
    client.write(submissionHead(emulator.apiKey, 'slow-body-00001'));
    // Ten pieces 200 ms apart: two seconds in all, longer than the timeout, never a pause as long as it.
    const pieces = 10;
    const size = Math.ceil(SUBMISSION.length / pieces);
    for (let i = 0; i < pieces; i++) {
      client.write(SUBMISSION.slice(i * size, (i + 1) * size));
      if (i < pieces - 1) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const answer = await client.until('"generation"');
    expect(answer).toMatch(/^HTTP\/1\.1 202 Accepted\r\n/);
    client.destroy();
    expect((await wallet(control)).generations).toBe(1);
  });
});

describe('headers that stop arriving (headersTimeout)', () => {
  it('are answered 408 by Node and the connection closed', async () => {
    const { port } = await start({ headersTimeout: '100ms' });
    const client = new Connection(port);
    client.write('POST /v1/media/generations HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthoriz');
    expect(await client.all()).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
  });
});

describe('the cap on body bytes held at once (maxBufferedBodyBytes)', () => {
  it('refuses a submission past it with 503 server_busy before reading it, charging nothing, until the holder ends', async () => {
    const { port, server, control, emulator, url } = await start({ maxBufferedBodyBytes: 1000 });
    const holderClosed = nextClosed(server, '/v1/media/estimate');
    const holder = new Connection(port);
    holder.write(
      head('POST', '/v1/media/estimate', emulator.apiKey, {
        'Content-Type': 'application/json',
        'Content-Length': 990,
        Expect: '100-continue',
      }),
    );
    await holder.until('100 Continue');
    const http = rawClient(url, 2);
    const submit = (key: string) =>
      http.send({
        method: 'POST',
        path: '/v1/media/generations',
        headers: [bearer(emulator.apiKey), jsonType, ['Idempotency-Key', key]],
        body: SUBMISSION,
      });
    const before = await wallet(control);
    const refused = await submit('capped-key-0001');
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.json().error.code).toBe('server_busy');
    expect(await wallet(control)).toEqual(before);

    // The holder goes away mid-body: its exchange closes, and what it reserved is released with it.
    holder.write('{"model_slug":');
    holder.destroy();
    await holderClosed;
    expect((await submit('capped-key-0001')).status).toBe(202);
    http.close();
  });

  it('releases a reservation when the body is refused (413 over the form limit) and when it is answered', async () => {
    const { emulator, url } = await start({ maxBufferedBodyBytes: 100 * 1024 });
    const http = rawClient(url, 1);
    const form = (bytes: number) =>
      http.send({
        method: 'POST',
        path: '/v1/media/uploads',
        headers: [bearer(emulator.apiKey), ['Content-Type', 'application/x-www-form-urlencoded']],
        body: `model_slug=${'m'.repeat(bytes)}`,
      });
    // One at a time, each near the whole cap: any reservation left behind would refuse the next with 503.
    expect((await form(70 * 1024)).status).toBe(413);
    expect((await form(70 * 1024)).status).toBe(413);
    expect((await form(60 * 1024)).status).toBe(422);
    expect((await form(60 * 1024)).status).toBe(422);
    http.close();
  });
});
