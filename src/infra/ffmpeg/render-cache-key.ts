// The content address of an output: a hash of everything that decides its bytes, never the generation id.
import { createHash } from 'node:crypto';
import { renderKeyMaterial } from '../render-key-material.js';
import type { ReferenceImage, RenderJob } from '../renderer.js';

export interface CacheKeyHasher {
  /** Hex sha256 of the job's output-determining inputs plus the renderer's own version string. */
  keyFor(job: RenderJob): string;
}

/**
 * `rendererVersion` covers what is outside the job: renderer code version, mode, ffmpeg version, font.
 * Image hashes are memoised per Buffer (per hasher instance), so a repeated job with the same uploaded
 * bytes does not re-hash megabytes and a cache hit stays fast.
 */
export function createCacheKeyHasher(rendererVersion: string): CacheKeyHasher {
  const imageHashes = new WeakMap<Uint8Array, string>();
  const imageDigest = (image: ReferenceImage | undefined): string | undefined => {
    if (!image) return undefined;
    if (image.sha256) return `${image.format}:${image.sha256}`;
    const bytes = image.bytes ?? Buffer.alloc(0);
    let digest = imageHashes.get(bytes);
    if (!digest) {
      digest = createHash('sha256').update(bytes).digest('hex');
      imageHashes.set(bytes, digest);
    }
    return `${image.format}:${digest}`;
  };
  return {
    keyFor(job) {
      const images = { first: imageDigest(job.firstFrame), last: imageDigest(job.lastFrame) };
      const material = renderKeyMaterial(job, rendererVersion, images);
      return createHash('sha256').update(material).digest('hex');
    },
  };
}
