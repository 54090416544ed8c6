// CORS for browser apps on another origin: the public API (any origin by default) and, only when configured, the plane.
import type { ServiceRequest, ServiceResponse } from './exchange.js';

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

const METHODS = 'GET,HEAD,POST,PUT,PATCH,DELETE';
/** Ten minutes: browsers cap it anyway (Chromium at 2 h), and a restarted emulator with new settings is seen soon. */
const MAX_AGE = '600';

/** The answer for one origin policy: a preflight's answer, and the headers every other answer gets. */
export interface CorsPolicy {
  /** Every OPTIONS request is a preflight to it (as the `cors` package answered them): 204, no body. */
  preflight(request: ServiceRequest): ServiceResponse;
  /** Headers for an ordinary answer; the same object for every request when the origin does not matter. */
  headers(request: ServiceRequest): Record<string, string>;
}

/**
 * `'*'` answers `Access-Control-Allow-Origin: *` (the API authenticates with a bearer key, not cookies, so no
 * credentials mode is needed); a list reflects only matching origins, with `Vary: Origin`, and others get no
 * allow-origin header at all, so the browser blocks them the way a misconfigured real deployment would.
 */
export function corsPolicy(origins: string[] | '*' = '*'): CorsPolicy {
  const list = origins === '*' ? '*' : origins.map((o) => o.replace(/\/+$/, ''));
  const any = list === '*' || list.includes('*');
  const exposed = CORS_EXPOSED_HEADERS.join(',');
  const preflightHeaders = {
    'Access-Control-Allow-Methods': METHODS,
    'Access-Control-Allow-Headers': CORS_ALLOWED_HEADERS.join(','),
    'Access-Control-Max-Age': MAX_AGE,
    'Access-Control-Expose-Headers': exposed,
    'Content-Length': '0',
  };
  const anyOrigin = { 'Access-Control-Allow-Origin': '*', 'Access-Control-Expose-Headers': exposed };
  const unlisted = { Vary: 'Origin', 'Access-Control-Expose-Headers': exposed };
  const origin = (request: ServiceRequest): Record<string, string> => {
    if (any) return { 'Access-Control-Allow-Origin': '*' };
    const sent = request.headers.origin;
    return typeof sent === 'string' && (list as string[]).includes(sent)
      ? { 'Access-Control-Allow-Origin': sent, Vary: 'Origin' }
      : { Vary: 'Origin' };
  };
  return {
    preflight: (request) => ({ status: 204, headers: { ...origin(request), ...preflightHeaders } }),
    headers(request) {
      if (any) return anyOrigin;
      const sent = request.headers.origin;
      if (typeof sent === 'string' && (list as string[]).includes(sent))
        return { 'Access-Control-Allow-Origin': sent, Vary: 'Origin', 'Access-Control-Expose-Headers': exposed };
      return unlisted;
    },
  };
}

/**
 * The public API keeps its CORS; the plane's routes answer CORS only to origins listed for them explicitly, so a page on
 * another origin can neither read key secrets nor send a preflighted change (finding: any page drove the plane).
 */
export function splitCors(publicOrigins: string[] | '*', planeOrigins: string[]) {
  const publicCors = corsPolicy(publicOrigins);
  const planeCors = planeOrigins.length ? corsPolicy(planeOrigins.filter((o) => o !== '*')) : undefined;
  return (plane: boolean): CorsPolicy | undefined => (plane ? planeCors : publicCors);
}
