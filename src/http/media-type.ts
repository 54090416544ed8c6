// A Content-Type header as type-is and body-parser read it: the media type (lower case, no parameters), the charset.
import { parse as parseContentType } from 'content-type';

/** media-typer's test, which type-is applies: `type/subtype` in the characters a media type may hold. */
const MEDIA_TYPE = /^ *([a-z0-9][a-z0-9!#$&^_-]{0,126})\/([a-z0-9][a-z0-9!#$&^_.+-]{0,126}) *$/;

/** The media type, or undefined for no header or one that is not a media type. */
export function mediaTypeOf(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const type = parseContentType(header, { parameters: false }).type;
  return MEDIA_TYPE.test(type) ? type : undefined;
}

/** The charset parameter, lower case. */
export const charsetOf = (header: string | undefined): string | undefined =>
  header ? parseContentType(header).parameters.charset?.toLowerCase() : undefined;
