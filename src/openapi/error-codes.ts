// Every error `code` the emulator can answer, what it means, and the extra members its envelope carries.
import * as z from 'zod';
import type { AnyErrorCode } from '../domain/error-codes.js';
import { DEFAULT_ERROR_STATUSES } from '../http/error-statuses.js';
import { JSON_BODY_LIMIT_TEXT } from '../http/routes/limits.js';

export interface ErrorCodeDoc {
  /** What happened and what the client should do, for the document. */
  description: string;
  /** Members the envelope's `error` object carries besides `code` and `message`. */
  details?: z.ZodRawShape;
  /**
   * Statuses that come from the HTTP layer rather than the code table (a body the parser refused answers
   * with the parser's own 4xx); when set, these are documented instead of the table's status.
   */
  httpStatuses?: readonly number[];
}

const credits = z.int().min(0).meta({ description: 'Price of the request in credits.' });
export const problems = z
  .array(z.strictObject({ field: z.string(), message: z.string() }))
  .meta({ description: 'One entry per bad field, e.g. `action.status: must be between 400 and 599`.' });

/** Every code is documented: one missing here does not compile. */
export const ERROR_CODE_DOCS: Readonly<Record<AnyErrorCode, ErrorCodeDoc>> = {
  missing_api_key: { description: 'No Authorization header. Send `Authorization: Bearer sk-media-...`.' },
  malformed_api_key: { description: 'The Authorization header is not `Bearer sk-media-...`.' },
  invalid_api_key: { description: 'The key is not known to this emulator.' },
  revoked_api_key: { description: 'The key was revoked (POST /_emulator/keys/{id}/revoke).' },
  model_not_found: { description: 'No model with this `model_slug` in the catalogue.' },
  model_not_allowed_for_key: { description: 'The key is limited to another model.' },
  idempotency_key_reused: { description: 'The Idempotency-Key was used before with a different body.' },
  max_credits_exceeded: {
    description: 'The price is above `max_credits`; nothing was charged.',
    details: { credits, max_credits: z.int().meta({ description: 'The ceiling that was sent.' }) },
  },
  daily_credit_limit_exceeded: {
    description:
      "The key's daily credit ceiling would be exceeded; the `Retry-After` header says when the UTC day resets.",
    details: {
      daily_credit_limit: z.int().min(0),
      used_today: z.int().meta({ description: 'Net credits the key spent today (UTC).' }),
      credits,
      retry_after_seconds: z.int().min(0),
    },
  },
  insufficient_credits: {
    description: 'The wallet holds less than the price; nothing was charged.',
    details: { credits, wallet_balance: z.int() },
  },
  generation_not_found: {
    description: "No generation with this id for this account (another account's id answers the same).",
  },
  upload_too_large: { description: 'The file is larger than the model (or any model) accepts.' },
  unsupported_media_type: {
    description: 'The file is not an image in a format the model accepts (checked by content, not by name).',
  },
  malformed_multipart: { description: 'The multipart body could not be parsed, or had unexpected parts.' },
  upload_storage_full: {
    description:
      "The emulator's upload store is at its byte cap (maxUploadStoreBytes, default 1 GiB); reset the emulator or raise the cap. Nothing was stored.",
  },
  storage_full: {
    description:
      'The change could not be committed to the state file (the disk is full or failing). It was rolled back: nothing was changed or charged. Free space and retry; the emulator recovers by itself.',
  },
  url_unsigned: { description: 'A file URL without its signature.' },
  url_signature_invalid: { description: 'A file URL whose signature does not match.' },
  url_expired: {
    description: 'A signed file URL past its expiry (emulator clock); read the generation again for a fresh one.',
  },
  output_not_found: { description: 'No such output file, or its generation can no longer be rendered again.' },
  output_unavailable: {
    description:
      'The output file was lost (a restart, an eviction) and rendering it again failed; try again, or submit again.',
  },
  route_not_found: { description: 'No route for this path.' },
  method_not_allowed: {
    description: 'The path exists but not with this method; the `Allow` header lists the methods.',
  },
  payload_too_large: { description: `The JSON body is larger than ${JSON_BODY_LIMIT_TEXT}.` },
  body_not_utf8: { description: 'The body is not valid UTF-8.' },
  body_too_deep: { description: 'The JSON body is nested deeper than the emulator reads (1,000 levels).' },
  request_timeout: {
    description:
      'The body stopped arriving: no byte for `bodyTimeout` (default 30 s). The connection is closed; send the whole body without pausing.',
  },
  server_busy: {
    description:
      'Request bodies in flight already hold the byte cap (`maxBufferedBodyBytes`, default 64 MiB); nothing was read or charged. Retry after `Retry-After` seconds.',
    details: { retry_after_seconds: z.int().min(0) },
  },
  bad_request: {
    description:
      'The body could not be read at all (for example a body cut short, or on `/_emulator/*` a charset other than UTF-8).',
    httpStatuses: [400, 415],
  },
  not_implemented: { description: 'A feature the emulator does not implement.' },
  internal_error: { description: 'A bug in the emulator. Never expected; the test suite fails on it.' },
  account_not_found: { description: 'No account with this id.' },
  key_not_found: { description: 'No API key with this id.' },
  key_exists: { description: 'An API key with this secret already exists.' },
  limit_reached: {
    description:
      'A new API key or account past 10,000 of each (keys are never deleted), or a key id past 2147483647; reset, or import a state with fewer. A state file holding more still loads at start; an import holding more is refused (`invalid_state`).',
  },
  invalid_key_format: {
    description: 'A key secret must be `sk-media-` followed by 4-200 letters, digits, `_` or `-`.',
  },
  generation_final: { description: 'The generation is already completed or failed.' },
  already_refunded: { description: 'The generation was already refunded in full.' },
  invalid_refund_amount: {
    description: 'A refund must be a whole number of credits, at most what is left of the charge.',
  },
  invalid_amount: {
    description:
      'Amounts are positive whole credits, and a balance never goes below zero nor past 9007199254740991 (2^53 - 1).',
  },
  generation_not_final: {
    description: 'A refund waits for the generation to complete or fail (or fail it with a refund policy).',
  },
  invalid_duration: {
    description: 'A duration must look like "250ms", "30s", "10m", "1h", "1d", "1h30m", or be milliseconds.',
  },
  invalid_state: {
    description:
      'The body is not a state this emulator exported, or breaks an invariant (a duplicate id, a bound); `problems` names the bad fields.',
    details: { problems: problems.optional() },
  },
};

/** The statuses a code is documented at, given the emulator's status table. */
export function statusesOf(
  code: string,
  statuses: Record<string, number>,
  docs: Readonly<Record<string, ErrorCodeDoc>> = ERROR_CODE_DOCS,
): readonly number[] {
  const doc = docs[code];
  if (!doc)
    throw new Error(`error code '${code}' is not documented (src/openapi/error-codes.ts, or its plugin's list)`);
  if (doc.httpStatuses && statuses[code] === undefined) return doc.httpStatuses;
  return [statuses[code] ?? (DEFAULT_ERROR_STATUSES as Readonly<Record<string, number>>)[code] ?? 400];
}

/** Groups codes by the status they are answered with. */
export function codesByStatus(
  codes: readonly string[],
  statuses: Record<string, number>,
  docs: Readonly<Record<string, ErrorCodeDoc>> = ERROR_CODE_DOCS,
): Map<number, string[]> {
  const out = new Map<number, string[]>();
  for (const code of codes) {
    for (const status of statusesOf(code, statuses, docs)) {
      const list = out.get(status) ?? [];
      if (!list.includes(code)) list.push(code);
      out.set(status, list);
    }
  }
  return new Map([...out].sort(([a], [b]) => a - b));
}
