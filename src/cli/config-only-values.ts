// What the config file (and an in-process caller) may give for the options that have no flag: the error table's
// overrides and where a frozen clock starts.
import * as z from 'zod';
import { ERROR_CODES } from '../domain/error-codes.js';
import { LAST_INSTANT_MS } from '../domain/durations.js';
import { PLANE_ERROR_STATUSES } from '../emulation/error-codes.js';
import { STORE_ERROR_STATUSES } from '../store/store-errors.js';
import { nearest } from './nearest-name.js';

/** The error table: the core's codes and the ones the store and the plane register with it at start. */
const KNOWN_ERROR_CODES: ReadonlyMap<string, string> = new Map(
  [...ERROR_CODES, ...Object.keys(STORE_ERROR_STATUSES), ...Object.keys(PLANE_ERROR_STATUSES)].map((code) => [
    code,
    code,
  ]),
);

/** An override keyed by a code the emulator never answers would be ignored: a typo that silently changes nothing. */
function knownCodesOnly(map: Record<string, unknown>, ctx: z.core.$RefinementCtx<Record<string, unknown>>): void {
  for (const code of Object.keys(map)) {
    if (KNOWN_ERROR_CODES.has(code)) continue;
    const hint = nearest(code, KNOWN_ERROR_CODES);
    ctx.addIssue({
      code: 'custom',
      path: [code],
      params: { givenInMessage: true },
      message: `is no error code the emulator answers (the codes are in docs/api.md#errors)${hint ? `; did you mean "${hint}"?` : ''}`,
    });
  }
}

/** Error statuses only: a status below 400 would tell a client a refusal succeeded, and a non-HTTP one answers 500. */
const ERROR_STATUS = 'must be an HTTP error status, a whole number from 400 to 599';

export const errorStatusesSchema = z
  .record(
    z.string(),
    z
      .number({ error: ERROR_STATUS })
      .int({ error: ERROR_STATUS })
      .min(400, { error: ERROR_STATUS })
      .max(599, { error: ERROR_STATUS }),
    {
      error: 'must be an object of error code to status, e.g. { "insufficient_credits": 400 }',
    },
  )
  .superRefine(knownCodesOnly);

const ANSWERED_CODE = 'must be the code to answer with: non-empty text without spaces';

export const errorCodesSchema = z
  .record(z.string(), z.string({ error: ANSWERED_CODE }).regex(/^\S+$/, { error: ANSWERED_CODE }), {
    error:
      'must be an object of error code to the code to answer with, e.g. { "insufficient_credits": "balance_too_low" }',
  })
  .superRefine(knownCodesOnly);

const INSTANT = 'must be an ISO 8601 time such as "2026-01-01T00:00:00Z" or milliseconds since 1970, up to 9999-12-31';

const isInstant = (ms: number) => Number.isFinite(ms) && ms >= 0 && ms <= LAST_INSTANT_MS;

/** Where a frozen clock starts; an unreadable time would otherwise start it at now, silently. */
export const instantSchema = z.union(
  [
    z.string().refine((text) => isInstant(Date.parse(text)), { error: INSTANT }),
    z.number().int({ error: INSTANT }).refine(isInstant, { error: INSTANT }),
  ],
  { error: INSTANT },
);
