// Adapts the renderer to the lifecycle: one generation in, its output files out (one render per output index).
import type { Catalogue } from '../domain/catalogue.js';
import type { Generation, OutputFile } from '../domain/generation.js';
import type { RenderPort } from '../domain/lifecycle.js';
import { mediaSpecFor } from '../domain/media-spec.js';
import type { Upload, UploadStore } from '../domain/uploads.js';
import type { HostCrypto } from '../infra/host-crypto.js';
import type { MediaSpec } from '../infra/media-spec.js';
import type { AnyRenderer, ReferenceImage, RenderJob } from '../infra/renderer.js';

export interface RenderPortDeps {
  renderer: () => Promise<AnyRenderer>;
  /** The renderer once it has started, for the lookups that must not wait. */
  currentRenderer: () => AnyRenderer | undefined;
  catalogue: Catalogue;
  uploads: UploadStore;
  /** The bytes of an upload, from the upload blob store. */
  uploadBytes: (id: string) => Promise<Uint8Array>;
  /** `request` draws a fingerprint of the inputs instead of the generation id, so identical requests share renders. */
  outputLabel: 'generation' | 'request';
  /** The host's SHA-256, for that fingerprint. */
  sha256Hex: HostCrypto['sha256Hex'];
  /** Until when a fresh file must survive eviction: its first signed URL is handed out only when the client polls. */
  retainUntil: () => number;
  log?: (line: string) => void;
  /** Distinct lost files rendering again or queued at once (output-file-source.ts); default RESTORES_WAITING_CAP. */
  maxRestoresWaiting?: number;
}

/** Read from disk only when the render gets its slot, so queued jobs hold no image bytes. */
const image = (read: (id: string) => Promise<Uint8Array>, upload: Upload | undefined): ReferenceImage | undefined =>
  upload && {
    read: () => read(upload.id),
    sha256: upload.sha256,
    format: upload.format,
    width: upload.width,
    height: upload.height,
  };

function fingerprint(sha256Hex: HostCrypto['sha256Hex'], g: Generation, first?: Upload, last?: Upload): string {
  const hash = sha256Hex(
    JSON.stringify([g.modelSlug, g.prompt, g.resolvedParams, first?.sha256 ?? null, last?.sha256 ?? null]),
  );
  return `req ${hash.slice(0, 12)}`;
}

/** The render of every output of a generation, described from the generation alone (so it can be made again). */
export function renderJobs(
  deps: RenderPortDeps,
  g: Generation,
): { spec: MediaSpec; jobFor: (index: number) => RenderJob } {
  const model = deps.catalogue.get(g.modelSlug);
  if (!model) throw new Error(`model ${g.modelSlug} left the catalogue`);
  const spec = mediaSpecFor(model, g.resolvedParams);
  const first = g.frames.first ? deps.uploads.get(g.frames.first) : undefined;
  const last = g.frames.last ? deps.uploads.get(g.frames.last) : undefined;
  const identityLabel = deps.outputLabel === 'generation' ? g.id : fingerprint(deps.sha256Hex, g, first, last);
  const jobFor = (index: number): RenderJob => ({
    generationId: g.id,
    identityLabel,
    modelSlug: g.modelSlug,
    kind: g.kind,
    prompt: g.prompt,
    params: g.resolvedParams,
    spec,
    index,
    firstFrame: image(deps.uploadBytes, first),
    lastFrame: image(deps.uploadBytes, last),
  });
  return { spec, jobFor };
}

export function createRenderPort(deps: RenderPortDeps): RenderPort {
  return async (g) => {
    const renderer = await deps.renderer();
    const { spec, jobFor } = renderJobs(deps, g);
    const files = await Promise.all(
      Array.from({ length: spec.count }, (_, index) => renderer.render(jobFor(index), deps.retainUntil())),
    );
    // Again now: a render that waited in the queue was stored with the retention of its submission time.
    for (const file of files) renderer.touch(file.key, deps.retainUntil());
    return files.map(
      (file, index): OutputFile => ({
        index,
        fileKey: file.key,
        mimeType: file.mimeType,
        format: spec.format,
        bytes: file.bytes,
        ...(spec.width !== undefined ? { width: spec.width, height: spec.height } : {}),
        ...(spec.durationSeconds !== undefined ? { durationSeconds: spec.durationSeconds } : {}),
      }),
    );
  };
}
