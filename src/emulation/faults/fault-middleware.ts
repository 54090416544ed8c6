// Fault injection for /v1/media requests: the first matching HTTP rule acts before the routes (or around them, for lost and dribbled answers).
import express, { type RequestHandler } from 'express';
import type { ControlState } from '../plane-state.js';
import type { FaultRequest } from './fault-store.js';
import type { HttpFaultAction } from './fault-schema.js';
import type { Emulator } from '../../emulator.js';
import { JSON_BODY_LIMIT } from '../../http/routes/limits.js';
import { isApiPath, newScope, scopeOf } from '../request-scope.js';
import { performHttpFault } from './http-actions.js';

const isMultipart = (type: string | undefined) => /^multipart\//i.test(type ?? '');

/** model_slug and prompt from a JSON body read ahead; anything unreadable simply matches no body rule. */
function bodyFields(body: unknown): Pick<FaultRequest, 'modelSlug' | 'prompt'> {
  if (!Buffer.isBuffer(body) || body.length === 0) return {};
  try {
    const parsed = JSON.parse(body.toString('utf8')) as { model_slug?: unknown; prompt?: unknown };
    return {
      modelSlug: typeof parsed.model_slug === 'string' ? parsed.model_slug : undefined,
      prompt: typeof parsed.prompt === 'string' ? parsed.prompt : undefined,
    };
  } catch {
    return {};
  }
}

export function faultMiddleware(state: ControlState, emulator: Emulator): RequestHandler {
  // The same reader the routes use: once it has consumed the body, their own reader sees it done and keeps req.body.
  const readAhead = express.raw({ type: (req) => !isMultipart(req.headers['content-type']), limit: JSON_BODY_LIMIT });
  return (req, res, next) => {
    // No rules (the usual case): nothing to match, and no AsyncLocalStorage scope, whose hooks slow every request.
    if (!isApiPath(req.path) || state.faults.isEmpty) return next();
    const scope = scopeOf(res) ?? newScope(emulator.context(), req);
    const proceed = () => state.requests.run(scope, () => next());
    const query = req.query as Record<string, unknown>;
    const request: FaultRequest = {
      method: req.method,
      path: req.path,
      keyId: scope.keyId ?? undefined,
      idempotencyKey: scope.idempotencyKey ?? undefined,
      modelSlug: typeof query.model_slug === 'string' ? query.model_slug : undefined,
    };
    const decide = () => {
      const random = emulator.context().random.next;
      const rule = state.faults.match('http', request, random);
      if (!rule) return proceed();
      scope.faultId = rule.id;
      res.setHeader('X-Emulator-Fault', rule.id);
      performHttpFault(rule.parsed.action as HttpFaultAction, { req, res, scope, random, proceed });
    };
    // Only an authenticated request is read ahead, so a bad key still gets its 401 before any body limit applies.
    if (scope.keyId !== null && !isMultipart(req.headers['content-type']) && state.faults.needsBody(request)) {
      readAhead(req, res, (error?: unknown) => {
        if (error) return next(error);
        Object.assign(request, bodyFields(req.body));
        decide();
      });
    } else decide();
  };
}
