// Reads a multipart/form-data body as Starlette's MultiPartParser does (FastAPI 0.142 / Starlette 1.7), with busboy.
import type { Request, RequestHandler, Response } from 'express';
import { DomainError } from '../domain/errors.js';
import { codingHint } from './validation/body-encoding.js';

/** The one file part a route reads; other file parts are drained and dropped, as FastAPI ignores them. */
export interface FormFile {
  originalname: string;
  buffer: Buffer;
  size: number;
}

/**
 * Starlette's defaults (`request.form()` as FastAPI calls it): up to 1000 files and 1000 fields, and a text part of
 * at most 1 MiB. Over any of them Starlette answers 400, and so do we (`malformed_multipart`).
 */
export const STARLETTE_LIMITS = { maxFiles: 1000, maxFields: 1000, maxPartBytes: 1024 * 1024 };

declare global {
  namespace Express {
    interface Locals {
      /** The last part named by multipartForm(), when that part carried a filename. */
      formFile?: FormFile;
    }
  }
}

export const formFileOf = (res: Response): FormFile | undefined => res.locals.formFile;

const refusal = (req: Request, why: string) =>
  new DomainError(
    'malformed_multipart',
    `The multipart body was refused (${why}). Send multipart/form-data with a boundary and one "file" part.${codingHint(req.headers['content-encoding'])}`,
  );

/**
 * Reads the parts named in `fields` (text) and `fileField`; FastAPI reads only the parameters it declares, so every
 * other part is counted against the limits and dropped. For each name the last part wins whatever its kind (Starlette's
 * FormData.get): a file lands in `res.locals.formFile`, text in `req.body`, where the route can refuse a text `file` as
 * FastAPI does. At most one value a name is held, and at most `maxFileBytes + 1` bytes of a file: a larger one is
 * refused with `upload_too_large` once the body is read. Bodies that are not multipart pass through untouched.
 */
export function multipartForm(spec: { fileField: string; fields: string[]; maxFileBytes: number }): RequestHandler {
  const wanted = new Set([spec.fileField, ...spec.fields]);
  // busboy is loaded on the first upload, not at start-up.
  let loading: Promise<typeof import('busboy')> | undefined;
  return (req, res, next) => {
    if (!req.is('multipart/form-data')) return next();
    loading ??= import('busboy').then((m) => m.default);
    loading.then((busboy) => read(busboy, req, res, next), next);
  };

  function read(busboy: typeof import('busboy'), req: Request, res: Response, next: (error?: unknown) => void) {
    const latest = new Map<string, { seq: number; value: string | FormFile; tooLarge: boolean }>();
    let seq = 0;
    let problem: DomainError | undefined;
    let pending = 0;
    let parsed = false;
    let settled = false;
    const settle = (error?: unknown) => {
      if (settled) return;
      settled = true;
      next(error);
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
      const body: Record<string, string> = {};
      for (const [name, { value, tooLarge }] of latest) {
        if (typeof value === 'string') body[name] = value;
        else if (tooLarge)
          return settle(
            new DomainError('upload_too_large', 'The file is larger than any model accepts. Send a smaller image.'),
          );
        else res.locals.formFile = value;
      }
      req.body = body;
      settle();
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
      return next(refusal(req, (error as Error).message));
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
        else if (keep) {
          const buffer = Buffer.concat(chunks);
          offer(name, at, { originalname: info.filename ?? '', buffer, size: buffer.length }, bytes > limit);
        }
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
  }
}
