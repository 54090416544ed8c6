// Records every /v1/media exchange in the journal when it ends: answered, faulted, dropped or abandoned by the client.
import { performance } from 'node:perf_hooks';
import type { Request, RequestHandler, Response } from 'express';
import type { Runtime } from '../../domain/runtime.js';
import type { ResponseHooks } from '../../http/response-pipeline.js';
import type { ControlState } from '../plane-state.js';
import { isApiPath, scopeOf } from '../request-scope.js';
import { type CapturedBody, captureBody, JOURNAL_TEXT_CAP } from './journal-store.js';
import type { OpenExchange } from './open-exchange.js';
import { ResponseCapture } from './response-capture.js';

const cut = (text: string) => (text.length > JOURNAL_TEXT_CAP ? text.slice(0, JOURNAL_TEXT_CAP) : text);
const cutOrNull = (text: string | null | undefined) => (text === null || text === undefined ? null : cut(text));

/** The body as the routes read it: JSON re-serialised, raw bytes as text, multipart as a note (files are not kept). */
function requestBody(req: Request): CapturedBody | null {
  const sent = req.headers['content-type'];
  const type = sent === undefined ? null : cut(sent);
  const length = Number(req.headers['content-length'] ?? 0);
  if (/^multipart\//i.test(type ?? ''))
    return { contentType: type, bytes: length, text: '(multipart form: files are not kept)', truncated: false };
  const body: unknown = req.body;
  if (Buffer.isBuffer(body)) return body.length ? captureBody(body, type) : null;
  if (body === undefined || body === null) return null;
  if (typeof body === 'object' && Object.keys(body).length === 0 && !length) return null;
  return captureBody(JSON.stringify(body), type);
}

/** Opens the exchange of each /v1/media request; other requests pass untouched and are never recorded. */
export function journalMiddleware(state: ControlState, runtime: Runtime): RequestHandler {
  return (req, res, next) => {
    if (!isApiPath(req.path)) return next();
    const ctx = runtime.context();
    const queryAt = req.originalUrl.indexOf('?');
    state.exchanges.set(res, {
      capture: new ResponseCapture(),
      at: ctx.clock.now(),
      started: performance.now(),
      method: req.method,
      path: cut(req.path),
      query: queryAt === -1 ? '' : cut(req.originalUrl.slice(queryAt + 1)),
      scope: scopeOf(state.scopes, ctx, req, res),
    });
    next();
  };
}

function record(state: ControlState, res: Response, x: OpenExchange) {
  const { scope, capture } = x;
  // No status line went out (reset, empty response, hang, client gone): 0, as browsers report a network error.
  const status = scope.lost || res.headersSent ? res.statusCode : 0;
  state.journal.record({
    at: x.at,
    method: x.method,
    path: x.path,
    keyId: res.locals.apiKey?.id ?? scope.keyId,
    idempotencyKey: scope.idempotencyKey === null ? null : cut(scope.idempotencyKey),
    status,
    latencyMs: Math.round((performance.now() - x.started) * 10) / 10,
    faultId: scope.faultId ?? res.locals.planAdjustment?.by ?? null,
    faultReason: cutOrNull(scope.faultId ? scope.faultReason : res.locals.planAdjustment?.reason),
    query: x.query,
    generationId: res.locals.generationId ?? null,
    requestBody: requestBody(res.req),
    responseBody: capture.body(cut(String(res.getHeader('content-type') ?? '')) || null),
  });
}

/** The journal's place in the response pipeline: it keeps each answer's head as it goes out, and records on close. */
export function journalHooks(state: ControlState): Pick<ResponseHooks, 'onChunk' | 'afterSend'> {
  return {
    onChunk: (res, chunk, encoding) => state.exchanges.get(res)?.capture.see(chunk, encoding),
    afterSend: (res) => {
      const exchange = state.exchanges.get(res);
      if (exchange) record(state, res, exchange);
    },
  };
}
