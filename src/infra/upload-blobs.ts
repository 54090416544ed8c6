// Reference-upload bytes, kept apart from the records: the store's contract and its byte cap, and a host's store in memory.

export interface UploadBlobs {
  readonly maxBytes: number;
  /** Stores the bytes; rejects with UploadStoreFull when the cap would be passed. */
  put(id: string, data: Uint8Array): Promise<void>;
  /** The bytes stored under `id`; rejects with an error `isMissingBlob` recognises when there are none. */
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
  /** Clears and closes, and leaves nothing of the store behind (a deleted sandbox's folder): it is not used again. */
  destroy(): Promise<void>;
}

export class UploadStoreFull extends Error {}

/** An id with no bytes: the error a read of a missing file gives on Node (ENOENT), which every store answers. */
export const isMissingBlob = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'ENOENT';

const SAFE_ID = /^[A-Za-z0-9_-]+$/;

/** Upload ids only: on disk an id is a file name. */
export function checkUploadId(id: string): string {
  if (!SAFE_ID.test(id)) throw new Error(`not an upload id: ${JSON.stringify(id)}`);
  return id;
}

/**
 * What an upload counts against the cap: its size rounded up to whole 4 KiB blocks, as a file system stores it. A
 * 91-byte image used to count 91 bytes, so the cap allowed millions of uploads, each with its record in memory. A
 * store in memory counts the same, so the cap admits the same uploads on every host.
 */
const BLOCK = 4096;
export const footprint = (size: number) => Math.max(1, Math.ceil(size / BLOCK)) * BLOCK;

/** The cap's books, the same for every host's store: what each id holds, and what puts still writing have reserved. */
export class BlobCap {
  readonly sizes = new Map<string, number>();
  total = 0;
  /**
   * Bytes promised to puts still writing: counted with the check in one synchronous step, so concurrent puts cannot
   * all pass a check made before any of them was counted.
   */
  reserved = 0;

  constructor(readonly maxBytes: number) {}

  /** Room for `length` bytes under `id` (replacing what it holds), taken now; throws UploadStoreFull past the cap. */
  reserve(id: string, length: number): number {
    const replaced = this.sizes.get(id) ?? 0;
    const size = footprint(length);
    if (this.total + this.reserved - replaced + size > this.maxBytes)
      throw new UploadStoreFull(
        `The emulator's upload store holds ${this.total + this.reserved} bytes and its cap is ${this.maxBytes}; reset the emulator or raise maxUploadStoreBytes (--max-upload-store-bytes).`,
      );
    this.reserved += size;
    return size;
  }

  /** A reserved put is written (`true`) or failed: the reservation ends, and a written file counts. */
  settle(id: string, size: number, written: boolean): void {
    this.reserved -= size;
    if (!written) return;
    this.count(id, size);
  }

  /** A file `id` of this footprint is stored (one found on disk at start, or one just written). */
  count(id: string, size: number): void {
    this.total += size - (this.sizes.get(id) ?? 0);
    this.sizes.set(id, size);
  }

  /** Forgets `id`; false when it held nothing. */
  forget(id: string): boolean {
    const size = this.sizes.get(id);
    if (size === undefined) return false;
    this.total -= size;
    this.sizes.delete(id);
    return true;
  }

  forgetAll(): void {
    this.sizes.clear();
    this.total = 0;
  }

  bytes = () => this.total + this.reserved;
  fits = (size: number) => this.total + this.reserved + footprint(size) <= this.maxBytes;

  bytesWith(files: readonly { id: string; size: number }[]): number {
    const after = new Map<string, number>();
    for (const { id, size } of files) after.set(id, footprint(size));
    let sum = this.total + this.reserved;
    for (const [id, size] of after) sum += size - (this.sizes.get(id) ?? 0);
    return sum;
  }
}

/**
 * A host's upload store made on its first use: most sandboxes never receive a file, and an idle world then holds one
 * small object instead of the store's closures, its cap and its map. Closing one never made has nothing to close (the
 * store it would make owns nothing yet); every other call, a destroy or clear of files kept on disk included, makes it.
 */
export class LazyUploadBlobs implements UploadBlobs {
  private made?: UploadBlobs;

  constructor(private readonly make: () => UploadBlobs) {}

  private get store(): UploadBlobs {
    this.made ??= this.make();
    return this.made;
  }

  get maxBytes() {
    return this.store.maxBytes;
  }
  put(id: string, data: Uint8Array) {
    return this.store.put(id, data);
  }
  read(id: string) {
    return this.store.read(id);
  }
  has(id: string) {
    return this.store.has(id);
  }
  remove(id: string) {
    return this.store.remove(id);
  }
  bytes() {
    return this.store.bytes();
  }
  fits(size: number) {
    return this.store.fits(size);
  }
  bytesWith(files: readonly { id: string; size: number }[]) {
    return this.store.bytesWith(files);
  }
  clear() {
    return this.store.clear();
  }
  close() {
    return this.made ? this.made.close() : Promise.resolve();
  }
  destroy() {
    return this.store.destroy();
  }
}

/** The upload store of a host without files (a browser): each upload's bytes in memory, under the same cap. */
export function createMemoryUploadBlobs(options: { maxBytes: number }): UploadBlobs {
  const cap = new BlobCap(options.maxBytes);
  const blobs = new Map<string, Uint8Array>();
  // In memory, clearing, closing and destroying are one thing: nothing outlives the store.
  const forgetAll = async () => {
    blobs.clear();
    cap.forgetAll();
  };
  return {
    maxBytes: options.maxBytes,
    async put(id, data) {
      const size = cap.reserve(checkUploadId(id), data.length);
      // A copy: the caller's buffer may be reused, and what is stored must not change with it.
      blobs.set(id, data.slice());
      cap.settle(id, size, true);
    },
    async read(id) {
      const data = blobs.get(checkUploadId(id));
      if (data === undefined)
        throw Object.assign(new Error(`upload ${id} has no bytes stored`), { code: 'ENOENT' as const });
      return data.slice();
    },
    has: (id) => cap.sizes.has(id),
    async remove(id) {
      if (cap.forget(id)) blobs.delete(id);
    },
    bytes: cap.bytes,
    fits: cap.fits,
    bytesWith: (files) => cap.bytesWith(files),
    clear: forgetAll,
    close: forgetAll,
    destroy: forgetAll,
  };
}
