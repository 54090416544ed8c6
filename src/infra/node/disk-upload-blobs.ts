// Node's upload store: one file per upload id on disk, not in memory, under the byte cap, fsynced when durable.
import { mkdirSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import { open, readFile, rm, rmdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BlobCap, checkUploadId, footprint, type UploadBlobs } from '../upload-blobs.js';

export interface DiskUploadBlobsOptions {
  /** A directory that outlives the process (next to the state file); default a fresh temp dir removed by close(). */
  dir?: string;
  maxBytes: number;
  /** fsync each file before put() resolves (persistence on). */
  durable: boolean;
}

export function createDiskUploadBlobs(options: DiskUploadBlobsOptions): UploadBlobs {
  let dir = options.dir;
  const owned = dir === undefined;
  const cap = new BlobCap(options.maxBytes);
  let counted = false;

  // A kept directory (state file) already holds the uploads of earlier runs: they count against the cap. Read
  // synchronously, once, so put() can check and reserve before its first await.
  const ensure = (): string => {
    if (!counted && dir !== undefined && !owned) {
      counted = true;
      mkdirSync(dir, { recursive: true });
      for (const name of readdirSync(dir)) cap.count(name, footprint(statSync(join(dir, name)).size));
    }
    dir ??= mkdtempSync(join(tmpdir(), 'media-uploads-'));
    return dir;
  };
  const pathOf = (at: string, id: string) => join(at, checkUploadId(id));
  const clear = async () => {
    for (const id of [...cap.sizes.keys()]) await rm(pathOf(ensure(), id), { force: true });
    cap.forgetAll();
  };
  const close = async () => {
    if (owned && dir !== undefined) await rm(dir, { recursive: true, force: true });
  };

  return {
    maxBytes: options.maxBytes,
    async put(id, data) {
      const at = ensure();
      const size = cap.reserve(id, data.length);
      let written = false;
      try {
        const file = await open(pathOf(at, id), 'w');
        try {
          await file.writeFile(data);
          if (options.durable) await file.sync();
        } finally {
          await file.close();
        }
        written = true;
      } finally {
        cap.settle(id, size, written);
      }
    },
    async read(id) {
      return readFile(pathOf(ensure(), id));
    },
    has: (id) => {
      ensure();
      return cap.sizes.has(id);
    },
    async remove(id) {
      if (cap.forget(id)) await rm(pathOf(ensure(), id), { force: true });
    },
    bytes: cap.bytes,
    fits: cap.fits,
    bytesWith(files) {
      ensure();
      return cap.bytesWith(files);
    },
    clear,
    close,
    async destroy() {
      await clear();
      await close();
      // A kept folder emptied by clear(): removed too, or every deleted sandbox would leave one behind. A file the store
      // does not know of (put there by hand) keeps it.
      if (!owned && dir !== undefined)
        await rmdir(dir).catch((error: NodeJS.ErrnoException) => {
          if (error.code !== 'ENOENT' && error.code !== 'ENOTEMPTY') throw error;
        });
    },
  };
}
