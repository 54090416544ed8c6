// Reads a form as Starlette's parsers do (FastAPI 0.142 / Starlette 1.7): multipart/form-data with busboy, urlencoded as text.
import type { IncomingMessage } from 'node:http';
import { DomainError } from '../../domain/errors.js';
import type { FormFile, FormRead, FormSpec } from '../exchange.js';
import { mediaTypeOf } from '../media-type.js';
import {
  multipartRefusal,
  STARLETTE_LIMITS,
  tooLarge,
  URLENCODED_LIMIT,
  urlencodedCharset,
  urlencodedForm,
} from '../body/form-rules.js';
import { collect, dump } from './read-stream.js';

const EMPTY: FormRead = { fields: {}, file: undefined, type: undefined };

/** Reads the form of the request's type; a body of any other type is left unread, and the route finds no field. */
export function readForm(req: IncomingMessage, spec: FormSpec): Promise<FormRead> {
  const type = mediaTypeOf(req.headers['content-type']);
  if (type === 'multipart/form-data') return readMultipart(req, spec);
  if (type === 'application/x-www-form-urlencoded') return readUrlencoded(req);
  return Promise.resolve(EMPTY);
}

async function readUrlencoded(req: IncomingMessage): Promise<FormRead> {
  const charset = urlencodedCharset(req.headers['content-type']);
  const declared = Number(req.headers['content-length']);
  if (Number.isSafeInteger(declared) && declared > URLENCODED_LIMIT) {
    await dump(req);
    throw tooLarge(URLENCODED_LIMIT);
  }
  return urlencodedForm(await collect(req, URLENCODED_LIMIT), charset);
}

const refusal = (req: IncomingMessage, why: string) => multipartRefusal(why, req.headers['content-encoding']);

/**
 * Reads the parts named in `fields` (text) and `fileField`; FastAPI reads only the parameters it declares, so every
 * other part is counted against the limits and dropped. For each name the last part wins whatever its kind (Starlette's
 * FormData.get): a file is the form's `file`, text a field, where the route can refuse a text `file` as FastAPI does.
 * At most one value a name is held, and at most `maxFileBytes + 1` bytes of a file: a larger one is refused with
 * `upload_too_large` once the body is read.
 */
async function readMultipart(req: IncomingMessage, spec: FormSpec): Promise<FormRead> {
  // busboy is loaded on the first upload, not at start-up (the module system keeps it after that).
  const busboy = (await import('busboy')).default;
  const wanted = new Set([spec.fileField, ...spec.fields]);
  return new Promise((resolve, reject) => {
    const latest = new Map<string, { seq: number; value: string | FormFile; tooLarge: boolean }>();
    let seq = 0;
    let problem: DomainError | undefined;
    let pending = 0;
    let parsed = false;
    let settled = false;
    const settle = (error: unknown, form?: FormRead) => {
      if (settled) return;
      settled = true;
      if (error) reject(error);
      else resolve(form as FormRead);
    };
    // Parts are numbered as they start: a file's bytes end after later text parts have arrived.
    const offer = (name: string | undefined, at: number, value: string | FormFile, tooLarge = false) => {
      // A part with an empty name (busboy: undefined) is a field named "" to Starlette, read by nobody.
      if (name === undefined || !wanted.has(name)) return;
      const current = latest.get(name);
      if (!current || current.seq < at) latest.set(name, { seq: at, value, tooLarge });
    };
    const finish = () => {
      if (!parsed || pending > 0) return;
      if (problem) return settle(problem);
      const fields: Record<string, string> = {};
      let file: FormFile | undefined;
      for (const [name, { value, tooLarge }] of latest) {
        if (typeof value === 'string') fields[name] = value;
        else if (tooLarge)
          return settle(
            new DomainError('upload_too_large', 'The file is larger than any model accepts. Send a smaller image.'),
          );
        else file = value;
      }
      settle(undefined, { fields, file, type: 'multipart' });
    };
    let parser: ReturnType<typeof busboy>;
    try {
      parser = busboy({
        headers: req.headers,
        limits: {
          files: STARLETTE_LIMITS.maxFiles,
          fields: STARLETTE_LIMITS.maxFields,
          // busboy marks a value truncated when it reaches the limit; Starlette refuses only one past it.
          fieldSize: STARLETTE_LIMITS.maxPartBytes + 1,
          fileSize: spec.maxFileBytes + 1,
        },
      });
    } catch (error) {
      return settle(refusal(req, (error as Error).message));
    }
    const tooBig = () => refusal(req, `a part is over ${STARLETTE_LIMITS.maxPartBytes / 1024} KB`);
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) problem ??= tooBig();
      else offer(name, ++seq, value);
    });
    parser.on('file', (name, stream, info) => {
      const at = ++seq;
      // busboy reads an application/octet-stream part without a filename as a file; Starlette, as a text field.
      const asText = info.filename === undefined;
      const keep = name !== undefined && (asText || name === spec.fileField) && wanted.has(name);
      const limit = asText ? STARLETTE_LIMITS.maxPartBytes : spec.maxFileBytes;
      const chunks: Buffer[] = [];
      let bytes = 0;
      pending++;
      stream.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (keep && bytes <= limit + 1) chunks.push(chunk);
      });
      // A body cut short inside a file ends its stream with an error (the parser reports the same).
      stream.on('error', (error: Error) => settle(refusal(req, error.message)));
      stream.on('end', () => {
        pending--;
        if (asText && bytes > limit) problem ??= tooBig();
        else if (asText) offer(name, at, Buffer.concat(chunks).toString('utf8'));
        else if (keep) offer(name, at, { filename: info.filename ?? '', bytes: Buffer.concat(chunks) }, bytes > limit);
        finish();
      });
    });
    parser.on('filesLimit', () => {
      problem ??= refusal(req, `more than ${STARLETTE_LIMITS.maxFiles} files`);
    });
    parser.on('fieldsLimit', () => {
      problem ??= refusal(req, `more than ${STARLETTE_LIMITS.maxFields} fields`);
    });
    parser.on('error', (error: Error) => {
      req.unpipe(parser);
      req.resume();
      settle(refusal(req, error.message));
    });
    parser.on('close', () => {
      parsed = true;
      finish();
    });
    req.pipe(parser);
  });
}
