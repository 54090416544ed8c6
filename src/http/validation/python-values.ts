// JSON values as Python holds them after json.loads (ordered dicts, big ints, floats), and json.dumps' rendering of them.

/** A Python float: rendered with repr() ("1.0", "1e-07", "1e+19"), never as a JavaScript number would be. */
export class PyFloat {
  constructor(readonly value: number) {}
}

/** null, bool, str, int (bigint: every digit), float, list, dict (Map: insertion order, integer-like keys included). */
export type PyValue = null | boolean | string | bigint | PyFloat | PyValue[] | Map<string, PyValue>;

/** Starlette renders with allow_nan=False and then encodes UTF-8: NaN, infinities and lone surrogates fail (a 500). */
export class UnrenderableJson extends Error {
  constructor(reason: string) {
    super(`Python's json.dumps cannot render this value: ${reason}`);
    this.name = 'UnrenderableJson';
  }
}

/** The JavaScript value validation works on; numbers lose what Python would keep, which only echoes need. */
export function toJs(value: PyValue): unknown {
  if (value instanceof Map) return Object.fromEntries([...value].map(([k, v]) => [k, toJs(v)]));
  if (Array.isArray(value)) return value.map(toJs);
  // Past 2^53 an int stays a bigint: an integer field must tell a huge int (a bound error) from a huge float.
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value;
  if (value instanceof PyFloat) return value.value;
  return value;
}

/** Python's repr(float): shortest round-trip digits, exponent form below 1e-4 or from 1e16 on, ".0" on whole numbers. */
export function pythonFloatRepr(x: number): string {
  if (!Number.isFinite(x)) throw new UnrenderableJson(String(x));
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const sign = x < 0 ? '-' : '';
  const [mantissa, exp] = Math.abs(x).toExponential().split('e');
  const digits = mantissa.replace('.', '');
  const decpt = Number(exp) + 1;
  if (decpt <= -4 || decpt > 16) {
    const e = decpt - 1;
    const body = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    return `${sign}${body}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  }
  if (decpt <= 0) return `${sign}0.${'0'.repeat(-decpt)}${digits}`;
  if (decpt >= digits.length) return `${sign}${digits}${'0'.repeat(decpt - digits.length)}.0`;
  return `${sign}${digits.slice(0, decpt)}.${digits.slice(decpt)}`;
}

const LONE_SURROGATE = /\p{Surrogate}/u;

function renderString(s: string): string {
  if (LONE_SURROGATE.test(s)) throw new UnrenderableJson('a lone surrogate');
  // JSON.stringify escapes exactly what json.dumps(ensure_ascii=False) escapes once lone surrogates are ruled out.
  return JSON.stringify(s);
}

/** json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":")), as Starlette's JSONResponse writes. */
export function renderPythonJson(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'string') return renderString(value);
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') {
    if (Number.isInteger(value) && Math.abs(value) <= Number.MAX_SAFE_INTEGER) return String(value);
    return pythonFloatRepr(value);
  }
  if (value instanceof PyFloat) return pythonFloatRepr(value.value);
  if (Array.isArray(value)) return `[${value.map(renderPythonJson).join(',')}]`;
  const entries = value instanceof Map ? [...value] : Object.entries(value as Record<string, unknown>);
  const members: string[] = [];
  for (const [k, v] of entries) if (v !== undefined) members.push(`${renderString(k)}:${renderPythonJson(v)}`);
  return `{${members.join(',')}}`;
}
