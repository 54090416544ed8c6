// Which value FastAPI takes when a client repeats a query parameter or a form field.

/** A repeated query parameter or form field arrives as an array; FastAPI takes the last value for a scalar. */
export function lastValues(values: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, Array.isArray(v) ? v[v.length - 1] : v]));
}
