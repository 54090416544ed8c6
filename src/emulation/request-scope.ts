// What the journal and fault middleware read from a /v1/media request before any route has run.
import type { Request, Response } from 'express';
import type { RequestScope } from './plane-state.js';
import type { DomainContext } from '../domain/context.js';

export const isApiPath = (path: string) => path === '/v1/media' || path.startsWith('/v1/media/');

/** The key id a valid bearer key resolves to, or null; never throws (the route still authenticates and answers 401). */
export function peekKeyId(ctx: DomainContext, authorization: string | undefined): number | null {
  try {
    return ctx.accounts.authenticate(authorization).id;
  } catch {
    return null;
  }
}

export function newScope(ctx: DomainContext, req: Request): RequestScope {
  const header = req.headers['idempotency-key'];
  let keyId: number | null | undefined;
  return {
    // Looked up only when a fault rule or the journal needs it: the route authenticates the request anyway.
    get keyId() {
      return keyId === undefined ? (keyId = peekKeyId(ctx, req.headers.authorization)) : keyId;
    },
    idempotencyKey: typeof header === 'string' ? header : null,
    faultId: null,
    lost: false,
  };
}

export const scopeOf = (res: Response): RequestScope | undefined =>
  res.locals.emulatorScope as RequestScope | undefined;
