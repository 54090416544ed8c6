// Records every /v1/media exchange in the journal when it ends: answered, faulted, dropped or abandoned by the client.
import { performance } from 'node:perf_hooks';
import type { Request, RequestHandler, Response } from 'express';
import type { Runtime } from '../../domain/runtime.js';
import type { ControlState } from '../plane-state.js';
import { isApiPath, scopeOf } from '../request-scope.js';
import { BODY_CAP, captureBody, type CapturedBody } from './journal-store.js';

type Chunk = unknown;

/** Keeps the first BODY_CAP bytes the route writes (and counts the rest) without holding the answer back. */
function watchResponse(res: Response): () => CapturedBody | null {
  // Short text chunks are kept as strings (no copy); anything else, or what passes the cap, as the bytes of its head.
  const kept: (Buffer | string)[] = [];
  let keptBytes = 0;
  let total = 0;
  const see = (chunk: Chunk, encoding?: unknown) => {
    if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
    if (typeof chunk === 'string' && (encoding === undefined || encoding === 'utf8' || encoding === 'utf-8')) {
      const bytes = Buffer.byteLength(chunk);
      total += bytes;
      if (keptBytes + bytes <= BODY_CAP) {
        kept.push(chunk);
        keptBytes += bytes;
      } else if (keptBytes <= BODY_CAP)
        // A JSON answer can be far longer than what is kept: encode only its head.
        keep(Buffer.from(chunk.length > BODY_CAP + 1 ? chunk.slice(0, BODY_CAP + 1) : chunk));
      return;
    }
    const buffer = Buffer.isBuffer(chunk)
      ? chunk
      : chunk instanceof Uint8Array
        ? Buffer.from(chunk)
        : Buffer.from(String(chunk), typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
    total += buffer.length;
    if (keptBytes <= BODY_CAP) keep(buffer);
  };
  const keep = (buffer: Buffer) => {
    kept.push(buffer.subarray(0, BODY_CAP + 1 - keptBytes));
    keptBytes += Math.min(buffer.length, BODY_CAP + 1 - keptBytes);
  };
  const write = res.write;
  const end = res.end;
  res.write = function (this: Response, chunk: Chunk, ...rest: unknown[]) {
    see(chunk, rest[0]);
    return (write as (...a: unknown[]) => boolean).call(this, chunk, ...rest);
  } as Response['write'];
  res.end = function (this: Response, chunk?: Chunk, ...rest: unknown[]) {
    see(chunk, rest[0]);
    return (end as (...a: unknown[]) => Response).call(this, chunk, ...rest);
  } as Response['end'];
  return () => {
    if (total === 0) return null;
    const type = String(res.getHeader('content-type') ?? '') || null;
    const whole = kept.every((k) => typeof k === 'string')
      ? kept.join('')
      : Buffer.concat(kept.map((k) => (typeof k === 'string' ? Buffer.from(k) : k)));
    const body = captureBody(whole, type);
    return { ...body, bytes: total, truncated: total > BODY_CAP };
  };
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
    const scope = scopeOf(ctx, req, res);
    const responseBody = watchResponse(res);
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
        faultReason: scope.faultId ? scope.faultReason : (res.locals.scriptedReason ?? null),
        query,
        generationId: res.locals.generationId ?? null,
        requestBody: requestBody(req),
        responseBody: responseBody(),
      });
    });
    next();
  };
}
