// Error code -> HTTP status, as data: override any entry with the `errorStatuses` option to match the real service.
import type { ErrorCode } from '../domain/error-codes.js';

/** Every core code has a status: one added to domain/error-codes.ts without one does not compile. Plugins add theirs. */
export const DEFAULT_ERROR_STATUSES: Readonly<Record<ErrorCode, number>> = {
  // authentication (checked before anything else)
  missing_api_key: 401,
  malformed_api_key: 401,
  invalid_api_key: 401,
  revoked_api_key: 401,
  // submission refusals, in the order they are checked
  model_not_found: 404,
  model_not_allowed_for_key: 403,
  idempotency_key_reused: 409,
  max_credits_exceeded: 402,
  daily_credit_limit_exceeded: 429,
  insufficient_credits: 402,
  // reads
  generation_not_found: 404,
  // uploads
  upload_too_large: 413,
  unsupported_media_type: 415,
  malformed_multipart: 400,
  upload_storage_full: 507,
  storage_full: 507,
  // signed output URLs: 403 like cloud storage, so client code handles both the same way
  url_unsigned: 403,
  url_signature_invalid: 403,
  url_expired: 403,
  output_not_found: 404,
  // a lost output rendered again on request, and that render failed: try again
  output_unavailable: 503,
  // protocol
  route_not_found: 404,
  method_not_allowed: 405,
  payload_too_large: 413,
  body_not_utf8: 400,
  body_too_deep: 400,
  // a body that stopped arriving (bodyTimeout), and one refused because request bodies already hold the byte cap
  request_timeout: 408,
  server_busy: 503,
  not_implemented: 501,
  internal_error: 500,
  // accounts, keys, credits and generation moves (operator actions on the service's state)
  account_not_found: 404,
  key_not_found: 404,
  key_exists: 409,
  limit_reached: 409,
  invalid_key_format: 422,
  generation_final: 409,
  already_refunded: 409,
  invalid_refund_amount: 422,
  invalid_amount: 422,
  generation_not_final: 409,
  invalid_duration: 422,
  invalid_state: 422,
};

/** The code an answer carries: a calibrated emulator answers with the real service's; statuses key on the emulator's own. */
export const answeredCode = (code: string, renames: Record<string, string>): string =>
  Object.hasOwn(renames, code) ? renames[code] : code;

export function statusFor(code: string, overrides: Record<string, number>): number {
  return overrides[code] ?? (DEFAULT_ERROR_STATUSES as Readonly<Record<string, number>>)[code] ?? 400;
}
