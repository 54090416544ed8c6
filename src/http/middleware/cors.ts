// CORS for browser apps on another origin: the public API (any origin by default) and, only when configured, the plane.
import cors from 'cors';
import type { RequestHandler } from 'express';
import { isPlanePath } from '../plane-path.js';

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

/**
 * The public API keeps its CORS; /_emulator/* answers CORS only to origins listed for it explicitly, so a page on
 * another origin can neither read key secrets nor send a preflighted change (finding: any page drove the plane).
 */
export function splitCorsMiddleware(publicOrigins: string[] | '*', planeOrigins: string[]): RequestHandler {
  const publicCors = corsMiddleware(publicOrigins);
  const planeCors = planeOrigins.length ? corsMiddleware(planeOrigins.filter((o) => o !== '*')) : undefined;
  return (req, res, next) => {
    if (!isPlanePath(req.path)) return publicCors(req, res, next);
    if (planeCors) return planeCors(req, res, next);
    next();
  };
}
