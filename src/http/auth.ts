// Bearer authentication for every /v1/media route, run before the body is read or validated.
import type { RequestHandler } from 'express';
import type { DomainContext } from '../domain/context.js';

export function authenticate(ctx: () => DomainContext): RequestHandler {
  return (req, res, next) => {
    res.locals.apiKey = ctx().accounts.authenticate(req.headers.authorization);
    next();
  };
}
