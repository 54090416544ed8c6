// The admin token check: read it from Authorization: Bearer or X-Emulator-Admin-Token, compare in constant time.
import { sameSecret } from '../../infra/constant-time.js';
import { PlaneError } from '../error-codes.js';

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
  if (!sameSecret(given, token))
    throw new PlaneError(
      'admin_token_invalid',
      'The admin token does not match the one this emulator was started with.',
    );
}
