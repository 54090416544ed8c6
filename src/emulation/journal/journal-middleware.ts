// Records every /v1/media exchange in the journal when it ends: answered, faulted, dropped or abandoned by the client.
import { performance } from 'node:perf_hooks';
import type { Request, RequestHandler, Response } from 'express';
import type { DomainContext } from '../../domain/context.js';
import type { Runtime } from '../../domain/runtime.js';
import type { ResponseHooks } from '../../http/response-pipeline.js';
import type { ControlState } from '../plane-state.js';
import { isApiPath, newScope } from '../request-scope.js';
import { type CapturedBody, captureBody, JOURNAL_TEXT_CAP } from './journal-store.js';
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

/** What the journal notes of a /v1/media request when it arrives, and the head of its answer as it goes out. */
class Arrival {
  readonly capture = new ResponseCapture();
  constructor(
    readonly ctx: DomainContext,
    readonly at: number,
    readonly started: number,
    readonly method: string,
    readonly path: string,
    readonly query: string,
  ) {}
}

/**
 * Kept in the response's own locals (created by Express for each request), not in a WeakMap keyed by the response: an
 * entry in a WeakMap per request cost about a microsecond, most of it in the garbage collector's ephemeron work.
 */
const ARRIVAL = Symbol('journal arrival');
type JournalLocals = Record<typeof ARRIVAL, Arrival | undefined>;
const arrivalOf = (res: Response) => (res.locals as JournalLocals)[ARRIVAL];

/** Opens the exchange of each /v1/media request; other requests pass untouched and are never recorded. */
export function journalMiddleware(runtime: Runtime): RequestHandler {
  return (req, res, next) => {
    if (!isApiPath(req.path)) return next();
    const queryAt = req.originalUrl.indexOf('?');
    const ctx = runtime.context();
    (res.locals as JournalLocals)[ARRIVAL] = new Arrival(
      ctx,
      ctx.clock.now(),
      performance.now(),
      req.method,
      cut(req.path),
      queryAt === -1 ? '' : cut(req.originalUrl.slice(queryAt + 1)),
    );
    next();
  };
}

function record(state: ControlState, res: Response, x: Arrival) {
  // The fault middleware's scope when a rule looked at the request (it holds what the rule did); else the request's own.
  const scope = state.scopes.get(res) ?? newScope(x.ctx, res.req);
  const { capture } = x;
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
    onChunk: (res, chunk, encoding) => arrivalOf(res)?.capture.see(chunk, encoding),
    afterSend: (res) => {
      const arrival = arrivalOf(res);
      if (arrival) record(state, res, arrival);
    },
  };
}
