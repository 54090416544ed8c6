// A JSON syntax tree that keeps what JSON.stringify cannot write: number spellings, key order, NaN, lone surrogates.
import fc from 'fast-check';

export type Json =
  | { t: 'obj'; entries: [string, Json][] }
  | { t: 'arr'; items: Json[] }
  | { t: 'str'; s: string }
  | { t: 'raw'; text: string };

export const obj = (entries: [string, Json][]): Json => ({ t: 'obj', entries });
export const arr = (items: Json[]): Json => ({ t: 'arr', items });
export const str = (s: string): Json => ({ t: 'str', s });
export const raw = (text: string): Json => ({ t: 'raw', text });

/** Escapes like Python's json.dumps(ensure_ascii=True) so lone surrogates survive as \uXXXX escapes. */
function quote(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const ch = s[i];
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (c < 0x20 || (c >= 0xd800 && c <= 0xdfff)) out += `\\u${c.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

export function write(value: Json, spaced = false): string {
  const sep = spaced ? ', ' : ',';
  const colon = spaced ? ': ' : ':';
  switch (value.t) {
    case 'obj':
      return `{${value.entries.map(([k, v]) => `${quote(k)}${colon}${write(v, spaced)}`).join(sep)}}`;
    case 'arr':
      return `[${value.items.map((v) => write(v, spaced)).join(sep)}]`;
    case 'str':
      return quote(value.s);
    case 'raw':
      return value.text;
  }
}

/** Number spellings whose Python echo differs from JavaScript's, plus the ones Python cannot render at all. */
export const NUMBER_TEXTS = [
  '0',
  '-0',
  '1',
  '7',
  '-3',
  '100',
  '1000000000',
  '1000000001',
  '9007199254740993',
  '123456789012345678901234567890',
  '-99999999999999999999',
  '1.0',
  '2.0',
  '-0.0',
  '1e2',
  '1E2',
  '1e3',
  '2.5',
  '1.5',
  '0.1',
  '1e-7',
  '1.5e-5',
  '1e19',
  '1e16',
  '1e15',
  '123456789.125',
  '1e308',
  '5e-324',
  '0.0001',
  '1E400',
  '-1e400',
  '3.14159',
  '12345678901234567.0',
] as const;

export const LITERALS = ['true', 'false', 'null', 'NaN', 'Infinity', '-Infinity'] as const;

const char = fc.constantFrom('a', 'Z', '0', '-', '_', '.', ' ', 'é', '€', '😀', '\n', '"', '\\', '\ud800', '/', '1');
export const anyString = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: char, maxLength: 12 }) },
  { weight: 1, arbitrary: fc.constantFrom('', 'x'.repeat(80), 'x'.repeat(81), 'ab\udc00c', '\ufeffbom') },
);
export const anyNumber: fc.Arbitrary<Json> = fc.constantFrom(...NUMBER_TEXTS).map(raw);
export const anyLiteral: fc.Arbitrary<Json> = fc.constantFrom(...LITERALS).map(raw);

/** Keys include integer-like ones, which JavaScript objects would reorder. */
export const anyKey = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('a', 'b', 'img1', 'img2', 'quality', 'start', '2', '10', '0', '-1', '01') },
  { weight: 1, arbitrary: anyString },
);

export const anyJson: fc.Arbitrary<Json> = fc.letrec<{ v: Json }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    anyString.map(str),
    anyNumber,
    anyLiteral,
    fc.array(tie('v'), { maxLength: 3 }).map(arr),
    fc.array(fc.tuple(anyKey, tie('v')), { maxLength: 3 }).map(obj),
  ),
})).v;
