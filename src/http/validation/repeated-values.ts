// Which value FastAPI takes when a client repeats a header, a query parameter or a form field.
import type { IncomingMessage } from 'node:http';

/** Starlette's Headers.get returns the first of repeated headers (Node joins them with ", " in req.headers). */
export function firstHeader(req: IncomingMessage, name: string): string | undefined {
  return req.headersDistinct[name]?.[0];
}

/** Express turns a repeated query parameter or form field into an array; FastAPI takes the last value for a scalar. */
export function lastValues(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, Array.isArray(v) ? v[v.length - 1] : v]));
}
