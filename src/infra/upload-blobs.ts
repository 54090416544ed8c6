// Reference-upload bytes on disk, not in memory: one file per upload id, under a byte cap, fsynced when durable.
import { mkdirSync, mkdtempSync } from 'node:fs';
import { open, readFile, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface UploadBlobsOptions {
  /** A directory that outlives the process (next to the state file); default a fresh temp dir removed by close(). */
  dir?: string;
  maxBytes: number;
  /** fsync each file before put() resolves (persistence on). */
  durable: boolean;
}

export interface UploadBlobs {
  readonly maxBytes: number;
  /** Stores the bytes; rejects with UploadStoreFull when the cap would be passed. */
  put(id: string, data: Uint8Array): Promise<void>;
  read(id: string): Promise<Uint8Array>;
  remove(id: string): Promise<void>;
  bytes(): number;
  clear(): Promise<void>;
  close(): Promise<void>;
}

export class UploadStoreFull extends Error {}

const SAFE_ID = /^[A-Za-z0-9_-]+$/;

export function createUploadBlobs(options: UploadBlobsOptions): UploadBlobs {
  let dir = options.dir;
  const owned = dir === undefined;
  const sizes = new Map<string, number>();
  let total = 0;
  let counted: Promise<void> | undefined;

  // A kept directory (state file) already holds the uploads of earlier runs: they count against the cap.
  const ensure = (): Promise<string> => {
    if (dir === undefined) dir = mkdtempSync(join(tmpdir(), 'media-uploads-'));
    else mkdirSync(dir, { recursive: true });
    const at = dir;
    counted ??= (async () => {
      if (owned) return;
      for (const name of await readdir(at)) {
        const size = (await stat(join(at, name))).size;
        sizes.set(name, size);
        total += size;
      }
    })();
    return counted.then(() => at);
  };
  const pathOf = (at: string, id: string) => {
    if (!SAFE_ID.test(id)) throw new Error(`not an upload id: ${JSON.stringify(id)}`);
    return join(at, id);
  };

  return {
    maxBytes: options.maxBytes,
    async put(id, data) {
      const at = await ensure();
      if (total - (sizes.get(id) ?? 0) + data.length > options.maxBytes)
        throw new UploadStoreFull(
          `The emulator's upload store holds ${total} bytes and its cap is ${options.maxBytes}; reset the emulator or raise maxUploadStoreBytes (--max-upload-store-bytes).`,
        );
      const file = await open(pathOf(at, id), 'w');
      try {
        await file.writeFile(data);
        if (options.durable) await file.sync();
      } finally {
        await file.close();
      }
      total += data.length - (sizes.get(id) ?? 0);
      sizes.set(id, data.length);
    },
    async read(id) {
      return readFile(pathOf(await ensure(), id));
    },
    async remove(id) {
      if (!sizes.has(id)) return;
      total -= sizes.get(id)!;
      sizes.delete(id);
      await rm(pathOf(await ensure(), id), { force: true });
    },
    bytes: () => total,
    async clear() {
      for (const id of [...sizes.keys()]) await rm(pathOf(await ensure(), id), { force: true });
      sizes.clear();
      total = 0;
    },
    async close() {
      if (owned && dir !== undefined) await rm(dir, { recursive: true, force: true });
    },
  };
}
