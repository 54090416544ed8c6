// The upload store's byte cap holds under concurrent uploads (bytes reserved when checked, before any write), and
// counts what a file takes on disk (whole 4 KiB blocks), so tiny uploads cannot pile up records without bound.
import { describe, expect, it } from 'vitest';
import { startTestEmulator } from '../helpers/emulator.js';
import { multipart, paddedPng, png } from '../helpers/images.js';

// A whole number of 4 KiB blocks, so the cap below counts these files at their size.
const FILE_BYTES = 864 * 1024;

describe('the upload store cap under concurrency', () => {
  it('accepts exactly as many concurrent uploads as fit, refuses the rest with 507, and stores no more bytes than the cap', async () => {
    const running = await startTestEmulator({ ffmpegPath: false, seed: 1, maxUploadStoreBytes: 3 * FILE_BYTES + 1000 });
    const form = multipart({ model_slug: 'motion-lite-v1' }, { data: paddedPng(800, 600, FILE_BYTES) });
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        fetch(`${running.url}/v1/media/uploads`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${running.apiKey}`, 'Content-Type': form.contentType },
          body: form.body,
        }).then(async (res) => ({ status: res.status, body: (await res.json()) as { error?: { code: string } } })),
      ),
    );
    const accepted = answers.filter((a) => a.status === 201);
    const refused = answers.filter((a) => a.status !== 201);
    expect(accepted).toHaveLength(3);
    expect(refused.map((a) => [a.status, a.body.error?.code])).toEqual(
      Array.from({ length: 17 }, () => [507, 'upload_storage_full']),
    );
    const state = await running.control.exportState();
    expect(state.domain.uploads).toHaveLength(3);
  });

  it('frees the reservation of a refused upload, so the next one that fits is accepted', async () => {
    const running = await startTestEmulator({ ffmpegPath: false, seed: 1, maxUploadStoreBytes: 2 * FILE_BYTES + 1000 });
    const send = (data: Buffer) => {
      const form = multipart({ model_slug: 'motion-lite-v1' }, { data });
      return fetch(`${running.url}/v1/media/uploads`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${running.apiKey}`, 'Content-Type': form.contentType },
        body: form.body,
      }).then((res) => res.status);
    };
    // Not an image: refused after the size pre-check, so nothing may stay reserved for it.
    const statuses = await Promise.all([send(Buffer.alloc(FILE_BYTES, 7)), send(Buffer.alloc(FILE_BYTES, 7))]);
    expect(statuses).toEqual([415, 415]);
    expect(await Promise.all([send(paddedPng(800, 600, FILE_BYTES)), send(paddedPng(800, 600, FILE_BYTES))])).toEqual([
      201, 201,
    ]);
  });

  it('counts each upload as whole 4 KiB blocks: ten tiny images fill a 40 KiB cap, and a long file name is kept to 255 characters', async () => {
    const running = await startTestEmulator({ ffmpegPath: false, seed: 1, maxUploadStoreBytes: 10 * 4096 });
    const tiny = png(64, 64);
    expect(tiny.length).toBeLessThan(4096);
    const statuses: number[] = [];
    let filename = '';
    for (let i = 0; i < 11; i++) {
      const form = multipart({ model_slug: 'motion-lite-v1' }, { data: tiny, filename: `${'n'.repeat(1000)}.png` });
      const res = await fetch(`${running.url}/v1/media/uploads`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${running.apiKey}`, 'Content-Type': form.contentType },
        body: form.body,
      });
      statuses.push(res.status);
      const body = (await res.json()) as { filename?: string };
      if (res.status === 201) filename = body.filename ?? '';
    }
    expect(statuses).toEqual([...Array.from({ length: 10 }, () => 201), 507]);
    expect(filename).toBe('n'.repeat(255));
  });
});
