// Writes JSON the way the real FastAPI service does: compact, UTF-8, `content-type: application/json`.
import type { Response } from 'express';

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
