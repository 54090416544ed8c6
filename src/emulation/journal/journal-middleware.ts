// Records every /v1/media exchange in the journal when it ends: answered, faulted, dropped or abandoned by the client.
import { performance } from 'node:perf_hooks';
import type { RequestHandler } from 'express';
import type { Runtime } from '../../domain/runtime.js';
import type { ControlState } from '../plane-state.js';
import { isApiPath, scopeOf } from '../request-scope.js';

export function journalMiddleware(state: ControlState, runtime: Runtime): RequestHandler {
  return (req, res, next) => {
    if (!isApiPath(req.path)) return next();
    const ctx = runtime.context();
    const started = performance.now();
    const at = ctx.clock.now();
    const method = req.method;
    const path = req.path;
    const scope = scopeOf(ctx, req, res);
    res.once('close', () => {
      // No status line went out (reset, empty response, hang, client gone): 0, as browsers report a network error.
      const status = scope.lost || res.headersSent ? res.statusCode : 0;
      state.journal.record({
        at,
        method,
        path,
        keyId: res.locals.apiKey?.id ?? scope.keyId,
        idempotencyKey: scope.idempotencyKey,
        status,
        latencyMs: Math.round((performance.now() - started) * 10) / 10,
        faultId: scope.faultId ?? res.locals.scriptedBy ?? null,
      });
    });
    next();
  };
}
