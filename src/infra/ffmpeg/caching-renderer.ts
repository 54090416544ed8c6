// The Renderer shared by ffmpeg and fixture modes: content-addressed cache, coalescing, bounded queue, file store.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { ReferenceImage, Renderer, RendererInfo, RenderJob, StoredFile } from '../renderer.js';
import { createCacheKeyHasher } from './render-cache-key.js';
import { createFileStore, type StoreEntry } from './file-store.js';
import { createRenderQueue } from './render-queue.js';

export interface ProduceContext {
  /** Private to this render; removed afterwards, with any partial output in it. */
  tmpDir: string;
  outPath: string;
  /** Aborted by close(): kill child processes. */
  signal: AbortSignal;
}

export type Produce = (job: RenderJob, ctx: ProduceContext) => Promise<void>;

const load = async (image: ReferenceImage | undefined): Promise<ReferenceImage | undefined> =>
  image && !image.bytes && image.read ? { ...image, bytes: await image.read() } : image;

/** Reference images are read only now, inside the slot: the backlog holds their ids, never their bytes. */
async function loadImages(job: RenderJob): Promise<RenderJob> {
  if (!job.firstFrame && !job.lastFrame) return job;
  return { ...job, firstFrame: await load(job.firstFrame), lastFrame: await load(job.lastFrame) };
}

export interface CachingRendererOptions {
  info: RendererInfo;
  /** Everything outside the job that changes the bytes (code version, mode, ffmpeg version, font). */
  version: string;
  /** Owned by the renderer: created here, removed by close(). */
  workDir: string;
  maxStoreBytes: number;
  now: () => number;
  log?: (line: string) => void;
  produce: Produce;
}

export async function createCachingRenderer(options: CachingRendererOptions): Promise<Renderer> {
  const tmpRoot = join(options.workDir, 'tmp');
  const storeDir = join(options.workDir, 'files');
  await Promise.all([mkdir(tmpRoot, { recursive: true }), mkdir(storeDir, { recursive: true })]);
  const store = createFileStore({ dir: storeDir, maxBytes: options.maxStoreBytes, now: options.now, log: options.log });
  const queue = createRenderQueue(options.info.maxParallel);
  const hasher = createCacheKeyHasher(options.version);
  const inflight = new Map<string, Promise<StoredFile>>();
  const abort = new AbortController();
  let renders = 0;
  let cacheHits = 0;
  let closed = false;

  const toStored = (entry: StoreEntry, cacheHit: boolean): StoredFile => ({
    key: entry.key,
    path: entry.path,
    bytes: entry.bytes,
    mimeType: entry.mimeType,
    cacheHit,
  });

  // The whole render, temp directory included, runs inside a queue slot: a waiting job is only its small description,
  // so a backlog costs neither memory for plans nor files on disk.
  const renderFresh = (key: string, job: RenderJob, retainUntil: number | undefined): Promise<StoredFile> =>
    queue.run(() => renderInSlot(key, job, retainUntil));

  const renderInSlot = async (key: string, job: RenderJob, retainUntil: number | undefined): Promise<StoredFile> => {
    if (closed) throw new Error('renderer is closed');
    const tmpDir = await mkdtemp(join(tmpRoot, 'r-'));
    try {
      const outPath = join(tmpDir, `out.${job.spec.format}`);
      await options.produce(await loadImages(job), { tmpDir, outPath, signal: abort.signal });
      const entry = await store.put(key, outPath, job.spec.mimeType, retainUntil);
      renders += 1;
      return toStored(entry, false);
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      throw new Error(
        `render of ${job.modelSlug} output ${job.index + 1}/${job.spec.count} (${job.generationId}) failed: ${reason}`,
        { cause: err },
      );
    } finally {
      await rm(tmpDir, { recursive: true, force: true });
    }
  };

  return {
    info: options.info,
    async render(job, retainUntil) {
      if (closed) throw new Error('renderer is closed');
      const key = hasher.keyFor(job);
      const stored = store.get(key);
      if (stored) {
        cacheHits += 1;
        if (retainUntil !== undefined) store.touch(key, retainUntil);
        return toStored(stored, true);
      }
      const pending = inflight.get(key);
      if (pending) {
        // Identical job already rendering: share its result instead of starting a second ffmpeg.
        cacheHits += 1;
        const shared = await pending;
        if (retainUntil !== undefined) store.touch(key, retainUntil);
        return { ...shared, cacheHit: true };
      }
      const fresh = renderFresh(key, job, retainUntil);
      inflight.set(key, fresh);
      const forget = (): void => void inflight.delete(key);
      fresh.then(forget, forget);
      return fresh;
    },
    get(key) {
      const entry = store.get(key);
      return entry ? toStored(entry, false) : undefined;
    },
    touch: (key, expiresAt) => store.touch(key, expiresAt),
    stats() {
      const q = queue.stats();
      const s = store.stats();
      return { files: s.files, bytes: s.bytes, renders, cacheHits, ...q, evictions: s.evictions };
    },
    async clear() {
      await store.clear();
      renders = 0;
      cacheHits = 0;
      queue.resetPeak();
    },
    async close() {
      if (closed) return;
      closed = true;
      abort.abort();
      queue.rejectWaiting(new Error('renderer closed'));
      await Promise.allSettled([...inflight.values()]);
      await rm(options.workDir, { recursive: true, force: true });
    },
  };
}
