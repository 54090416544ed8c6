// Reads a form from a fetch Request as Starlette reads it (the Node host's node-form.ts with busboy): multipart with
// @remix-run/multipart-parser, urlencoded as text, under the same limits.
import {
  MaxFileSizeExceededError,
  MaxPartsExceededError,
  MultipartParseError,
  type MultipartPart,
  parseMultipartStream,
} from '@remix-run/multipart-parser';
import { DomainError } from '../../domain/errors.js';
import { multipartRefusal, STARLETTE_LIMITS } from '../body/form-rules.js';
import type { FormFile, FormRead, FormSpec } from '../exchange.js';

/** `boundary=` of a multipart Content-Type, quoted or not (RFC 2046). */
const BOUNDARY = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i;

const fileTooLarge = () =>
  new DomainError('upload_too_large', 'The file is larger than any model accepts. Send a smaller image.');

/**
 * The parts named in `fields` (text) and `fileField`; the last part of a name wins whatever its kind (Starlette's
 * FormData.get). A part is a file when it names a filename (an octet-stream part without one is text, as Starlette
 * reads it). A part past the file limit is taken for the file (the parser cannot tell whose it was).
 */
export async function readMultipart(
  body: ReadableStream<Uint8Array>,
  contentType: string,
  contentEncoding: string | undefined,
  spec: FormSpec,
): Promise<FormRead> {
  const refusal = (why: string) => multipartRefusal(why, contentEncoding);
  const matched = BOUNDARY.exec(contentType);
  const boundary = matched?.[1] ?? matched?.[2];
  if (!boundary) throw refusal('Multipart: Boundary not found');
  const wanted = new Set([spec.fileField, ...spec.fields]);
  const fields: Record<string, string> = {};
  let file: FormFile | undefined;
  let files = 0;
  let texts = 0;
  const take = (part: MultipartPart) => {
    const name = part.name;
    const isFile = part.filename !== undefined;
    if (isFile && ++files > STARLETTE_LIMITS.maxFiles) throw refusal(`more than ${STARLETTE_LIMITS.maxFiles} files`);
    if (!isFile && ++texts > STARLETTE_LIMITS.maxFields)
      throw refusal(`more than ${STARLETTE_LIMITS.maxFields} fields`);
    if (!isFile && part.size > STARLETTE_LIMITS.maxPartBytes)
      throw refusal(`a part is over ${STARLETTE_LIMITS.maxPartBytes / 1024} KB`);
    if (!name || !wanted.has(name)) return;
    if (isFile && name !== spec.fileField) return;
    if (isFile) {
      if (part.size > spec.maxFileBytes) throw fileTooLarge();
      delete fields[name];
      file = { filename: part.filename ?? '', bytes: part.bytes };
    } else {
      if (name === spec.fileField) file = undefined;
      fields[name] = part.text;
    }
  };
  try {
    for await (const part of parseMultipartStream(body, {
      boundary,
      maxFileSize: Math.max(spec.maxFileBytes, STARLETTE_LIMITS.maxPartBytes) + 1,
      maxParts: STARLETTE_LIMITS.maxFiles + STARLETTE_LIMITS.maxFields,
    }))
      take(part);
  } catch (error) {
    if (error instanceof MaxFileSizeExceededError) throw fileTooLarge();
    if (error instanceof MaxPartsExceededError) throw refusal(`more than ${STARLETTE_LIMITS.maxFields} fields`);
    if (error instanceof MultipartParseError) throw refusal(error.message);
    throw error;
  }
  return { fields, file, type: 'multipart' };
}
