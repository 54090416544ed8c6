// Adapts the renderer to the service: a generation's output files rendered, and a lost one rendered again on request.
import { createHash } from 'node:crypto';
import type { Catalogue } from '../domain/catalogue.js';
import { DomainError } from '../domain/errors.js';
import type { Generation, OutputFile } from '../domain/generation.js';
import type { RenderPort } from '../domain/lifecycle.js';
import { mediaSpecFor } from '../domain/media-spec.js';
import type { OutputFileSource } from '../domain/output-file-source.js';
import type { Upload, UploadStore } from '../domain/uploads.js';
import type { MediaSpec } from '../infra/media-spec.js';
import type { ReferenceImage, Renderer, RenderJob } from '../infra/renderer.js';

export interface RenderPortDeps {
  renderer: () => Promise<Renderer>;
  /** The renderer once it has started, for the lookups that must not wait. */
  currentRenderer: () => Renderer | undefined;
  catalogue: Catalogue;
  uploads: UploadStore;
  /** The bytes of an upload, from the upload blob store. */
  uploadBytes: (id: string) => Promise<Uint8Array>;
  /** `request` draws a fingerprint of the inputs instead of the generation id, so identical requests share renders. */
  outputLabel: 'generation' | 'request';
  /** Until when a fresh file must survive eviction: its first signed URL is handed out only when the client polls. */
  retainUntil: () => number;
  log?: (line: string) => void;
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

function fingerprint(g: Generation, first?: Upload, last?: Upload): string {
  const hash = createHash('sha256').update(
    JSON.stringify([g.modelSlug, g.prompt, g.resolvedParams, first?.sha256 ?? null, last?.sha256 ?? null]),
  );
  return `req ${hash.digest('hex').slice(0, 12)}`;
}

/** The render of every output of a generation, described from the generation alone (so it can be made again). */
function renderJobs(deps: RenderPortDeps, g: Generation): { spec: MediaSpec; jobFor: (index: number) => RenderJob } {
  const model = deps.catalogue.get(g.modelSlug);
  if (!model) throw new Error(`model ${g.modelSlug} left the catalogue`);
  const spec = mediaSpecFor(model, g.resolvedParams);
  const first = g.frames.first ? deps.uploads.get(g.frames.first) : undefined;
  const last = g.frames.last ? deps.uploads.get(g.frames.last) : undefined;
  const identityLabel = deps.outputLabel === 'generation' ? g.id : fingerprint(g, first, last);
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

const IMAGE_GONE = 'a reference image it was made from is no longer stored';

/** A render from the generation's inputs would not draw the same pixels: a frame's upload or the model is gone. */
function lostInputs(deps: RenderPortDeps, g: Generation): string | undefined {
  if (!deps.catalogue.get(g.modelSlug)) return `its model ${g.modelSlug} is no longer in the catalogue`;
  const frames = [g.frames.first, g.frames.last].filter((id): id is string => id !== undefined);
  if (frames.some((id) => !deps.uploads.get(id))) return IMAGE_GONE;
  return undefined;
}

/** An upload's bytes missing from disk (an import without them, a deleted file): no retry will bring them back. */
class UploadBytesGone extends Error {}

const isUploadBytesGone = (error: unknown): boolean =>
  error instanceof UploadBytesGone ||
  (error instanceof Error && error.cause !== undefined && isUploadBytesGone(error.cause));

const goneForGood = (lost: string) =>
  new DomainError(
    'output_not_found',
    `The output file is no longer stored and cannot be rendered again: ${lost}. Submit the generation again.`,
  );

/**
 * Output files by their store key, rendered again from the generation when the store lost them. The job is the one
 * the first render ran, so its content key, and so its pixels, are the same; the renderer shares one render among
 * concurrent requests for it and runs it in its bounded queue.
 */
export function createOutputFileSource(deps: RenderPortDeps): OutputFileSource {
  const restoring: RenderPortDeps = {
    ...deps,
    uploadBytes: (id) =>
      deps.uploadBytes(id).catch((error: NodeJS.ErrnoException) => {
        throw error.code === 'ENOENT' ? new UploadBytesGone(`upload ${id} has no bytes on disk`) : error;
      }),
  };
  return {
    kept: (output) => deps.currentRenderer()?.get(output.fileKey),
    async restore(g, output, retainUntil) {
      const lost = lostInputs(deps, g);
      if (lost) throw goneForGood(lost);
      const renderer = await deps.renderer();
      try {
        const file = await renderer.render(renderJobs(restoring, g).jobFor(output.index), retainUntil);
        // Once per render: the requests that shared it, or found it stored, say nothing.
        if (!file.cacheHit)
          deps.log?.(
            file.key === output.fileKey
              ? `output ${output.index} of ${g.id} was no longer stored: rendered again`
              : `output ${output.index} of ${g.id} was no longer stored: rendered again by a different renderer (mode, ffmpeg or font changed), so its bytes may differ from the first render`,
          );
        return file;
      } catch (error) {
        deps.log?.(`rendering output ${output.index} of ${g.id} again failed: ${(error as Error).message}`);
        throw isUploadBytesGone(error) ? goneForGood(IMAGE_GONE) : error;
      }
    },
  };
}
