// What decides an output's bytes, as one canonical string: each host hashes it into the render key (node:crypto, WebCrypto).
import type { RenderJob } from './renderer.js';

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

/** Reference images enter as "format:sha256", computed by the host (synchronously in Node, by WebCrypto in a browser). */
export interface ImageDigests {
  first?: string;
  last?: string;
}

/**
 * Everything of the job that changes the bytes, never the generation id; `rendererVersion` covers what is outside the
 * job (renderer code version, mode, encoder, font).
 */
export function renderKeyMaterial(job: RenderJob, rendererVersion: string, images: ImageDigests): string {
  return canonical({
    v: rendererVersion,
    kind: job.kind,
    format: job.spec.format,
    model: job.modelSlug,
    spec: job.spec,
    prompt: job.prompt,
    params: job.params,
    index: job.index,
    identity: job.identityLabel,
    first: images.first,
    last: images.last,
  });
}
