// POST /v1/media/uploads: 201 with an identifier and metadata, checks by content (never name or declared type), every
// refusal (415, 413, 422 missing parts, unknown slot, dimensions, 400 malformed), and refs that must be this account's
// uploads for this model (422 before any charge); Model B frames by order, ref_roles and ref_slots.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/index.js';
import { client, makeEmulator, MODEL_A, MODEL_B } from '../helpers/emulator.js';
import { paddedPng, png, pngHeader } from '../helpers/images.js';
import { runtimeOf } from '../../src/testing.js';

const START = '2025-06-01T08:00:00.000Z';
const MAX_BYTES = 10 * 1024 * 1024;

// ---- images, written by hand so the tests need nothing installed ----

/** JPEG markers up to the frame header (SOF0) with the dimensions, then an empty scan and the end marker. */
function jpeg(width: number, height: number): Buffer {
  return Buffer.from([
    0xff,
    0xd8,
    0xff,
    0xe0,
    0x00,
    0x10,
    0x4a,
    0x46,
    0x49,
    0x46,
    0x00,
    0x01,
    0x01,
    0x00,
    0x00,
    0x01,
    0x00,
    0x01,
    0x00,
    0x00,
    0xff,
    0xc0,
    0x00,
    0x11,
    0x08,
    height >> 8,
    height & 255,
    width >> 8,
    width & 255,
    0x03,
    0x01,
    0x22,
    0x00,
    0x02,
    0x11,
    0x01,
    0x03,
    0x11,
    0x01,
    0xff,
    0xda,
    0x00,
    0x02,
    0xff,
    0xd9,
  ]);
}
/** An extended WebP header (VP8X) with the canvas size. */
function webp(width: number, height: number): Buffer {
  const b = Buffer.alloc(30);
  b.write('RIFF', 0, 'latin1');
  b.writeUInt32LE(22, 4);
  b.write('WEBPVP8X', 8, 'latin1');
  b.writeUInt32LE(10, 16);
  b.writeUIntLE(width - 1, 24, 3);
  b.writeUIntLE(height - 1, 27, 3);
  return b;
}
function gif(width: number, height: number): Buffer {
  const b = Buffer.alloc(13);
  b.write('GIF89a', 0, 'latin1');
  b.writeUInt16LE(width, 6);
  b.writeUInt16LE(height, 8);
  return b;
}
function bmp(width: number, height: number): Buffer {
  const b = Buffer.alloc(54);
  b.write('BM', 0, 'latin1');
  b.writeUInt32LE(54, 2);
  b.writeUInt32LE(54, 10);
  b.writeUInt32LE(40, 14);
  b.writeInt32LE(width, 18);
  b.writeInt32LE(height, 22);
  b.writeUInt16LE(1, 26);
  b.writeUInt16LE(24, 28);
  return b;
}

// ---- helpers ----

interface Part {
  file?: { data: Buffer; filename?: string; contentType?: string };
  fields?: Record<string, string>;
}

function upload(emulator: Emulator, part: Part, secret = emulator.apiKey) {
  let req = client(emulator, secret).raw.post('/v1/media/uploads').set('Authorization', `Bearer ${secret}`);
  for (const [name, value] of Object.entries(part.fields ?? {})) req = req.field(name, value);
  if (part.file)
    req = req.attach('file', part.file.data, {
      filename: part.file.filename ?? 'image.bin',
      contentType: part.file.contentType ?? 'application/octet-stream',
    });
  return req;
}

async function uploaded(
  emulator: Emulator,
  model: string,
  data = png(96, 80),
  fields: Record<string, string> = {},
  secret = emulator.apiKey,
): Promise<string> {
  const res = await upload(
    emulator,
    { file: { data, filename: 'frame.png', contentType: 'image/png' }, fields: { model_slug: model, ...fields } },
    secret,
  );
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

const missingItem = (name: string) => ({ type: 'missing', loc: ['body', name], msg: 'Field required', input: null });

// ---- tests ----

describe('accepted uploads: 201 with an identifier and metadata', () => {
  it('registers a PNG for Model A', async () => {
    const emulator = makeEmulator({ ffmpegPath: false, clockStart: START });
    const data = png(128, 96);
    const res = await upload(emulator, {
      file: { data, filename: 'start.png', contentType: 'image/png' },
      fields: { model_slug: MODEL_A },
    });
    expect(res.status).toBe(201);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.body).toStrictEqual({
      id: 'upl_000001',
      upload_id: 'upl_000001',
      model_slug: MODEL_A,
      target_slot: null,
      filename: 'start.png',
      mime_type: 'image/png',
      format: 'png',
      width: 128,
      height: 96,
      bytes: data.length,
      sha256: createHash('sha256').update(data).digest('hex'),
      created_at: '2025-06-01T08:00:00.000+00:00',
    });
    // It charges nothing.
    expect(runtimeOf(emulator).context().ledger.balance(emulator.accountId)).toBe(1_000_000);
  });

  it.each([
    ['JPEG', jpeg(640, 360), 'jpeg', 'image/jpeg', 640, 360, 'first_frame'],
    ['WebP', webp(1280, 720), 'webp', 'image/webp', 1280, 720, 'last_frame'],
    ['PNG', png(64, 64), 'png', 'image/png', 64, 64, 'first_frame'],
  ])('registers a %s for Model B with a target_slot', async (_name, data, format, mime, width, height, slot) => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const res = await upload(emulator, {
      file: { data, filename: `frame.${format}`, contentType: mime },
      fields: { model_slug: MODEL_B, target_slot: slot },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      model_slug: MODEL_B,
      target_slot: slot,
      format,
      mime_type: mime,
      width,
      height,
      bytes: data.length,
    });
  });

  it('accepts the pixel bounds 64x64 and 4096x4096 and exactly 10 MiB', async () => {
    const emulator = makeEmulator({ ffmpegPath: false });
    expect((await upload(emulator, { file: { data: png(64, 64) }, fields: { model_slug: MODEL_A } })).status).toBe(201);
    expect((await upload(emulator, { file: { data: png(4096, 4096) }, fields: { model_slug: MODEL_A } })).status).toBe(
      201,
    );
    const atLimit = await upload(emulator, {
      file: { data: paddedPng(800, 600, MAX_BYTES) },
      fields: { model_slug: MODEL_A },
    });
    expect(atLimit.status).toBe(201);
    expect(atLimit.body.bytes).toBe(MAX_BYTES);
  });

  it('reads the type from the content: a PNG named notes.txt sent as text/plain is a PNG', async () => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const res = await upload(emulator, {
      file: { data: png(100, 100), filename: 'notes.txt', contentType: 'text/plain' },
      fields: { model_slug: MODEL_A },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      format: 'png',
      mime_type: 'image/png',
      filename: 'notes.txt',
      width: 100,
      height: 100,
    });
  });

  it('ignores extra form fields', async () => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const res = await upload(emulator, {
      file: { data: png(100, 100) },
      fields: { model_slug: MODEL_A, comment: 'hello' },
    });
    expect(res.status).toBe(201);
  });
});

describe('refused uploads', () => {
  it('refuses text named photo.png and sent as image/png: 415 unsupported_media_type', async () => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const res = await upload(emulator, {
      file: { data: Buffer.from('just some text, not an image\n'), filename: 'photo.png', contentType: 'image/png' },
      fields: { model_slug: MODEL_A },
    });
    expect(res.status).toBe(415);
    expect(res.body).toStrictEqual({ error: { code: 'unsupported_media_type', message: expect.any(String) } });
  });

  it.each([
    ['GIF', gif(300, 200), 'anim.gif', 'image/gif'],
    ['BMP', bmp(300, 200), 'frame.bmp', 'image/bmp'],
    ['a PNG signature without a header', pngHeader(1, 1).subarray(0, 8), 'cut.png', 'image/png'],
  ])('refuses a %s (a format the model does not accept): 415', async (_name, data, filename, contentType) => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const res = await upload(emulator, { file: { data, filename, contentType }, fields: { model_slug: MODEL_A } });
    expect(res.status).toBe(415);
    expect(res.body.error.code).toBe('unsupported_media_type');
    expect(res.body.error.message).toContain('png, jpeg, webp');
  });

  it('refuses a file over 10 MiB: 413 upload_too_large', async () => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const res = await upload(emulator, {
      file: { data: pngHeader(800, 600, MAX_BYTES + 1), filename: 'big.png', contentType: 'image/png' },
      fields: { model_slug: MODEL_A },
    });
    expect(res.status).toBe(413);
    expect(res.body).toStrictEqual({ error: { code: 'upload_too_large', message: expect.any(String) } });
  });

  it.each([
    ['too small', 32, 32],
    ['too narrow', 63, 500],
    ['too wide', 4097, 500],
    ['too tall', 500, 4097],
  ])('refuses an image %s: 422 image_dimensions at ["body","file"]', async (_name, width, height) => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const res = await upload(emulator, {
      file: { data: pngHeader(width, height), filename: 'x.png', contentType: 'image/png' },
      fields: { model_slug: MODEL_A },
    });
    expect(res.status).toBe(422);
    expect(res.body).toStrictEqual({
      detail: [
        {
          type: 'image_dimensions',
          loc: ['body', 'file'],
          msg: `Image is ${width}x${height}; model '${MODEL_A}' accepts from 64x64 to 4096x4096 pixels`,
          input: { width, height },
          ctx: { min_width: 64, min_height: 64, max_width: 4096, max_height: 4096 },
        },
      ],
    });
  });

  it('answers a missing file with 422 missing at ["body","file"] (exact bytes)', async () => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const res = await upload(emulator, { fields: { model_slug: MODEL_A } });
    expect(res.status).toBe(422);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.text).toBe('{"detail":[{"type":"missing","loc":["body","file"],"msg":"Field required","input":null}]}');
  });

  it.each([
    ['model_slug absent', { target_slot: 'start_image' }, [missingItem('model_slug')]],
    ['model_slug an empty form value', { model_slug: '' }, [missingItem('model_slug')]],
  ])('answers %s with 422 missing at ["body","model_slug"]', async (_name, fields, detail) => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const res = await upload(emulator, { file: { data: png(80, 80) }, fields });
    expect(res.status).toBe(422);
    expect(res.body).toStrictEqual({ detail });
  });

  it('reports a missing file before a missing model_slug (declaration order)', async () => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const res = await upload(emulator, { fields: { target_slot: 'start_image' } });
    expect(res.status).toBe(422);
    expect(res.body).toStrictEqual({ detail: [missingItem('file'), missingItem('model_slug')] });
  });

  it('answers a JSON body (not multipart) with both missing items', async () => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const res = await client(emulator).post('/v1/media/uploads', { model_slug: MODEL_A, file: 'aGVsbG8=' });
    expect(res.status).toBe(422);
    expect(res.body).toStrictEqual({ detail: [missingItem('file'), missingItem('model_slug')] });
  });

  it('reads an urlencoded form as FastAPI does: model_slug is there, only the file is missing', async () => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const res = await client(emulator)
      .raw.post('/v1/media/uploads')
      .set('Authorization', `Bearer ${emulator.apiKey}`)
      .type('form')
      .send({ model_slug: MODEL_A });
    expect(res.status).toBe(422);
    expect(res.body).toStrictEqual({ detail: [missingItem('file')] });
  });

  it.each([
    ['model_slug', { model_slug: 'm'.repeat(81) }],
    ['target_slot', { model_slug: MODEL_A, target_slot: 's'.repeat(81) }],
  ])('refuses a %s of 81 characters with string_too_long', async (name, fields) => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const res = await upload(emulator, { file: { data: png(80, 80) }, fields });
    expect(res.status).toBe(422);
    const value = fields[name as keyof typeof fields] as string;
    expect(res.body).toStrictEqual({
      detail: [
        {
          type: 'string_too_long',
          loc: ['body', name],
          msg: 'String should have at most 80 characters',
          input: value,
          ctx: { max_length: 80 },
        },
      ],
    });
  });

  it.each([
    [MODEL_A, 'last_frame', ['start_image']],
    [MODEL_B, 'start_image', ['first_frame', 'last_frame']],
  ])('refuses an unknown target_slot for %s: 422 model_ref_slot_unknown', async (model, slot, allowed) => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const res = await upload(emulator, {
      file: { data: png(80, 80) },
      fields: { model_slug: model, target_slot: slot },
    });
    expect(res.status).toBe(422);
    expect(res.body).toStrictEqual({
      detail: [
        {
          type: 'model_ref_slot_unknown',
          loc: ['body', 'target_slot'],
          msg: `Unknown slot '${slot}' for model '${model}'; allowed slots: ${allowed.join(', ')}`,
          input: slot,
          ctx: { allowed_slots: allowed },
        },
      ],
    });
  });

  it('answers a multipart body without a boundary with 400 malformed_multipart', async () => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const res = await client(emulator)
      .raw.post('/v1/media/uploads')
      .set('Authorization', `Bearer ${emulator.apiKey}`)
      .set('Content-Type', 'multipart/form-data')
      .send('--x\r\nContent-Disposition: form-data; name="model_slug"\r\n\r\nmotion-lite-v1\r\n--x--\r\n');
    expect(res.status).toBe(400);
    expect(res.body).toStrictEqual({ error: { code: 'malformed_multipart', message: expect.any(String) } });
  });

  it('answers an unknown model with 404 model_not_found', async () => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const res = await upload(emulator, { file: { data: png(80, 80) }, fields: { model_slug: 'motion-max-v9' } });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('model_not_found');
  });

  it('refuses an upload for a model that takes no reference files', async () => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const res = await upload(emulator, { file: { data: png(80, 80) }, fields: { model_slug: 'still-sketch-v1' } });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      detail: [
        {
          type: 'model_refs_not_supported',
          loc: ['body', 'model_slug'],
          msg: "Model 'still-sketch-v1' takes no reference files; upload references for a model that accepts them",
          input: 'still-sketch-v1',
          ctx: { max_files: 0 },
        },
      ],
    });
  });

  it('refuses an upload for a model the key may not use: 403', async () => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const ctx = runtimeOf(emulator).context();
    const key = ctx.accounts.createKey(
      { accountId: emulator.accountId, secret: 'sk-media-b-only-00001', modelScope: MODEL_B },
      ctx.clock.now(),
    );
    const res = await upload(emulator, { file: { data: png(80, 80) }, fields: { model_slug: MODEL_A } }, key.secret);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('model_not_allowed_for_key');
  });
});

describe('refs must be uploads of this account for this model (422 before any charge)', () => {
  function otherAccount(emulator: Emulator) {
    const ctx = runtimeOf(emulator).context();
    ctx.accounts.createAccount('acct_other', 'Other', ctx.clock.now());
    ctx.ledger.append({ type: 'funding', accountId: 'acct_other', amount: 10_000, at: ctx.clock.now() });
    return ctx.accounts.createKey({ accountId: 'acct_other', secret: 'sk-media-other-acct-0001' }, ctx.clock.now());
  }

  async function expectRefused(emulator: Emulator, body: Record<string, unknown>, detail: unknown[]) {
    const ctx = runtimeOf(emulator).context();
    const balance = ctx.ledger.balance(emulator.accountId);
    const generations = ctx.generations.size;
    const res = await client(emulator).submit(
      { prompt: 'fox', max_credits: 10_000, ...body },
      `refs-${Math.random().toString(36).slice(2, 12)}`,
    );
    expect(res.status).toBe(422);
    expect(res.body).toStrictEqual({ detail });
    expect(ctx.ledger.balance(emulator.accountId)).toBe(balance);
    expect(ctx.generations.size).toBe(generations);
    // The estimate refuses them the same way.
    const estimate = await client(emulator).post('/v1/media/estimate', { prompt: 'fox', ...body });
    expect(estimate.body).toStrictEqual({ detail });
  }

  it('refuses an unknown upload id', async () => {
    const emulator = makeEmulator({ ffmpegPath: false });
    await expectRefused(emulator, { model_slug: MODEL_A, refs: ['upl_000042'] }, [
      {
        type: 'model_ref_unknown',
        loc: ['body', 'refs', 0],
        msg: "Unknown upload 'upl_000042'; upload the file with POST /v1/media/uploads and pass the returned id",
        input: 'upl_000042',
      },
    ]);
  });

  it("refuses another account's upload exactly like an unknown one", async () => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const other = otherAccount(emulator);
    const foreign = await uploaded(emulator, MODEL_A, png(96, 80), {}, other.secret);
    await expectRefused(emulator, { model_slug: MODEL_A, refs: [foreign] }, [
      {
        type: 'model_ref_unknown',
        loc: ['body', 'refs', 0],
        msg: `Unknown upload '${foreign}'; upload the file with POST /v1/media/uploads and pass the returned id`,
        input: foreign,
      },
    ]);
    // Its owner may use it.
    expect(
      (
        await client(emulator, other.secret).submit(
          { model_slug: MODEL_A, prompt: 'fox', refs: [foreign], max_credits: 100 },
          'owner-use-0001',
        )
      ).status,
    ).toBe(202);
  });

  it('refuses an upload made for the other model, in refs and in ref_slots', async () => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const forB = await uploaded(emulator, MODEL_B);
    const forA = await uploaded(emulator, MODEL_A);
    await expectRefused(emulator, { model_slug: MODEL_A, refs: [forB] }, [
      {
        type: 'model_ref_wrong_model',
        loc: ['body', 'refs', 0],
        msg: `Upload '${forB}' was made for model '${MODEL_B}'; upload it again for '${MODEL_A}'`,
        input: forB,
        ctx: { upload_model_slug: MODEL_B },
      },
    ]);
    await expectRefused(emulator, { model_slug: MODEL_B, ref_slots: { first_frame: [forB], last_frame: [forA] } }, [
      {
        type: 'model_ref_wrong_model',
        loc: ['body', 'ref_slots', 'last_frame', 0],
        msg: `Upload '${forA}' was made for model '${MODEL_A}'; upload it again for '${MODEL_B}'`,
        input: forA,
        ctx: { upload_model_slug: MODEL_A },
      },
    ]);
  });

  it('reports every bad ref in one 422', async () => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const forA = await uploaded(emulator, MODEL_A);
    await expectRefused(emulator, { model_slug: MODEL_B, refs: ['upl_nope', forA] }, [
      {
        type: 'model_ref_unknown',
        loc: ['body', 'refs', 0],
        msg: "Unknown upload 'upl_nope'; upload the file with POST /v1/media/uploads and pass the returned id",
        input: 'upl_nope',
      },
      {
        type: 'model_ref_wrong_model',
        loc: ['body', 'refs', 1],
        msg: `Upload '${forA}' was made for model '${MODEL_A}'; upload it again for '${MODEL_B}'`,
        input: forA,
        ctx: { upload_model_slug: MODEL_A },
      },
    ]);
  });
});

describe('frames: Model A start image, Model B first and last, swappable', () => {
  async function frames(emulator: Emulator, body: Record<string, unknown>) {
    const res = await client(emulator).submit(
      { prompt: 'fox', max_credits: 10_000, ...body },
      `frames-${Math.random().toString(36).slice(2, 12)}`,
    );
    expect(res.status, res.text).toBe(202);
    return runtimeOf(emulator).context().generations.get(res.body.generation.id)!.frames;
  }

  it('uses a Model A upload as the start image, by refs or by its slot', async () => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const start = await uploaded(emulator, MODEL_A, png(96, 80), { target_slot: 'start_image' });
    expect(await frames(emulator, { model_slug: MODEL_A, refs: [start] })).toEqual({ first: start });
    expect(await frames(emulator, { model_slug: MODEL_A, ref_slots: { start_image: [start] } })).toEqual({
      first: start,
    });
  });

  it('assigns Model B frames by order, by ref_roles and by ref_slots', async () => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const u1 = await uploaded(emulator, MODEL_B, png(96, 80));
    const u2 = await uploaded(emulator, MODEL_B, jpeg(640, 360));
    expect(await frames(emulator, { model_slug: MODEL_B, refs: [u1, u2] })).toEqual({ first: u1, last: u2 });
    expect(await frames(emulator, { model_slug: MODEL_B, refs: [u2, u1] })).toEqual({ first: u2, last: u1 });
    expect(
      await frames(emulator, { model_slug: MODEL_B, refs: [u1, u2], ref_roles: { [u1]: 'last', [u2]: 'first' } }),
    ).toEqual({ first: u2, last: u1 });
    expect(await frames(emulator, { model_slug: MODEL_B, refs: [u1, u2], ref_roles: { [u1]: 'last' } })).toEqual({
      first: u2,
      last: u1,
    });
    expect(await frames(emulator, { model_slug: MODEL_B, ref_slots: { first_frame: [u2], last_frame: [u1] } })).toEqual(
      { first: u2, last: u1 },
    );
    expect(await frames(emulator, { model_slug: MODEL_B, ref_slots: { last_frame: [u1] } })).toEqual({ last: u1 });
    expect(await frames(emulator, { model_slug: MODEL_B, refs: [u1], ref_roles: { [u1]: 'last' } })).toEqual({
      last: u1,
    });
    expect(await frames(emulator, { model_slug: MODEL_B, refs: [u1] })).toEqual({ first: u1 });
    // Uploads are not used up: each submission charged once, none refused.
    expect(runtimeOf(emulator).context().generations.size).toBe(8);
  });

  it('renders a generation with a real start image to completion (ffmpeg when available)', async () => {
    const emulator = makeEmulator({ clockStart: START });
    const start = await uploaded(emulator, MODEL_A, png(160, 90));
    const res = await client(emulator).submit(
      { model_slug: MODEL_A, prompt: 'from a gradient', refs: [start], max_credits: 100 },
      'real-start-0001',
    );
    expect(res.status).toBe(202);
    await emulator.advance(60_000);
    const read = await client(emulator).get(`/v1/media/generations/${res.body.generation.id}`);
    expect(read.body.generation.status).toBe('completed');
    expect(read.body.generation.outputs[0].mime_type).toBe('video/mp4');
  });
});
