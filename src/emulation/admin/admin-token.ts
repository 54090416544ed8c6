// The admin token check: read it from Authorization: Bearer or X-Emulator-Admin-Token, compare in constant time.
import { createHash, timingSafeEqual } from 'node:crypto';
import { PlaneError } from '../error-codes.js';

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

/** Throws the refusal a caller without the right token should see. */
export function checkAdminToken(headers: Record<string, string | string[] | undefined>, token: string): void {
  const given = tokenOf(headers);
  if (!given)
    throw new PlaneError(
      'admin_token_required',
      'This emulator requires an admin token for /_emulator/* (EMULATOR_ADMIN_TOKEN, or the one printed in its start banner). Send it as "Authorization: Bearer <token>" or "X-Emulator-Admin-Token: <token>".',
    );
  if (!same(given, token))
    throw new PlaneError(
      'admin_token_invalid',
      'The admin token does not match the one this emulator was started with.',
    );
}
