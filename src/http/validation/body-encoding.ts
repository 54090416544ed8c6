// Turns body bytes into text the way Python's json.loads(bytes) does: UTF-8 (BOM optional), UTF-16 or UTF-32 by
// detect_encoding, with surrogates passed through. `undefined` means Python could not decode it.

const utf8 = new TextDecoder('utf-8', { fatal: true });

function utf16(b: Uint8Array, littleEndian: boolean): string | undefined {
  if (b.length % 2) return undefined;
  let out = '';
  for (let i = 0; i < b.length; i += 2)
    out += String.fromCharCode(littleEndian ? b[i] | (b[i + 1] << 8) : (b[i] << 8) | b[i + 1]);
  return out;
}

function utf32(b: Uint8Array, littleEndian: boolean): string | undefined {
  if (b.length % 4) return undefined;
  let out = '';
  for (let i = 0; i < b.length; i += 4) {
    const point = littleEndian
      ? (b[i] | (b[i + 1] << 8) | (b[i + 2] << 16) | (b[i + 3] << 24)) >>> 0
      : ((b[i] << 24) | (b[i + 1] << 16) | (b[i + 2] << 8) | b[i + 3]) >>> 0;
    if (point > 0x10ffff) return undefined;
    out += String.fromCodePoint(point);
  }
  return out;
}

function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** json.detect_encoding followed by bytes.decode(encoding, 'surrogatepass'); a BOM is consumed, not returned. */
export function decodeJsonBytes(b: Uint8Array): string | undefined {
  const starts = (...bom: number[]) => bom.every((byte, i) => b[i] === byte);
  if (starts(0x00, 0x00, 0xfe, 0xff)) return utf32(b.subarray(4), false);
  if (starts(0xff, 0xfe, 0x00, 0x00)) return utf32(b.subarray(4), true);
  if (starts(0xfe, 0xff)) return utf16(b.subarray(2), false);
  if (starts(0xff, 0xfe)) return utf16(b.subarray(2), true);
  if (starts(0xef, 0xbb, 0xbf)) return decodeUtf8(b.subarray(3));
  if (b.length >= 4) {
    if (!b[0]) return b[1] ? utf16(b, false) : utf32(b, false);
    if (!b[1]) return b[2] || b[3] ? utf16(b, true) : utf32(b, true);
  } else if (b.length === 2) {
    if (!b[0]) return utf16(b, false);
    if (!b[1]) return utf16(b, true);
  }
  return decodeUtf8(b);
}

const utf8KeepBom = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** bytes.decode() as FastAPI's jsonable_encoder applies it to a non-JSON body: strict UTF-8, a BOM kept. */
export function decodeRawText(bytes: Uint8Array): string | undefined {
  try {
    return utf8KeepBom.decode(bytes);
  } catch {
    return undefined;
  }
}

/** Bytes as Latin-1 text, one character per byte (TextDecoder's 'latin1' is windows-1252). */
export function latin1Text(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 8192)
    out += String.fromCharCode(...bytes.subarray(i, Math.min(i + 8192, bytes.length)));
  return out;
}

/**
 * What a refusal of an unreadable body adds when the body came with a Content-Encoding: the service (Starlette) reads
 * the bytes as sent and decodes no coding, so a compressed body is refused there too.
 */
export function codingHint(coding: string | undefined): string {
  if (coding === undefined || coding.trim().toLowerCase() === 'identity') return '';
  const shown = coding.length > 40 ? `${coding.slice(0, 40)}...` : coding;
  return ` It was sent with Content-Encoding: ${shown}, which the service does not decode: send the body uncompressed.`;
}
