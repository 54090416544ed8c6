// Fault injection for /v1/media requests: the first matching HTTP rule acts before the routes (or around them, for lost and dribbled answers).
import type { RequestHandler } from 'express';
import type { Runtime } from '../../domain/runtime.js';
import type { BodyReading } from '../../http/body/body-reading.js';
import { jsonBodyOf } from '../../http/request-locals.js';
import { JSON_BODY_LIMIT } from '../../http/routes/limits.js';
import type { ControlState } from '../plane-state.js';
import { isApiPath, scopeOf } from '../request-scope.js';
import type { FaultRequest } from './fault-store.js';
import type { HttpFaultAction } from './fault-schema.js';
import { performHttpFault } from './http-actions.js';

const isMultipart = (type: string | undefined) => /^multipart\//i.test(type ?? '');

/** model_slug and prompt of the body; the parse is kept in res.locals for the route, so the body is parsed once. */
function bodyFields(read: () => ReturnType<typeof jsonBodyOf>): Pick<FaultRequest, 'modelSlug' | 'prompt'> {
  try {
    const body = read();
    if (body.kind !== 'value' || typeof body.value !== 'object' || body.value === null) return {};
    const { model_slug, prompt } = body.value as { model_slug?: unknown; prompt?: unknown };
    return {
      modelSlug: typeof model_slug === 'string' ? model_slug : undefined,
      prompt: typeof prompt === 'string' ? prompt : undefined,
    };
  } catch {
    // Unreadable (not UTF-8, too deep): it matches no body rule, and the route answers it as it would anyway.
    return {};
  }
}

export function faultMiddleware(state: ControlState, runtime: Runtime, bodies: BodyReading): RequestHandler {
  // The same reader the routes use: once it has consumed the body, their own reader sees it done and keeps req.body.
  const readAhead = bodies.bytes(JSON_BODY_LIMIT);
  return (req, res, next) => {
    // No rules (the usual case): nothing to match.
    if (!isApiPath(req.path) || state.faults.isEmpty) return next();
    const scope = scopeOf(state.scopes, runtime.context(), req, res);
    const query = req.query as Record<string, unknown>;
    const request: FaultRequest = {
      method: req.method,
      path: req.path,
      keyId: scope.keyId ?? undefined,
      idempotencyKey: scope.idempotencyKey ?? undefined,
      modelSlug: typeof query.model_slug === 'string' ? query.model_slug : undefined,
    };
    const decide = () => {
      const random = runtime.context().random.next;
      const rule = state.faults.match('http', request, random);
      if (!rule) return next();
      scope.faultId = rule.id;
      scope.faultReason = state.faults.explain(rule, request);
      res.setHeader('X-Emulator-Fault', rule.id);
      performHttpFault(rule.parsed.action as HttpFaultAction, { req, res, scope, random, proceed: () => next() });
    };
    // Only an authenticated request is read ahead, so a bad key still gets its 401 before any body limit applies.
    if (scope.keyId !== null && !isMultipart(req.headers['content-type']) && state.faults.needsBody(request)) {
      readAhead(req, res, (error?: unknown) => {
        if (error) return next(error);
        Object.assign(
          request,
          bodyFields(() => jsonBodyOf(req, res)),
        );
        decide();
      });
    } else decide();
  };
}
