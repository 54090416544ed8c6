// Middleware run as one layer by sequence() answer exactly as the same middleware mounted as layers of their own.
import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { sequence } from '../../../src/http/middleware/sequence.js';

const mark =
  (name: string): RequestHandler =>
  (_req, res, next) => {
    res.append('X-Seen', name);
    next();
  };

const onError: ErrorRequestHandler = (error, _req, res, _next) => {
  res.status(500).json({ error: error instanceof Error ? error.message : String(error) });
};

/** The same handlers, once as separate layers and once as one sequence, with a route and an error handler behind. */
function bothWays(handlers: RequestHandler[]) {
  const build = (mount: (app: express.Express) => void) => {
    const app = express();
    mount(app);
    app.get('/', (_req, res) => void res.json({ reached: true }));
    app.use(onError);
    return app;
  };
  return [
    build((app) => {
      for (const handler of handlers) app.use(handler);
    }),
    build((app) => app.use(sequence(handlers))),
  ];
}

async function answers(handlers: RequestHandler[]) {
  const results = [];
  for (const app of bothWays(handlers)) {
    const answer = await request(app).get('/');
    results.push({ status: answer.status, seen: answer.headers['x-seen'] ?? null, body: answer.body });
  }
  return results;
}

describe('sequence', () => {
  it('runs the middleware in the order given, then the route', async () => {
    const [layers, one] = await answers([mark('a'), mark('b'), mark('c')]);
    expect(one).toEqual(layers);
    expect(one).toEqual({ status: 200, seen: 'a, b, c', body: { reached: true } });
  });

  it('sends a throw, a rejected promise or next(error) to the error handler and skips the rest', async () => {
    const failures: RequestHandler[] = [
      () => {
        throw new Error('thrown');
      },
      async () => {
        throw new Error('rejected');
      },
      (_req, _res, next) => next(new Error('passed')),
    ];
    for (const failure of failures) {
      const [layers, one] = await answers([mark('a'), failure, mark('c')]);
      expect(one).toEqual(layers);
      expect(one.status).toBe(500);
      expect(one.seen).toBe('a');
    }
  });

  it("goes on after next('route') and after a middleware that calls next later", async () => {
    const later: RequestHandler = (_req, _res, next) => void setImmediate(next);
    const [layers, one] = await answers([mark('a'), (_req, _res, next) => next('route'), later, mark('d')]);
    expect(one).toEqual(layers);
    expect(one).toEqual({ status: 200, seen: 'a, d', body: { reached: true } });
  });

  it('stops where a middleware answers', async () => {
    const answer: RequestHandler = (_req, res) => void res.status(204).end();
    const [layers, one] = await answers([mark('a'), answer, mark('c')]);
    expect(one).toEqual(layers);
    expect(one.status).toBe(204);
    expect(one.seen).toBe('a');
  });
});
