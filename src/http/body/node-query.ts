// A query string read as Node's querystring.parse reads it (Express's 'simple' parser), with no node: module.

/** Node's default `maxKeys`: pairs past it are dropped. */
const MAX_KEYS = 1000;

const hexValue = (code: number): number => {
  if (code >= 48 && code <= 57) return code - 48;
  const lower = code | 0x20;
  return lower >= 97 && lower <= 102 ? lower - 87 : -1;
};

/**
 * querystring.unescapeBuffer(text).toString(): valid escapes become bytes, every other UTF-16 unit its low byte (as
 * Node writes it), read as UTF-8.
 */
function unescapeBytes(text: string): string {
  const bytes = new Uint8Array(text.length);
  let length = 0;
  for (let i = 0; i < text.length; i++) {
    const high = text.charCodeAt(i) === 37 /* % */ && i + 2 < text.length ? hexValue(text.charCodeAt(i + 1)) : -1;
    const low = high >= 0 ? hexValue(text.charCodeAt(i + 2)) : -1;
    if (low >= 0) {
      bytes[length++] = high * 16 + low;
      i += 2;
    } else bytes[length++] = text.charCodeAt(i) & 0xff;
  }
  return new TextDecoder().decode(bytes.subarray(0, length));
}

const VALID_ESCAPE = /%[0-9a-f]{2}/i;

/**
 * `+` is a space; Node decodes a piece only when it holds a valid escape, else keeps it as sent. Its scan for one
 * skips a value's `+` (`%4+1` counts) but not a key's.
 */
function decodePiece(text: string, isValue: boolean): string {
  const plus = text.includes('+');
  const spaced = plus ? text.replace(/\+/g, ' ') : text;
  if (!VALID_ESCAPE.test(isValue && plus ? text.replace(/\+/g, '') : text)) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    return unescapeBytes(spaced);
  }
}

/** Repeated names become arrays, in order; `a` alone is `a: ''`; empty pieces are skipped; at most 1000 pairs. */
export function parseNodeQuery(raw: string): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = Object.create(null);
  if (raw === '') return query;
  for (const piece of raw.split('&', MAX_KEYS)) {
    if (piece === '') continue;
    const at = piece.indexOf('=');
    const key = decodePiece(at === -1 ? piece : piece.slice(0, at), false);
    const value = at === -1 ? '' : decodePiece(piece.slice(at + 1), true);
    const held = query[key];
    if (held === undefined) query[key] = value;
    else if (Array.isArray(held)) held.push(value);
    else query[key] = [held, value];
  }
  return query;
}
