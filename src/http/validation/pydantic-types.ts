// zod building blocks that behave like Pydantic v2 fields and tag their issues with Pydantic's type, msg and ctx.
import * as z from 'zod';
import { INT_MESSAGES, parseLaxInt } from './lax-int.js';
import { parsePydanticDatetime } from './datetime.js';

/** What the mapping layer reads back from a custom issue. */
export interface PydanticIssueParams {
  pydantic: { type: string; msg: string; ctx?: Record<string, unknown>; input: unknown };
}

type IssueSink = { issues: { push(issue: unknown): void } };

function report(ctx: IssueSink, type: string, msg: string, input: unknown, extra?: Record<string, unknown>) {
  const params: PydanticIssueParams = { pydantic: { type, msg, input, ...(extra ? { ctx: extra } : {}) } };
  ctx.issues.push({ code: 'custom', message: msg, input, params });
}

const LONE_SURROGATE = /\p{Surrogate}/u;

const plural = (n: number) => (n === 1 ? '' : 's');
/**
 * The number of code points in `s`, exact up to `cap`. A code point is one or two UTF-16 units, so a string over twice
 * `cap` units is over `cap` without being walked: a 15 MB prompt against a 50,000 limit took 300 ms to count.
 */
export const codePoints = (s: string, cap = Number.POSITIVE_INFINITY) => {
  if (s.length > 2 * cap) return Math.ceil(s.length / 2);
  let n = 0;
  for (const _ of s) n++;
  return n;
};

export interface StrBounds {
  min?: number;
  max?: number;
  pattern?: string;
}

/** A string field: one error at most, checked as min length, max length, then pattern (code points, not UTF-16). */
export function pStr(bounds: StrBounds = {}) {
  const regex = bounds.pattern ? new RegExp(bounds.pattern, 'u') : undefined;
  const constrained = bounds.min !== undefined || bounds.max !== undefined || regex !== undefined;
  return z
    .string()
    .check((ctx) => {
      const value = ctx.value;
      // A constrained str is read as UTF-8 by pydantic-core, which fails on a lone surrogate (and its echo then makes
      // the real service answer 500); a plain `str` is passed through untouched.
      if (constrained && LONE_SURROGATE.test(value)) {
        report(
          ctx,
          'string_unicode',
          'Input should be a valid string, unable to parse raw data as a unicode string',
          value,
        );
        return;
      }
      const needsLength = bounds.min !== undefined || bounds.max !== undefined;
      const length = needsLength ? codePoints(value, bounds.max) : 0;
      if (bounds.min !== undefined && length < bounds.min)
        report(
          ctx,
          'string_too_short',
          `String should have at least ${bounds.min} character${plural(bounds.min)}`,
          value,
          { min_length: bounds.min },
        );
      else if (bounds.max !== undefined && length > bounds.max)
        report(
          ctx,
          'string_too_long',
          `String should have at most ${bounds.max} character${plural(bounds.max)}`,
          value,
          { max_length: bounds.max },
        );
      else if (regex && bounds.pattern && !regex.test(value))
        report(ctx, 'string_pattern_mismatch', `String should match pattern '${bounds.pattern}'`, value, {
          pattern: bounds.pattern,
        });
    })
    .meta({ minLength: bounds.min, maxLength: bounds.max, pattern: bounds.pattern });
}

export interface IntBounds {
  ge?: number;
  le?: number;
  required?: boolean;
}

/** A lax integer: accepts "5", " +5 ", "1_000", 2.0, true; reports bounds against the original input. */
export function pInt(bounds: IntBounds = {}) {
  return z
    .any()
    .transform((input: unknown, ctx) => {
      if (input === undefined) {
        if (bounds.required) report(ctx, 'missing', 'Field required', undefined);
        return bounds.required ? z.NEVER : undefined;
      }
      const parsed = parseLaxInt(input);
      if (!parsed.ok) {
        report(ctx, parsed.type, INT_MESSAGES[parsed.type], input);
        return z.NEVER;
      }
      if (bounds.ge !== undefined && parsed.value < bounds.ge) {
        report(ctx, 'greater_than_equal', `Input should be greater than or equal to ${bounds.ge}`, input, {
          ge: bounds.ge,
        });
        return z.NEVER;
      }
      if (bounds.le !== undefined && parsed.value > bounds.le) {
        report(ctx, 'less_than_equal', `Input should be less than or equal to ${bounds.le}`, input, { le: bounds.le });
        return z.NEVER;
      }
      return parsed.value;
    })
    .meta({ type: 'integer', minimum: bounds.ge, maximum: bounds.le });
}

/** A dict with at most `max` entries: entries are checked first, the size only when every entry is valid. */
export function pDict<V extends z.ZodType>(value: V, max: number) {
  return z
    .record(z.string(), value)
    .check((ctx) => {
      const size = Object.keys(ctx.value).length;
      if (size > max)
        report(
          ctx,
          'too_long',
          `Dictionary should have at most ${max} item${plural(max)} after validation, not ${size}`,
          ctx.value,
          {
            field_type: 'Dictionary',
            max_length: max,
            actual_length: size,
          },
        );
    })
    .meta({ maxProperties: max });
}

/** A list with at most `max` items: over the limit gives one too_long and no item errors. */
export function pList<I extends z.ZodType>(item: I, max?: number) {
  const sized = z.array(z.unknown()).check((ctx) => {
    const size = ctx.value.length;
    if (max !== undefined && size > max)
      report(
        ctx,
        'too_long',
        `List should have at most ${max} item${plural(max)} after validation, not ${size}`,
        ctx.value,
        {
          field_type: 'List',
          max_length: max,
          actual_length: size,
        },
      );
  });
  return sized.pipe(z.array(item)).meta({ maxItems: max });
}

/** A Literal[...] field: any other value (of any type) is a literal_error naming the allowed values. */
export function pLiteral<const T extends readonly string[]>(values: T) {
  const quoted = values.map((v) => `'${v}'`);
  const expected = quoted.length > 1 ? `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]}` : quoted[0];
  return z
    .any()
    .check((ctx) => {
      if (!values.includes(ctx.value))
        report(ctx, 'literal_error', `Input should be ${expected}`, ctx.value, { expected });
    })
    .transform((v) => v as T[number])
    .meta({ type: 'string', enum: [...values] });
}

/** A datetime query value parsed as Pydantic does; the result is epoch milliseconds. */
export function pDatetime() {
  return z
    .string()
    .transform((input, ctx) => {
      const parsed = parsePydanticDatetime(input);
      if (parsed.ok) return parsed.ms;
      report(ctx, 'datetime_from_date_parsing', `Input should be a valid datetime or date, ${parsed.error}`, input, {
        error: parsed.error,
      });
      return z.NEVER;
    })
    .meta({ type: 'string', format: 'date-time' });
}
