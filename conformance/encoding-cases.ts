// fast-check generators of bodies sent with a Content-Encoding (identity, gzip, deflate, br): Starlette decodes none.
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { estimateRequest, type RawRequest, submitRequest } from './cases.js';
import { uploadRequest } from './multipart-cases.js';

const CODINGS: Record<string, (body: Buffer) => Buffer> = {
  identity: (body) => body,
  gzip: (body) => gzipSync(body),
  deflate: (body) => deflateSync(body),
  br: (body) => brotliCompressSync(body),
};

/**
 * Any body request, its body compressed as the header says (or, one time in four, the header with the body left as it
 * was, which the service reads as it reads any body); the header in the case a client would write it.
 */
export const encodedRequest: fc.Arbitrary<RawRequest> = fc
  .tuple(
    fc.oneof(estimateRequest, submitRequest, uploadRequest),
    fc.constantFrom(...Object.keys(CODINGS)),
    fc.oneof({ weight: 3, arbitrary: fc.constant(true) }, fc.constant(false)),
    fc.constantFrom(
      (c: string) => c,
      (c: string) => c.toUpperCase(),
    ),
  )
  .map(([request, coding, compressed, spell]) => ({
    ...request,
    headers: [...request.headers, ['Content-Encoding', spell(coding)] as [string, string]],
    body: request.body && compressed ? CODINGS[coding](request.body) : request.body,
  }));
