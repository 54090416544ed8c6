// How FastAPI (Starlette 1.7) reads a form, whatever host carries the bytes: its limits and the urlencoded parser.
import { DomainError } from '../../domain/errors.js';
import { UnreadableRequest } from '../error-answers.js';
import type { FormRead } from '../exchange.js';
import { charsetOf } from '../media-type.js';
import { limitText } from '../routes/limits.js';
import { codingHint, latin1Text } from '../validation/body-encoding.js';

/**
 * Starlette's defaults (`request.form()` as FastAPI calls it): up to 1000 files and 1000 fields, and a text part of
 * at most 1 MiB. Over any of them Starlette answers 400, and so do we (`malformed_multipart`).
 */
export const STARLETTE_LIMITS = { maxFiles: 1000, maxFields: 1000, maxPartBytes: 1024 * 1024 };

/** An urlencoded form carries no file, so it is read only this far (413 past it). */
export const URLENCODED_LIMIT = 64 * 1024;
/** More fields than this in an urlencoded form is refused (413), as body-parser did. */
export const URLENCODED_PARAMETERS = 1000;

/** The `+`-as-space, percent-decoded text qs gave body-parser: an escape that does not decode is kept as sent. */
function decodeComponent(text: string, charset: string): string {
  const spaced = text.replace(/\+/g, ' ');
  if (charset === 'iso-8859-1')
    return spaced.replace(/%[0-9a-f]{2}/gi, (hex) => String.fromCharCode(Number.parseInt(hex.slice(1), 16)));
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

/** Fields in order; a repeated one becomes an array, an empty key is skipped, as qs parsed them (depth 0). */
export function parseUrlencoded(text: string, charset: string): Record<string, string | string[]> {
  const fields: Record<string, string | string[]> = {};
  if (text.length === 0) return fields;
  for (const part of text.split('&')) {
    const bracketEquals = part.indexOf(']=');
    const at = bracketEquals === -1 ? part.indexOf('=') : bracketEquals + 1;
    const key = decodeComponent(at === -1 ? part : part.slice(0, at), charset);
    const value = at === -1 ? '' : decodeComponent(part.slice(at + 1), charset);
    // `__proto__` set on a plain object changes nothing; qs's result never had it.
    if (key === '' || key === '__proto__') continue;
    const held = fields[key];
    if (held === undefined) fields[key] = value;
    else fields[key] = Array.isArray(held) ? [...held, value] : [held, value];
  }
  return fields;
}

/** A body past its limit, refused once read (413), as body-parser did. */
export const tooLarge = (limit: number) =>
  new DomainError('payload_too_large', `The request body is larger than ${limitText(limit)}. Send a smaller body.`);

/** A multipart body Starlette would refuse (400 malformed_multipart), with why. */
export const multipartRefusal = (why: string, contentEncoding: string | undefined) =>
  new DomainError(
    'malformed_multipart',
    `The multipart body was refused (${why}). Send multipart/form-data with a boundary and one "file" part.${codingHint(contentEncoding)}`,
  );

/** The most a form read holds: the file (and a byte past its limit) and two text parts (and a byte past theirs). */
export const maxFormHeld = (maxFileBytes: number): number => maxFileBytes + 1 + 2 * (STARLETTE_LIMITS.maxPartBytes + 1);

/** The charset an urlencoded body is read in: UTF-8 or Latin-1, anything else refused (415) before a byte is read. */
export function urlencodedCharset(contentType: string | undefined): string {
  const charset = charsetOf(contentType) ?? 'utf-8';
  if (charset !== 'utf-8' && charset !== 'iso-8859-1')
    throw new UnreadableRequest(415, `unsupported charset "${charset.toUpperCase()}"`);
  return charset;
}

/** An urlencoded body's fields, at most URLENCODED_PARAMETERS of them (413 past it). */
export function urlencodedForm(bytes: Uint8Array, charset: string): FormRead {
  const text = charset === 'utf-8' ? new TextDecoder().decode(bytes) : latin1Text(bytes);
  let count = 1;
  for (let at = text.indexOf('&'); at !== -1; at = text.indexOf('&', at + 1))
    if (++count > URLENCODED_PARAMETERS) throw new UnreadableRequest(413, 'too many parameters');
  return { fields: parseUrlencoded(text, charset), file: undefined, type: 'urlencoded' };
}
