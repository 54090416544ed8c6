// A stored file as an answer: byte ranges (206, 416), HEAD and the few conditional headers, decided here; the host streams the bytes.
import parseRange from 'range-parser';
import { errorAnswer } from './answers.js';
import { FileBody, type ServiceRequest, type ServiceResponse } from './exchange.js';

const BYTES_RANGE = /^ *bytes=/;
const SUFFIX_RANGE = /^\s*bytes\s*=\s*-\s*(\d+)\s*$/i;

/** The refusals `send` answered, in the envelope: a precondition that cannot hold, a range outside the file. */
const unreadable = (status: number, reason: string, headers: Record<string, string>): ServiceResponse => {
  const answer = errorAnswer(
    status,
    'bad_request',
    `The request could not be read (${reason}). Check the body and headers.`,
  );
  answer.headers = { ...headers, ...answer.headers };
  return answer;
};

/** Where a file's bytes are: on disk (the host streams them), or in memory. */
export type FileSource = { path: string; data?: undefined } | { data: Uint8Array; path?: undefined };

/**
 * The answer for a file of `size` bytes, with `headers` (its type, its caching): the whole file, one range
 * of it (206 with Content-Range), or 416. As Express's sendFile answered (no ETag, no Last-Modified): several ranges
 * or a stale If-Range get the whole file; If-Match and If-Unmodified-Since cannot hold without them (412).
 */
export function fileAnswer(
  request: ServiceRequest,
  source: FileSource,
  size: number,
  headers: Record<string, string>,
): ServiceResponse {
  const out: Record<string, string> = { ...headers, 'Accept-Ranges': 'bytes' };
  const header = (name: string) => {
    const value = request.headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  if (header('if-match') || !Number.isNaN(Date.parse(header('if-unmodified-since') ?? '')))
    return unreadable(412, 'Precondition Failed', out);
  let range = header('range');
  let start = 0;
  let end = size - 1;
  let status = 200;
  if (range !== undefined && BYTES_RANGE.test(range)) {
    // RFC 9110 14.1.2: a suffix longer than the file selects all of it (206 of the whole), where the parser says 416.
    const suffix = SUFFIX_RANGE.exec(range);
    if (suffix && Number(suffix[1]) >= size && Number(suffix[1]) > 0) range = 'bytes=0-';
    const ranges = header('if-range') ? -2 : parseRange(size, range, { combine: true });
    if (ranges === -1) return unreadable(416, 'Range Not Satisfiable', { ...out, 'Content-Range': `bytes */${size}` });
    if (ranges !== -2 && ranges.length === 1) {
      status = 206;
      ({ start, end } = ranges[0]);
      out['Content-Range'] = `bytes ${start}-${end}/${size}`;
    }
  }
  const body = source.path !== undefined ? new FileBody(source.path, start, end) : source.data.subarray(start, end + 1);
  out['Content-Length'] = String(end < start ? 0 : end - start + 1);
  return { status, headers: out, body };
}
