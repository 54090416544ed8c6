// Reference-upload bytes on disk, not in memory: one file per upload id, under a byte cap, fsynced when durable.
import { mkdirSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import { open, readFile, rm } from 'node:fs/promises';
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
  has(id: string): boolean;
  remove(id: string): Promise<void>;
  bytes(): number;
  /** True when a file of `size` bytes fits under the cap now (put() checks again). */
  fits(size: number): boolean;
  /** What the store would hold with these files written (each replacing a file of its id): checked before any is. */
  bytesWith(files: readonly { id: string; size: number }[]): number;
  clear(): Promise<void>;
  close(): Promise<void>;
}

export class UploadStoreFull extends Error {}

const SAFE_ID = /^[A-Za-z0-9_-]+$/;
/**
 * What an upload counts against the cap: its size rounded up to whole 4 KiB blocks, as a file system stores it. A
 * 91-byte image used to count 91 bytes, so the cap allowed millions of uploads, each with its record in memory.
 */
const BLOCK = 4096;
const footprint = (size: number) => Math.max(1, Math.ceil(size / BLOCK)) * BLOCK;

export function createUploadBlobs(options: UploadBlobsOptions): UploadBlobs {
  let dir = options.dir;
  const owned = dir === undefined;
  const sizes = new Map<string, number>();
  let total = 0;
  // Bytes promised to puts still writing: counted with the check in one synchronous step, so concurrent puts cannot
  // all pass a check made before any of them was counted.
  let reserved = 0;
  let counted = false;

  // A kept directory (state file) already holds the uploads of earlier runs: they count against the cap. Read
  // synchronously, once, so put() can check and reserve before its first await.
  const ensure = (): string => {
    if (!counted && dir !== undefined && !owned) {
      counted = true;
      mkdirSync(dir, { recursive: true });
      for (const name of readdirSync(dir)) {
        const size = footprint(statSync(join(dir, name)).size);
        sizes.set(name, size);
        total += size;
      }
    }
    dir ??= mkdtempSync(join(tmpdir(), 'media-uploads-'));
    return dir;
  };
  const pathOf = (at: string, id: string) => {
    if (!SAFE_ID.test(id)) throw new Error(`not an upload id: ${JSON.stringify(id)}`);
    return join(at, id);
  };

  return {
    maxBytes: options.maxBytes,
    async put(id, data) {
      const at = ensure();
      const replaced = sizes.get(id) ?? 0;
      const size = footprint(data.length);
      if (total + reserved - replaced + size > options.maxBytes)
        throw new UploadStoreFull(
          `The emulator's upload store holds ${total + reserved} bytes and its cap is ${options.maxBytes}; reset the emulator or raise maxUploadStoreBytes (--max-upload-store-bytes).`,
        );
      reserved += size;
      try {
        const file = await open(pathOf(at, id), 'w');
        try {
          await file.writeFile(data);
          if (options.durable) await file.sync();
        } finally {
          await file.close();
        }
      } catch (error) {
        reserved -= size;
        throw error;
      }
      reserved -= size;
      total += size - (sizes.get(id) ?? 0);
      sizes.set(id, size);
    },
    async read(id) {
      return readFile(pathOf(ensure(), id));
    },
    has: (id) => {
      ensure();
      return sizes.has(id);
    },
    async remove(id) {
      if (!sizes.has(id)) return;
      total -= sizes.get(id)!;
      sizes.delete(id);
      await rm(pathOf(ensure(), id), { force: true });
    },
    bytes: () => total + reserved,
    fits: (size) => total + reserved + footprint(size) <= options.maxBytes,
    bytesWith(files) {
      ensure();
      const after = new Map<string, number>();
      for (const { id, size } of files) after.set(id, footprint(size));
      let sum = total + reserved;
      for (const [id, size] of after) sum += size - (sizes.get(id) ?? 0);
      return sum;
    },
    async clear() {
      for (const id of [...sizes.keys()]) await rm(pathOf(ensure(), id), { force: true });
      sizes.clear();
      total = 0;
    },
    async close() {
      if (owned && dir !== undefined) await rm(dir, { recursive: true, force: true });
    },
  };
}
