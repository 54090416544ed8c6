// fast-check generators of upload requests (spec 4.7): multipart parts with and without filenames, urlencoded forms.
import fc from 'fast-check';
import type { RawRequest } from './cases.js';

interface Part {
  /** Absent: a Content-Disposition with no name at all is not generated (see docs/proof.md). */
  name: string;
  value: string;
  filename?: string;
  /** A part's own Content-Type; a file part without one is sent as image/png. */
  type?: string;
}

const BOUNDARY = 'conformanceBoundary7MA4YWxk';
const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

function multipartBody(parts: Part[]): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const filename = part.filename === undefined ? '' : `; filename="${part.filename}"`;
    const type = part.type
      ? `\r\nContent-Type: ${part.type}`
      : part.filename === undefined
        ? ''
        : '\r\nContent-Type: image/png';
    chunks.push(
      Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${part.name}"${filename}${type}\r\n\r\n`),
    );
    chunks.push(part.name === 'file' && part.value === 'PNG' ? PNG_1X1 : Buffer.from(part.value));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(chunks);
}

const filePart = fc.oneof(
  fc.constant<Part | null>(null),
  fc.constant<Part>({ name: 'file', value: 'PNG', filename: 'a.png' }),
  // Not generated: `filename=""`. Starlette reads it as an upload, busboy (under multer) as a plain field; a known
  // difference listed in docs/proof.md.
  fc.constant<Part>({ name: 'file', value: 'plain text' }),
  fc.constant<Part>({ name: 'file', value: '' }),
  fc.constant<Part>({ name: 'file', value: 'x'.repeat(4097) }),
);
const textPart = (name: string) =>
  fc.oneof(
    fc.constant<Part | null>(null),
    fc.constantFrom('m', '', 'x'.repeat(80), 'x'.repeat(81), 'é').map((value): Part => ({ name, value })),
  );

/** Starlette's MultiPartParser limits: 1000 files, 1000 fields, 1 MiB a text part; FastAPI ignores parts it does not read. */
const PART_LIMIT = 1024 * 1024;
const extraParts = fc.oneof(
  { weight: 6, arbitrary: fc.constant<Part[]>([]) },
  fc.constant<Part[]>([{ name: 'note', value: 'x'.repeat(5000) }]),
  fc
    .integer({ min: 9, max: 12 })
    .map((n) => Array.from({ length: n }, (_, i): Part => ({ name: `f${i}`, value: 'v' }))),
  fc.constant<Part[]>([{ name: '', value: 'nameless' }]),
  fc.constant<Part[]>([{ name: 'other', value: 'PNG', filename: 'b.png' }]),
  fc.constant<Part[]>([{ name: 'file', value: 'PNG', filename: 'second.png' }]),
  fc.constant<Part[]>([{ name: 'file', value: 'y'.repeat(5000) }]),
  fc.constant<Part[]>([{ name: 'model_slug', value: 'm', type: 'application/octet-stream' }]),
  fc.constant<Part[]>([{ name: 'note', value: 'z'.repeat(PART_LIMIT) }]),
  fc.constant<Part[]>([{ name: 'note', value: 'z'.repeat(PART_LIMIT + 1) }]),
  fc.constant<Part[]>(Array.from({ length: 1001 }, (_, i): Part => ({ name: `f${i}`, value: '' }))),
);

const parts = fc
  .tuple(filePart, textPart('model_slug'), textPart('target_slot'), textPart('model_slug'), fc.boolean(), extraParts)
  .map(([file, slug, slot, again, fileLast, extra]) => {
    const fields = [slug, slot, again].filter((p): p is Part => p !== null);
    const list = file ? (fileLast ? [...fields, file] : [file, ...fields]) : fields;
    return fileLast ? [...extra, ...list] : [...list, ...extra];
  });

export const uploadRequest: fc.Arbitrary<RawRequest> = fc.oneof(
  {
    weight: 6,
    arbitrary: parts.map(
      (list): RawRequest => ({
        method: 'POST',
        path: '/v1/media/uploads',
        headers: [['Content-Type', `multipart/form-data; boundary=${BOUNDARY}`]],
        body: multipartBody(list),
      }),
    ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom('model_slug=m', 'model_slug=&target_slot=t', `target_slot=${'x'.repeat(81)}`, '').map(
      (text): RawRequest => ({
        method: 'POST',
        path: '/v1/media/uploads',
        headers: [['Content-Type', 'application/x-www-form-urlencoded']],
        body: Buffer.from(text),
      }),
    ),
  },
  { weight: 1, arbitrary: fc.constant<RawRequest>({ method: 'POST', path: '/v1/media/uploads', headers: [] }) },
);
