// The one error handler: domain codes to statuses (from the table), 422s in FastAPI form, and never a bare 500.
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { CodedError, ValidationFailure } from '../domain/errors.js';
import { answeredCode, statusFor } from './error-statuses.js';
import { sendError, sendStarlette500, sendValidationError } from './send.js';
import { UnrenderableJson } from './validation/python-values.js';
import { JSON_BODY_LIMIT_TEXT, limitText } from './routes/limits.js';

export function errorHandler(
  statuses: Record<string, number>,
  log: (line: string) => void,
  codes: Record<string, string> = {},
): ErrorRequestHandler {
  const handle = handler(statuses, log, codes);
  return (error, req, res, next) => {
    try {
      handle(error, req, res, next);
    } catch (failure) {
      // Even a response we cannot serialise gets the envelope, never Express's HTML page.
      log(
        `error handler failed on ${req.method} ${req.originalUrl}: ${failure instanceof Error ? failure.message : String(failure)}`,
      );
      if (!res.headersSent)
        sendError(
          res,
          500,
          'internal_error',
          'The emulator hit an internal error. This is a bug in the emulator; please report it with the request.',
        );
      else res.destroy();
    }
  };
}

function handler(
  statuses: Record<string, number>,
  log: (line: string) => void,
  codes: Record<string, string>,
): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    if (error instanceof ValidationFailure) return sendValidationError(res, error.items);
    if (error instanceof UnrenderableJson) return sendStarlette500(res);
    if (error instanceof CodedError) {
      const status = statusFor(error.code, statuses);
      const retryAfter = error.details?.retry_after_seconds;
      if (typeof retryAfter === 'number') res.setHeader('Retry-After', String(retryAfter));
      return sendError(res, status, answeredCode(error.code, codes), error.message, error.details);
    }
    const httpError = error as { type?: string; status?: number; message?: string; limit?: number };
    // The parser names the limit it applied: the public API's 16 MiB, or a smaller one of a control-plane route.
    if (httpError.type === 'entity.too.large')
      return sendError(
        res,
        statusFor('payload_too_large', statuses),
        'payload_too_large',
        `The request body is larger than ${typeof httpError.limit === 'number' ? limitText(httpError.limit) : JSON_BODY_LIMIT_TEXT}. Send a smaller body.`,
      );
    if (typeof httpError.status === 'number' && httpError.status >= 400 && httpError.status < 500)
      return sendError(
        res,
        httpError.status,
        'bad_request',
        `The request could not be read (${httpError.message ?? 'bad request'}). Check the body and headers.`,
      );
    log(
      `internal error on ${req.method} ${req.originalUrl}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    return sendError(
      res,
      500,
      'internal_error',
      'The emulator hit an internal error. This is a bug in the emulator; please report it with the request.',
    );
  };
}

export const notFound: RequestHandler = (req, res) =>
  sendError(
    res,
    404,
    'route_not_found',
    `No route ${req.method} ${req.path}. The API lives under /v1/media; see /openapi.json.`,
  );

export function methodNotAllowed(allowed: string[]): RequestHandler {
  return (req, res) => {
    res.setHeader('Allow', allowed.join(', '));
    sendError(
      res,
      405,
      'method_not_allowed',
      `${req.method} is not allowed on ${req.path}; use ${allowed.join(' or ')}.`,
    );
  };
}
