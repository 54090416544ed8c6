// Pydantic's lax integer rules (JSON body and query): what it accepts, and the error type when it does not.

export type LaxIntResult =
  | { ok: true; value: number }
  | { ok: false; type: 'int_type' | 'int_parsing' | 'int_from_float' | 'finite_number' | 'int_parsing_size' };

/** A float at or past 2^63 does not fit Pydantic's i64 conversion; a Python int of any size does. */
const I64_LIMIT = 2 ** 63;

// Digits with single underscores between them, optionally "+"/"-", optionally a fraction of zeros ("2.0").
const INT_STRING = /^[+-]?\d(?:_?\d)*(?:\.0*)?$/;

export function parseLaxInt(input: unknown): LaxIntResult {
  if (typeof input === 'boolean') return { ok: true, value: input ? 1 : 0 };
  if (typeof input === 'bigint') return { ok: true, value: Number(input) };
  if (typeof input === 'number') {
    if (!Number.isFinite(input)) return { ok: false, type: 'finite_number' };
    if (!Number.isInteger(input)) return { ok: false, type: 'int_from_float' };
    return Math.abs(input) >= I64_LIMIT ? { ok: false, type: 'int_parsing_size' } : { ok: true, value: input };
  }
  if (typeof input === 'string') {
    const trimmed = input.trim();
    if (!INT_STRING.test(trimmed)) return { ok: false, type: 'int_parsing' };
    const digits = trimmed.replace(/_/g, '').replace(/\.0*$/, '');
    return { ok: true, value: Number(digits) };
  }
  return { ok: false, type: 'int_type' };
}

export const INT_MESSAGES = {
  int_type: 'Input should be a valid integer',
  int_parsing: 'Input should be a valid integer, unable to parse string as an integer',
  int_from_float: 'Input should be a valid integer, got a number with a fractional part',
  finite_number: 'Input should be a finite number',
  int_parsing_size: 'Unable to parse input string as an integer, exceeded maximum size',
} as const;
