// Durations as people write them in files and calls: "250ms", "30s", "10m", "1h", "1d", "1h30m", or plain milliseconds.
import { DomainError } from './errors.js';

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const PART = /(\d+(?:\.\d+)?)(ms|s|m|h|d)/g;
const WHOLE = /^(?:\d+(?:\.\d+)?(?:ms|s|m|h|d))+$/;

/**
 * What parseDuration reads, as a pattern for documents (ECMA-262, no flags): plain milliseconds, or amounts with units
 * in either case. parseDuration also drops whitespace anywhere; the pattern leaves that out, which keeps it linear.
 */
export const DURATION_TEXT_PATTERN = '^(?:[0-9]+|(?:[0-9]+(?:\\.[0-9]+)?(?:[mM][sS]|[sSmMhHdD]))+)$';

/** Milliseconds in a duration; a number is taken as milliseconds already. Throws `invalid_duration` with the input in the message. */
export function parseDuration(input: string | number, field = 'duration'): number {
  const ms = parseUnbounded(input, field);
  // Dates stop at year 275760; a century is far beyond any test and keeps every clock reading valid.
  if (ms > MAX_DURATION_MS)
    throw new DomainError(
      'invalid_duration',
      `${field} must be at most 100 years (${MAX_DURATION_MS} ms), got ${typeof input === 'number' ? input : `"${input}"`}.`,
    );
  return ms;
}

export const MAX_DURATION_MS = 100 * 365 * 86_400_000;

/** The clock never passes this: Python's datetime (the real service) stops at year 9999, and so do four-digit ISO 8601 years. */
export const LAST_INSTANT_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** The clock never goes before this: an export (and the service) writes times from 1970 on. */
export const FIRST_INSTANT_MS = 0;

/** What a refused move before FIRST_INSTANT_MS says, wherever the clock is asked to be set there. */
export const BEFORE_FIRST_INSTANT =
  'would move the clock before 1970-01-01T00:00:00Z, the first instant the service can write; set a later time';

/** What a refused move past LAST_INSTANT_MS says, wherever the clock is asked to move there. */
export const PAST_LAST_INSTANT =
  'would move the clock past 9999-12-31T23:59:59Z, the last instant the service can write; advance by less';

function parseUnbounded(input: string | number, field: string): number {
  if (typeof input === 'number') {
    if (Number.isFinite(input) && input >= 0) return Math.round(input);
    throw new DomainError(
      'invalid_duration',
      `${field} must be a duration like "30s" or a number of milliseconds >= 0, got ${input}.`,
    );
  }
  const text = input.trim().toLowerCase().replace(/\s+/g, '');
  if (/^\d+$/.test(text)) return Number(text);
  if (!WHOLE.test(text))
    throw new DomainError(
      'invalid_duration',
      `${field} must be a duration like "250ms", "30s", "10m", "1h", "1d" or "1h30m", got "${input}".`,
    );
  let total = 0;
  for (const [, amount, unit] of text.matchAll(PART)) total += Number(amount) * UNIT_MS[unit as keyof typeof UNIT_MS];
  return Math.round(total);
}
