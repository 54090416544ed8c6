// Bytes as hex and base64 text, and back, on any host (no Buffer): what signatures, tags and state documents spell.

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));
const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
/** Both alphabets decode ('+' and '-' are 62, '/' and '_' 63), as Node's decoder reads base64 and base64url alike. */
const SEXTET = new Int8Array(128).fill(-1);
for (let i = 0; i < 64; i++) SEXTET[BASE64URL.charCodeAt(i)] = i;
SEXTET['+'.charCodeAt(0)] = 62;
SEXTET['/'.charCodeAt(0)] = 63;
const PAD = '='.charCodeAt(0);

/** Lower-case hex, two digits a byte. */
export function bytesToHex(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i < bytes.length; i++) text += HEX[bytes[i]];
  return text;
}

/** A hex digit's value (either case), or -1. */
function nibble(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  const lower = code | 32;
  return lower >= 97 && lower <= 102 ? lower - 87 : -1;
}

/** The bytes of an even-length hex string; undefined when it holds anything else. */
export function hexToBytes(hex: string): Uint8Array | undefined {
  if (hex.length % 2 !== 0) return undefined;
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) {
    const high = nibble(hex.charCodeAt(2 * i));
    const low = nibble(hex.charCodeAt(2 * i + 1));
    if (high < 0 || low < 0) return undefined;
    bytes[i] = (high << 4) | low;
  }
  return bytes;
}

/** base64url without padding, as Node's Buffer writes it (`toString('base64url')`). */
export function bytesToBase64url(bytes: Uint8Array): string {
  let text = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
    text += BASE64URL[n >> 18] + BASE64URL[(n >> 12) & 63] + BASE64URL[(n >> 6) & 63] + BASE64URL[n & 63];
  }
  if (i + 1 === bytes.length) {
    const n = bytes[i] << 16;
    text += BASE64URL[n >> 18] + BASE64URL[(n >> 12) & 63];
  } else if (i + 2 === bytes.length) {
    const n = (bytes[i] << 16) | (bytes[i + 1] << 8);
    text += BASE64URL[n >> 18] + BASE64URL[(n >> 12) & 63] + BASE64URL[(n >> 6) & 63];
  }
  return text;
}

/**
 * The bytes of base64 or base64url text, read as Node's `Buffer.from(text, 'base64')` reads it: characters of neither
 * alphabet (whitespace included) are skipped, the first '=' ends the data, and a last group of 2 or 3 characters gives
 * 1 or 2 bytes (a lone last character none). State documents were decoded that way, so a document reads the same on
 * every host.
 */
export function base64ToBytes(text: string): Uint8Array {
  const bytes = new Uint8Array(Math.floor((text.length * 3) / 4));
  let length = 0;
  let bits = 0;
  let held = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === PAD) break;
    const sextet = code < 128 ? SEXTET[code] : -1;
    if (sextet < 0) continue;
    bits = (bits << 6) | sextet;
    held += 6;
    if (held >= 8) {
      held -= 8;
      bytes[length++] = (bits >> held) & 0xff;
      bits &= (1 << held) - 1;
    }
  }
  return length === bytes.length ? bytes : bytes.subarray(0, length);
}
