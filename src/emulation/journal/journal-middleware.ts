// Records every /v1/media exchange in the journal when it ends: answered, faulted, dropped or abandoned by the client.
import { performance } from 'node:perf_hooks';
import type { Request, RequestHandler } from 'express';
import type { WriteWatcher } from '../../http/middleware/response-writes.js';
import type { Runtime } from '../../domain/runtime.js';
import type { ControlState } from '../plane-state.js';
import { isApiPath, scopeOf } from '../request-scope.js';
import { type CapturedBody, captureBody } from './journal-store.js';
import { ResponseCapture } from './response-capture.js';

/** Feeds each /v1/media answer's writes to its capture; other responses carry none and pass untouched. */
export function journalWriteWatcher(state: ControlState): WriteWatcher {
  return (res, chunk, encoding) => state.captures.get(res)?.see(chunk, encoding);
}

/** The body as the routes read it: JSON re-serialised, raw bytes as text, multipart as a note (files are not kept). */
function requestBody(req: Request): CapturedBody | null {
  const type = req.headers['content-type'] ?? null;
  const length = Number(req.headers['content-length'] ?? 0);
  if (/^multipart\//i.test(type ?? ''))
    return { contentType: type, bytes: length, text: '(multipart form: files are not kept)', truncated: false };
  const body: unknown = req.body;
  if (Buffer.isBuffer(body)) return body.length ? captureBody(body, type) : null;
  if (body === undefined || body === null) return null;
  if (typeof body === 'object' && Object.keys(body).length === 0 && !length) return null;
  return captureBody(JSON.stringify(body), type);
}

export function journalMiddleware(state: ControlState, runtime: Runtime): RequestHandler {
  return (req, res, next) => {
    if (!isApiPath(req.path)) return next();
    const ctx = runtime.context();
    const started = performance.now();
    const at = ctx.clock.now();
    const method = req.method;
    const path = req.path;
    const queryAt = req.originalUrl.indexOf('?');
    const query = queryAt === -1 ? '' : req.originalUrl.slice(queryAt + 1);
    const scope = scopeOf(state.scopes, ctx, req, res);
    const capture = new ResponseCapture();
    state.captures.set(res, capture);
    res.on('close', () => {
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
        faultId: scope.faultId ?? res.locals.planAdjustment?.by ?? null,
        faultReason: scope.faultId ? scope.faultReason : (res.locals.planAdjustment?.reason ?? null),
        query,
        generationId: res.locals.generationId ?? null,
        requestBody: requestBody(req),
        responseBody: capture.body(String(res.getHeader('content-type') ?? '') || null),
      });
    });
    next();
  };
}
