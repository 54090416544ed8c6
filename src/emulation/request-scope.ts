// What the journal and fault middleware know about one /v1/media request before any route has run.
import type { Request, Response } from 'express';
import type { DomainContext } from '../domain/context.js';
import { firstHeader } from '../http/validation/repeated-values.js';
import type { RequestScope, RequestScopes } from './request-scopes.js';

export const isApiPath = (path: string) => path === '/v1/media' || path.startsWith('/v1/media/');

/** The key id a valid bearer key resolves to, or null; never throws (the route still authenticates and answers 401). */
function peekKeyId(ctx: DomainContext, authorization: string | undefined): number | null {
  try {
    return ctx.accounts.authenticate(authorization).id;
  } catch {
    return null;
  }
}

/** A class, not an object literal with a getter: one shape for all scopes and no closure per request. */
class LazyKeyScope implements RequestScope {
  faultId: string | null = null;
  faultReason: string | null = null;
  lost = false;
  private resolvedKeyId: number | null | undefined;

  constructor(
    private readonly ctx: DomainContext,
    private readonly authorization: string | undefined,
    readonly idempotencyKey: string | null,
  ) {}

  // Looked up only when a fault rule or the journal needs it: the route authenticates the request anyway.
  get keyId(): number | null {
    if (this.resolvedKeyId === undefined) this.resolvedKeyId = peekKeyId(this.ctx, this.authorization);
    return this.resolvedKeyId;
  }
}

/** A repeated Idempotency-Key is read as the submission reads it (the first), so rules and the journal see that key. */
export function newScope(ctx: DomainContext, req: Request): RequestScope {
  return new LazyKeyScope(ctx, req.headers.authorization, firstHeader(req, 'idempotency-key') ?? null);
}

/** The scope the journal opened, or a new one when the journal is not in front (it always is in the plane). */
export function scopeOf(scopes: RequestScopes, ctx: DomainContext, req: Request, res: Response): RequestScope {
  let scope = scopes.get(res);
  if (!scope) {
    scope = newScope(ctx, req);
    scopes.set(res, scope);
  }
  return scope;
}
