// The renderer contract: turns one output of a generation into a real file; ffmpeg or fixture behind it.
import type { MediaSpec } from './media-spec.js';

/**
 * The Node renderer's file store cap when `maxStoreBytes` is not set: enough for a few hundred default outputs; files
 * with live URLs may push past it (see ffmpeg/file-store.ts).
 */
export const DEFAULT_MAX_STORE_BYTES = 512 * 1024 * 1024;

export interface ReferenceImage {
  /** The bytes, or `read` to fetch them once the render has a slot (so a queued job holds no image data). */
  bytes?: Uint8Array;
  read?: () => Promise<Uint8Array>;
  /** Content hash for the cache key; computed from `bytes` when absent. */
  sha256?: string;
  format: 'png' | 'jpeg' | 'webp';
  width: number;
  height: number;
}

export interface RenderJob {
  /** For logs only: the cache key never includes it, so identical requests share one render. */
  generationId: string;
  /** The identity line drawn in the picture: the generation id, or a request fingerprint when renders are shared. */
  identityLabel: string;
  modelSlug: string;
  kind: MediaSpec['kind'];
  prompt: string;
  /** Resolved params (defaults filled in), shown in the picture. */
  params: Record<string, string>;
  spec: MediaSpec;
  /** 0-based output index; each index renders visibly distinct. */
  index: number;
  /** Model A: the start image. Model B: the first frame. */
  firstFrame?: ReferenceImage;
  /** Model B: the last frame. */
  lastFrame?: ReferenceImage;
}

/** A rendered output as every host sees it; where its bytes live is the host's: `StoredFile` or `InMemoryFile`. */
export interface RenderedFile {
  /** Stable key in the file store (the render cache key). */
  key: string;
  bytes: number;
  mimeType: string;
  cacheHit: boolean;
}

/** Node: the output is a file on disk. */
export interface StoredFile extends RenderedFile {
  path: string;
}

/** A host without a file system (a browser): the output is its bytes, kept in memory under the render key. */
export interface InMemoryFile extends RenderedFile {
  data: Uint8Array;
}

export interface RendererInfo {
  /** `webcodecs`: the browser renderer (a page's WebCodecs encoders). */
  mode: 'ffmpeg' | 'fixture' | 'webcodecs';
  /** Where the binary came from; absent in fixture mode. */
  source?: 'FFMPEG_PATH' | 'PATH' | 'ffmpeg-static' | '@ffmpeg-installer/ffmpeg';
  binary?: string;
  version?: string;
  /** Why the emulator fell back to fixtures, when it did. */
  warning?: string;
  maxParallel: number;
}

export interface RendererStats {
  files: number;
  bytes: number;
  renders: number;
  cacheHits: number;
  running: number;
  queued: number;
  peakRunning: number;
  evictions: number;
}

/** The contract, over what a host's files are (`F`) and what its renderer reports about itself (`I`). */
export interface RendererOf<F extends RenderedFile, I> {
  readonly info: I;
  /**
   * `retainUntil`: the file is protected from eviction until then from the moment it is stored (emulator clock, ms),
   * so a file cannot be evicted between being stored and its first signed URL.
   */
  render(job: RenderJob, retainUntil?: number): Promise<F>;
  /** A stored file by key, or undefined once evicted. */
  get(key: string): F | undefined;
  /** Tells the store a signed URL for this key is valid until `expiresAt`, so eviction spares it. */
  touch(key: string, expiresAt: number): void;
  stats(): RendererStats;
  /** Delete every stored file (reset). */
  clear(): Promise<void>;
  close(): Promise<void>;
}

/** The Node renderer: ffmpeg or fixture files, on disk. */
export type Renderer = RendererOf<StoredFile, RendererInfo>;

/** A rendered file as either host keeps it: on disk (its path) or in memory (its bytes). */
export type HostFile = StoredFile | InMemoryFile;

/** Any host's renderer, as the wiring uses it: the files' common fields, and where each one's bytes are. */
export type AnyRenderer = RendererOf<HostFile, unknown>;
