// With an admin token configured, every /_emulator/* call needs it, except health and the console's static page.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { DomainError } from '../../domain/errors.js';

const OPEN = [/^\/_emulator\/health\/?$/, /^\/_emulator\/console(\/.*)?$/];

/** Hashing first gives equal lengths, so the comparison time says nothing about the token. */
function same(given: string, expected: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

function tokenOf(headers: Record<string, string | string[] | undefined>): string | undefined {
  const direct = headers['x-emulator-admin-token'];
  if (typeof direct === 'string' && direct) return direct;
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(typeof headers.authorization === 'string' ? headers.authorization : '');
  return bearer?.[1];
}

export function adminTokenMiddleware(token: string | undefined): RequestHandler {
  return (req, _res, next) => {
    if (
      !token ||
      !req.path.startsWith('/_emulator/') ||
      ((req.method === 'GET' || req.method === 'HEAD') && OPEN.some((p) => p.test(req.path)))
    )
      return next();
    const given = tokenOf(req.headers);
    if (!given)
      throw new DomainError(
        'admin_token_required',
        'This emulator was started with an admin token (EMULATOR_ADMIN_TOKEN). Send it as "Authorization: Bearer <token>" or "X-Emulator-Admin-Token: <token>".',
      );
    if (!same(given, token))
      throw new DomainError(
        'admin_token_invalid',
        'The admin token does not match the one this emulator was started with.',
      );
    next();
  };
}
