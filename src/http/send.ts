// Writes JSON the way the real FastAPI service does: compact, UTF-8, `content-type: application/json`.
import type { Response } from 'express';
import { renderPythonJson, UnrenderableJson } from './validation/python-values.js';

export function sendJson(res: Response, status: number, body: unknown) {
  const text = JSON.stringify(body);
  res.status(status).setHeader('Content-Type', 'application/json');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}

export function sendError(
  res: Response,
  status: number,
  code: string,
  message: string,
  details?: Record<string, unknown>,
) {
  sendJson(res, status, { error: { code, message, ...(details ?? {}) } });
}

/**
 * A 422 as FastAPI renders it (Python's json.dumps: number spellings, dict order). When Python could not render it
 * (NaN, infinities, lone surrogates in an echoed input), the real stack answers Starlette's plain 500; so do we.
 */
export function sendValidationError(res: Response, detail: unknown) {
  let text: string;
  try {
    text = renderPythonJson({ detail });
  } catch (error) {
    if (!(error instanceof UnrenderableJson)) throw error;
    return sendStarlette500(res);
  }
  res.status(422).setHeader('Content-Type', 'application/json');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}

/** Starlette's ServerErrorMiddleware answer, byte for byte: what the real service sends when it cannot render a 422. */
export function sendStarlette500(res: Response) {
  const plain = 'Internal Server Error';
  res.status(500).setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(plain));
  res.end(plain);
}
