// Exact rational arithmetic on BigInt, so a price such as 21.8 x 4 = 87.2 is rounded up from the exact value, never from a float.

/** A fraction in lowest terms with a positive denominator; two equal values have equal members. */
export interface Rational {
  readonly num: bigint;
  readonly den: bigint;
}

const RATIONAL_TEXT = /^(\d+)(?:\.(\d+))?(?:\/(\d+))?$/;
const POSITIVE_INT_TEXT = /^[1-9]\d*$/;

export const ONE: Rational = Object.freeze({ num: 1n, den: 1n });

export function rational(num: bigint, den: bigint = 1n): Rational {
  if (den === 0n) throw new RangeError('denominator must not be zero');
  if (den < 0n) {
    num = -num;
    den = -den;
  }
  const g = gcd(num < 0n ? -num : num, den);
  return { num: num / g, den: den / g };
}

/** Reads the catalogue's price strings: "4", "21.8", "763/3", even "1.5/2". Throws RangeError otherwise. */
export function parseRational(text: string): Rational {
  const m = RATIONAL_TEXT.exec(text);
  if (!m) throw new RangeError(`not a decimal or fraction: ${JSON.stringify(text)}`);
  const [, whole, fraction = '', divisor = '1'] = m;
  const scale = 10n ** BigInt(fraction.length);
  return rational(BigInt(whole + fraction), scale * BigInt(divisor));
}

/** True for "1", "15", ...: the only strings a units or count option may hold ("04" and "0" are refused). */
export function isPositiveIntegerText(text: string): boolean {
  return POSITIVE_INT_TEXT.test(text);
}

/** Parses a positive integer option value; throws RangeError, because a caller should have validated it. */
export function parsePositiveInteger(text: string): bigint {
  if (!isPositiveIntegerText(text)) throw new RangeError(`not a positive integer: ${JSON.stringify(text)}`);
  return BigInt(text);
}

export function multiply(a: Rational, b: Rational): Rational {
  return rational(a.num * b.num, a.den * b.den);
}

export function product(factors: readonly Rational[]): Rational {
  return factors.reduce(multiply, ONE);
}

/** Negative, zero or positive as a < b, a == b, a > b. */
export function compare(a: Rational, b: Rational): number {
  const diff = a.num * b.den - b.num * a.den;
  return diff < 0n ? -1 : diff > 0n ? 1 : 0;
}

/** Smallest integer not below r. BigInt division truncates toward zero, which is already the ceiling below zero. */
export function ceil(r: Rational): bigint {
  const q = r.num / r.den;
  return r.num % r.den !== 0n && r.num > 0n ? q + 1n : q;
}

/** "4" for integers, "1091/5" otherwise: a lossless text form for logs and responses. */
export function formatRational(r: Rational): string {
  return r.den === 1n ? r.num.toString() : `${r.num}/${r.den}`;
}

function gcd(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, a % b];
  return a === 0n ? 1n : a;
}
