// An upload that is a valid image header with no pixel data behind it is refused at upload, not at render.
import { describe, expect, it } from 'vitest';
import { client, makeEmulator } from '../helpers/emulator.js';
import { multipart, pngHeader } from '../helpers/images.js';

describe('header-only images', () => {
  it('refuses a 45-byte PNG (signature and header, no pixels) at upload with 415', async () => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const image = pngHeader(640, 360, 45);
    expect(image.length).toBe(45);
    const form = multipart({ model_slug: 'motion-lite-v1' }, { data: image });
    const res = await client(emulator)
      .raw.post('/v1/media/uploads')
      .set('Authorization', `Bearer ${emulator.apiKey}`)
      .set('Content-Type', form.contentType)
      .send(form.body);
    expect([res.status, res.body.error.code]).toEqual([415, 'unsupported_media_type']);
    expect(res.body.error.message).toContain('could not be decoded');
  });
});
