// The pipeline's phases, in order, over Node's host: guard, CORS, hooks, handler, gate before the first byte, send, after.
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { errorAnswer, jsonAnswer } from '../../../src/http/answers.js';
import { corsPolicy } from '../../../src/http/cors.js';
import { errorAnswers } from '../../../src/http/error-answers.js';
import type { Outcome, RouteEntry, ServiceResponse } from '../../../src/http/exchange.js';
import { frontDoor } from '../../../src/http/front-door.js';
import { bodyReading } from '../../../src/http/node/node-body.js';
import { nodeListener } from '../../../src/http/node/node-listener.js';
import { createPipeline, type ExchangeHooks } from '../../../src/http/pipeline.js';
import type { World } from '../../../src/http/world.js';

const FULL = () => errorAnswer(507, 'storage_full', 'full');

function serve(
  hooks: ExchangeHooks[],
  handle: RouteEntry['handle'] = () => jsonAnswer(200, { a: 1 }),
  guard?: () => void,
  events: string[] = [],
) {
  const routes: RouteEntry[] = [
    { method: 'GET', path: '/v1/media/thing', operation: 'thing', kind: 'public', mutates: false, handle },
    { method: 'POST', path: '/v1/media/thing', operation: 'change', kind: 'public', mutates: true, handle },
    { method: 'GET', path: '/_emulator/thing', operation: 'plane', kind: 'control', mutates: false, handle },
  ];
  const pipeline = createPipeline({
    frontDoor: frontDoor(routes),
    world: () => ({}) as World,
    guard: guard
      ? () => {
          events.push('guard');
          guard();
        }
      : undefined,
    cors: (plane) => (plane ? undefined : corsPolicy('*')),
    hooks,
    errors: errorAnswers({}, (line) => events.push(`log ${line.split(':')[0]}`)),
    log: (line) => events.push(`log ${line}`),
  });
  const app = nodeListener(pipeline, bodyReading({ bodyTimeoutMs: 5_000, maxBufferedBodyBytes: 1 << 20 }));
  return { app, events };
}

/** A hook that notes each phase it sees, and may replace the answer at its gate. */
function recorder(name: string, events: string[], replace?: () => ServiceResponse): ExchangeHooks {
  return {
    before: () => void events.push(`${name}.before`),
    gate: (_x, response) => {
      events.push(`${name}.gate ${response ? response.status : 'none'}`);
      return replace?.();
    },
    after: (_x, outcome) => events.push(`${name}.after ${outcome.status}`),
  };
}

/** The answer's status, or the client's error when the connection ended with none. */
const answerOf = (sent: PromiseLike<{ status: number }>) =>
  Promise.resolve(sent).then(
    (a) => `${a.status}`,
    (error: Error) => error.message,
  );

/** Waits until the after hooks have run (they run on 'close', which may follow the client's answer). */
const settled = async (events: string[], count: number) => {
  await expect.poll(() => events.filter((e) => e.includes('.after')).length).toBe(count);
};

describe('the pipeline', () => {
  it('runs every before hook, the handler, the gates (the first replacement wins), then every after hook', async () => {
    const events: string[] = [];
    const { app } = serve([recorder('store', events, FULL), recorder('recorder', events)], () => {
      events.push('handler');
      return jsonAnswer(200, { a: 1 });
    });
    const answer = await request(app).get('/v1/media/thing');
    expect([answer.status, answer.body.error.code]).toEqual([507, 'storage_full']);
    // The replacement goes out with the headers added on the way (CORS here).
    expect(answer.headers['access-control-allow-origin']).toBe('*');
    await settled(events, 2);
    expect(events).toEqual([
      'store.before',
      'recorder.before',
      'handler',
      'store.gate 200',
      'store.after 507',
      'recorder.after 507',
    ]);
  });

  it("answers an intervention's answer in the handler's place, through the gate, with the hook's header", async () => {
    const events: string[] = [];
    const { app } = serve(
      [
        recorder('store', events),
        {
          before: (x) => {
            x.addHeader('X-Marked', 'yes');
            return { answer: errorAnswer(503, 'service_unavailable', 'later') };
          },
        },
      ],
      () => {
        events.push('handler');
        return jsonAnswer(200, {});
      },
    );
    const answer = await request(app).post('/v1/media/thing').send({ ignored: true });
    expect([answer.status, answer.headers['x-marked']]).toEqual([503, 'yes']);
    await settled(events, 1);
    expect(events).toEqual(['store.before', 'store.gate 503', 'store.after 503']);
  });

  it('sends a dribbled answer only once its gate lets it go, and a refusal whole instead', async () => {
    for (const refused of [false, true]) {
      const events: string[] = [];
      const { app } = serve([
        recorder('store', events, refused ? FULL : undefined),
        { before: () => ({ action: { type: 'dribble', chunks: 3, durationMs: 10 } }) },
      ]);
      const answer = await request(app).get('/v1/media/thing');
      expect([answer.status, answer.text]).toEqual(
        refused ? [507, '{"error":{"code":"storage_full","message":"full"}}'] : [200, '{"a":1}'],
      );
      await settled(events, 1);
      expect(events).toEqual(['store.before', 'store.gate 200', `store.after ${refused ? 507 : 200}`]);
    }
  });

  it('drops a lost answer only after its gate, keeping its status for the record; a refusal goes out instead', async () => {
    for (const refused of [false, true]) {
      const events: string[] = [];
      const outcomes: Outcome[] = [];
      const { app } = serve([
        recorder('store', events, refused ? FULL : undefined),
        { before: () => ({ action: { type: 'lost_response' } }), after: (_x, outcome) => void outcomes.push(outcome) },
      ]);
      expect(await answerOf(request(app).get('/v1/media/thing'))).toMatch(
        refused ? '507' : /socket hang up|ECONNRESET/,
      );
      await settled(events, 1);
      expect(outcomes.map((o) => [o.status, o.finished])).toEqual([refused ? [507, true] : [200, false]]);
    }
  });

  it.each([['reset'], ['empty']] as const)(
    'ends with no answer (%s) only after the gate saw it, or answers the refusal',
    async (type) => {
      for (const refused of [false, true]) {
        const events: string[] = [];
        const { app } = serve(
          [recorder('store', events, refused ? FULL : undefined), { before: () => ({ action: { type } }) }],
          () => {
            events.push('handler');
            return jsonAnswer(200, {});
          },
        );
        expect(await answerOf(request(app).get('/v1/media/thing'))).toMatch(
          refused ? '507' : /socket hang up|ECONNRESET/,
        );
        await settled(events, 1);
        expect(events).toEqual(['store.before', 'store.gate none', `store.after ${refused ? 507 : 0}`]);
      }
    },
  );

  it('lets a gate hold answers and release each later, as it was or replaced', async () => {
    const waiting: ((answer: ServiceResponse | undefined) => void)[] = [];
    const { app } = serve(
      [{ gate: () => new Promise<ServiceResponse | undefined>((release) => waiting.push(release)) }],
      (x) => jsonAnswer(200, { n: x.request.query.n }),
    );
    const answers = Promise.all([request(app).get('/v1/media/thing?n=1'), request(app).get('/v1/media/thing?n=2')]);
    await expect.poll(() => waiting.length).toBe(2);
    waiting[0](undefined);
    waiting[1](FULL());
    const statuses = (await answers).map((a) => `${a.status} ${a.text}`).sort();
    expect(statuses).toEqual(['200 {"n":"1"}', '507 {"error":{"code":"storage_full","message":"full"}}']);
  });

  it("answers HEAD with the GET handler's head and no body; the hooks still see the answer produced", async () => {
    const outcomes: Outcome[] = [];
    const { app } = serve([{ after: (_x, outcome) => void outcomes.push(outcome) }]);
    const head = await request(app).head('/v1/media/thing');
    expect([head.status, head.headers['content-length'], head.text]).toEqual([200, '7', undefined]);
    await expect.poll(() => outcomes.length).toBe(1);
    expect(outcomes[0].response?.body).toBe('{"a":1}');
  });

  it('answers an error thrown by a hook with the mapper, with no action', async () => {
    const { app } = serve([
      {
        before: () => {
          throw new Error('a hook bug');
        },
      },
    ]);
    const answer = await request(app).get('/v1/media/thing');
    expect([answer.status, answer.body.error.code]).toEqual([500, 'internal_error']);
  });

  it('guards only paths that name the plane, before CORS and the hooks; a preflight is answered before any hook', async () => {
    const events: string[] = [];
    const { app } = serve(
      [recorder('hook', events)],
      undefined,
      () => {
        throw new Error('refused');
      },
      events,
    );
    expect((await request(app).get('/_emulator/thing')).status).toBe(500);
    const preflight = await request(app).options('/v1/media/thing').set('Origin', 'http://app.example');
    expect([preflight.status, preflight.headers['access-control-allow-origin']]).toEqual([204, '*']);
    await settled(events, 2);
    // The guard refused the plane call before any hook; the preflight never reached one either.
    expect(events.filter((e) => !e.startsWith('log'))).toEqual([
      'guard',
      'hook.gate 500',
      'hook.after 500',
      'hook.gate 204',
      'hook.after 204',
    ]);
  });
});
