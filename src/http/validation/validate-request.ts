// Validates header, query and body together so one 422 carries every error, in FastAPI's order.
import type * as z from 'zod';
import { ValidationFailure } from '../../domain/errors.js';
import type { ValidationItem } from '../../domain/validation-item.js';
import { MISSING_BODY_ITEM, type BodyRead } from './json-body.js';
import { toPydanticItems } from './to-pydantic.js';

interface Part<S extends z.ZodType> {
  schema: S;
  input: unknown;
}

export interface RequestParts<H extends z.ZodType, Q extends z.ZodType, B extends z.ZodType> {
  header?: Part<H>;
  query?: Part<Q>;
  body?: { schema: B; read: BodyRead };
}

export interface ValidatedParts<H extends z.ZodType, Q extends z.ZodType, B extends z.ZodType> {
  header: z.output<H>;
  query: z.output<Q>;
  body: z.output<B>;
}

export function validateRequest<H extends z.ZodType, Q extends z.ZodType, B extends z.ZodType>(
  parts: RequestParts<H, Q, B>,
): ValidatedParts<H, Q, B> {
  // Invalid JSON stops everything: FastAPI reports it alone.
  if (parts.body?.read.kind === 'invalid') throw new ValidationFailure([parts.body.read.item]);
  const items: ValidationItem[] = [];
  const out: Record<string, unknown> = {};
  const run = (name: 'header' | 'query', part: Part<z.ZodType> | undefined) => {
    if (!part) return;
    const result = part.schema.safeParse(part.input);
    if (result.success) out[name] = result.data;
    else append(items, toPydanticItems(result.error.issues, part.input, [name]));
  };
  run('header', parts.header);
  run('query', parts.query);
  if (parts.body) {
    const read = parts.body.read;
    if (read.kind === 'absent') items.push(MISSING_BODY_ITEM());
    else if (read.kind === 'value') {
      const result = parts.body.schema.safeParse(read.value);
      if (result.success) out.body = result.data;
      else append(items, toPydanticItems(result.error.issues, read.value, ['body'], read.echo()));
    }
  }
  if (items.length) throw new ValidationFailure(items);
  return out as unknown as ValidatedParts<H, Q, B>;
}

/** Not push(...more): spreading passes every item as an argument, and 200,000 of them overflow the call stack. */
function append<T>(into: T[], more: readonly T[]): void {
  for (const item of more) into.push(item);
}
