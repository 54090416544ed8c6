// registerUpload on its own: what an upload's record keeps of the request, with the parts it uses and no emulator.
import { describe, expect, it } from 'vitest';
import type { ApiKey } from '../../../src/domain/accounts.js';
import type { DomainContext } from '../../../src/domain/context.js';
import { DomainError } from '../../../src/domain/errors.js';
import { type UploadRequest, registerUpload } from '../../../src/domain/register-upload.js';
import { UploadStore } from '../../../src/domain/uploads.js';
import { createClock } from '../../../src/infra/clock.js';
import { createSequentialIds } from '../../../src/infra/ids.js';
import { nodeCrypto } from '../../../src/infra/node/node-crypto.js';
import { loadCatalogue } from '../../../src/wiring/node/catalogue-file.js';

const AT = Date.UTC(2026, 0, 2, 3, 4, 5);
const KEY: ApiKey = {
  id: 1,
  secret: 'sk_test',
  accountId: 'acct_1',
  name: 'test',
  modelScope: null,
  dailyCreditLimit: null,
  createdAt: AT,
  revokedAt: null,
};

/** The parts of a domain context registerUpload reads, real ones. */
function uploadContext() {
  const uploads = new UploadStore();
  const parts: Pick<DomainContext, 'catalogue' | 'ids' | 'uploads' | 'clock' | 'sha256Hex'> = {
    catalogue: loadCatalogue(),
    ids: createSequentialIds(),
    uploads,
    clock: createClock({ frozenAt: AT }),
    sha256Hex: nodeCrypto.sha256Hex,
  };
  return { ctx: parts as DomainContext, uploads };
}

const png = (extra: Partial<UploadRequest> = {}): UploadRequest => ({
  modelSlug: 'motion-lite-v1',
  filename: 'start.png',
  data: new Uint8Array([1, 2, 3]),
  sniffed: { format: 'png', width: 640, height: 480 },
  ...extra,
});

describe('registerUpload', () => {
  it('keeps no file name when the request sent none', async () => {
    const { ctx, uploads } = uploadContext();
    const upload = await registerUpload(ctx, KEY, png({ filename: null }));
    expect(upload).toMatchObject({ model_slug: 'motion-lite-v1', filename: null, format: 'png', bytes: 3 });
    expect(uploads.get(upload.id)?.filename).toBeNull();
  });

  it('keeps the first 255 characters of a long file name', async () => {
    const { ctx } = uploadContext();
    const upload = await registerUpload(ctx, KEY, png({ filename: `${'a'.repeat(300)}.png` }));
    expect(upload.filename).toBe('a'.repeat(255));
  });

  it('registers the image on the header alone when the host has no pixel decoder to ask', async () => {
    const { ctx, uploads } = uploadContext();
    const upload = await registerUpload(ctx, KEY, png({ pixelProblem: undefined }));
    expect(upload).toMatchObject({
      width: 640,
      height: 480,
      mime_type: 'image/png',
      created_at: '2026-01-02T03:04:05.000+00:00',
    });
    expect([...uploads.all()].map((u) => u.id)).toEqual([upload.id]);
  });

  it('refuses an image the pixel decoder cannot read, and keeps nothing', async () => {
    const { ctx, uploads } = uploadContext();
    const refused = registerUpload(ctx, KEY, png({ pixelProblem: async () => 'the data ends early' }));
    await expect(refused).rejects.toThrow(DomainError);
    await expect(refused).rejects.toMatchObject({
      code: 'unsupported_media_type',
      message: 'The png file could not be decoded: the data ends early. Send the complete image.',
    });
    expect([...uploads.all()]).toEqual([]);
  });
});
