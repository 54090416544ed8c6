// A decoder that fails where Python's json.loads fails, with its message and code-point offset (FastAPI's json_invalid).
// Used only when JSON.parse has already refused the text; it also accepts NaN/Infinity as Python does.

export type PythonJsonResult = { ok: true; value: unknown } | { ok: false; msg: string; pos: number };

class DecodeError extends Error {
  constructor(
    readonly msg: string,
    readonly pos: number,
  ) {
    super(msg);
  }
}
/** Python's scan_once signals "no value here" with StopIteration(idx); the caller turns it into "Expecting value". */
class NoValue extends Error {
  constructor(readonly pos: number) {
    super('no value');
  }
}

const WS = new Set([' ', '\t', '\n', '\r']);
const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?/y;
const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

export function decodePythonJson(text: string): PythonJsonResult {
  const s = [...text]; // Python indexes code points
  const skip = (i: number) => {
    while (i < s.length && WS.has(s[i])) i++;
    return i;
  };

  const scanString = (start: number): [string, number] => {
    let out = '';
    let i = start;
    for (;;) {
      if (i >= s.length) throw new DecodeError('Unterminated string starting at', start - 1);
      const ch = s[i];
      if (ch === '"') return [out, i + 1];
      if (ch < ' ') throw new DecodeError('Invalid control character at', i);
      if (ch !== '\\') {
        out += ch;
        i++;
        continue;
      }
      const esc = s[i + 1];
      if (esc === undefined) throw new DecodeError('Unterminated string starting at', start - 1);
      if (esc === 'u') {
        const hex = s.slice(i + 2, i + 6).join('');
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw new DecodeError('Invalid \\uXXXX escape', i + 1);
        out += String.fromCharCode(parseInt(hex, 16));
        i += 6;
        continue;
      }
      if (!(esc in ESCAPES)) throw new DecodeError('Invalid \\escape', i);
      out += ESCAPES[esc];
      i += 2;
    }
  };

  const scanOnce = (i: number): [unknown, number] => {
    const ch = s[i];
    if (ch === undefined) throw new NoValue(i);
    if (ch === '"') return scanString(i + 1);
    if (ch === '{') return scanObject(i + 1);
    if (ch === '[') return scanArray(i + 1);
    const rest = (n: number) => s.slice(i, i + n).join('');
    if (ch === 'n' && rest(4) === 'null') return [null, i + 4];
    if (ch === 't' && rest(4) === 'true') return [true, i + 4];
    if (ch === 'f' && rest(5) === 'false') return [false, i + 5];
    if (ch === 'N' && rest(3) === 'NaN') return [NaN, i + 3];
    if (ch === 'I' && rest(8) === 'Infinity') return [Infinity, i + 8];
    if (ch === '-' && rest(9) === '-Infinity') return [-Infinity, i + 9];
    NUMBER.lastIndex = 0;
    const tail = s.slice(i, i + 400).join('');
    const match = NUMBER.exec(tail);
    if (!match || match[0].length === 0) throw new NoValue(i);
    return [Number(match[0]), i + [...match[0]].length];
  };

  const valueAt = (i: number): [unknown, number] => {
    try {
      return scanOnce(i);
    } catch (error) {
      if (error instanceof NoValue) throw new DecodeError('Expecting value', error.pos);
      throw error;
    }
  };

  const scanObject = (start: number): [unknown, number] => {
    const obj: Record<string, unknown> = {};
    let i = skip(start);
    if (s[i] === '}') return [obj, i + 1];
    for (;;) {
      if (s[i] !== '"') throw new DecodeError('Expecting property name enclosed in double quotes', i);
      const [key, afterKey] = scanString(i + 1);
      i = skip(afterKey);
      if (s[i] !== ':') throw new DecodeError("Expecting ':' delimiter", i);
      const [value, afterValue] = valueAt(skip(i + 1));
      obj[key] = value;
      i = skip(afterValue);
      if (s[i] === '}') return [obj, i + 1];
      if (s[i] !== ',') throw new DecodeError("Expecting ',' delimiter", i);
      i = skip(i + 1);
    }
  };

  const scanArray = (start: number): [unknown, number] => {
    const arr: unknown[] = [];
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
    const [value, end] = valueAt(skip(0));
    const after = skip(end);
    if (after !== s.length) return { ok: false, msg: 'Extra data', pos: after };
    return { ok: true, value };
  } catch (error) {
    if (error instanceof DecodeError) return { ok: false, msg: error.msg, pos: error.pos };
    if (error instanceof RangeError) return { ok: false, msg: 'Expecting value', pos: 0 }; // nesting deeper than the stack
    throw error;
  }
}
