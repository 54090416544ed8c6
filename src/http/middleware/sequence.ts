// Several middleware run as one Express layer, in the order given, with the semantics Express gives each layer.
import type { NextFunction, Request, RequestHandler, Response } from 'express';

const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  value !== null && typeof value === 'object' && typeof (value as { then?: unknown }).then === 'function';

/**
 * Every layer of an Express router costs a dispatch of its own for every request that passes it (a path match, a
 * params object, a closure, a try/catch), and the cross-cutting middleware see every request. As one layer they pay
 * that once. Each still behaves as its own layer would: a throw or a rejected promise goes to the error handler,
 * `next(error)` skips the rest, `next('route')` goes on to the next one, `next('router')` leaves the app's router.
 */
export function sequence(handlers: readonly RequestHandler[]): RequestHandler {
  if (handlers.length === 1) return handlers[0];
  return (req: Request, res: Response, next: NextFunction) => {
    let index = 0;
    // One closure per request, shared by the steps: a step that calls it twice moves on twice, as Express's next does.
    const step = (error?: unknown): void => {
      if (error && error !== 'route') {
        next(error);
        return;
      }
      if (index === handlers.length) {
        next();
        return;
      }
      const handler = handlers[index++];
      try {
        const result: unknown = handler(req, res, step);
        if (isThenable(result))
          result.then(undefined, (rejected: unknown) => step(rejected || new Error('Rejected promise')));
      } catch (thrown) {
        step(thrown);
      }
    };
    step();
  };
}
