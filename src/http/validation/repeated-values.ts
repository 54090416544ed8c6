// Which value FastAPI takes when a client repeats a header, a query parameter or a form field.
import type { IncomingMessage } from 'node:http';

/**
 * Starlette's Headers.get returns the first of repeated headers (Node joins them with ", " in req.headers). Read from
 * rawHeaders: `headersDistinct` builds arrays for every header on first use, a cost on each submission. `name` is
 * lower case.
 */
export function firstHeader(req: IncomingMessage, name: string): string | undefined {
  // Most requests have no such header at all, and some callers ask every request for one (its Idempotency-Key).
  if (req.headers[name] === undefined) return undefined;
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2)
    if (raw[i].length === name.length && raw[i].toLowerCase() === name) return raw[i + 1];
  return undefined;
}

/** Express turns a repeated query parameter or form field into an array; FastAPI takes the last value for a scalar. */
export function lastValues(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, Array.isArray(v) ? v[v.length - 1] : v]));
}
