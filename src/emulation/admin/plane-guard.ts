// The one guard at the emulation plane's boundary: Host allow-list and admin token, on a canonical form of the path.
import type { Exchange, ServiceRequest } from '../../http/exchange.js';
import { PlaneError } from '../error-codes.js';
import { canonicalPath, hidesSegments, isPlanePath, mentionsPlane } from '../../http/plane-path.js';
import { sameSecret } from '../../infra/constant-time.js';

export interface PlaneGuardOptions {
  /** The token in force now (configured, or generated when the emulator was bound beyond loopback). */
  adminToken: () => string | undefined;
  /** Host names (no port) that may reach /_emulator/*: loopback names, the public URL's host, `allowedHosts`, the bound address. */
  allowedHosts: () => ReadonlySet<string>;
  /** Origins configured for the plane's CORS: pages there may drive it. */
  controlOrigins: readonly string[];
}

const isOpen = (canonical: string, method: string) =>
  (method === 'GET' || method === 'HEAD') &&
  (canonical === '/_emulator/health' ||
    canonical === '/_emulator/console' ||
    canonical.startsWith('/_emulator/console/'));

/** The token a control request bears (admin or sandbox): X-Emulator-Admin-Token, or Authorization: Bearer. */
export function controlTokenOf(headers: Record<string, string | string[] | undefined>): string | undefined {
  const direct = headers['x-emulator-admin-token'];
  if (typeof direct === 'string' && direct) return direct;
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(typeof headers.authorization === 'string' ? headers.authorization : '');
  return bearer?.[1];
}

/** Throws the refusal a caller without the right token should see. */
function checkAdminToken(headers: Record<string, string | string[] | undefined>, token: string): void {
  const given = controlTokenOf(headers);
  if (!given)
    throw new PlaneError(
      'admin_token_required',
      'This emulator requires an admin token for /_emulator/* (EMULATOR_ADMIN_TOKEN, or the one printed in its start banner). Send it as "Authorization: Bearer <token>" or "X-Emulator-Admin-Token: <token>".',
    );
  if (!sameSecret(given, token))
    throw new PlaneError(
      'admin_token_invalid',
      'The admin token does not match the one this emulator was started with.',
    );
}

const isPreflight = (method: string, headers: ServiceRequest['headers']) =>
  method === 'OPTIONS' && headers['access-control-request-method'] !== undefined;

/** `host:port`, `[::1]:port` or a bare name, as the Host header carries it, to the lower-cased name alone. */
export function hostName(header: string | undefined): string {
  const value = (header ?? '').trim().toLowerCase();
  if (value.startsWith('[')) return value.slice(0, value.indexOf(']') + 1);
  const colon = value.indexOf(':');
  return colon === -1 ? value : value.slice(0, colon);
}

/**
 * The console's own requests carry an Origin equal to the Host they are sent to (scheme aside). Any other page, even
 * one on localhost at another port, is another site: a "simple" request from it would have its effect unseen.
 */
function sameOrigin(origin: string, host: string | undefined): boolean {
  try {
    return host !== undefined && new URL(origin).host === host.toLowerCase();
  } catch {
    return false;
  }
}

/**
 * Runs on every request whose path names the plane at some depth of encoding (the front door says which), before
 * CORS: it throws the refusal, or lets the request on.
 */
export function planeGuard(options: PlaneGuardOptions): (x: Exchange) => void {
  return (x) => {
    const req = x.request;
    const { path } = req;
    // One path for guard and router: a plane path that decodes to something else than it reads is refused outright.
    if (mentionsPlane(path) && hidesSegments(path))
      throw new PlaneError(
        'path_not_canonical',
        `The path ${JSON.stringify(path.slice(0, 200))} holds an encoded slash or backslash, a backslash or a dot segment. Send the plain path, e.g. /_emulator/generations/gen_000001.`,
      );
    if (!isPlanePath(path)) return;
    const canonical = canonicalPath(path);
    // Checked before the token and on health too: a DNS-rebound page carries its own host name, never ours.
    const allowed = options.allowedHosts();
    const host = hostName(req.headers.host as string | undefined);
    if (!allowed.has('*') && !allowed.has(host))
      throw new PlaneError(
        'host_not_allowed',
        `Host '${host}' may not reach the emulation plane. Use localhost or 127.0.0.1, or start the emulator with --allowed-hosts ${host || '<name>'} (env MEDIA_EMULATOR_ALLOWED_HOSTS).`,
      );
    // A page on another site can still send a "simple" request (a form POST, fetch with no-cors): its side effect
    // happens even though CORS hides the answer. Browsers always send Origin on those, so refuse foreign ones.
    const origin = req.headers.origin as string | undefined;
    if (
      origin !== undefined &&
      !options.controlOrigins.includes(origin) &&
      !sameOrigin(origin, req.headers.host as string | undefined)
    )
      throw new PlaneError(
        'origin_not_allowed',
        `Pages on ${origin} may not drive the emulation plane: only its own pages (the console) and origins listed with --control-cors-origins may.`,
      );
    // Which sandbox a request reaches is decided at the front door; its refusal goes out once Host and Origin passed.
    const access = x.worldAccess;
    // Only for an operation: a path no route takes is the front door's 404 whatever sandbox it names.
    if (access?.refusal && x.dispatch.route) throw access.refusal;
    if (isOpen(canonical, req.method)) return;
    // A browser never sends credentials on a preflight: for an origin listed for the plane, CORS answers it (no side
    // effect, nothing read), and the request that follows carries the token.
    if (isPreflight(req.method, req.headers) && origin !== undefined && options.controlOrigins.includes(origin)) return;
    // Only the case differs (/_EMULATOR/keys): no route matches it, so it gets Starlette's 404 rather than a 401.
    if (!path.startsWith('/_emulator') && canonical === path.toLowerCase()) return;
    // A sandbox's own token reaches that sandbox (and nothing else: the front door refused the rest).
    if (access?.ownToken) return;
    const token = options.adminToken();
    if (token) checkAdminToken(req.headers, token);
  };
}
