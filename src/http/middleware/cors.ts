// CORS for browser apps on another origin: any origin by default, or a fixed list; preflights answered before auth.
import cors from 'cors';
import type { RequestHandler } from 'express';

/** What a browser may send: the bearer key, JSON bodies, idempotency, the admin token, and byte ranges for fetch(). */
export const CORS_ALLOWED_HEADERS = [
  'Authorization',
  'Content-Type',
  'Idempotency-Key',
  'X-Emulator-Admin-Token',
  'Range',
];

/** What a browser may read: back-off hints and the headers a player or download progress bar needs. */
export const CORS_EXPOSED_HEADERS = ['Retry-After', 'Content-Range', 'Accept-Ranges', 'Content-Length', 'Allow'];

/**
 * `'*'` answers `Access-Control-Allow-Origin: *` (the API authenticates with a bearer key, not cookies, so no
 * credentials mode is needed); a list reflects only matching origins, with `Vary: Origin`, and others get no
 * CORS headers at all, so the browser blocks them the way a misconfigured real deployment would.
 */
export function corsMiddleware(origins: string[] | '*' = '*'): RequestHandler {
  const list = origins === '*' ? '*' : origins.map((o) => o.replace(/\/+$/, ''));
  return cors({
    origin: list === '*' || list.includes('*') ? '*' : list,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: CORS_ALLOWED_HEADERS,
    exposedHeaders: CORS_EXPOSED_HEADERS,
    // Ten minutes: browsers cap it anyway (Chromium at 2 h), and a restarted emulator with new settings is seen soon.
    maxAge: 600,
    optionsSuccessStatus: 204,
  });
}
