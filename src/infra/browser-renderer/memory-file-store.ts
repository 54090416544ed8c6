// Rendered outputs in memory under a byte cap, keyed by render key: least recently used go first, once their URLs expire.
import type { InMemoryFile } from '../renderer.js';

export interface MemoryEntry {
  key: string;
  data: Uint8Array;
  mimeType: string;
  /** Latest expiry of any signed URL handed out for this file (emulator clock, ms); absent until the first touch. */
  expiresAt?: number;
}

export interface MemoryFileStoreOptions {
  maxBytes: number;
  /** The emulator clock: "expired" is judged on it, so a frozen clock keeps every signed file alive. */
  now: () => number;
  log?: (line: string) => void;
}

/** The same rules as the Node file store (src/infra/ffmpeg/file-store.ts), over bytes instead of files on disk. */
export interface MemoryFileStore {
  /** The entry, marked as just used; undefined once evicted or cleared. */
  get(key: string): MemoryEntry | undefined;
  /** Keeps `data` under `key`, then evicts if over the cap (never `key` itself). */
  put(key: string, data: Uint8Array, mimeType: string, retainUntil?: number): MemoryEntry;
  touch(key: string, expiresAt: number): void;
  stats(): { files: number; bytes: number; evictions: number };
  clear(): void;
}

export const toInMemoryFile = (entry: MemoryEntry, cacheHit: boolean): InMemoryFile => ({
  key: entry.key,
  data: entry.data,
  bytes: entry.data.byteLength,
  mimeType: entry.mimeType,
  cacheHit,
});

export function createMemoryFileStore(options: MemoryFileStoreOptions): MemoryFileStore {
  // Map iteration order is insertion order: re-inserting on use keeps the least recently used first.
  const entries = new Map<string, MemoryEntry>();
  let totalBytes = 0;
  let evictions = 0;
  let warnedOverCap = false;

  const markUsed = (entry: MemoryEntry): void => {
    entries.delete(entry.key);
    entries.set(entry.key, entry);
  };
  const remove = (entry: MemoryEntry): void => {
    entries.delete(entry.key);
    totalBytes -= entry.data.byteLength;
  };

  const evictOverCap = (protectedKey: string): void => {
    if (totalBytes <= options.maxBytes) return;
    const now = options.now();
    for (const entry of [...entries.values()]) {
      if (totalBytes <= options.maxBytes) break;
      // A file whose latest URL is still valid must stay downloadable, even over the cap.
      if (entry.key === protectedKey || (entry.expiresAt !== undefined && entry.expiresAt > now)) continue;
      remove(entry);
      evictions += 1;
    }
    if (totalBytes > options.maxBytes && !warnedOverCap) {
      warnedOverCap = true;
      options.log?.(
        `browser file store: warning: ${totalBytes} bytes kept, over the ${options.maxBytes}-byte cap, because every file left has a signed URL that is still valid; files go once their URLs expire`,
      );
    } else if (totalBytes <= options.maxBytes) warnedOverCap = false;
  };

  return {
    get(key) {
      const entry = entries.get(key);
      if (entry) markUsed(entry);
      return entry;
    },
    put(key, data, mimeType, retainUntil) {
      const previous = entries.get(key);
      if (previous) remove(previous);
      const expiresAt = Math.max(previous?.expiresAt ?? -Infinity, retainUntil ?? -Infinity);
      const entry: MemoryEntry = { key, data, mimeType, expiresAt: Number.isFinite(expiresAt) ? expiresAt : undefined };
      entries.set(key, entry);
      totalBytes += data.byteLength;
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
    clear() {
      entries.clear();
      totalBytes = 0;
    },
  };
}
