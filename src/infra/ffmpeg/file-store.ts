// Rendered files on disk under a byte cap: least recently used files go first, but only once their URLs have expired.
import { rename, rm, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';

export interface StoreEntry {
  key: string;
  path: string;
  bytes: number;
  mimeType: string;
  /** Latest expiry of any signed URL handed out for this file (emulator clock, ms); absent until the first touch. */
  expiresAt?: number;
}

export interface FileStoreOptions {
  dir: string;
  maxBytes: number;
  /** The emulator clock: "expired" is judged on it, so a frozen clock keeps every signed file alive. */
  now: () => number;
  log?: (line: string) => void;
}

export interface FileStore {
  readonly dir: string;
  /** The entry, marked as just used; undefined once evicted or cleared. */
  get(key: string): StoreEntry | undefined;
  /** Moves a finished file into the store under `key`, then evicts if over the cap (never `key` itself). */
  put(key: string, fromPath: string, mimeType: string, retainUntil?: number): Promise<StoreEntry>;
  touch(key: string, expiresAt: number): void;
  stats(): { files: number; bytes: number; evictions: number };
  clear(): Promise<void>;
}

export function createFileStore(options: FileStoreOptions): FileStore {
  // Map iteration order is insertion order: re-inserting on use keeps the least recently used first.
  const entries = new Map<string, StoreEntry>();
  const deletions = new Set<Promise<void>>();
  let totalBytes = 0;
  let evictions = 0;
  let warnedOverCap = false;

  const markUsed = (entry: StoreEntry): void => {
    entries.delete(entry.key);
    entries.set(entry.key, entry);
  };

  const remove = (entry: StoreEntry): void => {
    entries.delete(entry.key);
    totalBytes -= entry.bytes;
    const done: Promise<void> = rm(entry.path, { force: true })
      .catch(() => undefined)
      .finally(() => deletions.delete(done));
    deletions.add(done);
  };

  const evictOverCap = (protectedKey: string): void => {
    if (totalBytes <= options.maxBytes) return;
    const now = options.now();
    for (const entry of [...entries.values()]) {
      if (totalBytes <= options.maxBytes) break;
      if (entry.key === protectedKey) continue;
      // A file whose latest URL is still valid must stay downloadable, even over the cap.
      if (entry.expiresAt !== undefined && entry.expiresAt > now) continue;
      remove(entry);
      evictions += 1;
    }
    // The cap gives way to live URLs: say so once per crossing rather than break a link a client holds.
    if (totalBytes > options.maxBytes && !warnedOverCap) {
      warnedOverCap = true;
      options.log?.(
        `file store: warning: ${totalBytes} bytes stored, over the ${options.maxBytes}-byte cap, because every file left has a signed URL that is still valid; files go once their URLs expire`,
      );
    } else if (totalBytes <= options.maxBytes) warnedOverCap = false;
  };

  return {
    dir: options.dir,
    get(key) {
      const entry = entries.get(key);
      if (entry) markUsed(entry);
      return entry;
    },
    async put(key, fromPath, mimeType, retainUntil) {
      const path = join(options.dir, `${key}${extname(fromPath)}`);
      await rename(fromPath, path);
      const { size } = await stat(path);
      const previous = entries.get(key);
      if (previous) {
        entries.delete(key);
        totalBytes -= previous.bytes;
      }
      const expiresAt = Math.max(previous?.expiresAt ?? -Infinity, retainUntil ?? -Infinity);
      const entry: StoreEntry = {
        key,
        path,
        bytes: size,
        mimeType,
        expiresAt: Number.isFinite(expiresAt) ? expiresAt : undefined,
      };
      entries.set(key, entry);
      totalBytes += size;
      evictOverCap(key);
      return entry;
    },
    touch(key, expiresAt) {
      const entry = entries.get(key);
      if (!entry) return;
      entry.expiresAt = Math.max(entry.expiresAt ?? expiresAt, expiresAt);
      markUsed(entry);
    },
    stats: () => ({ files: entries.size, bytes: totalBytes, evictions }),
    async clear() {
      for (const entry of [...entries.values()]) remove(entry);
      await Promise.all([...deletions]);
    },
  };
}
