// A decoder that reads JSON as Python's json.loads does: its error messages and code-point offsets (FastAPI's
// json_invalid), NaN/Infinity, and a tree that keeps what JSON.parse loses (key order, int vs float, every digit).
import { PyFloat, type PyValue } from './python-values.js';

export type PythonJsonResult = { ok: true; value: PyValue } | { ok: false; msg: string; pos: number };

class DecodeError extends Error {
  constructor(
    readonly msg: string,
    readonly at: number,
  ) {
    super(msg);
  }
}

const WS = new Set([' ', '\t', '\n', '\r']);
const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?/y;
const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
const HEX4 = /^[0-9a-fA-F]{4}$/;

/** Python counts code points; the scanner works on UTF-16 units and converts only when it reports an error. */
const codePointOffset = (s: string, unit: number) => {
  let n = 0;
  for (let i = 0; i < unit && i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < unit) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
};

export function decodePythonJson(s: string): PythonJsonResult {
  const skip = (i: number) => {
    while (i < s.length && WS.has(s[i])) i++;
    return i;
  };

  const scanString = (start: number): [string, number] => {
    let out = '';
    let i = start;
    for (;;) {
      // A run of plain characters is copied as one slice: one character at a time, a 15 MB string built a rope of 15
      // million pieces and took seconds of garbage collection.
      let end = i;
      let code = s.charCodeAt(end);
      while (code !== 0x22 && code !== 0x5c && code >= 0x20) code = s.charCodeAt(++end);
      if (end > i) out += s.slice(i, end);
      i = end;
      if (i >= s.length) throw new DecodeError('Unterminated string starting at', start - 1);
      const ch = s[i];
      if (ch === '"') return [out, i + 1];
      if (ch < ' ') throw new DecodeError('Invalid control character at', i);
      const esc = s[i + 1];
      if (esc === undefined) throw new DecodeError('Unterminated string starting at', start - 1);
      if (esc === 'u') {
        const hex = s.slice(i + 2, i + 6);
        if (!HEX4.test(hex)) throw new DecodeError('Invalid \\uXXXX escape', i + 1);
        out += String.fromCharCode(parseInt(hex, 16));
        i += 6;
        continue;
      }
      if (!(esc in ESCAPES)) throw new DecodeError('Invalid \\escape', i);
      out += ESCAPES[esc];
      i += 2;
    }
  };

  const valueAt = (i: number): [PyValue, number] => {
    const ch = s[i];
    if (ch === '"') return scanString(i + 1);
    if (ch === '{') return scanObject(i + 1);
    if (ch === '[') return scanArray(i + 1);
    if (ch === 'n' && s.startsWith('null', i)) return [null, i + 4];
    if (ch === 't' && s.startsWith('true', i)) return [true, i + 4];
    if (ch === 'f' && s.startsWith('false', i)) return [false, i + 5];
    if (ch === 'N' && s.startsWith('NaN', i)) return [new PyFloat(NaN), i + 3];
    if (ch === 'I' && s.startsWith('Infinity', i)) return [new PyFloat(Infinity), i + 8];
    if (ch === '-' && s.startsWith('-Infinity', i)) return [new PyFloat(-Infinity), i + 9];
    NUMBER.lastIndex = i;
    const match = NUMBER.exec(s);
    if (!match || match[0].length === 0) throw new DecodeError('Expecting value', i);
    const text = match[0];
    // int(text) for plain integers (every digit kept), float(text) once there is a fraction or an exponent.
    const value = match[1] === undefined && match[2] === undefined ? BigInt(text) : new PyFloat(Number(text));
    return [value, i + text.length];
  };

  const scanObject = (start: number): [PyValue, number] => {
    // A Map keeps insertion order for every key; a repeated key keeps its first place and takes the last value.
    const obj = new Map<string, PyValue>();
    let i = skip(start);
    if (s[i] === '}') return [obj, i + 1];
    for (;;) {
      if (s[i] !== '"') throw new DecodeError('Expecting property name enclosed in double quotes', i);
      const [key, afterKey] = scanString(i + 1);
      i = skip(afterKey);
      if (s[i] !== ':') throw new DecodeError("Expecting ':' delimiter", i);
      const [value, afterValue] = valueAt(skip(i + 1));
      obj.set(key, value);
      i = skip(afterValue);
      if (s[i] === '}') return [obj, i + 1];
      if (s[i] !== ',') throw new DecodeError("Expecting ',' delimiter", i);
      i = skip(i + 1);
    }
  };

  const scanArray = (start: number): [PyValue, number] => {
    const arr: PyValue[] = [];
    let i = skip(start);
    if (s[i] === ']') return [arr, i + 1];
    for (;;) {
      const [value, afterValue] = valueAt(i);
      arr.push(value);
      i = skip(afterValue);
      if (s[i] === ']') return [arr, i + 1];
      if (s[i] !== ',') throw new DecodeError("Expecting ',' delimiter", i);
      i = skip(i + 1);
    }
  };

  try {
    if (s.startsWith('\ufeff')) return { ok: false, msg: 'Unexpected UTF-8 BOM (decode using utf-8-sig)', pos: 0 };
    const [value, end] = valueAt(skip(0));
    const after = skip(end);
    if (after !== s.length) return { ok: false, msg: 'Extra data', pos: codePointOffset(s, after) };
    return { ok: true, value };
  } catch (error) {
    if (error instanceof DecodeError) return { ok: false, msg: error.msg, pos: codePointOffset(s, error.at) };
    if (error instanceof RangeError) return { ok: false, msg: 'Expecting value', pos: 0 }; // nesting deeper than the stack
    throw error;
  }
}
