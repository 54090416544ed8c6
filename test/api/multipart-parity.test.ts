// Multipart read as FastAPI 0.142 / Starlette 1.7 read it: their limits (1000 files, 1000 fields, 1 MiB a text part),
// extra parts ignored, the last part of a name winning, and a text `file` refused with FastAPI's 422.
import { describe, expect, it } from 'vitest';
import { client, makeEmulator, MODEL_A } from '../helpers/emulator.js';
import { png } from '../helpers/images.js';

const BOUNDARY = 'parityBoundary42';

interface Part {
  name: string;
  value: string | Buffer;
  filename?: string;
}

function body(parts: Part[]): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const file = part.filename === undefined ? '' : `; filename="${part.filename}"\r\nContent-Type: image/png`;
    chunks.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${part.name}"${file}\r\n\r\n`));
    chunks.push(typeof part.value === 'string' ? Buffer.from(part.value) : part.value);
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(chunks);
}

function send(parts: Part[]) {
  const emulator = makeEmulator({ ffmpegPath: false });
  return client(emulator)
    .raw.post('/v1/media/uploads')
    .set('Authorization', `Bearer ${emulator.apiKey}`)
    .set('Content-Type', `multipart/form-data; boundary=${BOUNDARY}`)
    .send(body(parts));
}

const image: Part = { name: 'file', value: png(100, 100), filename: 'a.png' };
const slug: Part = { name: 'model_slug', value: MODEL_A };
const expectedUploadFile = (input: string) => ({
  type: 'value_error',
  loc: ['body', 'file'],
  msg: "Value error, Expected UploadFile, received: <class 'str'>",
  input,
  ctx: { error: {} },
});

describe('multipart bodies FastAPI accepts', () => {
  it.each<[string, Part[]]>([
    ['an extra text part over 4 KB', [{ name: 'note', value: 'x'.repeat(5000) }]],
    ['nine extra small fields', Array.from({ length: 9 }, (_, i) => ({ name: `f${i}`, value: 'v' }))],
    ['a part with an empty name', [{ name: '', value: 'nameless' }]],
    ['an extra file under another name', [{ name: 'other', value: 'not read', filename: 'b.txt' }]],
    ['a text part of exactly 1 MiB', [{ name: 'note', value: 'z'.repeat(1024 * 1024) }]],
  ])('registers the upload beside %s: 201', async (_what, extra) => {
    const res = await send([image, slug, ...extra]);
    expect(res.status, res.text).toBe(201);
    expect(res.body.width).toBe(100);
  });

  it('takes the last of two files named file', async () => {
    const res = await send([image, { name: 'file', value: png(120, 90), filename: 'b.png' }, slug]);
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ filename: 'b.png', width: 120, height: 90 });
  });
});

describe('multipart bodies FastAPI refuses', () => {
  it('answers a text file part over 4 KB with 422 "Expected UploadFile"', async () => {
    const text = 'y'.repeat(5000);
    const res = await send([{ name: 'file', value: text }, slug]);
    expect(res.status).toBe(422);
    expect(res.body).toStrictEqual({ detail: [expectedUploadFile(text)] });
  });

  it('lets a later text part named file replace an earlier file, as the last value wins', async () => {
    const res = await send([image, slug, { name: 'file', value: 'late' }]);
    expect(res.status).toBe(422);
    expect(res.body).toStrictEqual({ detail: [expectedUploadFile('late')] });
  });

  it.each<[string, Part[]]>([
    ['a text part one byte over 1 MiB', [{ name: 'note', value: 'z'.repeat(1024 * 1024 + 1) }]],
    ['1001 fields', Array.from({ length: 1001 }, (_, i) => ({ name: `f${i}`, value: '' }))],
  ])('answers %s with 400 malformed_multipart, as Starlette refuses it', async (_what, extra) => {
    const res = await send([image, slug, ...extra]);
    expect(res.status).toBe(400);
    expect(res.body).toStrictEqual({ error: { code: 'malformed_multipart', message: expect.any(String) } });
  });
});
