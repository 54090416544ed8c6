// The upload store on each host, one contract: Node's on disk and a browser's in memory admit the same uploads under
// the same cap (whole 4 KiB blocks), refuse past it, and read back exactly the bytes put.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createDiskUploadBlobs } from '../../../src/infra/node/disk-upload-blobs.js';
import {
  createMemoryUploadBlobs,
  isMissingBlob,
  type UploadBlobs,
  UploadStoreFull,
} from '../../../src/infra/upload-blobs.js';

const folders: string[] = [];
const opened: UploadBlobs[] = [];
afterEach(async () => {
  for (const blobs of opened.splice(0)) await blobs.close();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

const STORES: [string, (maxBytes: number) => UploadBlobs][] = [
  ['on disk (Node)', (maxBytes) => createDiskUploadBlobs({ maxBytes, durable: false })],
  ['in memory (a browser)', (maxBytes) => createMemoryUploadBlobs({ maxBytes })],
];

const bytes = (length: number, fill = 7) => new Uint8Array(length).fill(fill);

describe.each(STORES)('the upload store %s', (_, make) => {
  const store = (maxBytes: number) => {
    const blobs = make(maxBytes);
    opened.push(blobs);
    return blobs;
  };

  it('counts each upload in whole 4 KiB blocks, and refuses the one that would pass the cap', async () => {
    const blobs = store(3 * 4096);
    await blobs.put('upl_1', bytes(91));
    expect(blobs.bytes()).toBe(4096);
    await blobs.put('upl_2', bytes(4097));
    expect(blobs.bytes()).toBe(3 * 4096);
    expect(blobs.fits(1)).toBe(false);
    await expect(blobs.put('upl_3', bytes(1))).rejects.toThrow(UploadStoreFull);
    expect(blobs.has('upl_3')).toBe(false);
    // Replacing an upload counts it once.
    await blobs.put('upl_1', bytes(4096));
    expect(blobs.bytes()).toBe(3 * 4096);
    expect(
      blobs.bytesWith([
        { id: 'upl_1', size: 10 },
        { id: 'upl_4', size: 5000 },
      ]),
    ).toBe(5 * 4096);
  });

  it('lets concurrent puts past the cap only as far as it goes: each is counted before the first is written', async () => {
    const blobs = store(2 * 4096);
    const results = await Promise.allSettled(['upl_a', 'upl_b', 'upl_c'].map((id) => blobs.put(id, bytes(100))));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected']);
    expect(blobs.bytes()).toBe(2 * 4096);
  });

  it('reads back the bytes put, not a view of the caller buffer; a missing one is an error isMissingBlob knows', async () => {
    const blobs = store(1 << 20);
    const data = bytes(10, 1);
    await blobs.put('upl_1', data);
    data.fill(9);
    expect([...(await blobs.read('upl_1'))]).toEqual(Array(10).fill(1));
    const missing = await blobs.read('upl_2').catch((error: unknown) => error);
    expect(isMissingBlob(missing)).toBe(true);
    expect(isMissingBlob(new Error('another failure'))).toBe(false);
  });

  it('forgets what it removes or clears, and refuses an id that is not an upload id', async () => {
    const blobs = store(1 << 20);
    await blobs.put('upl_1', bytes(10));
    await blobs.put('upl_2', bytes(10));
    await blobs.remove('upl_1');
    expect(blobs.has('upl_1')).toBe(false);
    expect(blobs.bytes()).toBe(4096);
    await blobs.clear();
    expect(blobs.has('upl_2')).toBe(false);
    expect(blobs.bytes()).toBe(0);
    await expect(blobs.put('../escape', bytes(1))).rejects.toThrow('not an upload id');
    expect(blobs.bytes()).toBe(0);
  });
});

describe('the upload store on disk, kept beside a state file', () => {
  it('counts the uploads a previous run left in its folder against the cap', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'upload-blobs-'));
    folders.push(dir);
    const earlier = createDiskUploadBlobs({ dir, maxBytes: 1 << 20, durable: true });
    await earlier.put('upl_1', bytes(5000));
    await earlier.close();
    const later = createDiskUploadBlobs({ dir, maxBytes: 1 << 20, durable: true });
    opened.push(later);
    expect(later.has('upl_1')).toBe(true);
    expect(later.bytes()).toBe(2 * 4096);
  });

  it('leaves no folder behind when destroyed (a deleted sandbox), unless it holds a file the store does not know', async () => {
    const root = mkdtempSync(join(tmpdir(), 'upload-blobs-'));
    folders.push(root);
    const dir = join(root, 'sbx_1.uploads');
    const kept = createDiskUploadBlobs({ dir, maxBytes: 1 << 20, durable: true });
    await kept.put('upl_1', bytes(10));
    await kept.destroy();
    expect(existsSync(dir)).toBe(false);
    expect(existsSync(root)).toBe(true);

    const other = join(root, 'sbx_2.uploads');
    const withStranger = createDiskUploadBlobs({ dir: other, maxBytes: 1 << 20, durable: true });
    await withStranger.put('upl_2', bytes(10));
    writeFileSync(join(other, 'notes.txt'), 'put there by hand');
    await withStranger.destroy();
    expect(existsSync(join(other, 'upl_2'))).toBe(false);
    expect(existsSync(join(other, 'notes.txt'))).toBe(true);
  });
});
