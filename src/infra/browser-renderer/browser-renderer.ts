// The renderer in a browser: the Renderer contract over WebCodecs, Mediabunny and OffscreenCanvas, its files in memory.
import { createRenderQueue } from '../ffmpeg/render-queue.js';
import type { InMemoryFile, RendererOf, RenderJob } from '../renderer.js';
import {
  type BrowserAudioCodec,
  type BrowserVideoCodec,
  createEncoderChoice,
  type EncoderChoice,
  type EncoderPreferences,
} from './encoder-choice.js';
import { fetchFallback, type LoadFallback } from './fallback-media.js';
import { createMemoryFileStore, toInMemoryFile } from './memory-file-store.js';
import { produceOutput } from './produce-output.js';
import { renderKey } from './render-key.js';

/** Bump when the pictures or sounds change, so cached outputs of an older look are not served. */
export const BROWSER_RENDERER_VERSION = 'browser-renderer/1';

/** A page keeps its outputs in memory: a few dozen default videos, fewer than the Node store's 512 MB on disk. */
export const DEFAULT_MAX_MEMORY_BYTES = 64 * 1024 * 1024;

/** Monospace, as the text layout assumes (text-layout.ts); DejaVu Sans Mono is the ffmpeg renderer's shipped font. */
export const DEFAULT_FONT_FAMILY = '"DejaVu Sans Mono", "Menlo", "Consolas", monospace';

export interface BrowserRendererInfo {
  /** `webcodecs` when this browser encodes video at the default size; `fixture` when MP4s are the shipped clip. */
  mode: 'webcodecs' | 'fixture';
  /** What a default 854x480 video and its sound are encoded with here; each render asks again for its own size. */
  videoCodec: BrowserVideoCodec | null;
  audioCodec: BrowserAudioCodec | null;
  webp: boolean;
  /** Why some outputs are fallbacks, when they are. */
  warning?: string;
  maxParallel: number;
}

export type BrowserRenderer = RendererOf<InMemoryFile, BrowserRendererInfo>;

export interface BrowserRendererOptions extends EncoderPreferences {
  /** The emulator clock, for URL expiry in the store. */
  now: () => number;
  maxStoreBytes?: number;
  /** Renders at once; default 1 (a page's encoders share its CPU with the page). */
  maxParallel?: number;
  log?: (line: string) => void;
  /** Where the shipped fallback files come from; default: fetched from the package's fixtures/. */
  loadFallback?: LoadFallback;
  fontFamily?: string;
}

async function probeInfo(encoders: EncoderChoice, maxParallel: number): Promise<BrowserRendererInfo> {
  const [video, audio, webp] = await Promise.all([encoders.video(854, 480), encoders.audio(), encoders.webp()]);
  const videoCodec = video?.codec ?? null;
  const audioCodec = audio?.codec ?? null;
  const problems = [
    videoCodec ? undefined : 'no WebCodecs H.264 or VP9 encoder: MP4 outputs are fixtures/fallback.mp4',
    audioCodec ? undefined : 'no WebCodecs AAC or Opus encoder: videos carry no sound, music is fixtures/fallback.m4a',
    encoders.canvas ? undefined : 'no OffscreenCanvas: images are fixtures/fallback.png',
    !encoders.canvas || webp ? undefined : 'no WebP encoder: WebP outputs are PNG',
  ].filter((p): p is string => p !== undefined);
  return {
    mode: videoCodec ? 'webcodecs' : 'fixture',
    videoCodec,
    audioCodec,
    webp,
    ...(problems.length > 0 ? { warning: problems.join('; ') } : {}),
    maxParallel,
  };
}

export async function createBrowserRenderer(options: BrowserRendererOptions): Promise<BrowserRenderer> {
  const maxParallel = Math.max(1, Math.floor(options.maxParallel ?? 1));
  const encoders = createEncoderChoice(options);
  const info = await probeInfo(encoders, maxParallel);
  const fontFamily = options.fontFamily ?? DEFAULT_FONT_FAMILY;
  const version = [BROWSER_RENDERER_VERSION, info.mode, info.videoCodec, info.audioCodec, info.webp, fontFamily].join(
    '|',
  );
  const store = createMemoryFileStore({
    maxBytes: options.maxStoreBytes ?? DEFAULT_MAX_MEMORY_BYTES,
    now: options.now,
    log: options.log,
  });
  const queue = createRenderQueue(maxParallel);
  const inflight = new Map<string, Promise<InMemoryFile>>();
  const warned = new Set<string>();
  const deps = {
    encoders,
    loadFallback: options.loadFallback ?? fetchFallback,
    fontFamily,
    warnOnce(reason: string, message: string) {
      if (warned.has(reason)) return;
      warned.add(reason);
      options.log?.(message);
    },
  };
  let renders = 0;
  let cacheHits = 0;
  let closed = false;

  const renderInSlot = async (key: string, job: RenderJob, retainUntil: number | undefined): Promise<InMemoryFile> => {
    if (closed) throw new Error('renderer is closed');
    try {
      const produced = await produceOutput(job, deps);
      const entry = store.put(key, produced.data, produced.mimeType, retainUntil);
      renders += 1;
      return toInMemoryFile(entry, false);
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      throw new Error(
        `render of ${job.modelSlug} output ${job.index + 1}/${job.spec.count} (${job.generationId}) failed: ${reason}`,
        { cause: err },
      );
    }
  };

  return {
    info,
    async render(job, retainUntil) {
      if (closed) throw new Error('renderer is closed');
      const key = await renderKey(job, version);
      const stored = store.get(key);
      if (stored) {
        cacheHits += 1;
        if (retainUntil !== undefined) store.touch(key, retainUntil);
        return toInMemoryFile(stored, true);
      }
      const pending = inflight.get(key);
      if (pending) {
        // The same job is rendering: share its result instead of encoding it twice.
        cacheHits += 1;
        const shared = await pending;
        if (retainUntil !== undefined) store.touch(key, retainUntil);
        return { ...shared, cacheHit: true };
      }
      const fresh = queue.run(() => renderInSlot(key, job, retainUntil));
      inflight.set(key, fresh);
      const forget = (): void => void inflight.delete(key);
      fresh.then(forget, forget);
      return fresh;
    },
    get(key) {
      const entry = store.get(key);
      return entry ? toInMemoryFile(entry, false) : undefined;
    },
    touch: (key, expiresAt) => store.touch(key, expiresAt),
    stats() {
      const s = store.stats();
      return { files: s.files, bytes: s.bytes, renders, cacheHits, ...queue.stats(), evictions: s.evictions };
    },
    async clear() {
      store.clear();
      renders = 0;
      cacheHits = 0;
      queue.resetPeak();
    },
    async close() {
      if (closed) return;
      closed = true;
      queue.rejectWaiting(new Error('renderer closed'));
      await Promise.allSettled([...inflight.values()]);
      store.clear();
    },
  };
}
