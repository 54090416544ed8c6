// The content address of an output: a hash of everything that decides its bytes, never the generation id.
import { createHash } from 'node:crypto';
import type { ReferenceImage, RenderJob } from '../renderer.js';

export interface CacheKeyHasher {
  /** Hex sha256 of the job's output-determining inputs plus the renderer's own version string. */
  keyFor(job: RenderJob): string;
}

/** JSON with sorted object keys, so { a, b } and { b, a } hash alike. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
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
      const material = canonical({
        v: rendererVersion,
        kind: job.kind,
        format: job.spec.format,
        model: job.modelSlug,
        spec: job.spec,
        prompt: job.prompt,
        params: job.params,
        index: job.index,
        identity: job.identityLabel,
        first: imageDigest(job.firstFrame),
        last: imageDigest(job.lastFrame),
      });
      return createHash('sha256').update(material).digest('hex');
    },
  };
}
