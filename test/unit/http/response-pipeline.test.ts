// The response pipeline sits on one app's response prototype and runs its plugins' hooks in a fixed order of phases.
import express, { type RequestHandler, type Response } from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import {
  beforeFirstByte,
  holdBody,
  installResponsePipeline,
  type Release,
  type ResponseHooks,
  WAIT,
  watchChunks,
} from '../../../src/http/response-pipeline.js';

function appWith(hooks: ResponseHooks[], route: RequestHandler, before?: RequestHandler) {
  const app = express();
  const arm = installResponsePipeline(app, hooks);
  if (arm) app.use(arm);
  if (before) app.use(before);
  app.get('/', route);
  return app;
}

const writing =
  (pieces: string[]): RequestHandler =>
  (_req, res) => {
    for (const piece of pieces.slice(0, -1)) res.write(piece);
    res.end(pieces.at(-1));
  };

describe('the response pipeline', () => {
  it("sees every write and the end of its own app's responses, and leaves another app in the process alone", async () => {
    const seen: unknown[] = [];
    const watched = appWith([{ onChunk: (_res, chunk) => seen.push(chunk) }], writing(['{"a":', '1', '}']));
    const other = express().get('/', writing(['{"b":2}']));
    const first = await request(watched).get('/');
    const second = await request(other).get('/');
    expect([first.text, second.text]).toEqual(['{"a":1}', '{"b":2}']);
    expect(seen).toEqual(['{"a":', '1', '}']);
  });

  it('passes encodings and callbacks through untouched', async () => {
    const seen: [unknown, unknown][] = [];
    const app = appWith([{ onChunk: (_res, chunk, encoding) => seen.push([chunk, encoding]) }], (_req, res) => {
      res.write('68656c6c6f', 'hex', () => res.end(Buffer.from(' world')));
    });
    const answer = await request(app).get('/');
    expect(answer.text).toBe('hello world');
    expect(seen).toEqual([
      ['68656c6c6f', 'hex'],
      [Buffer.from(' world'), undefined],
    ]);
  });

  it('runs beforeSend, then onChunk, then afterSend, plugin by plugin, and every later phase sees the replacement', async () => {
    const events: string[] = [];
    const gate = (name: string, replace: boolean): ResponseHooks => ({
      beforeSend: (res) => {
        events.push(`${name}.beforeSend`);
        if (!replace) return undefined;
        res.statusCode = 507;
        res.setHeader('Content-Length', 16);
        return '{"error":"full"}';
      },
      onChunk: (_res, chunk) => events.push(`${name}.onChunk ${String(chunk)}`),
      afterSend: (res) => events.push(`${name}.afterSend ${res.statusCode}`),
    });
    const app = appWith([gate('store', true), gate('recorder', false)], (_req, res) => {
      events.push('handler');
      res.json({ ok: true });
    });
    const answer = await request(app).get('/');
    expect([answer.status, answer.text]).toEqual([507, '{"error":"full"}']);
    // The first replacement wins: a later plugin's gate is not asked, and every onChunk sees what actually goes out.
    expect(events).toEqual([
      'handler',
      'store.beforeSend',
      'store.onChunk {"error":"full"}',
      'recorder.onChunk {"error":"full"}',
      'store.afterSend 507',
      'recorder.afterSend 507',
    ]);
  });

  it('holds a body until the route ends it, passes that end through beforeSend, then sends what the holder chooses through onChunk', async () => {
    const events: string[] = [];
    const hooks: ResponseHooks = {
      beforeSend: () => void events.push('beforeSend'),
      onChunk: (_res, chunk) => events.push(`onChunk ${chunk === undefined ? '(end)' : String(chunk)}`),
    };
    const hold: RequestHandler = (_req, res, next) => {
      holdBody(res, (body) => {
        events.push(`whole ${body}`);
        res.write(body.subarray(0, 3));
        res.end(body.subarray(3));
      });
      watchChunks(res, (chunk) => events.push(`watched ${String(chunk)}`));
      next();
    };
    const app = appWith([hooks], writing(['{"a":', '1}']), hold);
    const answer = await request(app).get('/');
    expect(answer.text).toBe('{"a":1}');
    // The gate sees the held answer once, before its first byte, not each piece the holder sends.
    expect(events).toEqual([
      'beforeSend',
      'whole {"a":1}',
      'onChunk {"a',
      'watched {"a',
      'onChunk ":1}',
      'watched ":1}',
    ]);
  });

  it('lets a holder drop the answer after beforeSend: nothing reaches onChunk', async () => {
    const events: string[] = [];
    const app = appWith(
      [{ beforeSend: () => void events.push('beforeSend'), onChunk: () => events.push('onChunk') }],
      writing(['{"a":1}']),
      (req, res, next) => {
        holdBody(res, (body) => {
          events.push(`dropped ${body.length} bytes`);
          req.socket.destroy();
        });
        next();
      },
    );
    await expect(request(app).get('/')).rejects.toThrow(/socket hang up|ECONNRESET/);
    expect(events).toEqual(['beforeSend', 'dropped 7 bytes']);
  });

  it('lets a gate hold an ended response and release it later, as it was or replaced, seen once by onChunk', async () => {
    const events: string[] = [];
    const waiting: [Response, Release][] = [];
    const hooks: ResponseHooks = {
      beforeSend: (res, release) => {
        if (!release) return undefined;
        waiting.push([res, release]);
        return WAIT;
      },
      onChunk: (_res, chunk) => events.push(`onChunk ${String(chunk)}`),
    };
    const app = appWith([hooks], (req, res) => {
      res.json({ path: req.query.n });
      // A second end while the first waits is dropped: only the first body goes out.
      res.end('{"again":true}');
    });
    const answers = Promise.all([request(app).get('/?n=1'), request(app).get('/?n=2')]);
    await expect.poll(() => waiting.length).toBe(2);
    expect(events).toEqual([]);
    const [[first, releaseFirst], [second, releaseSecond]] = waiting;
    const replaced = first.req.query.n === '1' ? second : first;
    releaseFirst(first, first === replaced ? refuse(first) : undefined);
    releaseSecond(second, second === replaced ? refuse(second) : undefined);
    const [one, two] = await answers;
    expect([one.status, one.text]).toEqual([200, '{"path":"1"}']);
    expect([two.status, two.text]).toEqual([507, '{"error":"full"}']);
    expect(events.sort()).toEqual(['onChunk {"error":"full"}', 'onChunk {"path":"1"}']);
  });
});

describe('the first byte of every path waits for the gates', () => {
  /** A gate that holds each end it is given; `verdicts` says how each is released, in order (true: refused). */
  function waitingGate() {
    const waiting: [Response, Release][] = [];
    const events: string[] = [];
    const hooks: ResponseHooks = {
      beforeSend: (res, release) => {
        events.push(release ? 'gate (end)' : 'gate (head or write)');
        if (!release) return undefined;
        waiting.push([res, release]);
        return WAIT;
      },
      onChunk: (_res, chunk) => events.push(`out ${chunk === undefined ? '(end)' : String(chunk)}`),
    };
    const letGo = async (refused: boolean) => {
      await expect.poll(() => waiting.length).toBe(1);
      const [res, release] = waiting.splice(0)[0];
      release(res, refused ? refuse(res) : undefined);
    };
    return { hooks, events, letGo };
  }

  const holding =
    (onWhole: (res: Response, body: Buffer) => void): RequestHandler =>
    (_req, res, next) => {
      holdBody(res, (body) => onWhole(res, body));
      next();
    };

  it.each([
    ['lets it go', false, 200, '{"a":1}'],
    ['refuses it', true, 507, '{"error":"full"}'],
  ])(
    'a held answer sent in pieces starts only once its gate %s, and a refusal goes out whole instead',
    async (_what, refused, status, text) => {
      const { hooks, events, letGo } = waitingGate();
      const dribble = holding((res, body) => {
        events.push('holder');
        res.flushHeaders();
        res.write(body.subarray(0, 3));
        res.end(body.subarray(3));
      });
      const answer = request(appWith([hooks], writing(['{"a":1}']), dribble)).get('/');
      const sent = answer.then((a) => a);
      await letGo(refused);
      const got = await sent;
      expect([got.status, got.text]).toEqual([status, text]);
      expect(events).toEqual(
        refused ? ['gate (end)', 'out {"error":"full"}'] : ['gate (end)', 'holder', 'out {"a', 'out ":1}'],
      );
    },
  );

  /** Two ways an exchange ends with no answer: a held body dropped by its holder, and beforeFirstByte's reset. */
  const cuts: [string, (hooks: ResponseHooks, events: string[]) => express.Express][] = [
    [
      'a held answer dropped by its holder',
      (hooks, events) =>
        appWith(
          [hooks],
          writing(['{"a":1}']),
          holding((res) => {
            events.push('cut');
            res.req.socket.destroy();
          }),
        ),
    ],
    [
      'a reset (beforeFirstByte)',
      (hooks, events) =>
        appWith([hooks], (req, res) =>
          beforeFirstByte(res, () => {
            events.push('cut');
            req.socket.resetAndDestroy();
          }),
        ),
    ],
  ];

  it.each(cuts)('%s is cut only once its gate lets it go; a refusal is answered instead', async (_what, app) => {
    for (const refused of [false, true]) {
      const { hooks, events, letGo } = waitingGate();
      const answer = request(app(hooks, events))
        .get('/')
        .then(
          (a) => `${a.status} ${a.text}`,
          (error: Error) => error.message,
        );
      await letGo(refused);
      expect(await answer).toMatch(refused ? '507 {"error":"full"}' : /socket hang up|ECONNRESET/);
      expect(events).toEqual(refused ? ['gate (end)', 'out {"error":"full"}'] : ['gate (end)', 'cut']);
    }
  });

  it.each([
    ['flushHeaders', 200, (res: Response) => void res.flushHeaders()],
    ['writeHead', 201, (res: Response) => void res.writeHead(201, { 'Content-Type': 'application/json' })],
  ])(
    'a head written first by %s passes the gate once, and its refusal replaces the whole answer',
    async (_name, ok, head) => {
      for (const refused of [false, true]) {
        const events: string[] = [];
        const hooks: ResponseHooks = {
          beforeSend: (res, release) => {
            events.push(release ? 'gate (end)' : 'gate (head)');
            return refused ? refuse(res) : undefined;
          },
        };
        const app = appWith([hooks], (_req, res) => {
          head(res);
          // What the route writes after a refused head is dropped, without an error.
          res.write('{"a":');
          res.end('1}');
        });
        const answer = await request(app).get('/');
        expect([answer.status, answer.text]).toEqual(refused ? [507, '{"error":"full"}'] : [ok, '{"a":1}']);
        expect(events).toEqual(['gate (head)']);
      }
    },
  );
});

function refuse(res: Response) {
  res.statusCode = 507;
  res.setHeader('Content-Length', 16);
  return '{"error":"full"}';
}
