// Every error `code` of the service core: one list, one union type, checked by the compiler (the plane registers its own).
export const ERROR_CODES = [
  // authentication (checked before anything else)
  'missing_api_key',
  'malformed_api_key',
  'invalid_api_key',
  'revoked_api_key',
  // submission refusals, in the order they are checked
  'model_not_found',
  'model_not_allowed_for_key',
  'idempotency_key_reused',
  'max_credits_exceeded',
  'daily_credit_limit_exceeded',
  'insufficient_credits',
  // reads
  'generation_not_found',
  // uploads
  'upload_too_large',
  'unsupported_media_type',
  'malformed_multipart',
  'upload_storage_full',
  // signed output URLs: 403 like cloud storage, so client code handles both the same way
  'url_unsigned',
  'url_signature_invalid',
  'url_expired',
  'output_not_found',
  'output_unavailable',
  // protocol
  'route_not_found',
  'method_not_allowed',
  'payload_too_large',
  'body_not_utf8',
  'body_too_deep',
  'request_timeout',
  'server_busy',
  'not_implemented',
  'internal_error',
  // the store of record (any change: a full or failing disk under --state-file)
  'storage_full',
  // accounts, keys, credits and generation moves (operator actions on the service's state)
  'account_not_found',
  'key_not_found',
  'key_exists',
  'invalid_key_format',
  'limit_reached',
  'generation_final',
  'already_refunded',
  'invalid_refund_amount',
  'invalid_amount',
  'generation_not_final',
  'invalid_duration',
  'invalid_state',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** Codes the HTTP layer answers with a status of its own (the body parser's 4xx), so they have no row in the status table. */
export const HTTP_LAYER_CODES = ['bad_request'] as const;

export type AnyErrorCode = ErrorCode | (typeof HTTP_LAYER_CODES)[number];
